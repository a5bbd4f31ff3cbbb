/// Where an encoder puts an object's members as it makes them: a `JSONObject`, a tree for callers
/// that read or change what was made (the importer), or `JSONObjectText`, the object's JSON text at
/// once, for a writer that only writes it. An encoder sets each key once, in the order it is to be
/// written; a tree would replace a repeated key where text cannot. Keys are literals (`JSONKey`),
/// which need no escaping, but for names made at run time (`set(named:_:)`).
protocol JSONMemberSink {
    /// Adds a member.
    mutating func set(_ key: JSONKey, _ value: JSONValue)
    /// Adds a member whose name is made at run time.
    mutating func set(named key: String, _ value: JSONValue)
    /// Adds a string member from valid UTF-8 read in place: a time or an identifier formatted on
    /// the stack, or an address within a URI, without a `String` made and freed for it.
    mutating func set(_ key: JSONKey, utf8 text: UnsafeBufferPointer<UInt8>)
    /// Adds a member whose value is an object, its members put by `build`.
    mutating func setObject(_ key: JSONKey, _ build: (inout Self) -> Void)
    /// Adds a member whose value is an array of objects, the members of one for each element put
    /// by `build`.
    mutating func setObjects<Elements: Collection>(
        _ key: JSONKey, _ elements: Elements, _ build: (inout Self, Elements.Element) -> Void)
}

extension JSONObject: JSONMemberSink {
    mutating func set(_ key: JSONKey, _ value: JSONValue) {
        self[key.description] = value
    }

    mutating func set(named key: String, _ value: JSONValue) {
        self[key] = value
    }

    mutating func set(_ key: JSONKey, utf8 text: UnsafeBufferPointer<UInt8>) {
        self[key.description] = .string(String(decoding: text, as: UTF8.self))
    }

    mutating func setObject(_ key: JSONKey, _ build: (inout JSONObject) -> Void) {
        var object = JSONObject()
        build(&object)
        self[key.description] = .object(object)
    }

    mutating func setObjects<Elements: Collection>(
        _ key: JSONKey, _ elements: Elements, _ build: (inout JSONObject, Elements.Element) -> Void
    ) {
        self[key.description] = .array(
            elements.map { element in
                var object = JSONObject()
                build(&object, element)
                return .object(object)
            })
    }
}

/// An object's JSON text, written as its members are put, as `JSONWriter` (compact) writes the
/// `JSONObject` the same members make: writing a Graph event through a tree made, and freed, an
/// array for each of its dozen objects and a reference for each of its members.
struct JSONObjectText: JSONMemberSink {
    /// The text so far: what was there before the object, its opening brace and its members.
    private var bytes: JSONText
    private var isEmpty = true

    /// An object opened at the end of `text`, which it writes on until it is closed.
    init(continuing text: JSONText) {
        bytes = text
        bytes.append(UInt8(ascii: "{"))
    }

    /// Closes the object and hands the text on to `text`, to write after it.
    mutating func close(into text: inout JSONText) {
        bytes.append(UInt8(ascii: "}"))
        text = bytes
    }

    mutating func set(_ key: JSONKey, _ value: JSONValue) {
        open(key)
        // Most members are strings, written without the writer's walk over every kind of value.
        if case .string(let text) = value { return JSONWriter.writeString(text, to: &bytes) }
        JSONWriter().write(value, to: &bytes)
    }

    mutating func set(named key: String, _ value: JSONValue) {
        separate()
        JSONWriter.writeString(key, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
        JSONWriter().write(value, to: &bytes)
    }

    mutating func set(_ key: JSONKey, utf8 text: UnsafeBufferPointer<UInt8>) {
        // Written as they are (a JSONObject's string would repair them): callers lend valid UTF-8.
        assert(String(validating: text, as: UTF8.self) != nil, "a member's bytes are not UTF-8")
        open(key)
        JSONWriter.writeString(utf8: text, to: &bytes)
    }

    mutating func setObject(_ key: JSONKey, _ build: (inout JSONObjectText) -> Void) {
        open(key)
        appendObject(build)
    }

    mutating func setObjects<Elements: Collection>(
        _ key: JSONKey, _ elements: Elements, _ build: (inout JSONObjectText, Elements.Element) -> Void
    ) {
        open(key)
        bytes.append(UInt8(ascii: "["))
        // By index: through `enumerated()` it took some 130 instructions an element more (each is
        // copied out of its array either way, which neither this nor a buffer pointer avoids).
        var index = elements.startIndex
        while index != elements.endIndex {
            if index != elements.startIndex { bytes.append(UInt8(ascii: ",")) }
            appendObject { build(&$0, elements[index]) }
            elements.formIndex(after: &index)
        }
        bytes.append(UInt8(ascii: "]"))
    }

    /// The separator before a member, and its key, copied as it is: escaping each literal key again
    /// was a tenth of writing an event.
    private mutating func open(_ key: JSONKey) {
        bytes.appendKey(key.bytes, separated: needsSeparator())
    }

    private mutating func separate() {
        if needsSeparator() { bytes.append(UInt8(ascii: ",")) }
    }

    /// Whether a comma goes before the member about to be written (not before the first); every
    /// member after it has one.
    private mutating func needsSeparator() -> Bool {
        defer { isEmpty = false }
        return !isEmpty
    }

    /// An object made by `build`, written in the same buffer: the text (a few words) is handed to
    /// the nested object and back, its bytes are not copied. This object's own copy is stale until
    /// `close` gives the text back, and is not written meanwhile.
    private mutating func appendObject(_ build: (inout JSONObjectText) -> Void) {
        var nested = JSONObjectText(continuing: bytes)
        build(&nested)
        nested.close(into: &bytes)
    }
}
