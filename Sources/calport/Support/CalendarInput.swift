import CalendarConversion
import CalendarModel
import GraphEvents
import ICalendar

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
        case .ndjson:
            let result = EventJSONReader.read(bytes, file: input.name, limits: limits.json)
            let dropped = result.diagnostics.filter { $0.severity == .error }.count
            return (CalendarDocument(events: result.events), result.diagnostics, dropped)
        case .graph:
            let result = GraphEventReader(file: input.name, limits: limits.json).read(bytes)
            let dropped = result.diagnostics.filter { $0.severity == .error }.count
            return (CalendarDocument(events: result.events), result.diagnostics, dropped)
        }
    }
}
