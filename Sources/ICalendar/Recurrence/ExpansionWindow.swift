/// The span an expansion lists occurrences for, as UTC seconds: `start` inclusive, `end` exclusive.
///
/// An occurrence is listed when it overlaps the span, as Graph's calendarView lists them: it starts
/// before `end` and ends after `start`; a zero-length occurrence is listed when it starts in the span.
public struct ExpansionWindow: Hashable, Sendable {
    public var start: Int
    public var end: Int

    public init(start: Int, end: Int) {
        self.start = start
        self.end = end
    }

    /// Whether an occurrence from `start` to `end` (UTC seconds) is listed.
    public func overlaps(start occurrenceStart: Int, end occurrenceEnd: Int) -> Bool {
        guard occurrenceStart < end else { return false }
        return occurrenceEnd > start || (occurrenceEnd <= occurrenceStart && occurrenceStart >= start)
    }
}

/// Settings of an expansion besides the window.
public struct ExpansionOptions: Hashable, Sendable {
    /// At most this many occurrences per series; reaching it is reported as an `occurrence-cap` warning.
    /// Nil lists every occurrence in the window.
    public var maximumOccurrencesPerSeries: Int?

    public init(maximumOccurrencesPerSeries: Int? = nil) {
        self.maximumOccurrencesPerSeries = maximumOccurrencesPerSeries
    }
}
