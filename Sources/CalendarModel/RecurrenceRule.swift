/// How often a recurrence repeats (RFC 5545 §3.3.10 FREQ).
public enum RecurrenceFrequency: String, CaseIterable, Hashable, Sendable {
    case secondly = "SECONDLY"
    case minutely = "MINUTELY"
    case hourly = "HOURLY"
    case daily = "DAILY"
    case weekly = "WEEKLY"
    case monthly = "MONTHLY"
    case yearly = "YEARLY"
}

/// A weekday in a BYDAY list, with its optional ordinal (`-1SU` is the last Sunday).
public struct WeekdayNumber: Hashable, Sendable {
    public var ordinal: Int?
    public var weekday: Weekday

    public init(_ weekday: Weekday, ordinal: Int? = nil) {
        self.weekday = weekday
        self.ordinal = ordinal
    }
}

/// Where a recurrence stops: after a count, at an UNTIL time, or never.
public enum RecurrenceEnd: Hashable, Sendable {
    case never
    case count(Int)
    case until(CalendarTime)
}

/// A recurrence rule (RRULE / EXRULE), RFC 5545 §3.3.10, as values rather than text.
public struct RecurrenceRule: Hashable, Sendable {
    public var frequency: RecurrenceFrequency
    public var interval: Int
    public var end: RecurrenceEnd
    public var bySecond: [Int]
    public var byMinute: [Int]
    public var byHour: [Int]
    public var byDay: [WeekdayNumber]
    public var byMonthDay: [Int]
    public var byYearDay: [Int]
    public var byWeekNumber: [Int]
    public var byMonth: [Int]
    public var bySetPosition: [Int]
    /// WKST; nil when the rule does not say (RFC 5545's default is Monday).
    public var weekStart: Weekday?
    /// Rule parts this model does not know (RSCALE, SKIP, X-…), kept in order as name and value.
    public var extraParts: [RecurrenceRulePart]

    public init(
        frequency: RecurrenceFrequency, interval: Int = 1, end: RecurrenceEnd = .never,
        bySecond: [Int] = [], byMinute: [Int] = [], byHour: [Int] = [], byDay: [WeekdayNumber] = [],
        byMonthDay: [Int] = [], byYearDay: [Int] = [], byWeekNumber: [Int] = [], byMonth: [Int] = [],
        bySetPosition: [Int] = [], weekStart: Weekday? = nil, extraParts: [RecurrenceRulePart] = []
    ) {
        self.frequency = frequency
        self.interval = interval
        self.end = end
        self.bySecond = bySecond
        self.byMinute = byMinute
        self.byHour = byHour
        self.byDay = byDay
        self.byMonthDay = byMonthDay
        self.byYearDay = byYearDay
        self.byWeekNumber = byWeekNumber
        self.byMonth = byMonth
        self.bySetPosition = bySetPosition
        self.weekStart = weekStart
        self.extraParts = extraParts
    }
}

/// One `NAME=VALUE` part of a recurrence rule that the model does not interpret.
public struct RecurrenceRulePart: Hashable, Sendable {
    public var name: String
    public var value: String

    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}

/// One entry of an RDATE: a time, or a period with an end or a duration (`VALUE=PERIOD`).
public enum RecurrenceDate: Hashable, Sendable {
    case time(CalendarTime)
    case period(start: CalendarTime, end: CalendarTime)
    case periodWithDuration(start: CalendarTime, duration: EventDuration)

    /// The start of the occurrence this entry adds.
    public var start: CalendarTime {
        switch self {
        case .time(let time): return time
        case .period(let start, _), .periodWithDuration(let start, _): return start
        }
    }
}

/// The RECURRENCE-ID of an override: the original start it replaces and whether it applies to the
/// later occurrences too (`RANGE=THISANDFUTURE`).
public struct RecurrenceIdentifier: Hashable, Sendable {
    public var time: CalendarTime
    public var thisAndFuture: Bool

    public init(time: CalendarTime, thisAndFuture: Bool = false) {
        self.time = time
        self.thisAndFuture = thisAndFuture
    }
}
