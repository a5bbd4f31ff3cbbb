import CalendarModel
import GraphEvents

/// One input's events, under the name that tells them from every other source's.
public struct ImportSource: Sendable, Hashable {
    /// `--source NAME`, by default the input's file name.
    public var name: String
    /// What importing this source does: its creates and its series' changes.
    public var plan: ImportPlan

    /// The source `name` with `plan`; ``planning(_:name:)`` makes both from events. Keep the name the
    /// same from run to run: the calendar's events are tied to it, so that a rerun updates them.
    public init(name: String, plan: ImportPlan) {
        self.name = name
        self.plan = plan
    }
}

/// A single event or a series master of one source, with its series' overrides and
/// cancellations, ready to send: Graph bodies with calport's properties and the participant
/// policy applied, and a key that names this content in this calendar from this source.
struct ImportUnit: Sendable {
    var source: String
    var item: PlannedItem
    var uid: String
    /// The `transactionId`: calendar, source, UID and content, so that it cannot collide.
    var key: String
    /// The POST body (with `transactionId`); a PATCH sends it without.
    var body: JSONObject
    /// `ImportStamp.content` and `.edits` of what is sent.
    var content: String
    var edits: String
    /// With `--attendees invite`, a series' attendees, added once its occurrences are in place.
    var deferredAttendees: JSONValue?
    /// The series' changes, their keys scoped like `key`, their bodies with the policy applied.
    var changes: [PlannedItem]
    /// The files attached once the event exists, each with the key its upload is journalled under.
    var files: [(key: String, file: FileToAttach)] = []
    /// The files of each change (by its key) attached once its occurrence is patched, keyed likewise.
    var changeFiles: [String: [(key: String, file: FileToAttach)]] = [:]

    /// Every file of the unit, its own and its changes', each with its key and the label it is reported under.
    var allFiles: [(key: String, file: FileToAttach, label: String)] {
        files.map { ($0.key, $0.file, item.label) }
            + changes.flatMap { change in (changeFiles[change.key] ?? []).map { ($0.key, $0.file, change.label) } }
    }

    /// Whether the event is only complete once a later PATCH has run (its stamp says `pending` until
    /// then): a series' changes, its deferred attendees, or files to attach.
    var needsFinishing: Bool { !changes.isEmpty || deferredAttendees != nil || !files.isEmpty }

    /// The stamp to send: pending until the series is complete.
    func stamp(pending: Bool) -> ImportStamp {
        ImportStamp(content: content, edits: edits, version: item.source, isPending: pending)
    }

    /// The PATCH that completes a series: its attendees (inviting them) and its final stamp.
    var finishingBody: JSONObject {
        var body = JSONObject()
        if let deferredAttendees { body["attendees"] = deferredAttendees }
        body["singleValueExtendedProperties"] = [CalportProperty.stamp.entry(stamp(pending: false).text)]
        return body
    }

    /// The body of a PATCH that brings an existing event to this content. PATCH leaves out
    /// members alone (Update event: "properties not included … maintain their previous values"),
    /// so the ones a source can drop are reset.
    var updateBody: JSONObject {
        var patch = body
        patch["transactionId"] = nil
        let resets: [(String, JSONValue)] = [
            ("body", ["contentType": "text", "content": ""]), ("location", ["displayName": ""]),
            ("categories", []), ("recurrence", .null),
        ]
        for (member, empty) in resets where patch[member] == nil { patch[member] = empty }
        return patch
    }
}

extension ImportUnit {
    /// The units of `source`: each create of its plan with the changes of its series. Two events
    /// with one UID (and RECURRENCE-ID) are one event twice: the later version wins (SEQUENCE, then
    /// LAST-MODIFIED, else the first in the input) and the other is returned as a conflict.
    static func units(
        of source: ImportSource, calendar: String, policy: ParticipantPolicy
    ) -> (units: [ImportUnit], conflicts: [ImportResult]) {
        var changesByMaster: [String: [PlannedItem]] = [:]
        for change in source.plan.changes {
            if let master = change.masterKey { changesByMaster[master, default: []].append(change) }
        }
        var chosen: [String: PlannedItem] = [:]
        var order: [String] = []
        var conflicts: [ImportResult] = []
        for item in source.plan.creates {
            let uid = item.source.uid ?? item.key
            guard let earlier = chosen[uid] else {
                chosen[uid] = item
                order.append(uid)
                continue
            }
            let (winner, loser) = earlier.source.isOlder(than: item.source) ? (item, earlier) : (earlier, item)
            chosen[uid] = winner
            conflicts.append(
                ImportResult(
                    key: loser.key, label: loser.label,
                    outcome: .failed(
                        reason:
                            "another event in \(source.name) has the UID \(uid); the one with the higher SEQUENCE (or later LAST-MODIFIED, or else the first) is imported"
                    )))
        }
        let units = order.compactMap { uid -> ImportUnit? in
            guard let item = chosen[uid] else { return nil }
            return unit(
                item, uid: uid, changes: changesByMaster[item.key] ?? [], source: source.name, calendar: calendar,
                policy: policy)
        }
        return (units, conflicts)
    }

    private static func unit(
        _ item: PlannedItem, uid: String, changes: [PlannedItem], source: String, calendar: String,
        policy: ParticipantPolicy
    ) -> ImportUnit? {
        guard case .create(var body) = item.action else { return nil }
        body["transactionId"] = nil
        let isSeries = body["recurrence"] != nil && !changes.isEmpty
        let (kept, deferred) = policy.apply(to: &body, deferAttendees: isSeries)
        let masterAttendees = Set(ParticipantPolicy.addresses(deferred ?? body["attendees"]))
        var changeBodies: [PlannedItem] = []
        var changeFiles: [[(file: FileToAttach, digest: String)]] = []
        var contentParts: [JSONValue] = [.object(body), deferred ?? .null, .string(policy.attendees.rawValue)]
        for change in changes {
            var change = change
            if case .update(let master, let start, var patch) = change.action {
                let (keptHere, _) = policy.apply(to: &patch)
                // An occurrence inherits its series' attendees; naming them again would mail them again.
                if Set(ParticipantPolicy.addresses(patch["attendees"])) == masterAttendees { patch["attendees"] = nil }
                var properties: [JSONValue] = [
                    CalportProperty.source.entry(source), CalportProperty.uid.entry(uid),
                ]
                if let recurrenceID = change.source.recurrenceID {
                    properties.append(CalportProperty.recurrenceID.entry(recurrenceID))
                }
                if let keptHere { properties.append(CalportProperty.participants.entry(keptHere)) }
                patch["singleValueExtendedProperties"] = .array(properties)
                change.action = .update(masterKey: master, originalStart: start, body: patch)
            }
            contentParts.append(.string(change.originalStart))
            if case .update(_, _, let patch) = change.action { contentParts.append(.object(patch)) }
            let files = digested(change.attachments)
            // An occurrence's files count as content too.
            contentParts += files.map { JSONValue.string($0.digest) }
            changeFiles.append(files)
            changeBodies.append(change)
        }
        let files = digested(item.attachments)
        // Files count as content: one added or changed in the source updates the event.
        contentParts += files.map { JSONValue.string($0.digest) }
        let content = GraphContentHash.content(.array(contentParts))
        let key = GraphTransactionID.make(uid: [calendar, source, uid, content].joined(separator: "\n"))
        for index in changeBodies.indices {
            changeBodies[index].key = GraphTransactionID.make(uid: key + "\n" + changeBodies[index].key)
        }
        var unit = ImportUnit(
            source: source, item: item, uid: uid, key: key, body: body, content: content,
            edits: GraphContentHash.edits(.object(body)) ?? String(repeating: "0", count: 32),
            deferredAttendees: deferred, changes: changeBodies)
        unit.files = journalled(files, under: key)
        for (change, files) in zip(changeBodies, changeFiles) where !files.isEmpty {
            unit.changeFiles[change.key] = journalled(files, under: change.key)
        }
        var properties: [JSONValue] = [
            CalportProperty.source.entry(source), CalportProperty.uid.entry(uid),
            CalportProperty.stamp.entry(unit.stamp(pending: unit.needsFinishing).text),
        ]
        if let kept { properties.append(CalportProperty.participants.entry(kept)) }
        unit.body["singleValueExtendedProperties"] = .array(properties)
        unit.body["transactionId"] = .string(key)
        return unit
    }

    /// The inline files of `attachments`, each with its digest (its SHA-256 is computed once).
    private static func digested(_ attachments: [Attachment]) -> [(file: FileToAttach, digest: String)] {
        attachments.compactMap(FileToAttach.init).map { ($0, $0.digest) }
    }

    /// `files` each with the key its upload is journalled under: the owner's key, its place and content.
    private static func journalled(
        _ files: [(file: FileToAttach, digest: String)], under owner: String
    ) -> [(key: String, file: FileToAttach)] {
        files.enumerated().map { position, entry in
            (GraphTransactionID.make(uid: "\(owner)\nattachment \(position)\n\(entry.digest)"), entry.file)
        }
    }
}
