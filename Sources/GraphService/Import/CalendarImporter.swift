import Foundation
import GraphEvents

/// What an import may do beyond creating: how it treats participants, whether it deletes what
/// left the input, and whether it overwrites events edited in the calendar.
public struct ImportOptions: Sendable, Hashable {
    /// Whether Graph is given the attendees (and so mails them) and how addresses are rewritten.
    public var participants: ParticipantPolicy
    /// Delete the events that carry a source's identity but are gone from its input.
    public var prune: Bool
    /// Overwrite events edited in the calendar since the last import, and newer versions.
    public var force: Bool

    /// Options inviting no one, deleting nothing that left the input and leaving edited events alone,
    /// unless told otherwise.
    public init(participants: ParticipantPolicy = ParticipantPolicy(), prune: Bool = false, force: Bool = false) {
        self.participants = participants
        self.prune = prune
        self.force = force
    }
}

/// Imports sources into a calendar as an upsert: finds what each source already has there (by
/// calport's extended properties), creates what is new in `$batch`es, PATCHes what changed,
/// leaves what is unchanged, deletes what is cancelled (or, with `prune`, gone), then applies each
/// series' overrides and cancellations. The journal makes a rerun faster; correctness does not
/// depend on it.
public struct CalendarImporter: Sendable {
    /// The client the import's requests go through, signed in to the mailbox written.
    public var client: GraphClient
    /// A calendar id; nil for the default calendar.
    public var calendarID: String?
    /// How often and how long to wait when Graph throttles single items of a `$batch` (a 429, 503 or
    /// 504 for one item inside a 200 answer): the client's own policy retries whole requests only.
    public var retry: RetryPolicy
    /// Where progress is recorded and resumed from, locked while the importer holds it; nil for none.
    public var journal: ImportJournal?
    /// What the import may do beyond creating: invite, prune, overwrite edits.
    public var options: ImportOptions
    /// Told after each step, with items done so far and in all.
    public var progress: @Sendable (_ done: Int, _ total: Int) -> Void

    /// An importer writing to calendar `calendarID` (nil: the default one) through `client`, with
    /// `options`, recording progress in `journal` (nil: none) and telling `progress` after each step.
    public init(
        client: GraphClient, calendarID: String? = nil, retry: RetryPolicy = RetryPolicy(),
        journal: ImportJournal? = nil,
        options: ImportOptions = ImportOptions(),
        progress: @escaping @Sendable (_ done: Int, _ total: Int) -> Void = { _, _ in }
    ) {
        self.client = client
        self.calendarID = calendarID
        self.retry = retry
        self.journal = journal
        self.options = options
        self.progress = progress
    }

    /// `{mailbox}/events`, or the given calendar's events.
    public var eventsPath: String {
        client.endpoints.mailboxPath
            + (calendarID.map { "/calendars/\($0.urlComponentEncoded)/events" } ?? "/events")
    }

    /// What a run will do, decided before anything is sent.
    public struct Preparation: Sendable {
        var steps: [(unit: ImportUnit, step: ImportStep)]
        /// The attendees of the calendar's event each step changes, by unit key.
        var recipients: [String: [String]] = [:]
        var prunes: [(source: String, target: TargetEvent)]
        var conflicts: [ImportResult]
        var mailboxDomain: String?

        init(mailboxDomain: String?) {
            steps = []
            prunes = []
            conflicts = []
            self.mailboxDomain = mailboxDomain
        }

        /// What failed before anything was sent (a UID met twice, an edited event left alone), with reasons.
        public var refusals: [(label: String, reason: String)] {
            let conflicting = conflicts.compactMap { result -> (label: String, reason: String)? in
                if case .failed(let reason) = result.outcome { return (result.label, reason) }
                return nil
            }
            return conflicting
                + steps.compactMap { entry -> (label: String, reason: String)? in
                    if case .failed(let reason) = entry.step { return (entry.unit.item.label, reason) }
                    return nil
                }
        }

        /// The POSTs that create events, in the order decided.
        public var creates: [PlannedItem] {
            steps.compactMap { entry -> PlannedItem? in
                guard case .create = entry.step else { return nil }
                return PlannedItem(key: entry.unit.key, label: entry.unit.item.label, action: .create(entry.unit.body))
            }
        }

        /// Adds another preparation's decisions after these.
        mutating func append(_ other: Preparation) {
            steps += other.steps
            recipients.merge(other.recipients) { $1 }
            prunes += other.prunes
            conflicts += other.conflicts
        }

        /// The creates, in `$batch`es of at most 20.
        var createBatches: [[PlannedItem]] {
            let creates = self.creates
            return stride(from: 0, to: creates.count, by: BatchCreator.maximumBatchSize).map {
                Array(creates[$0..<min($0 + BatchCreator.maximumBatchSize, creates.count)])
            }
        }

        /// The mail Graph will send for these steps: it mails the attendees of every meeting the
        /// owner creates, changes or deletes (Create event, Update event, Delete event).
        public var mail: MailSummary {
            var mail = MailSummary()
            mail.mailboxDomain = mailboxDomain
            for (unit, step) in steps { mail.add(messages(for: unit, step)) }
            for (_, target) in prunes { mail.cancel(target.attendees) }
            return mail
        }

        /// The messages one step sends. `own` are the attendees import gives Graph (only with
        /// `invite`), `existing` those of the event already in the calendar. A series' attendees are
        /// added by its finishing PATCH, after its occurrence changes, which so mail no one new.
        func messages(for unit: ImportUnit, _ step: ImportStep) -> MailSummary {
            var mail = MailSummary()
            let own = ParticipantPolicy.addresses(unit.deferredAttendees ?? unit.body["attendees"])
            let existing = recipients[unit.key] ?? []
            switch step {
            case .create: mail.invite(own)
            case .resume:
                mail.update(existing, times: unit.changes.count)
                if unit.deferredAttendees != nil { mail.invite(own) } else { mail.update(existing, times: 1) }
            case .update:
                guard unit.needsFinishing else {
                    mail.update(unit.body["attendees"] == nil ? existing : own, times: 1)
                    break
                }
                mail.update(existing, times: 1 + unit.changes.count)
                mail.update(unit.deferredAttendees != nil ? own : existing, times: 1)
            case .delete: mail.cancel(existing)
            case .unchanged, .failed: break
            }
            return mail
        }
    }

    /// What the calendar holds of some sources, read before anything is decided: each source's
    /// events by UID, and the mailbox's domain (for counting invitations; read only with `invite`).
    public struct Snapshot: Sendable {
        var targets: [String: [String: TargetEvent]] = [:]
        /// The mailbox's e-mail domain, lower-cased (`example.com`, from `/me`'s `mail` or
        /// `userPrincipalName`), to count invitations going outside it; read only with `invite`, else nil.
        public internal(set) var mailboxDomain: String?
        /// UIDs decided so far, by source, for pruning and for telling a UID met twice.
        var seen: [String: Set<String>] = [:]

        /// A calendar taken to hold nothing of any source (a dry run that signs in to nothing).
        public init() {}
    }

    /// Reads what the calendar holds of the named sources. With `lookUp` false (a dry run without
    /// sign-in), the calendar is taken to hold nothing of them. A listing Graph refuses (a 400 to
    /// the filter, say) throws, with Graph's message, before anything is created.
    public func snapshot(of sources: [String], lookUp: Bool = true) async throws(GraphServiceError) -> Snapshot {
        var snapshot = Snapshot()
        guard lookUp else { return snapshot }
        if options.participants.attendees == .invite {
            // A userPrincipalName names its domain; reading another user (an id) needs User.Read.All.
            var address = client.endpoints.user.flatMap { $0.contains("@") ? $0 : nil }
            if address == nil {
                let me = try await client.json("GET", client.endpoints.mailbox(""))
                address = me["mail"]?.stringValue ?? me["userPrincipalName"]?.stringValue
            }
            snapshot.mailboxDomain = address?.split(separator: "@").last.map { $0.lowercased() }
        }
        let listing = SourceListing(client: client, eventsPath: eventsPath)
        var names: [String] = []
        for name in sources where !names.contains(name) { names.append(name) }
        for name in names { snapshot.targets[name] = try await listing.events(of: name) }
        return snapshot
    }

    /// Decides the step of each event of `source` against `snapshot`. `source` may be one part of
    /// a larger one (a dry run streams series by series): a UID already decided for the source is
    /// then a second event with that UID, reported, and the first stays the one imported.
    public func decide(_ source: ImportSource, in snapshot: inout Snapshot) -> Preparation {
        var preparation = Preparation(mailboxDomain: snapshot.mailboxDomain)
        let (units, conflicts) = ImportUnit.units(
            of: source, calendar: calendarID ?? "default", policy: options.participants)
        preparation.conflicts = conflicts
        let targets = snapshot.targets[source.name] ?? [:]
        for unit in units {
            guard snapshot.seen[source.name, default: []].insert(unit.uid).inserted else {
                preparation.conflicts.append(
                    ImportResult(
                        key: unit.key, label: unit.item.label,
                        outcome: .failed(
                            reason: "another event in \(source.name) has the UID \(unit.uid); the first is imported")))
                continue
            }
            preparation.steps.append((unit, ImportStep.decide(unit, target: targets[unit.uid], force: options.force)))
            if let attendees = targets[unit.uid]?.attendees, !attendees.isEmpty {
                preparation.recipients[unit.key] = attendees
            }
        }
        return preparation
    }

    /// With `prune`, the events of the snapshot's sources that no decided event names.
    public func prunes(in snapshot: Snapshot) -> Preparation {
        var preparation = Preparation(mailboxDomain: snapshot.mailboxDomain)
        guard options.prune else { return preparation }
        for (source, targets) in snapshot.targets.sorted(by: { $0.key < $1.key }) {
            let seen = snapshot.seen[source] ?? []
            for (uid, target) in targets.sorted(by: { $0.key < $1.key }) where !seen.contains(uid) {
                preparation.prunes.append((source, target))
            }
        }
        return preparation
    }

    /// Decides every item's step: `snapshot`, `decide` for each source, then `prunes`.
    public func prepare(_ sources: [ImportSource], lookUp: Bool = true) async throws(GraphServiceError) -> Preparation {
        var snapshot = try await snapshot(of: sources.map(\.name), lookUp: lookUp)
        var preparation = Preparation(mailboxDomain: snapshot.mailboxDomain)
        for source in sources { preparation.append(decide(source, in: &snapshot)) }
        preparation.append(prunes(in: snapshot))
        return preparation
    }

    /// The requests a run would send, as JSON, for `--dry-run`: the create batches, then each
    /// event's other requests, then the prunes.
    public func requests(for preparation: Preparation) -> JSONValue {
        .array(preparation.createBatches.map(batchRequest) + laterRequests(for: preparation))
    }

    /// The `$batch` request that creates `batch`.
    public func batchRequest(_ batch: [PlannedItem]) -> JSONValue {
        let creator = BatchCreator(client: client, eventsPath: eventsPath, retry: retry, journal: nil)
        return ["method": "POST", "url": "/$batch", "body": creator.batchBody(batch)]
    }

    /// The requests after the creates: PATCHes and DELETEs of events, series' changes, prunes.
    public func laterRequests(for preparation: Preparation) -> [JSONValue] {
        var requests: [JSONValue] = []
        func event(_ id: String) -> JSONValue { .string("\(client.endpoints.mailboxPath)/events/\(id)") }
        for (unit, step) in preparation.steps {
            var seriesID: String?
            switch step {
            case .create: seriesID = "{\(unit.uid)}"
            case .update(let id):
                requests.append(["method": "PATCH", "url": event(id), "body": .object(unit.updateBody)])
                seriesID = id
            case .resume(let id): seriesID = id
            case .delete(let id): requests.append(["method": "DELETE", "url": event(id)])
            case .unchanged, .failed: break
            }
            guard let seriesID, unit.needsFinishing else { continue }
            requests += AttachmentUploader.plannedRequests(
                for: unit.files.map(\.file), eventURL: "\(client.endpoints.mailboxPath)/events/\(seriesID)")
            for change in unit.changes {
                let occurrence =
                    "\(client.endpoints.mailboxPath)/events/{occurrence of \(seriesID) at \(change.originalStart)}"
                switch change.action {
                case .update(_, _, let body):
                    requests.append(["method": "PATCH", "url": .string(occurrence), "body": .object(body)])
                    requests += AttachmentUploader.plannedRequests(
                        for: (unit.changeFiles[change.key] ?? []).map(\.file), eventURL: occurrence)
                case .cancel: requests.append(["method": "DELETE", "url": .string(occurrence)])
                case .create: break
                }
            }
            requests.append(["method": "PATCH", "url": event(seriesID), "body": .object(unit.finishingBody)])
        }
        for (_, target) in preparation.prunes { requests.append(["method": "DELETE", "url": event(target.id)]) }
        return requests
    }

    /// Prepares and runs. Only a journal that cannot be written, or a listing Graph refuses, throws.
    public func run(_ sources: [ImportSource]) async throws(GraphServiceError) -> ImportReport {
        try await run(try await prepare(sources))
    }

    /// Runs what `prepare` decided and reports every item's outcome.
    public func run(_ preparation: Preparation) async throws(GraphServiceError) -> ImportReport {
        let earlier = journal?.earlier ?? [:]
        let writer = EventChanger(client: client, eventsPath: eventsPath, journal: journal)
        let total = preparation.steps.reduce(preparation.prunes.count) { $0 + 1 + $1.unit.changes.count }
        let tally = Tally(total: total, progress: progress)

        // 1. Creates, in batches; every batch is started at once, the client's gate keeps four in flight.
        let creator = BatchCreator(client: client, eventsPath: eventsPath, retry: retry, journal: journal)
        let batches = preparation.createBatches
        let created = await withTaskGroup(of: [String: ItemResult].self) { group in
            for batch in batches { group.addTask { await creator.create(batch) } }
            var all: [String: ItemResult] = [:]
            for await results in group {
                all.merge(results) { $1 }
                tally.advance(results.count)
            }
            return all
        }

        // 2. Updates, deletions and prunes, then each series' changes and its finishing PATCH.
        let outcomes = await withTaskGroup(of: [String: ImportOutcome].self) { group in
            for (unit, step) in preparation.steps {
                let creation = created[unit.key]
                group.addTask {
                    let outcomes = await writer.apply(step, to: unit, created: creation, done: earlier)
                    // A create was counted with its batch.
                    tally.advance((step == .create ? 0 : 1) + unit.changes.count)
                    return outcomes
                }
            }
            for (_, target) in preparation.prunes {
                group.addTask {
                    let outcome = await writer.delete(target.id, key: "prune/" + target.id)
                    tally.advance(1)
                    return ["prune/" + target.id: outcome]
                }
            }
            return await group.reduce(into: [String: ImportOutcome]()) { $0.merge($1) { $1 } }
        }

        var results = preparation.conflicts
        var mail = MailSummary()
        mail.mailboxDomain = preparation.mailboxDomain
        for (unit, step) in preparation.steps {
            let outcome = outcomes[unit.key] ?? .failed(reason: "not attempted")
            results.append(ImportResult(key: unit.key, label: unit.item.label, outcome: outcome))
            // A file that could not be attached is reported on its own; the event is imported without it.
            for (key, file, label) in unit.allFiles {
                if let failure = outcomes[key], failure.isFailure {
                    results.append(ImportResult(key: key, label: "\(label): \(file.name)", outcome: failure))
                }
            }
            // A deleted series goes with its occurrences; otherwise each change shares its series' outcome.
            if case .delete = step { continue }
            for change in unit.changes {
                results.append(
                    ImportResult(
                        key: change.key, label: change.label, outcome: outcomes[change.key] ?? outcome))
            }
            // The mail went if the step did, a series' invitations with its finishing PATCH.
            if !(outcome.isFailure || (unit.needsFinishing && outcomes[unit.key + "/finished"] == nil)) {
                mail.add(preparation.messages(for: unit, step))
            }
        }
        for (_, target) in preparation.prunes where outcomes["prune/" + target.id] == .deleted {
            mail.cancel(target.attendees)
        }
        for (source, target) in preparation.prunes {
            results.append(
                ImportResult(
                    key: "prune/" + target.id, label: "\(target.uid) (gone from \(source))",
                    outcome: outcomes["prune/" + target.id] ?? .failed(reason: "not attempted")))
        }
        return ImportReport(results: results, mail: mail)
    }
}

/// Counts items done and tells the progress callback; shared by concurrent tasks.
private final class Tally: @unchecked Sendable {
    private let lock = NSLock()
    private var done = 0
    private let total: Int
    private let progress: @Sendable (_ done: Int, _ total: Int) -> Void

    init(total: Int, progress: @escaping @Sendable (_ done: Int, _ total: Int) -> Void) {
        self.total = total
        self.progress = progress
    }

    func advance(_ count: Int) {
        let now = lock.withLock {
            done += count
            return done
        }
        progress(min(now, total), total)
    }
}
