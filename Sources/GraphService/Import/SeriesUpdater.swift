import Foundation
import GraphEvents

/// Applies a series' overrides and cancellations once its master exists: looks up the master's
/// instances, PATCHes the occurrence each override replaces and DELETEs each cancelled one. Both
/// are idempotent, so doing them again after a crash is harmless.
struct SeriesUpdater: Sendable {
    var client: GraphClient
    var journal: ImportJournal?

    /// The outcome of each change, by key.
    func apply(_ changes: [PlannedItem], masterID: String) async -> [String: ItemResult] {
        var results: [String: ItemResult] = [:]
        let instances: [JSONValue]
        do {
            try await journal?.recordIntent("GET instances", keys: changes.map(\.key))
            instances = try await GraphPager(client: client).all(instancesURL(masterID: masterID, changes: changes))
        } catch {
            for change in changes { results[change.key] = ItemResult(outcome: .failed(reason: error.description)) }
            return results
        }
        var byOriginalStart: [String: JSONValue] = [:]
        for instance in instances {
            if let start = instance["originalStart"]?.stringValue { byOriginalStart[Self.instantKey(start)] = instance }
        }
        for change in changes {
            let result = await apply(change, instance: byOriginalStart[Self.instantKey(change.originalStart)])
            results[change.key] = result
            try? await journal?.recordOutcome(key: change.key, outcome: result.outcome, id: result.id)
        }
        return results
    }

    private func apply(_ change: PlannedItem, instance: JSONValue?) async -> ItemResult {
        let instanceID = instance?["id"]?.stringValue
        do {
            switch (change.action, instanceID) {
            case (.cancel, nil):
                // Not among the instances: cancelled already, by an earlier run.
                return ItemResult(outcome: .unchanged)
            case (.update(_, let originalStart, _), nil):
                return ItemResult(outcome: .failed(reason: "the series has no occurrence starting at \(originalStart)"))
            case (.cancel, let id?):
                try await journal?.recordIntent("DELETE instance", keys: [change.key])
                let response = try await client.send(
                    "DELETE", client.endpoints.mailbox("/events/\(id.urlComponentEncoded)"))
                if response.isSuccess || response.status == 404 { return ItemResult(outcome: .created, id: id) }
                return ItemResult(
                    outcome: .failed(
                        reason: GraphClient.error(
                            "DELETE \(client.endpoints.mailboxPath)/events/{id}", response.status, body: response.body
                        )
                        .description))
            case (.update(_, let originalStart, let body), let id?):
                try await journal?.recordIntent("PATCH instance", keys: [change.key])
                let response = try await client.send(
                    "PATCH", client.endpoints.mailbox("/events/\(id.urlComponentEncoded)"), body: .object(body))
                guard response.isSuccess else {
                    let error = GraphClient.error(
                        "PATCH \(client.endpoints.mailboxPath)/events/{id}", response.status, body: response.body)
                    guard case .http(_, _, "ErrorOccurrenceCrossingBoundary"?, _) = error else {
                        return ItemResult(outcome: .failed(reason: error.description))
                    }
                    // Outlook moves no occurrence onto or past a neighbouring one: say which.
                    return ItemResult(
                        outcome: .failed(
                            reason:
                                "series \(change.seriesUID ?? change.masterKey ?? "?"): the occurrence of \(originalStart.prefix(10)) (\(originalStart)) cannot be moved onto or past a neighbouring occurrence (ErrorOccurrenceCrossingBoundary); it was left unchanged"
                        ))
                }
                // Already an exception: an earlier run patched it, and patching again changed nothing.
                let earlier = instance?["type"]?.stringValue == "exception"
                return ItemResult(outcome: earlier ? .unchanged : .created, id: id)
            case (.create, _):
                return ItemResult(outcome: .failed(reason: "not a series change"))
            }
        } catch {
            return ItemResult(outcome: .failed(reason: error.description))
        }
    }

    /// `{mailbox}/events/{id}/instances` over the days of the changes' original and new starts, with two
    /// days' margin for zone offsets, so a moved occurrence is found wherever it now is.
    private func instancesURL(masterID: String, changes: [PlannedItem]) -> URL {
        var days: [String] = []
        for change in changes {
            days.append(String(change.originalStart.prefix(10)))
            if case .update(_, _, let body) = change.action, let start = body["start"]?["dateTime"]?.stringValue {
                days.append(String(start.prefix(10)))
            }
        }
        let parsed = days.compactMap(Self.dayFormatter.date(from:))
        let first = (parsed.min() ?? Date()).addingTimeInterval(-2 * 86_400)
        let last = (parsed.max() ?? Date()).addingTimeInterval(3 * 86_400)
        let query =
            "startDateTime=\(Self.dayFormatter.string(from: first))T00:00:00Z"
            + "&endDateTime=\(Self.dayFormatter.string(from: last))T00:00:00Z"
        return client.endpoints.mailbox("/events/\(masterID.urlComponentEncoded)/instances", query: query)
    }

    /// An instant in UTC, to the second, as Graph writes `originalStart` with or without fractions.
    static func instantKey(_ text: String) -> String { String(text.prefix(19)) }

    private static var dayFormatter: DateFormatter {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd"
        return formatter
    }
}

extension PlannedItem {
    /// The original start of the occurrence a change is about; empty for a create.
    var originalStart: String {
        switch action {
        case .update(_, let start, _), .cancel(_, let start): return start
        case .create: return ""
        }
    }

    /// The key of the series master a change belongs to; nil for a create.
    var masterKey: String? {
        switch action {
        case .update(let key, _, _), .cancel(let key, _): return key
        case .create: return nil
        }
    }
}
