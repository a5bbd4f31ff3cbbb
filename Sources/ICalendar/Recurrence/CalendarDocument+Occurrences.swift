import CalendarModel
import Foundation
import TimeZones

/// The occurrences an expansion listed, and what it reported on the way (unknown zones, caps reached).
public struct ExpansionResult: Sendable {
    /// Every occurrence overlapping the window, in start order (ties in document order).
    public var occurrences: [Occurrence]
    /// Problems met while expanding, each naming the UID it concerns.
    public var diagnostics: [Diagnostic]
}

extension ExpansionWindow {
    /// The window `interval` covers, to the second: its start rounded down, its end rounded up.
    public init(_ interval: DateInterval) {
        self.init(
            start: Int(interval.start.timeIntervalSince1970.rounded(.down)),
            end: Int(interval.end.timeIntervalSince1970.rounded(.up)))
    }
}

extension ZoneClock {
    /// The clock of a Foundation zone, for reading floating times and dates in it; nil when tzdata does
    /// not know its identifier.
    public init?(_ zone: TimeZone) {
        guard let clock = ZoneClock.iana(zone.identifier) else { return nil }
        self = clock
    }
}

extension CalendarDocument {
    /// Every occurrence of this calendar's events that overlaps `interval`, as Graph's calendarView lists
    /// them: recurrences expanded, overrides and EXDATEs applied, in start order.
    ///
    /// Zoned times are read in their own zones (the document's VTIMEZONEs included); floating times and
    /// all-day dates are read in `timeZone`, the zone the occurrences are shown in (the user's, by default),
    /// so that an all-day event covers that zone's day.
    public func occurrences(
        in interval: DateInterval, timeZone: TimeZone = .current, options: ExpansionOptions = ExpansionOptions()
    ) -> ExpansionResult {
        var diagnostics: [Diagnostic] = []
        let clock = ZoneClock(timeZone)
        if clock == nil {
            diagnostics.append(
                Diagnostic(
                    .warning, code: "unknown-tzid",
                    message: "time zone '\(timeZone.identifier)' is not in tzdata; floating times are read as UTC"))
        }
        var iterator = DocumentOccurrences(
            document: self, window: ExpansionWindow(interval), floating: clock ?? .utc, options: options)
        var occurrences: [Occurrence] = []
        while let occurrence = iterator.next() { occurrences.append(consume occurrence) }
        return ExpansionResult(occurrences: occurrences, diagnostics: diagnostics + iterator.diagnostics)
    }
}

extension Occurrence {
    /// When the occurrence starts, as a Foundation `Date`.
    public var startDate: Date { Date(timeIntervalSince1970: Double(startInstant)) }
    /// When the occurrence ends, as a Foundation `Date`.
    public var endDate: Date { Date(timeIntervalSince1970: Double(endInstant)) }
    /// From start to end, as a Foundation `DateInterval` (empty for an occurrence ending before it starts).
    public var dateInterval: DateInterval { DateInterval(start: startDate, end: max(startDate, endDate)) }
}
