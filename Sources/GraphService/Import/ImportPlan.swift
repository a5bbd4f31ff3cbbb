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

    /// The `transactionId` for creates and updates; for a cancellation, derived from its series and start.
    public var key: String
    /// The event's subject, for the report.
    public var label: String
    public var action: Action
    /// The UID of the series a change belongs to, for the report; nil when not known.
    public var seriesUID: String? = nil
}

/// The POST entries of `GraphEventWriter` (style `.post`) sorted into creates and series changes.
public struct ImportPlan: Sendable, Hashable {
    public var creates: [PlannedItem]
    /// Updates and cancellations, in input order; each names its master's key.
    public var changes: [PlannedItem]

    /// The plan for writer entries, which carry a `transactionId` on every create and update and an
    /// `originalStart` on every series change. `seriesUIDs` names the UID of each master by its
    /// transactionId, so that a change that fails can say which series it is.
    public init(entries: [JSONValue], seriesUIDs: [String: String] = [:]) {
        creates = []
        changes = []
        for entry in entries {
            guard var object = entry.objectValue else { continue }
            let label = object["subject"]?.stringValue ?? "(no subject)"
            guard let masterKey = object[GraphEventWriter.seriesMasterAnnotation]?.stringValue else {
                creates.append(
                    PlannedItem(key: object["transactionId"]?.stringValue ?? "", label: label, action: .create(object)))
                continue
            }
            let originalStart = object["originalStart"]?.stringValue ?? ""
            if object["isCancelled"]?.boolValue == true {
                let key = GraphTransactionID.make(uid: masterKey, recurrenceID: "cancel/" + originalStart)
                changes.append(
                    PlannedItem(
                        key: key, label: label, action: .cancel(masterKey: masterKey, originalStart: originalStart),
                        seriesUID: seriesUIDs[masterKey]))
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
                    action: .update(masterKey: masterKey, originalStart: originalStart, body: object),
                    seriesUID: seriesUIDs[masterKey]))
        }
    }

    /// Every item, creates first.
    public var items: [PlannedItem] { creates + changes }
}
