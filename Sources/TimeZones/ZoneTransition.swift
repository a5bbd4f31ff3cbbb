import CalendarModel

/// One change of a zone's UTC offset, at an instant.
public struct ZoneTransition: Hashable, Sendable {
    /// The instant of the change, in seconds since 1970-01-01T00:00:00Z.
    public var utcSeconds: Int
    /// Seconds east of UTC before the change.
    public var offsetBefore: Int
    /// Seconds east of UTC after the change.
    public var offsetAfter: Int
    /// Whether the offset after the change is daylight saving time.
    public var isDaylightSaving: Bool

    /// A transition at `utcSeconds` from one offset to another.
    public init(utcSeconds: Int, offsetBefore: Int, offsetAfter: Int, isDaylightSaving: Bool) {
        self.utcSeconds = utcSeconds
        self.offsetBefore = offsetBefore
        self.offsetAfter = offsetAfter
        self.isDaylightSaving = isDaylightSaving
    }

    /// The wall time at which the change happens, read on the clock before it.
    public var localOnset: LocalDateTime { LocalDateTime(secondsSinceEpoch: utcSeconds + offsetBefore) }
}

/// UTC instants of year boundaries, as transition windows are given in years.
enum YearBounds {
    /// Seconds at 00:00:00Z on 1 January of `year`.
    static func start(of year: Int) -> Int {
        CalendarDate(year: year, month: 1, day: 1).daysSinceEpoch * 86_400
    }

    /// The UTC instants from the start of the first year to the start of the year after the last.
    static func range(_ years: ClosedRange<Int>) -> Range<Int> {
        start(of: years.lowerBound)..<start(of: years.upperBound + 1)
    }

    /// The UTC year an instant falls in.
    static func year(at seconds: Int) -> Int {
        LocalDateTime(secondsSinceEpoch: seconds).date.year
    }
}
