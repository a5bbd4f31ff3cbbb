import CalendarModel
import GraphEvents
import ICalendar

/// One input read into the model, whatever its format.
public enum CalendarInput {
    /// The calendar in `bytes` (named `file` in diagnostics), what reading it found, how many events
    /// or components were dropped as unreadable, and where each event of the calendar begins (its
    /// file and line).
    ///
    /// Each input holds one version of each event, as an iCalendar file read whole does
    /// (`EventVersions.merge`): a Graph JSON or NDJSON input's two versions of one event are
    /// resolved here, with a warning naming both lines unless they are identical.
    public static func read(_ bytes: [UInt8], file: String, as format: InputFormat, limits: InputLimits) -> (
        document: CalendarDocument, diagnostics: [Diagnostic], dropped: Int, locations: [SourceLocation]
    ) {
        let (events, diagnostics): ([(event: Event, line: Int?)], [Diagnostic])
        switch format {
        case .iCalendar:
            let result = ICalendarParser(limits: limits.iCalendar).parse(bytes, file: file)
            return (result.document, result.diagnostics, result.droppedComponents, result.eventLocations)
        case .ndjson:
            let result = EventJSONReader.readWithLines(bytes, file: file, limits: limits.json)
            (events, diagnostics) = (result.events.map { ($0.event, $0.line) }, result.diagnostics)
        case .graph:
            let result = GraphEventReader(file: file, limits: limits.json).read(bytes)
            (events, diagnostics) = (result.records.map { ($0.event, $0.location.line) }, result.diagnostics)
        }
        let dropped = diagnostics.filter { $0.severity == .error }.count
        let locations = events.map { SourceLocation(file: file, line: $0.line) }
        let versions = EventVersions.merge(events.map(\.event), locations: locations)
        return (
            CalendarDocument(events: versions.events), diagnostics + versions.diagnostics, dropped, versions.locations
        )
    }
}
