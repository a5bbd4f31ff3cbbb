import CalendarConversion
import CalendarModel
import GraphEvents
import GraphService
import ICalendar

/// What `calport export` writes, as the export comes in: iCalendar component by component (the
/// VTIMEZONEs calport adds come last, as in a streamed convert), NDJSON a line an event, or Graph
/// JSON as its `{"value": [...]}` array written element by element, the same text as written whole.
/// `@unchecked`: the export's task alone uses it until `ServiceOptions.wait` returns, then the caller.
final class ExportOutput: @unchecked Sendable {
    /// The output formats of `--format`.
    enum Format: String {
        case iCalendar = "ics"
        case graph
        case ndjson
    }

    private let format: Format
    private var calendar: ICalendarStreamWriter
    private var buffer: BufferedOutput
    /// Graph objects written so far, for the commas between them.
    private var written = 0
    /// What the entries written reported, for the report at the end.
    private(set) var diagnostics: [Diagnostic] = []
    /// The calendar's properties: calport's PRODID and VERSION, as for a document written whole.
    private static let header = CalendarDocument()

    /// Output in `format` to `destination`.
    init(_ format: Format, to destination: OutputDestination) {
        self.format = format
        calendar = ICalendarStreamWriter(sink: destination.write)
        buffer = BufferedOutput(destination)
        if format == .graph { buffer.append(Array("{\n  \"value\": [".utf8)) }
    }

    /// Writes an entry of the export and keeps what it reported.
    func write(_ entry: ExportEntry) {
        diagnostics += entry.diagnostics
        write(events: entry.events, values: entry.values)
    }

    /// Writes the events (iCalendar, NDJSON) or the Graph objects (`--format graph`).
    func write(events: [Event], values: [JSONValue]) {
        switch format {
        case .iCalendar:
            for event in events { calendar.write(event, header: Self.header) }
        case .ndjson:
            for event in events { writeLine(EventJSON.object(event)) }
        case .graph:
            // `JSONWriter(pretty: true)` of the whole `{"value": [...]}`, an element at a time.
            for value in values {
                buffer.append { bytes in
                    bytes.append(contentsOf: (written == 0 ? "\n    " : ",\n    ").utf8)
                    JSONWriter(pretty: true).write(value, depth: 2, into: &bytes)
                }
                written += 1
            }
        }
    }

    /// Writes one NDJSON line.
    func writeLine(_ record: JSONValue) {
        buffer.append { bytes in
            JSONWriter().write(record, into: &bytes)
            bytes.append(0x0A)
        }
    }

    /// Waits until what was handed to the output's writing thread is written (`BufferedOutput`), and
    /// writes no more: before the destination is abandoned, or the run's diagnostics are said.
    func waitForWrites() {
        buffer.waitForWrites()
    }

    /// Ends the output: the VTIMEZONEs still missing and `END:VCALENDAR`, or the end of the array.
    func finish() {
        switch format {
        case .iCalendar: calendar.finish(header: Self.header)
        case .ndjson: buffer.flush()
        case .graph:
            buffer.append(Array(((written > 0 ? "\n  " : "") + "]\n}\n").utf8))
            buffer.flush()
        }
    }
}
