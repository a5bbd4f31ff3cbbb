import CalendarModel

/// One event object found in the input, and where.
struct GraphInputItem {
    /// Valid only while the walker's step that found it runs (see `JSONNode`).
    var object: JSONNode
    var location: SourceLocation

    /// An exception or occurrence of a series, rather than an event in its own right.
    var isInstance: Bool {
        let type = object["type"]?.stringValue
        return (type == "exception" || type == "occurrence") && object["seriesMasterId"]?.stringValue != nil
    }
}

/// Walks the top level of Graph JSON one piece at a time: an element of a top-level array (so that
/// a dump of a million events is never held whole), or a whole top-level document (a page, whose
/// `value` array holds the events, or an event), handing each event object to the assembler with
/// its line and JSON path.
struct GraphDocumentWalker {
    let file: String?
    private(set) var assembler = GraphSeriesAssembler()
    /// Syntax errors, non-events and the warnings of the JSON read so far.
    private(set) var diagnostics: [Diagnostic] = []
    private(set) var nextLink: String?
    /// Whether a syntax error ended reading.
    private(set) var failed = false
    /// Inside a top-level array: how many of its elements were read.
    private var arrayPosition: Int?
    /// The tokens of the piece being read, kept to reuse their storage.
    private var tape: [JSONToken] = []

    init(file: String?) {
        self.file = file
    }

    /// Reads the next piece at `scanner` and hands its events to `each`: true when it read one,
    /// false at the end of the input, nil when the piece has not fully arrived (see
    /// `JSONStreamReader.step`). `dropped` is where the scanner's buffer starts in the input.
    mutating func step(
        _ scanner: inout JSONScanner, isFinished: Bool, dropped: Int, _ each: (GraphEventRecord) -> Void
    ) throws(JSONError) -> Bool? {
        do throws(JSONError) {
            return try readPiece(&scanner, isFinished: isFinished, dropped: dropped, each)
        } catch {
            // A syntax error ends reading; what was read before it is kept, warnings included. Input
            // that has not fully arrived is read again when it has.
            if isFinished || !scanner.isAtEnd { keepWarnings(&scanner, dropped: dropped) }
            throw error
        }
    }

    private mutating func readPiece(
        _ scanner: inout JSONScanner, isFinished: Bool, dropped: Int, _ each: (GraphEventRecord) -> Void
    ) throws(JSONError) -> Bool? {
        var tape: [JSONToken] = []
        swap(&tape, &self.tape)
        defer { swap(&tape, &self.tape) }
        tape.removeAll(keepingCapacity: true)
        guard let position = arrayPosition else {
            return try stepAtTop(&scanner, isFinished: isFinished, dropped: dropped, &tape, each)
        }
        if position == 0 ? scanner.consumeIf(UInt8(ascii: "]")) : !(try scanner.continueList(closer: UInt8(ascii: "]")))
        {
            arrayPosition = nil
            return true
        }
        _ = scanner.peekSignificant()
        try scanner.record(into: &tape, depth: 1)
        // A number at the very end may go on in the next chunk.
        if !isFinished, scanner.isAtEnd, tape[0].kind == .number { return nil }
        arrayPosition = position + 1
        tape.withUnsafeBufferPointer { tokens in
            take(JSONNode(tokens: tokens, bytes: scanner.bytes, index: 0), path: "$[\(position)]", &scanner, each)
        }
        keepWarnings(&scanner, dropped: dropped)
        return true
    }

    /// Records a syntax error: reading stops there.
    mutating func fail(_ error: JSONError) {
        failed = true
        diagnostics.append(
            Diagnostic(
                .error, code: "json-syntax", message: "\(error.message); reading stops here",
                location: SourceLocation(file: file, line: error.line, column: error.column)))
    }

    /// Hands over the instances still waiting for a master that did not come.
    mutating func finish(_ each: (GraphEventRecord) -> Void) -> [Diagnostic] {
        assembler.finish(each)
        return assembler.diagnostics + diagnostics
    }

    private mutating func stepAtTop(
        _ scanner: inout JSONScanner, isFinished: Bool, dropped: Int, _ tape: inout [JSONToken],
        _ each: (GraphEventRecord) -> Void
    ) throws(JSONError) -> Bool {
        switch scanner.peekSignificant() {
        case nil:
            return false
        case UInt8(ascii: "[")?:
            scanner.index += 1
            arrayPosition = 0
            return true
        case UInt8(ascii: "{")?:
            do throws(JSONError) {
                try scanner.record(into: &tape)
            } catch {
                // The events of a page that are complete before a syntax error are kept.
                if isFinished || !scanner.isAtEnd { takeDocument(tape, &scanner, each) }
                throw error
            }
            takeDocument(tape, &scanner, each)
            keepWarnings(&scanner, dropped: dropped)
            return true
        default:
            throw scanner.error("expected an event object, an array of events or a page of events")
        }
    }

    /// A top-level object: a page, whose `value` array holds the events (only those complete when
    /// the text was cut short), or an event.
    private mutating func takeDocument(
        _ tape: [JSONToken], _ scanner: inout JSONScanner, _ each: (GraphEventRecord) -> Void
    ) {
        tape.withUnsafeBufferPointer { tokens in
            guard !tokens.isEmpty else { return }
            let root = JSONNode(tokens: tokens, bytes: scanner.bytes, index: 0)
            guard let page = root["value"]?.arrayValue else {
                if root.isComplete { take(root, path: "$", &scanner, each) }
                return
            }
            nextLink = root["@odata.nextLink"]?.stringValue ?? nextLink
            for (position, element) in page.enumerated() {
                take(element, path: "$.value[\(position)]", &scanner, each)
            }
        }
    }

    /// Keeps the warnings of the piece just read (repeated keys, strings that are not UTF-8).
    private mutating func keepWarnings(_ scanner: inout JSONScanner, dropped: Int) {
        diagnostics += scanner.warnings.map { JSONStreamReader.shifted($0, by: dropped).diagnostic(file: file) }
        scanner.warnings = []
    }

    /// One element: an event object goes to the assembler, anything else is reported.
    private mutating func take(
        _ element: JSONNode, path: String, _ scanner: inout JSONScanner, _ each: (GraphEventRecord) -> Void
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
        assembler.add(GraphInputItem(object: object, location: location), each)
    }
}
