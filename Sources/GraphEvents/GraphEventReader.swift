import CalendarModel

/// An event read from Graph JSON and where its object starts.
public struct GraphEventRecord: Hashable, Sendable {
    public var event: Event
    public var location: SourceLocation
}

/// Everything read from one Graph JSON input.
public struct GraphReadResult: Sendable {
    /// Masters, single events and overrides, in input order, except that an exception listed before
    /// its master comes after everything else.
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
/// stay single events, after the others.
public struct GraphEventReader: Sendable {
    /// The file name used in diagnostics.
    public var file: String?
    public var limits: JSONLimits

    /// A reader naming `file` in its diagnostics and holding its input to `limits`.
    public init(file: String? = nil, limits: JSONLimits = JSONLimits()) {
        self.file = file
        self.limits = limits
    }

    /// Every event in `bytes`. A JSON syntax error ends reading; what came before is kept.
    public func read(_ bytes: [UInt8]) -> GraphReadResult {
        var records: [GraphEventRecord] = []
        var result = read(bytes) { records.append($0) }
        result.records = records
        return result
    }

    /// Every event in `bytes`, handed to `each` as soon as it is mapped, so that a large input
    /// need not be held as events; the result carries the diagnostics and no records. An
    /// exception listed before its series master is handed over once the master is read.
    public func read(_ bytes: [UInt8], each: (GraphEventRecord) -> Void) -> GraphReadResult {
        var result = GraphReadResult(records: [], diagnostics: [], nextLink: nil)
        var series = GraphSeriesIndex()
        var waiting: [GraphInputItem] = []
        bytes.withUnsafeBufferPointer { buffer in
            var walker = GraphDocumentWalker(scanner: JSONScanner(bytes: buffer, limits: limits), file: file)
            walker.walk { item in
                if item.isInstance {
                    if let master = series.master(of: item) {
                        mapInstance(item, master: master, into: &result, each)
                    } else {
                        waiting.append(item)
                    }
                    return
                }
                let mapping = mapper.events(from: .object(item.object), location: item.location)
                result.diagnostics += mapping.diagnostics
                if let master = mapping.output.first { series.add(master, item) }
                for event in mapping.output { each(GraphEventRecord(event: event, location: item.location)) }
            }
            result.diagnostics += walker.diagnostics
            result.nextLink = walker.nextLink
        }
        for item in waiting { mapInstance(item, master: series.master(of: item), into: &result, each) }
        return result
    }

    private let mapper = GraphEventMapper()

    /// An exception becomes an override of its master; an occurrence of a known master is left to
    /// the RRULE; an instance whose master is absent stays a single event.
    private func mapInstance(
        _ item: GraphInputItem, master: Event?, into result: inout GraphReadResult, _ each: (GraphEventRecord) -> Void
    ) {
        if let master {
            guard item.object["type"]?.stringValue == "exception" else { return }
            let mapping = mapper.override(from: .object(item.object), of: master, location: item.location)
            result.diagnostics += mapping.diagnostics
            if let event = mapping.output { each(GraphEventRecord(event: event, location: item.location)) }
            return
        }
        let mapping = mapper.events(from: .object(item.object), location: item.location)
        result.diagnostics += mapping.diagnostics
        result.diagnostics.append(
            Diagnostic(
                .note, code: "graph-instance-without-master",
                message: "an instance whose series master is not in the input is kept as a single event",
                location: item.location, uid: item.object["id"]?.stringValue))
        for event in mapping.output { each(GraphEventRecord(event: event, location: item.location)) }
    }
}

/// The series masters read so far, by the names instances use for them.
private struct GraphSeriesIndex {
    private var masters: [String: Event] = [:]

    /// Remembers `event` when it can have instances: a series master, or an event with exceptions.
    /// An instance names its master by `id`; events written by calport without one use the iCalUId.
    mutating func add(_ event: Event, _ item: GraphInputItem) {
        guard
            item.object["type"]?.stringValue == "seriesMaster" || event.isRecurring || !event.exceptionDates.isEmpty
                || item.object["exceptionOccurrences"] != nil
        else { return }
        for key in ["id", "iCalUId"] {
            if let name = item.object[key]?.stringValue, masters[name] == nil { masters[name] = event }
        }
    }

    func master(of item: GraphInputItem) -> Event? {
        item.object["seriesMasterId"]?.stringValue.flatMap { masters[$0] }
    }
}

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
        for duplicate in scanner.duplicateKeys {
            diagnostics.append(
                Diagnostic(
                    .warning, code: "json-duplicate-key", message: duplicate.message,
                    location: SourceLocation(file: file, line: duplicate.line, column: duplicate.column)))
        }
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
                scanner.duplicateKeys.append(
                    scanner.error("duplicate key \"\(key)\"; the last value is used", at: keyOffset))
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
