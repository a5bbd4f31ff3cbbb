import GraphEvents

/// Imports planned events into a calendar without duplicates: creates in `$batch`es, then each
/// series' overrides and cancellations, recording progress in the journal so a rerun resumes.
public struct CalendarImporter: Sendable {
    public var client: GraphClient
    /// A calendar id; nil for the default calendar.
    public var calendarID: String?
    public var retry: RetryPolicy
    /// Where progress is recorded and resumed from; nil for none (transactionIds still prevent duplicates).
    public var journalPath: String?
    /// Told after each batch or series, with items done so far and in all.
    public var progress: @Sendable (_ done: Int, _ total: Int) -> Void

    public init(
        client: GraphClient, calendarID: String? = nil, retry: RetryPolicy = RetryPolicy(), journalPath: String? = nil,
        progress: @escaping @Sendable (_ done: Int, _ total: Int) -> Void = { _, _ in }
    ) {
        self.client = client
        self.calendarID = calendarID
        self.retry = retry
        self.journalPath = journalPath
        self.progress = progress
    }

    /// `/me/events`, or the given calendar's events.
    public var eventsPath: String {
        calendarID.map { "/me/calendars/\($0.urlComponentEncoded)/events" } ?? "/me/events"
    }

    /// The `$batch` bodies a run would POST for the plan's creates, for `--dry-run`.
    public func batchBodies(for plan: ImportPlan) -> [JSONValue] {
        let creator = BatchCreator(client: client, eventsPath: eventsPath, retry: retry, journal: nil)
        return stride(from: 0, to: plan.creates.count, by: BatchCreator.maximumBatchSize).map { start in
            creator.batchBody(
                Array(plan.creates[start..<min(start + BatchCreator.maximumBatchSize, plan.creates.count)]))
        }
    }

    /// Runs the plan and reports every item's outcome. Only a journal that cannot be opened throws.
    public func run(_ plan: ImportPlan) async throws(GraphServiceError) -> ImportReport {
        let earlier = journalPath.map(ImportJournal.load(path:)) ?? [:]
        let journal = try journalPath.map { path throws(GraphServiceError) in try ImportJournal(path: path) }
        var results: [String: ItemResult] = [:]
        for (key, record) in earlier where record.outcome != "failed" {
            results[key] = ItemResult(outcome: .alreadyPresent, id: record.id)
        }
        let total = plan.items.count
        let creator = BatchCreator(client: client, eventsPath: eventsPath, retry: retry, journal: journal)
        let toCreate = plan.creates.filter { results[$0.key] == nil }
        let batches = stride(from: 0, to: toCreate.count, by: BatchCreator.maximumBatchSize).map {
            Array(toCreate[$0..<min($0 + BatchCreator.maximumBatchSize, toCreate.count)])
        }
        // Every batch is started at once; the client's gate keeps four requests in flight.
        await withTaskGroup(of: [String: ItemResult].self) { group in
            for batch in batches { group.addTask { await creator.create(batch) } }
            for await batchResults in group {
                results.merge(batchResults) { $1 }
                progress(plan.items.count { results[$0.key] != nil }, total)
            }
        }
        let updater = SeriesUpdater(client: client, journal: journal)
        var seriesOrder: [String] = []
        var changesBySeries: [String: [PlannedItem]] = [:]
        for change in plan.changes where results[change.key] == nil {
            guard let masterKey = change.masterKey else { continue }
            if changesBySeries[masterKey] == nil { seriesOrder.append(masterKey) }
            changesBySeries[masterKey, default: []].append(change)
        }
        let masters = results
        await withTaskGroup(of: [String: ItemResult].self) { group in
            for masterKey in seriesOrder {
                let changes = changesBySeries[masterKey] ?? []
                guard let masterID = masters[masterKey]?.id else {
                    let reason: String
                    switch masters[masterKey]?.outcome {
                    case nil, .failed?: reason = "its series master was not created"
                    default: reason = "the series master's id is unknown"
                    }
                    results.merge(changes.map { ($0.key, ItemResult(outcome: .failed(reason: reason))) }) { $1 }
                    continue
                }
                group.addTask { await updater.apply(changes, masterID: masterID) }
            }
            for await seriesResults in group {
                results.merge(seriesResults) { $1 }
                progress(plan.items.count { results[$0.key] != nil }, total)
            }
        }
        return ImportReport(
            results: plan.items.map { item in
                ImportResult(
                    key: item.key, label: item.label,
                    outcome: results[item.key]?.outcome ?? .failed(reason: "not attempted"))
            })
    }
}
