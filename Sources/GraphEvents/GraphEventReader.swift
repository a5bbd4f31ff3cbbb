import CalendarModel

/// An event read from Graph JSON and where its object starts.
public struct GraphEventRecord: Hashable, Sendable {
    public var event: Event
    public var location: SourceLocation
}

/// Everything read from one Graph JSON input.
public struct GraphReadResult: Sendable {
    /// Masters, single events and overrides, in input order (an override follows its exception's place).
    public var records: [GraphEventRecord]
    public var diagnostics: [Diagnostic]
    /// The last page's `@odata.nextLink`, when the input was a page that had one.
    public var nextLink: String?

    /// The events alone.
    public var events: [Event] { records.map(\.event) }
}

/// Reads Graph event JSON as people have it on disk: one event, an array, a page
/// (`{"value": [...]}`), several pages or documents concatenated, or NDJSON, told apart by content.
///
/// Exception instances listed beside their series master become its overrides; plain occurrences
/// of a master that is present are dropped (the RRULE makes them); instances whose master is absent
/// stay single events.
public struct GraphEventReader: Sendable {
    /// The file name used in diagnostics.
    public var file: String?
    public var limits: JSONLimits

    public init(file: String? = nil, limits: JSONLimits = JSONLimits()) {
        self.file = file
        self.limits = limits
    }

    /// Every event in `bytes`. A JSON syntax error ends reading; what came before is kept.
    public func read(_ bytes: [UInt8]) -> GraphReadResult {
        var result = GraphReadResult(records: [], diagnostics: [], nextLink: nil)
        let items = bytes.withUnsafeBufferPointer { buffer in
            var walker = GraphDocumentWalker(scanner: JSONScanner(bytes: buffer, limits: limits), file: file)
            let items = walker.items()
            result.diagnostics = walker.diagnostics
            result.nextLink = walker.nextLink
            return items
        }
        let mapper = GraphEventMapper()
        var masters: [String: Event] = [:]
        var mapped: [[GraphEventRecord]] = Array(repeating: [], count: items.count)
        var instances: [Int] = []
        for (position, item) in items.enumerated() {
            let type = item.object["type"]?.stringValue
            if type == "exception" || type == "occurrence", item.object["seriesMasterId"]?.stringValue != nil {
                instances.append(position)
                continue
            }
            let mapping = mapper.events(from: .object(item.object), location: item.location)
            result.diagnostics += mapping.diagnostics
            mapped[position] = mapping.output.map { GraphEventRecord(event: $0, location: item.location) }
            if let id = item.object["id"]?.stringValue, let master = mapping.output.first {
                masters[id] = master
            }
        }
        for position in instances {
            let item = items[position]
            let master = item.object["seriesMasterId"]?.stringValue.flatMap { masters[$0] }
            switch (master, item.object["type"]?.stringValue) {
            case (let master?, "exception"):
                let mapping = mapper.override(from: .object(item.object), of: master, location: item.location)
                result.diagnostics += mapping.diagnostics
                mapped[position] = mapping.output.map { [GraphEventRecord(event: $0, location: item.location)] } ?? []
            case (.some, _):
                continue  // an occurrence its master's RRULE produces
            case (nil, _):
                let mapping = mapper.events(from: .object(item.object), location: item.location)
                result.diagnostics += mapping.diagnostics
                result.diagnostics.append(
                    Diagnostic(
                        .note, code: "graph-instance-without-master",
                        message: "an instance whose series master is not in the input is kept as a single event",
                        location: item.location, uid: item.object["id"]?.stringValue))
                mapped[position] = mapping.output.map { GraphEventRecord(event: $0, location: item.location) }
            }
        }
        result.records = mapped.flatMap { $0 }
        return result
    }
}

/// One event object found in the input, and where.
struct GraphInputItem {
    var object: JSONObject
    var location: SourceLocation
}

/// Walks the top level of the input, finding event objects in pages, arrays and bare documents,
/// each with its line and JSON path.
struct GraphDocumentWalker {
    var scanner: JSONScanner
    let file: String?
    var diagnostics: [Diagnostic] = []
    var nextLink: String?

    mutating func items() -> [GraphInputItem] {
        var items: [GraphInputItem] = []
        do throws(JSONError) {
            while let byte = scanner.peekSignificant() {
                let start = scanner.index
                switch byte {
                case UInt8(ascii: "["):
                    try readArray(path: "$", into: &items)
                case UInt8(ascii: "{"):
                    if let event = try readTopObject(into: &items) { items.append(GraphInputItem(object: event, location: location(start, "$"))) }
                default:
                    throw scanner.error("expected an event object, an array of events or a page of events")
                }
            }
        } catch {
            diagnostics.append(Diagnostic(.error, code: "json-syntax", message: "\(error.message); reading stops here", location: SourceLocation(file: file, line: error.line, column: error.column)))
        }
        for duplicate in scanner.duplicateKeys {
            diagnostics.append(Diagnostic(.warning, code: "json-duplicate-key", message: duplicate.message, location: SourceLocation(file: file, line: duplicate.line, column: duplicate.column)))
        }
        return items
    }

    /// A top-level object: a page (its `value` array's events are read one by one) or an event.
    private mutating func readTopObject(into items: inout [GraphInputItem]) throws(JSONError) -> JSONObject? {
        try scanner.expect(UInt8(ascii: "{"), "'{'")
        var members = JSONObject()
        var isPage = false
        if scanner.consumeIf(UInt8(ascii: "}")) { return members }
        repeat {
            let key = try scanner.parseKey()
            if key == "value" && scanner.peekSignificant() == UInt8(ascii: "[") {
                isPage = true
                try readArray(path: "$.value", into: &items)
            } else {
                let value = try scanner.parseValue(depth: 1)
                if members[key] != nil {
                    diagnostics.append(Diagnostic(.warning, code: "json-duplicate-key", message: "duplicate key \"\(key)\"; the last value is used", location: SourceLocation(file: file, jsonPath: "$.\(key)")))
                }
                members[key] = value
            }
        } while try scanner.continueList(closer: UInt8(ascii: "}"))
        guard isPage else { return members }
        nextLink = members["@odata.nextLink"]?.stringValue ?? nextLink
        return nil
    }

    private mutating func readArray(path: String, into items: inout [GraphInputItem]) throws(JSONError) {
        try scanner.expect(UInt8(ascii: "["), "'['")
        if scanner.consumeIf(UInt8(ascii: "]")) { return }
        var position = 0
        repeat {
            _ = scanner.peekSignificant()
            let start = scanner.index
            let value = try scanner.parseValue(depth: 2)
            let here = location(start, "\(path)[\(position)]")
            if let object = value.objectValue {
                items.append(GraphInputItem(object: object, location: here))
            } else {
                diagnostics.append(Diagnostic(.error, code: "graph-not-an-event", message: "expected an event object, found \(value.typeName)", location: here))
            }
            position += 1
        } while try scanner.continueList(closer: UInt8(ascii: "]"))
    }

    private mutating func location(_ offset: Int, _ path: String) -> SourceLocation {
        let (line, column) = scanner.lines.position(of: offset, in: scanner.bytes)
        return SourceLocation(file: file, line: line, column: column, jsonPath: path)
    }
}
