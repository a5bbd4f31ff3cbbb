import CalendarModel

/// Reads Graph event JSON fed in chunks (from a pipe), handing over each event as soon as the
/// document holding it is complete: events, arrays of events, pages, NDJSON, concatenated.
///
/// Unlike `GraphEventReader`, which sees the whole input and locates every event on its own line,
/// an event inside an array or page is located at the line where its document starts, with its
/// JSON path.
public struct GraphEventStream: Sendable {
    /// The file name used in diagnostics.
    public let file: String?
    /// The last page's `@odata.nextLink` seen so far.
    public private(set) var nextLink: String?
    private var reader: JSONStreamReader
    private var assembler = GraphSeriesAssembler()
    private var streamDiagnostics: [Diagnostic] = []
    private var failed = false

    /// A stream naming `file` in its diagnostics and holding its input to `limits`.
    public init(file: String? = nil, limits: JSONLimits = JSONLimits()) {
        self.file = file
        reader = JSONStreamReader(limits: limits)
    }

    /// Adds the next chunk of input and hands the events it completes to `each`.
    public mutating func append(_ chunk: some Sequence<UInt8>, each: (GraphEventRecord) -> Void) {
        guard !failed else { return }
        reader.append(chunk)
        drain(each)
    }

    /// Ends the input, hands over what remains, and returns every diagnostic of the stream.
    public mutating func finish(each: (GraphEventRecord) -> Void) -> [Diagnostic] {
        reader.finish()
        drain(each)
        assembler.finish(each)
        return assembler.diagnostics + streamDiagnostics
    }

    private mutating func drain(_ each: (GraphEventRecord) -> Void) {
        while !failed {
            do throws(JSONError) {
                guard let document = try reader.next() else { return }
                take(document, each)
            } catch {
                // A syntax error ends the stream, as it does for GraphEventReader.
                failed = true
                streamDiagnostics.append(
                    Diagnostic(
                        .error, code: "json-syntax", message: "\(error.message); reading stops here",
                        location: SourceLocation(file: file, line: error.line, column: error.column)))
            }
        }
    }

    /// The events of one top-level document: an array, a page, or an event.
    private mutating func take(_ document: JSONDocument, _ each: (GraphEventRecord) -> Void) {
        streamDiagnostics += document.warnings.map { $0.diagnostic(file: file) }
        let elements: [JSONValue]
        let path: String
        switch document.value {
        case .array(let values):
            (elements, path) = (values, "$")
        case .object(let object):
            guard let page = object["value"]?.arrayValue else {
                assembler.add(GraphInputItem(object: object, location: location(document, "$")), each)
                return
            }
            nextLink = object["@odata.nextLink"]?.stringValue ?? nextLink
            (elements, path) = (page, "$.value")
        default:
            streamDiagnostics.append(
                Diagnostic(
                    .error, code: "graph-not-an-event",
                    message: "expected an event object, found \(document.value.typeName)",
                    location: location(document, "$")))
            return
        }
        for (position, element) in elements.enumerated() {
            let here = location(document, "\(path)[\(position)]")
            if let object = element.objectValue {
                assembler.add(GraphInputItem(object: object, location: here), each)
            } else {
                streamDiagnostics.append(
                    Diagnostic(
                        .error, code: "graph-not-an-event",
                        message: "expected an event object, found \(element.typeName)",
                        location: here))
            }
        }
    }

    private func location(_ document: JSONDocument, _ path: String) -> SourceLocation {
        SourceLocation(file: file, line: document.line, column: document.column, jsonPath: path)
    }
}
