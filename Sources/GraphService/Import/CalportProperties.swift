import GraphEvents

/// The single-value extended properties calport keeps on the events it imports, named properties
/// of calport's own namespace (Outlook extended properties overview: id format
/// `"{type} {guid} Name {name}"`). They carry the source identity that Graph has no member for
/// (`iCalUId` is read-only), so that a later import finds what it made and an export restores it.
public enum CalportProperty: String, CaseIterable, Sendable {
    /// The source's name (`--source`, by default the input's file name).
    case source = "calport.source"
    /// The source event's UID.
    case uid = "calport.uid"
    /// An override's RECURRENCE-ID, in basic format (UTC time or date).
    case recurrenceID = "calport.recurrenceId"
    /// What was imported, as an `ImportStamp`.
    case stamp = "calport.stamp"
    /// Organizer and attendees kept back from Graph (so that it sends no mail), as Graph JSON.
    case participants = "calport.participants"

    /// calport's namespace GUID (a random version 4 UUID, chosen once; never change it).
    public static let namespace = "{B9095DE0-F204-4465-977D-EC39346063A1}"

    /// The property's id: `String {B9095DE0-…} Name calport.uid`.
    public var id: String { "String \(Self.namespace) Name \(rawValue)" }

    /// The `singleValueExtendedProperties` entry setting this property to `value`.
    func entry(_ value: String) -> JSONValue { ["id": .string(id), "value": .string(value)] }

    /// The value of each of calport's properties in a Graph event's `singleValueExtendedProperties`;
    /// entries of other namespaces, and ones that are not strings, are not calport's and are ignored.
    static func values(of event: JSONValue) -> [CalportProperty: String] {
        var values: [CalportProperty: String] = [:]
        for entry in event["singleValueExtendedProperties"]?.arrayValue ?? [] {
            guard let id = entry["id"]?.stringValue, let value = entry["value"]?.stringValue,
                let property = allCases.first(where: { $0.id.caseInsensitiveEquals(id) && id.hasSuffix($0.rawValue) })
            else { continue }
            values[property] = value
        }
        return values
    }

    /// `$expand=singleValueExtendedProperties($filter=id eq '…' or …)` for every property.
    static var expandQuery: String {
        "$expand="
            + "singleValueExtendedProperties($filter=\(allCases.map { "id eq '\($0.id)'" }.joined(separator: " or ")))"
            .urlComponentEncoded
    }
}

/// What an import sent for an event, kept in its `calport.stamp` property:
/// `v1 content=<64 hex> edits=<32 hex> sequence=<n> modified=<basic UTC> state=<done|pending>`.
/// `content` tells whether the source changed, `edits` whether the event was edited in the
/// calendar since, `sequence` and `modified` which version of the source it is, and `pending`
/// that its series' overrides and cancellations are not all applied yet.
struct ImportStamp: Sendable, Hashable {
    var content: String
    var edits: String
    var version: SourceVersion
    var isPending: Bool

    var text: String {
        var parts = ["v1", "content=\(content)", "edits=\(edits)"]
        if let sequence = version.sequence { parts.append("sequence=\(sequence)") }
        if let modified = version.lastModified { parts.append("modified=\(modified)") }
        parts.append("state=\(isPending ? "pending" : "done")")
        return parts.joined(separator: " ")
    }

    /// The stamp `text` holds; nil when it is not one calport wrote (then the event is not this source's).
    init?(parsing text: String) {
        let parts = text.split(separator: " ").map(String.init)
        guard parts.first == "v1" else { return nil }
        var fields: [String: String] = [:]
        for part in parts.dropFirst() {
            guard let equals = part.firstIndex(of: "=") else { return nil }
            fields[String(part[..<equals])] = String(part[part.index(after: equals)...])
        }
        guard let content = fields["content"], Self.isHex(content, count: 64), let edits = fields["edits"],
            Self.isHex(edits, count: 32), let state = fields["state"], ["done", "pending"].contains(state)
        else { return nil }
        var version = SourceVersion(lastModified: fields["modified"])
        if let sequence = fields["sequence"] {
            guard let number = Int(sequence) else { return nil }
            version.sequence = number
        }
        self.init(content: content, edits: edits, version: version, isPending: state == "pending")
    }

    init(content: String, edits: String, version: SourceVersion, isPending: Bool) {
        self.content = content
        self.edits = edits
        self.version = version
        self.isPending = isPending
    }

    private static func isHex(_ text: String, count: Int) -> Bool {
        text.utf8.count == count && text.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
    }
}
