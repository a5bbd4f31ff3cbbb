import CalendarModel

/// One event object found in the input, and where.
struct GraphInputItem {
    /// Valid only while the walker's step that found it runs (see `JSONNode`).
    var object: JSONNode
    var location: SourceLocation
    /// The object's `type`, looked up once: the walker and the series assembler both ask for it,
    /// and the event object, not indexed, is scanned for it.
    let type: JSONNode?

    init(object: JSONNode, location: SourceLocation) {
        self.object = object
        self.location = location
        type = object["type"]
    }

    /// An exception or occurrence of a series, rather than an event in its own right.
    var isInstance: Bool {
        guard let type, type.isString("exception") || type.isString("occurrence") else { return false }
        return object["seriesMasterId"]?.token.kind == .string
    }
}

/// What the walker hands each event object to: the series assembler, which maps it, or the
/// identity collector, which only names the events mapping would make of it.
protocol GraphObjectSink: Sendable {
    /// What the sink hands on for each object: events, or their identities.
    associatedtype Output
    init()
    /// What the sink reported about the objects it was given.
    var diagnostics: [Diagnostic] { get }
    /// Takes one object, handing what it makes of it to `each` (at once, or at `finish`).
    mutating func add(_ item: GraphInputItem, _ each: (Output) -> Void)
    /// Hands on what waited for objects that did not come.
    mutating func finish(_ each: (Output) -> Void)
    /// Members of an event in an array or page that the sink never reads: recorded without them
    /// (`JSONScanner.recordObject(into:depth:passingOver:)`), their bytes are only passed over.
    static var passedOverMembers: [JSONKey] { get }
    /// Whether an event recorded without `passedOverMembers` must be recorded whole after all.
    static func needsWholeObject(_ object: JSONNode) -> Bool
}

extension GraphObjectSink {
    static var passedOverMembers: [JSONKey] { [] }
    static func needsWholeObject(_ object: JSONNode) -> Bool { false }
}

/// Walks the top level of Graph JSON one piece at a time, handing each event object to the
/// sink with its line and JSON path: an event of a top-level array or of a page's `value`
/// array on its own (so that neither a dump of a million events nor a large page is ever held
/// whole, and an event is mapped while its bytes are still in the cache), or a top-level event.
struct GraphDocumentWalker<Sink: GraphObjectSink> {
    let file: String?
    private(set) var sink = Sink()
    /// Syntax errors, non-events and the warnings of the JSON read so far.
    private(set) var diagnostics: [Diagnostic] = []
    private(set) var nextLink: String?
    /// Whether a syntax error ended reading.
    private(set) var failed = false
    private var place = Place.top
    /// The names of the current page's members read so far, to report a repeated one.
    private var pageMemberNames: [String] = []

    /// Where the walk is between pieces.
    private enum Place {
        /// Between top-level values.
        case top
        /// In an array of events, a top-level one or a page's `value`, after `position` of them.
        case events(inPage: Bool, position: Int)
        /// In a page, after its `value` array.
        case pageTail
    }

    init(file: String?) {
        self.file = file
    }

    /// Reads the next piece at `scanner` and hands its events to `each`: true when it read one,
    /// false at the end of the input, nil when the piece has not fully arrived (see
    /// `JSONStreamReader.step`). `dropped` is where the scanner's buffer starts in the input;
    /// `tape` is storage for the piece's tokens.
    mutating func step(
        _ scanner: inout JSONScanner, dropped: Int, tape: JSONTapeBuffer,
        _ each: (Sink.Output) -> Void
    ) throws(JSONError) -> Bool? {
        tape.removeAll()
        do throws(JSONError) {
            let read: Bool?
            switch place {
            case .top: read = try readTop(&scanner, tape, each)
            case .events(let inPage, let position):
                read = try readEvent(&scanner, tape, inPage: inPage, position: position, each)
            case .pageTail: read = try readPageMember(&scanner, tape)
            }
            if read != nil { keepWarnings(&scanner, dropped: dropped) }
            return read
        } catch {
            // A syntax error ends reading; what was read before it is kept, warnings included. Input
            // that has not fully arrived is read again when it has.
            if !scanner.moreMayFollow || !scanner.isAtEnd { keepWarnings(&scanner, dropped: dropped) }
            throw error
        }
    }

    /// Records a syntax error: reading stops there.
    mutating func fail(_ error: JSONError) {
        failed = true
        diagnostics.append(
            Diagnostic(
                .error, code: "json-syntax", message: "\(error.message); reading stops here",
                location: SourceLocation(file: file, line: error.line, column: error.column)))
    }

    /// Hands over what the sink held back (instances still waiting for a master that did not
    /// come), and returns every diagnostic.
    mutating func finish(_ each: (Sink.Output) -> Void) -> [Diagnostic] {
        sink.finish(each)
        return sink.diagnostics + diagnostics
    }

    /// At the top level: the start of an array of events, a page up to its `value` array, or a
    /// whole event.
    private mutating func readTop(
        _ scanner: inout JSONScanner, _ tape: JSONTapeBuffer, _ each: (Sink.Output) -> Void
    ) throws(JSONError) -> Bool {
        switch scanner.peekSignificant() {
        case nil:
            return false
        case UInt8(ascii: "[")?:
            scanner.index += 1
            place = .events(inPage: false, position: 0)
            return true
        case UInt8(ascii: "{")?:
            var object = try scanner.beginObject(into: tape, depth: 1)
            var isFirst = true
            while isFirst ? !scanner.consumeIf(UInt8(ascii: "}")) : try scanner.continueList(closer: UInt8(ascii: "}"))
            {
                isFirst = false
                let name = try scanner.recordMemberName(into: tape, of: &object)
                if scanner.peekSignificant() == UInt8(ascii: "["),
                    JSONNode.equal(tape[name.token], "value", in: scanner.bytes)
                {
                    // A page: its events are read one by one, its other members as they come.
                    scanner.index += 1
                    startPage(tape, before: name.token, in: scanner.bytes)
                    return true
                }
                try scanner.recordMemberValue(into: tape, named: name, of: object, depth: 1)
            }
            scanner.end(object, in: tape)
            take(JSONNode(tokens: tape.tokens, bytes: scanner.bytes, index: object.token), path: "$", &scanner, each)
            return true
        default:
            throw scanner.error("expected an event object, an array of events or a page of events")
        }
    }

    /// Notes the members of a page read before its `value` array (the object token at 0, then
    /// members up to the name token `value`).
    private mutating func startPage(_ tape: JSONTapeBuffer, before value: Int, in bytes: UnsafeBufferPointer<UInt8>) {
        place = .events(inPage: true, position: 0)
        pageMemberNames = []
        var position = 1
        while position < value {
            // A repeated name is noted once, with the value that counts (the last).
            if !tape[position].flags.contains(.shadowed) {
                notePageMember(JSONNode.decodeString(tape[position], in: bytes), value: tape[position + 1], in: bytes)
            }
            position = tape[position + 1].next
        }
        pageMemberNames.append("value")
    }

    /// Notes a page member's name, and the next page's link when it is `@odata.nextLink`.
    private mutating func notePageMember(_ name: String, value: JSONToken, in bytes: UnsafeBufferPointer<UInt8>) {
        pageMemberNames.append(name)
        if name == "@odata.nextLink", value.kind == .string { nextLink = JSONNode.decodeString(value, in: bytes) }
    }

    /// The next event of an array, or its end.
    private mutating func readEvent(
        _ scanner: inout JSONScanner, _ tape: JSONTapeBuffer, inPage: Bool, position: Int,
        _ each: (Sink.Output) -> Void
    ) throws(JSONError) -> Bool? {
        if position == 0 ? scanner.consumeIf(UInt8(ascii: "]")) : !(try scanner.continueList(closer: UInt8(ascii: "]")))
        {
            place = inPage ? .pageTail : .top
            return true
        }
        let depth = inPage ? 2 : 1
        if !Sink.passedOverMembers.isEmpty, scanner.peekSignificant() == UInt8(ascii: "{") {
            let start = scanner.index
            try scanner.recordObject(into: tape, depth: depth + 1, passingOver: Sink.passedOverMembers)
            if Sink.needsWholeObject(JSONNode(tokens: tape.tokens, bytes: scanner.bytes, index: 0)) {
                tape.removeAll()
                scanner.index = start
                try scanner.record(into: tape, depth: depth)
            }
        } else {
            _ = scanner.peekSignificant()
            try scanner.record(into: tape, depth: depth)
        }
        place = .events(inPage: inPage, position: position + 1)
        let path = Self.path(inPage ? "$.value[" : "$[", position)
        take(JSONNode(tokens: tape.tokens, bytes: scanner.bytes, index: 0), path: path, &scanner, each)
        return true
    }

    /// The next member of a page after its `value` array (`@odata.nextLink`, say), or its end.
    private mutating func readPageMember(_ scanner: inout JSONScanner, _ tape: JSONTapeBuffer) throws(JSONError)
        -> Bool
    {
        guard try scanner.continueList(closer: UInt8(ascii: "}")) else {
            place = .top
            return true
        }
        // The member is read as the only one of an object, for its name's token and notes.
        tape.append(JSONToken(kind: .object, start: scanner.index, end: 0, next: 0))
        var object = JSONScanner.OpenObject(token: 0)
        let name = try scanner.recordMemberName(into: tape, of: &object)
        try scanner.recordMemberValue(into: tape, named: name, of: object, depth: 1)
        let text = JSONNode.decodeString(tape[name.token], in: scanner.bytes)
        if pageMemberNames.contains(text) { scanner.warnDuplicate(text, at: tape[name.token]) }
        notePageMember(text, value: tape[name.token + 1], in: scanner.bytes)
        return true
    }

    /// `prefix`, the decimal digits of `position` and `]`, written at once: string interpolation
    /// cost as much as recording a member.
    private static func path(_ prefix: StaticString, _ position: Int) -> String {
        var digits = 1
        var power = 10
        while power <= position {
            digits += 1
            power *= 10
        }
        return String(unsafeUninitializedCapacity: prefix.utf8CodeUnitCount + digits + 1) { buffer in
            let count = prefix.utf8CodeUnitCount
            _ = buffer.initialize(fromContentsOf: UnsafeBufferPointer(start: prefix.utf8Start, count: count))
            var rest = position
            for offset in (0..<digits).reversed() {
                buffer[count + offset] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
            }
            buffer[count + digits] = UInt8(ascii: "]")
            return count + digits + 1
        }
    }

    /// Keeps the warnings of the piece just read (repeated keys, strings that are not UTF-8).
    private mutating func keepWarnings(_ scanner: inout JSONScanner, dropped: Int) {
        diagnostics += scanner.warnings.map { JSONStreamReader.shifted($0, by: dropped).diagnostic(file: file) }
        scanner.warnings = []
    }

    /// One element: an event object goes to the sink, anything else is reported.
    private mutating func take(
        _ element: JSONNode, path: String, _ scanner: inout JSONScanner, _ each: (Sink.Output) -> Void
    ) {
        let (line, column) = scanner.lines.position(of: element.offset, in: scanner.bytes)
        let location = SourceLocation(file: file, line: line, column: column, jsonPath: path)
        guard let object = element.objectValue else {
            diagnostics.append(
                Diagnostic(
                    .error, code: "graph-not-an-event", message: "expected an event object, found \(element.typeName)",
                    location: location))
            return
        }
        sink.add(GraphInputItem(object: object, location: location), each)
    }
}
