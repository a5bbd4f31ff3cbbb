/// The span an expansion lists occurrences for, as UTC seconds: `start` inclusive, `end` exclusive.
///
/// An occurrence is listed when it overlaps the span, as Graph's calendarView lists them: it starts
/// before `end` and ends after `start`; a zero-length occurrence is listed when it starts in the span.
public struct ExpansionWindow: Hashable, Sendable {
    /// The span's first second, inclusive, as UTC seconds since 1970.
    public var start: Int
    /// The span's end, exclusive, as UTC seconds since 1970.
    public var end: Int

    /// The span from `start` up to `end`, UTC seconds since 1970; ``init(_:)`` makes one from a
    /// Foundation `DateInterval`.
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

    /// Options listing at most `maximumOccurrencesPerSeries` occurrences of each series (nil: all).
    public init(maximumOccurrencesPerSeries: Int? = nil) {
        self.maximumOccurrencesPerSeries = maximumOccurrencesPerSeries
    }
}
