import CalendarModel
import GraphEvents

/// One thing the import does, named by a key that stays the same from run to run.
public struct PlannedItem: Sendable, Hashable {
    /// What to do.
    public enum Action: Sendable, Hashable {
        /// POST a single event or a series master.
        case create(JSONObject)
        /// PATCH the occurrence of a series that starts at `originalStart` (a moved or changed occurrence).
        case update(masterKey: String, originalStart: String, body: JSONObject)
        /// DELETE the occurrence that starts at `originalStart` (a cancelled occurrence).
        case cancel(masterKey: String, originalStart: String)
    }

    /// The writer's `transactionId` for creates and updates (from UID and RECURRENCE-ID); for a
    /// cancellation, derived from its series and start.
    public var key: String
    /// The event's subject, for the report.
    public var label: String
    /// What the item does: create, update an occurrence, or cancel one.
    public var action: Action
    /// The source event's identity and version, when the writer annotated them.
    public var source: SourceVersion = SourceVersion()
    /// The files attached once the event exists, or for an update once its occurrence is patched
    /// (inline ATTACH); see ``ImportSource/planning(_:name:)``.
    public var attachments: [Attachment] = []

    /// The UID of the series a change belongs to (an override has its series' UID), for the report.
    public var seriesUID: String? { source.uid }
}

/// What identifies a source event and orders its versions (RFC 5545 §3.8.7.4, §3.8.7.3).
public struct SourceVersion: Sendable, Hashable {
    /// The source event's UID; nil when the writer did not annotate it.
    public var uid: String?
    /// RECURRENCE-ID in basic format (UTC time or date), for an override.
    public var recurrenceID: String?
    /// The source event's SEQUENCE (RFC 5545 §3.8.7.4); nil when it had none, which counts as 0.
    public var sequence: Int?
    /// LAST-MODIFIED in basic format, UTC.
    public var lastModified: String?
    /// STATUS:CANCELLED, or a METHOD:CANCEL calendar: the event is to be removed, not created.
    public var cancelled = false

    /// A version with the parts given; those left out are unknown and decide nothing.
    public init(
        uid: String? = nil, recurrenceID: String? = nil, sequence: Int? = nil, lastModified: String? = nil,
        cancelled: Bool = false
    ) {
        self.uid = uid
        self.recurrenceID = recurrenceID
        self.sequence = sequence
        self.lastModified = lastModified
        self.cancelled = cancelled
    }

    /// Whether this version is older than `other`: a lower SEQUENCE, or the same one and an
    /// earlier LAST-MODIFIED. Unknown parts decide nothing.
    func isOlder(than other: SourceVersion) -> Bool {
        let mine = sequence ?? 0
        let theirs = other.sequence ?? 0
        if mine != theirs { return mine < theirs }
        guard let modified = lastModified, let otherModified = other.lastModified else { return false }
        return modified < otherModified  // basic-format UTC times sort as text
    }

    /// Reads and removes the writer's identity annotations from `object`.
    static func take(from object: inout JSONObject) -> SourceVersion {
        typealias Annotation = GraphEventWriter.IdentityAnnotation
        let version = SourceVersion(
            uid: object[Annotation.uid.rawValue]?.stringValue,
            recurrenceID: object[Annotation.recurrenceID.rawValue]?.stringValue,
            sequence: object[Annotation.sequence.rawValue]?.numberValue.map { Int($0) },
            lastModified: object[Annotation.lastModified.rawValue]?.stringValue,
            cancelled: object[Annotation.cancelled.rawValue]?.boolValue == true)
        for annotation in Annotation.allCases { object[annotation.rawValue] = nil }
        return version
    }
}

/// The POST entries of `GraphEventWriter` (style `.post`) sorted into creates and series changes.
public struct ImportPlan: Sendable, Hashable {
    /// The POSTs: single events and series masters, in input order.
    public var creates: [PlannedItem]
    /// Updates and cancellations, in input order; each names its master's key.
    public var changes: [PlannedItem]

    /// The plan for writer entries, which carry a `transactionId` on every create and update and an
    /// `originalStart` on every series change.
    public init(entries: [JSONValue]) {
        creates = []
        changes = []
        for entry in entries {
            guard var object = entry.objectValue else { continue }
            let label = object["subject"]?.stringValue ?? "(no subject)"
            let source = SourceVersion.take(from: &object)
            guard let masterKey = object[GraphEventWriter.seriesMasterAnnotation]?.stringValue else {
                creates.append(
                    PlannedItem(
                        key: object["transactionId"]?.stringValue ?? "", label: label, action: .create(object),
                        source: source))
                continue
            }
            let originalStart = object["originalStart"]?.stringValue ?? ""
            // An EXDATE, or an override whose STATUS is CANCELLED: the occurrence goes.
            if object["isCancelled"]?.boolValue == true || source.cancelled {
                let key = GraphTransactionID.make(uid: masterKey, recurrenceID: "cancel/" + originalStart)
                changes.append(
                    PlannedItem(
                        key: key, label: label, action: .cancel(masterKey: masterKey, originalStart: originalStart),
                        source: source))
                continue
            }
            let key = object["transactionId"]?.stringValue ?? ""
            // An occurrence is PATCHed: these members only mean something on a POST.
            for member in [GraphEventWriter.seriesMasterAnnotation, "originalStart", "transactionId"] {
                object[member] = nil
            }
            changes.append(
                PlannedItem(
                    key: key, label: label,
                    action: .update(masterKey: masterKey, originalStart: originalStart, body: object), source: source))
        }
    }

    /// Every item, creates first.
    public var items: [PlannedItem] { creates + changes }
}
