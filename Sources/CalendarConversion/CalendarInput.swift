import CalendarModel
import GraphEvents
import ICalendar

/// One input read into the model, whatever its format.
public enum CalendarInput {
    /// The calendar in `bytes` (named `file` in diagnostics), what reading it found, and how many
    /// events or components were dropped as unreadable.
    public static func read(_ bytes: [UInt8], file: String, as format: InputFormat, limits: InputLimits) -> (
        document: CalendarDocument, diagnostics: [Diagnostic], dropped: Int
    ) {
        switch format {
        case .iCalendar:
            let result = ICalendarParser(limits: limits.iCalendar).parse(bytes, file: file)
            return (result.document, result.diagnostics, result.droppedComponents)
        case .ndjson:
            let result = EventJSONReader.read(bytes, file: file, limits: limits.json)
            let dropped = result.diagnostics.filter { $0.severity == .error }.count
            return (CalendarDocument(events: result.events), result.diagnostics, dropped)
        case .graph:
            let result = GraphEventReader(file: file, limits: limits.json).read(bytes)
            let dropped = result.diagnostics.filter { $0.severity == .error }.count
            return (CalendarDocument(events: result.events), result.diagnostics, dropped)
        }
    }
}
