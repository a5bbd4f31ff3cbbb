/// The fuzz targets: each feeds arbitrary bytes through one of calport's entry points and checks
/// what must hold for every input. libFuzzer drivers (`Fuzz/`) and the corpus replay tests call
/// these same functions, so a crash found by fuzzing reproduces under `swift test`.
public enum FuzzTarget: String, CaseIterable, Sendable {
    /// `.ics` parse → serialise → parse.
    case icalendar
    /// Graph JSON decode → encode → decode.
    case graph
    /// RRULE text → `RecurrenceRule` → RRULE text.
    case rrule
    /// Zone names (with a document's VTIMEZONEs) through `TimeZoneResolver`.
    case timezone
    /// Command lines through `ArgumentParser`.
    case arguments

    /// Runs one input; throws when an invariant fails. Crashes and hangs are for the caller to see.
    public func run(_ bytes: [UInt8]) throws(FuzzFinding) {
        switch self {
        case .icalendar: try ICalendarRoundTrip.run(bytes)
        case .graph: try GraphRoundTrip.run(bytes)
        case .rrule: try RecurrenceRuleRoundTrip.run(bytes)
        case .timezone: try ZoneNameResolution.run(bytes)
        case .arguments: try ArgumentParsingCheck.run(bytes)
        }
    }

    /// The libFuzzer entry: runs one input and traps on a finding, which libFuzzer saves as a crash.
    public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
        let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
        do {
            try run(bytes)
        } catch {
            fatalError(error.description)
        }
        return 0
    }
}
