import CalendarModel
import GraphEvents
import ICalendar

/// What `convert --to` writes.
enum OutputFormat: String {
    case iCalendar = "ics"
    /// Graph events as the service returns them, as a `{"value": [...]}` page, one event per line.
    case graph
    /// Bodies for `POST /me/events`, a JSON array, one per line.
    case graphPost = "graph-post"
    /// The model, one event per line (docs/ndjson.md).
    case ndjson

    /// The calendar in this format, and what writing it lost or refused.
    func write(_ document: CalendarDocument) -> (bytes: [UInt8], diagnostics: [Diagnostic]) {
        switch self {
        case .iCalendar:
            return (ICalendarSerializer().serialize(document), [])
        case .ndjson:
            var bytes: [UInt8] = []
            for event in document.events {
                JSONWriter().write(EventJSON.object(event), into: &bytes)
                bytes.append(0x0A)
            }
            return (bytes, [])
        case .graph, .graphPost:
            let written = GraphEventWriter(style: self == .graph ? .full : .post).write(document.events)
            var bytes = Array((self == .graph ? "{\"value\":[\n" : "[\n").utf8)
            for (index, value) in written.output.enumerated() {
                if index > 0 { bytes += Array(",\n".utf8) }
                JSONWriter().write(value, into: &bytes)
            }
            bytes += Array((self == .graph ? "\n]}\n" : "\n]\n").utf8)
            return (bytes, written.diagnostics)
        }
    }
}

/// One input read into the model, whatever its format.
enum CalendarInput {
    static func read(_ input: InputFile, as format: InputFile.Format, limits: InputLimits) -> (
        document: CalendarDocument, diagnostics: [Diagnostic], dropped: Int
    ) {
        guard let bytes = input.completeBytes(limit: limits.maximumInputSize) else {
            return (CalendarDocument(), [limits.inputTooLarge(input.name)], 1)
        }
        switch format {
        case .iCalendar:
            let result = ICalendarParser(limits: limits.iCalendar).parse(bytes, file: input.name)
            return (result.document, result.diagnostics, result.droppedComponents)
        case .graph:
            let result = GraphEventReader(file: input.name, limits: limits.json).read(bytes)
            let dropped = result.diagnostics.filter { $0.severity == .error }.count
            return (CalendarDocument(events: result.events), result.diagnostics, dropped)
        }
    }
}
