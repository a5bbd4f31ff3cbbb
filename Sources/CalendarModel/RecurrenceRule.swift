/// How often a recurrence repeats (RFC 5545 §3.3.10 FREQ).
public enum RecurrenceFrequency: String, CaseIterable, Hashable, Sendable, Codable {
    /// Every `interval` seconds. Graph has no such pattern (`graph-unsupported-frequency`).
    case secondly = "SECONDLY"
    /// Every `interval` minutes. Graph has no such pattern (`graph-unsupported-frequency`).
    case minutely = "MINUTELY"
    /// Every `interval` hours. Graph has no such pattern (`graph-unsupported-frequency`).
    case hourly = "HOURLY"
    /// Every `interval` days (Graph's `daily` pattern).
    case daily = "DAILY"
    /// Every `interval` weeks (Graph's `weekly` pattern), on ``RecurrenceRule/byDay`` or DTSTART's weekday.
    case weekly = "WEEKLY"
    /// Every `interval` months (Graph's `absoluteMonthly` and `relativeMonthly` patterns).
    case monthly = "MONTHLY"
    /// Every `interval` years (Graph's `absoluteYearly` and `relativeYearly` patterns).
    case yearly = "YEARLY"
}

/// A weekday in a BYDAY list, with its optional ordinal (`-1SU` is the last Sunday).
public struct WeekdayNumber: Hashable, Sendable, Codable {
    /// Which such weekday of the month (MONTHLY) or year (YEARLY): 1 is the first, -1 the last,
    /// within ±53; nil for every such weekday in the period. Graph's `index` `first`…`fourth` and
    /// `last` are 1…4 and -1.
    public var ordinal: Int?
    /// The day of the week (SU, MO, …).
    public var weekday: Weekday

    /// `weekday`, with an ordinal (`WeekdayNumber(.sunday, ordinal: -1)` is `-1SU`) or without one.
    public init(_ weekday: Weekday, ordinal: Int? = nil) {
        self.weekday = weekday
        self.ordinal = ordinal
    }
}

/// Where a recurrence stops: after a count, at an UNTIL time, or never.
public enum RecurrenceEnd: Hashable, Sendable, Codable {
    /// Neither COUNT nor UNTIL: the series goes on for ever (Graph's `noEnd` range).
    case never
    /// COUNT: the number of occurrences in all, the first (DTSTART) included, before EXDATE
    /// removes any (Graph's `numbered` range, `numberOfOccurrences`).
    case count(Int)
    /// UNTIL: the last time an occurrence may start, inclusive. RFC 5545 §3.3.10 has it a date when
    /// DTSTART is a date and a UTC time when DTSTART has a zone. Graph's `endDate` range is the
    /// end of that local date in the series' zone.
    case until(CalendarTime)
}

/// A recurrence rule (RRULE / EXRULE), RFC 5545 §3.3.10, as values rather than text.
public struct RecurrenceRule: Hashable, Sendable, Codable {
    /// The unit the rule repeats in (FREQ, the one required part).
    public var frequency: RecurrenceFrequency
    /// How many units of ``frequency`` lie between repetitions (INTERVAL, a positive integer;
    /// 1, every unit, when the rule does not say): 2 with weekly is every other week.
    public var interval: Int
    /// When the series stops: after COUNT occurrences, at UNTIL, or never.
    public var end: RecurrenceEnd
    /// BYSECOND: the seconds, 0 to 60, occurrences fall on; empty when the rule does not restrict them.
    public var bySecond: [Int]
    /// BYMINUTE: the minutes, 0 to 59, occurrences fall on; empty when the rule does not restrict them.
    public var byMinute: [Int]
    /// BYHOUR: the hours, 0 to 23, occurrences fall on; empty when the rule does not restrict them.
    /// Graph has no time-of-day parts (`graph-unsupported-by-time`).
    public var byHour: [Int]
    /// BYDAY: the weekdays occurrences fall on, each with an optional ordinal (`1TH`, `-1SU`);
    /// empty when the rule does not restrict them. Graph's `daysOfWeek` and `index`.
    public var byDay: [WeekdayNumber]
    /// BYMONTHDAY: the days of the month, 1 to 31, or -31 to -1 counting back from the month's last
    /// day (-1); empty when the rule does not restrict them. Graph's `dayOfMonth`.
    public var byMonthDay: [Int]
    /// BYYEARDAY: the days of the year, 1 to 366, or -366 to -1 counting back from December 31st;
    /// empty when the rule does not restrict them. Graph has none (`graph-unsupported-by-year-day`).
    public var byYearDay: [Int]
    /// BYWEEKNO: the ISO 8601 week numbers, 1 to 53 or -53 to -1, weeks beginning on ``weekStart``
    /// (valid only with YEARLY); empty when the rule does not restrict them. Graph has none.
    public var byWeekNumber: [Int]
    /// BYMONTH: the months, 1 to 12; empty when the rule does not restrict them. Graph's `month`.
    public var byMonth: [Int]
    /// BYSETPOS: which of the times each period's other parts give are occurrences, 1 the first and
    /// -1 the last (`BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1` is the last weekday); empty for all of them.
    public var bySetPosition: [Int]
    /// WKST; nil when the rule does not say (RFC 5545's default is Monday).
    public var weekStart: Weekday?
    /// Rule parts this model does not know (RSCALE, SKIP, X-…), kept in order as name and value.
    public var extraParts: [RecurrenceRulePart]

    /// A rule repeating every `interval` units of `frequency` until `end`, restricted by the BY… parts
    /// given; a part left empty does not restrict.
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
public struct RecurrenceRulePart: Hashable, Sendable, Codable {
    /// The part's name, as in the rule (`RSCALE`, `SKIP`, `X-NAME`).
    public var name: String
    /// The part's value as written after `=`.
    public var value: String

    /// The rule part `name=value`.
    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}

/// One entry of an RDATE: a time, or a period with an end or a duration (`VALUE=PERIOD`).
public enum RecurrenceDate: Hashable, Sendable, Codable {
    /// An occurrence starting at this date or time, lasting as long as the event does.
    case time(CalendarTime)
    /// An occurrence from `start` to `end` (a PERIOD written `start/end`).
    case period(start: CalendarTime, end: CalendarTime)
    /// An occurrence from `start` lasting `duration` (a PERIOD written `start/duration`).
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
public struct RecurrenceIdentifier: Hashable, Sendable, Codable {
    /// The start the replaced occurrence had in the series (not its new start), in the form of the
    /// master's DTSTART: a date for an all-day series, else the same zone or UTC. Graph's
    /// `originalStart`.
    public var time: CalendarTime
    /// Whether the override changes the later occurrences too (`RANGE=THISANDFUTURE`, RFC 5545
    /// §3.8.4.4), not just this one.
    public var thisAndFuture: Bool

    /// The identifier of the occurrence that started at `time`, for it alone unless `thisAndFuture`.
    public init(time: CalendarTime, thisAndFuture: Bool = false) {
        self.time = time
        self.thisAndFuture = thisAndFuture
    }
}
