import CalendarModel
import GraphEvents
import ICalendar

/// What one input may cost before it is refused, so that a hostile file cannot exhaust memory or
/// time; each limit reached is an error diagnostic naming calport's option for it.
public struct InputLimits: Sendable {
    /// Content lines and nesting of iCalendar.
    public var iCalendar = ICalendarLimits()
    /// Strings and nesting of JSON (Graph and NDJSON).
    public var json = JSONLimits()
    /// Bytes of one input read into memory whole (JSON, or iCalendar that is not streamed).
    public var maximumInputSize = 256 << 20

    /// The defaults: 8 MiB lines, 64 MiB strings, 256 MiB inputs read whole.
    public init() {}

    /// The error for an input larger than `maximumInputSize`.
    public func inputTooLarge(_ name: String) -> Diagnostic {
        Diagnostic(
            .error, code: "input-too-large",
            message:
                "input is larger than \(maximumInputSize) bytes (--max-input-size) and must be read whole; it was not read",
            location: SourceLocation(file: name))
    }
}
