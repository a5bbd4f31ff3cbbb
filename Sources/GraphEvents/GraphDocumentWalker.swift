import CalendarModel

/// One event object found in the input, and where.
struct GraphInputItem {
    var object: JSONObject
    var location: SourceLocation

    /// An exception or occurrence of a series, rather than an event in its own right.
    var isInstance: Bool {
        let type = object["type"]?.stringValue
        return (type == "exception" || type == "occurrence") && object["seriesMasterId"]?.stringValue != nil
    }
}

/// Walks the top level of the input, finding event objects in pages, arrays and bare documents,
/// each with its line and JSON path.
struct GraphDocumentWalker {
    var scanner: JSONScanner
    let file: String?
    var diagnostics: [Diagnostic] = []
    var nextLink: String?

    /// Calls `found` with each event object, in input order.
    mutating func walk(_ found: (GraphInputItem) -> Void) {
        do throws(JSONError) {
            while let byte = scanner.peekSignificant() {
                let start = scanner.index
                switch byte {
                case UInt8(ascii: "["):
                    try readArray(path: "$", depth: 1, found)
                case UInt8(ascii: "{"):
                    if let event = try readTopObject(found) {
                        found(GraphInputItem(object: event, location: location(start, "$")))
                    }
                default:
                    throw scanner.error("expected an event object, an array of events or a page of events")
                }
            }
        } catch {
            diagnostics.append(
                Diagnostic(
                    .error, code: "json-syntax", message: "\(error.message); reading stops here",
                    location: SourceLocation(file: file, line: error.line, column: error.column)))
        }
        diagnostics += scanner.warnings.map { $0.diagnostic(file: file) }
    }

    /// A top-level object: a page (its `value` array's events are read one by one) or an event.
    private mutating func readTopObject(_ found: (GraphInputItem) -> Void) throws(JSONError) -> JSONObject? {
        try scanner.expect(UInt8(ascii: "{"), "'{'")
        var builder = JSONObjectBuilder()
        var isPage = false
        if scanner.consumeIf(UInt8(ascii: "}")) { return builder.object }
        repeat {
            _ = scanner.peekSignificant()
            let keyOffset = scanner.index
            let key = try scanner.parseKey()
            if key == "value" && scanner.peekSignificant() == UInt8(ascii: "[") {
                isPage = true
                try readArray(path: "$.value", depth: 2, found)
            } else if builder.add(key, try scanner.parseValue(depth: 1)) {
                scanner.warnings.append(scanner.duplicateKey(key, at: keyOffset))
            }
        } while try scanner.continueList(closer: UInt8(ascii: "}"))
        let object = builder.object
        guard isPage else { return object }
        nextLink = object["@odata.nextLink"]?.stringValue ?? nextLink
        return nil
    }

    /// An array of events at nesting `depth` (1 at the top level), so that its elements count
    /// against the depth limit from where they really are.
    private mutating func readArray(path: String, depth: Int, _ found: (GraphInputItem) -> Void) throws(JSONError) {
        try scanner.expect(UInt8(ascii: "["), "'['")
        if scanner.consumeIf(UInt8(ascii: "]")) { return }
        var position = 0
        repeat {
            _ = scanner.peekSignificant()
            let start = scanner.index
            let value = try scanner.parseValue(depth: depth)
            let here = location(start, "\(path)[\(position)]")
            if let object = value.objectValue {
                found(GraphInputItem(object: object, location: here))
            } else {
                diagnostics.append(
                    Diagnostic(
                        .error, code: "graph-not-an-event",
                        message: "expected an event object, found \(value.typeName)", location: here))
            }
            position += 1
        } while try scanner.continueList(closer: UInt8(ascii: "]"))
    }

    private mutating func location(_ offset: Int, _ path: String) -> SourceLocation {
        let (line, column) = scanner.lines.position(of: offset, in: scanner.bytes)
        return SourceLocation(file: file, line: line, column: column, jsonPath: path)
    }
}
