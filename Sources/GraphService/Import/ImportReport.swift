import GraphEvents

/// What became of one planned item.
public enum ImportOutcome: Sendable, Hashable {
    /// Created by this run (for an override or cancellation: applied to a series this run created).
    case created
    /// Brought up to date by this run (for an override or cancellation: applied to a series it updated).
    case updated
    /// Already as the input has it: found with the same content, or done by an earlier run (journal).
    case unchanged
    /// Deleted by this run: cancelled in the input, or gone from it with `--prune`.
    case deleted
    /// Not done, with the reason: Graph's error, still throttled after the retries, a UID met twice,
    /// an event edited in the calendar (or newer there) left alone without `force`, or "not
    /// attempted" when the run stopped first.
    case failed(reason: String)

    var isFailure: Bool {
        if case .failed = self { return true }
        return false
    }
}

/// One planned item's outcome.
public struct ImportResult: Sendable, Hashable {
    /// The item's key: the `transactionId` of a create (from calendar, source, UID and content, so
    /// the same content gives the same key on a rerun), a series change's key, or `prune/` and the
    /// event's Graph id. The journal records outcomes by it.
    public var key: String
    /// What the report calls the item: the event's subject, or for a prune its UID and source.
    public var label: String
    /// What became of the item.
    public var outcome: ImportOutcome

    /// The `outcome` of the item `key`, reported as `label`.
    public init(key: String, label: String, outcome: ImportOutcome) {
        self.key = key
        self.label = label
        self.outcome = outcome
    }
}

/// The mail Graph sends because of an import: it mails each attendee of a meeting the owner
/// creates (an invitation), changes (an update) or deletes (a cancellation) — Create event, Update
/// event, Delete event. Only events with attendees mail anyone: by default import gives Graph none.
public struct MailSummary: Sendable, Hashable {
    /// One per attendee per event created.
    public var invitations = 0
    /// One per attendee per change of a meeting (a PATCH of it or of one of its occurrences).
    public var updates = 0
    /// One per attendee per meeting (or occurrence) deleted.
    public var cancellations = 0
    /// The different addresses mailed.
    public var addresses: Set<String> = []
    /// The mailbox's domain, when known (it is read from `/me`).
    public var mailboxDomain: String?

    /// A summary of no messages, for an unknown mailbox domain.
    public init() {}

    /// How many of `addresses` are outside the mailbox's domain; nil when the domain is unknown.
    public var outsideDomain: Int? {
        mailboxDomain.map { domain in addresses.count { !$0.hasSuffix("@" + domain.lowercased()) } }
    }

    /// Every message.
    public var messages: Int { invitations + updates + cancellations }

    /// Adds another summary's messages (a dry run sums them series by series).
    public mutating func add(_ other: MailSummary) {
        invitations += other.invitations
        updates += other.updates
        cancellations += other.cancellations
        addresses.formUnion(other.addresses)
    }

    mutating func invite(_ addresses: [String]) {
        invitations += addresses.count
        self.addresses.formUnion(addresses)
    }

    mutating func update(_ addresses: [String], times: Int) {
        guard times > 0 else { return }
        updates += addresses.count * times
        self.addresses.formUnion(addresses)
    }

    mutating func cancel(_ addresses: [String]) {
        cancellations += addresses.count
        self.addresses.formUnion(addresses)
    }

    /// `0`, or `6 invitations, 2 updates to 5 addresses (2 outside example.com)`.
    public var description: String {
        guard messages > 0 else { return "0" }
        let kinds = [(invitations, "invitations"), (updates, "updates"), (cancellations, "cancellations")]
            .filter { $0.0 > 0 }.map { "\($0.0) \($0.1)" }.joined(separator: ", ")
        let outside = outsideDomain.map { "\($0) outside \(mailboxDomain ?? "")" } ?? "the mailbox's domain unknown"
        return "\(kinds) to \(addresses.count) addresses (\(outside))"
    }
}

/// The final account of an import.
public struct ImportReport: Sendable, Hashable {
    /// Each item's outcome, in plan order.
    public var results: [ImportResult]
    /// The mail Graph sent because of the steps that succeeded (none unless attendees were given to Graph).
    public var mail: MailSummary

    /// A report of `results` and `mail`.
    public init(results: [ImportResult] = [], mail: MailSummary = MailSummary()) {
        self.results = results
        self.mail = mail
    }

    /// How many items this run created.
    public var created: Int { count(.created) }
    /// How many items this run brought up to date.
    public var updated: Int { count(.updated) }
    /// How many items already were as the input has them.
    public var unchanged: Int { count(.unchanged) }
    /// How many items this run deleted (cancelled, or pruned).
    public var deleted: Int { count(.deleted) }
    /// The failed items with their reasons.
    public var failures: [(label: String, reason: String)] {
        results.compactMap { result in
            if case .failed(let reason) = result.outcome { return (result.label, reason) }
            return nil
        }
    }

    private func count(_ outcome: ImportOutcome) -> Int { results.count { $0.outcome == outcome } }

    /// The report as JSON (`--report FILE`), with `refused` (events never sent) among the failures.
    public func json(refused: [(label: String, reason: String)] = []) -> JSONValue {
        let failed = (refused + failures).map { failure -> JSONValue in
            ["event": .string(failure.label), "reason": .string(failure.reason)]
        }
        var mailObject = JSONObject([
            JSONMember("invitations", .number(Double(mail.invitations))),
            JSONMember("updates", .number(Double(mail.updates))),
            JSONMember("cancellations", .number(Double(mail.cancellations))),
            JSONMember("addresses", .number(Double(mail.addresses.count))),
        ])
        if let domain = mail.mailboxDomain, let outside = mail.outsideDomain {
            mailObject["mailboxDomain"] = .string(domain)
            mailObject["outsideDomain"] = .number(Double(outside))
        }
        return [
            "created": .number(Double(created)), "updated": .number(Double(updated)),
            "unchanged": .number(Double(unchanged)), "deleted": .number(Double(deleted)),
            "failed": .array(failed), "mail": .object(mailObject),
        ]
    }
}
