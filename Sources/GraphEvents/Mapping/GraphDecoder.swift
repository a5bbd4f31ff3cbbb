import CalendarModel

/// Reads typed members of Graph objects, turning each wrong type into a diagnostic that names the
/// JSON path() and the event, so that one bad member never costs the rest of the event.
struct GraphDecoder {
    /// Where the event being read sits in the input (file, line, path() of the event itself).
    let location: SourceLocation
    /// The event's `id` (or UID), named in every diagnostic.
    var eventID: String?
    private(set) var diagnostics: [Diagnostic] = []
    /// The members of the event object, which is asked for most of them.
    private var memberIndex = JSONMemberIndex()
    /// The zone the last date-time of the event named (see `timeZone(named:)`).
    var lastZone: TimeZoneReference?

    init(location: SourceLocation, eventID: String? = nil) {
        self.location = location
        self.eventID = eventID
    }

    /// Records a problem at `path()` (a JSON path()).
    mutating func report(_ severity: Severity, _ code: String, _ message: String, at path: @autoclosure () -> String) {
        var place = location
        place.jsonPath = path()
        diagnostics.append(Diagnostic(severity, code: code, message: message, location: place, uid: eventID))
    }

    /// Looks up the members of `object`, which will be asked for many, through an index.
    mutating func index(_ object: JSONNode) {
        memberIndex = JSONMemberIndex(object) ?? JSONMemberIndex()
    }

    /// The member `key` of `object`; a name differing only in case is accepted, since some producers
    /// (and one Graph documentation sample) capitalise member names. `null` counts as absent.
    ///
    /// Static, given the index alone: a method of the decoder, called from its mutating readers,
    /// was handed a copy of the whole decoder for each lookup. Inlined into the typed readers.
    @inline(__always)
    private static func member(_ key: JSONKey, of object: JSONNode, in memberIndex: JSONMemberIndex) -> JSONNode? {
        let exact = memberIndex.object == object.index ? memberIndex.member(key, of: object) : object[key]
        guard let value = exact ?? object.caseInsensitiveMember(key), !value.isNull else { return nil }
        return value
    }

    mutating func string(_ key: JSONKey, of object: JSONNode, at path: @autoclosure () -> String) -> String? {
        typed(key, of: object, at: path(), expected: "a string") { $0.stringValue }
    }

    mutating func bool(_ key: JSONKey, of object: JSONNode, at path: @autoclosure () -> String) -> Bool? {
        typed(key, of: object, at: path(), expected: "a boolean") { $0.boolValue }
    }

    mutating func number(_ key: JSONKey, of object: JSONNode, at path: @autoclosure () -> String) -> Double? {
        typed(key, of: object, at: path(), expected: "a number") { $0.numberValue }
    }

    mutating func integer(_ key: JSONKey, of object: JSONNode, at path: @autoclosure () -> String) -> Int? {
        typed(key, of: object, at: path(), expected: "an integer") { value in
            value.numberValue.flatMap { abs($0) < 1e15 ? Int(exactly: $0) : nil }
        }
    }

    mutating func object(_ key: JSONKey, of object: JSONNode, at path: @autoclosure () -> String) -> JSONNode? {
        typed(key, of: object, at: path(), expected: "an object") { $0.objectValue }
    }

    /// The elements of an array member; none when it is absent (or not an array, with a diagnostic).
    mutating func array(_ key: JSONKey, of object: JSONNode, at path: @autoclosure () -> String)
        -> JSONNode.Elements
    {
        typed(key, of: object, at: path(), expected: "an array") { $0.arrayValue } ?? JSONNode.Elements()
    }

    /// The value of an enumeration member, matched case-insensitively as Graph does
    /// (`"Required"` and `"required"` are the same), or nil with a diagnostic when unknown.
    mutating func enumeration<Value>(
        _ key: JSONKey, of object: JSONNode, at path: @autoclosure () -> String, _ cases: GraphNames<Value>
    ) -> Value? {
        guard let text = stringNode(key, of: object, at: path()) else { return nil }
        if let value = cases.entry(named: text)?.value { return value }
        let known = cases.names.joined(separator: ", ")
        report(
            .warning, "graph-unknown-value",
            "unknown value \"\(text.stringValue ?? "")\" for \(key) (known: \(known)); ignored", at: "\(path()).\(key)")
        return nil
    }

    /// A string member as its node, for callers that compare it rather than keep it.
    mutating func stringNode(_ key: JSONKey, of object: JSONNode, at path: @autoclosure () -> String)
        -> JSONNode?
    {
        typed(key, of: object, at: path(), expected: "a string") { $0.token.kind == .string ? $0 : nil }
    }

    private mutating func typed<Value>(
        _ key: JSONKey, of object: JSONNode, at path: @autoclosure () -> String, expected: String,
        _ cast: (JSONNode) -> Value?
    ) -> Value? {
        guard let value = Self.member(key, of: object, in: memberIndex) else { return nil }
        if let typed = cast(value) { return typed }
        report(
            .warning, "graph-wrong-type", "\(key) should be \(expected), found \(value.typeName); ignored",
            at: "\(path()).\(key)")
        return nil
    }
}
