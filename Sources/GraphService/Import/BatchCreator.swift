import GraphEvents

/// What became of one item, with the Graph id of the event it made.
struct ItemResult: Sendable, Hashable {
    var outcome: ImportOutcome
    var id: String?
}

/// Creates events with JSON `$batch` requests (at most 20 items each, as Graph allows), reading each
/// item's status: a batch answers 200 even when its items fail. Throttled or unavailable items
/// go again in a later round, after the longest `Retry-After` among them.
struct BatchCreator: Sendable {
    static let maximumBatchSize = 20
    /// How many items of a batch Graph runs at once (throttling limits, "Outlook service batching").
    static let parallelItems = 4

    var client: GraphClient
    /// `{mailbox}/events` or `{mailbox}/calendars/{id}/events`, relative to the Graph root as `$batch` wants.
    var eventsPath: String
    var retry: RetryPolicy
    var journal: ImportJournal?

    /// The `$batch` body that creates `items` (all `.create`).
    func batchBody(_ items: [PlannedItem]) -> JSONValue {
        let requests: [JSONValue] = items.enumerated().map { position, item in
            guard case .create(let body) = item.action else { return .null }
            return [
                "id": .string(String(position + 1)), "method": "POST", "url": .string(eventsPath),
                "headers": ["Content-Type": "application/json"], "body": .object(body),
            ]
        }
        return ["requests": .array(requests)]
    }

    /// The outcome of each item, by key. Never throws: a batch that cannot be sent fails its items.
    func create(_ items: [PlannedItem]) async -> [String: ItemResult] {
        var results: [String: ItemResult] = [:]
        var pending = items
        var round = 0
        while !pending.isEmpty {
            round += 1
            do {
                try await journal?.recordIntent("POST /$batch", keys: pending.map(\.key))
                // Graph runs a batch's items four at a time, each an operation on the mailbox.
                let answer = try await client.json(
                    "POST", client.endpoints.graph("/$batch"), body: batchBody(pending),
                    operations: min(pending.count, Self.parallelItems))
                let (done, again, wait) = read(answer, for: pending)
                for (key, result) in done {
                    results[key] = result
                    try await journal?.recordOutcome(key: key, outcome: result.outcome, id: result.id)
                }
                pending = again
                if !pending.isEmpty && round >= retry.maximumAttempts {
                    for item in pending {
                        results[item.key] = ItemResult(
                            outcome: .failed(reason: "still throttled after \(round) attempts"))
                    }
                    return results
                }
                if !pending.isEmpty {
                    try? await Task.sleep(for: .seconds(wait ?? retry.delay(afterAttempt: round, retryAfter: nil)))
                }
            } catch {
                for item in pending { results[item.key] = ItemResult(outcome: .failed(reason: error.description)) }
                return results
            }
        }
        return results
    }

    /// `item` with the transactionId that replaces one whose event is gone; nil if it has it already.
    static func renewed(_ item: PlannedItem) -> PlannedItem? {
        guard case .create(var body) = item.action else { return nil }
        let replacement = GraphTransactionID.make(uid: item.key + "\nrenewed")
        guard body["transactionId"]?.stringValue != replacement else { return nil }
        body["transactionId"] = .string(replacement)
        var renewed = item
        renewed.action = .create(body)
        return renewed
    }

    /// Finished items, items to send again, and how long to wait first (the longest `Retry-After`).
    private func read(_ answer: JSONValue, for items: [PlannedItem]) -> ([String: ItemResult], [PlannedItem], Double?) {
        var done: [String: ItemResult] = [:]
        var again: [PlannedItem] = []
        var wait: Double?
        var answered: Set<Int> = []
        for response in answer["responses"]?.arrayValue ?? [] {
            guard let id = response["id"]?.stringValue, let position = Int(id), items.indices.contains(position - 1),
                let status = response["status"]?.numberValue.map({ Int($0) })
            else { continue }
            answered.insert(position - 1)
            let item = items[position - 1]
            let body = response["body"]
            switch status {
            case 201: done[item.key] = ItemResult(outcome: .created, id: body?["id"]?.stringValue)
            // A repeated transactionId (a retry of a POST whose answer was lost) gives the event the
            // first POST made, whether Graph answers 201 or 200: this run made it either way.
            case 200: done[item.key] = ItemResult(outcome: .created, id: body?["id"]?.stringValue)
            case let status where retry.isRetryable(status: status):
                again.append(item)
                let header = response["headers"]?.objectValue?.members.first { $0.key.lowercased() == "retry-after" }?
                    .value
                let seconds = header?.stringValue.flatMap(RetryPolicy.seconds(retryAfter:)) ?? header?.numberValue
                if let seconds { wait = max(wait ?? 0, min(seconds, retry.maximumDelay)) }
            case 400 where body?["error"]?["code"]?.stringValue == "ErrorDuplicateTransactionId":
                // The transactionId names this content, and the event it made is not in the
                // calendar (the import looked): it was deleted since. A new transactionId, once.
                if let renewed = Self.renewed(item) {
                    again.append(renewed)
                } else {
                    let error = GraphClient.error("POST \(eventsPath)", status, json: body)
                    done[item.key] = ItemResult(outcome: .failed(reason: error.description))
                }
            default:
                let error = GraphClient.error("POST \(eventsPath)", status, json: body)
                done[item.key] = ItemResult(outcome: .failed(reason: error.description))
            }
        }
        // An item the answer leaves out has an unknown outcome: its transactionId makes resending safe.
        again += items.indices.filter { !answered.contains($0) }.map { items[$0] }
        return (done, again, wait)
    }
}
