/// A day on the proleptic Gregorian calendar, with no time and no zone.
public struct CalendarDate: Hashable, Comparable, Sendable, Codable {
    /// The year, e.g. 2026.
    public var year: Int
    /// The month, 1 to 12.
    public var month: Int
    /// The day of the month, 1 to 31.
    public var day: Int

    /// The date `year`-`month`-`day`; check `isValid` for dates read from input.
    public init(year: Int, month: Int, day: Int) {
        self.year = year
        self.month = month
        self.day = day
    }

    /// Whether month and day name a real day (February 30th does not).
    public var isValid: Bool {
        (1...12).contains(month) && day >= 1 && day <= CalendarDate.daysIn(month: month, year: year)
    }

    /// Days in `month` of `year`, leap years included.
    public static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Gregorian leap year rule.
    public static func isLeap(_ year: Int) -> Bool {
        (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
    }

    /// Days since 1970-01-01 (negative before), by the civil-from-days algorithm.
    public var daysSinceEpoch: Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let monthIndex = (month + 9) % 12
        let dayOfYear = (153 * monthIndex + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146097 + dayOfEra - 719468
    }

    /// The date `days` days after 1970-01-01.
    public init(daysSinceEpoch days: Int) {
        let z = days + 719468
        let era = (z >= 0 ? z : z - 146096) / 146097
        let dayOfEra = z - era * 146097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        self.init(year: yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month: month, day: day)
    }

    /// The date `count` days later (earlier when negative).
    public func adding(days count: Int) -> CalendarDate {
        CalendarDate(daysSinceEpoch: daysSinceEpoch + count)
    }

    /// The day of the week of this date.
    public var weekday: Weekday {
        // 1970-01-01 was a Thursday.
        let index = ((daysSinceEpoch % 7) + 7 + 4) % 7
        return Weekday.allCases[index]
    }

    public static func < (lhs: CalendarDate, rhs: CalendarDate) -> Bool {
        (lhs.year, lhs.month, lhs.day) < (rhs.year, rhs.month, rhs.day)
    }
}

/// A day of the week, Sunday first as in RFC 5545's BYDAY list.
public enum Weekday: String, CaseIterable, Hashable, Sendable, Codable {
    /// The seven days, Sunday first.
    case sunday, monday, tuesday, wednesday, thursday, friday, saturday

    /// The day's two-letter code in RFC 5545 §3.3.10's recurrence rules (`SU` … `SA`).
    public var code: String {
        switch self {
        case .sunday: "SU"
        case .monday: "MO"
        case .tuesday: "TU"
        case .wednesday: "WE"
        case .thursday: "TH"
        case .friday: "FR"
        case .saturday: "SA"
        }
    }
}

/// A wall-clock date and time with no zone attached.
public struct LocalDateTime: Hashable, Comparable, Sendable, Codable {
    /// The calendar day.
    public var date: CalendarDate
    /// The hour, 0 to 23.
    public var hour: Int
    /// The minute, 0 to 59.
    public var minute: Int
    /// The second, 0 to 60 (60 is a leap second).
    public var second: Int

    /// The wall time `hour`:`minute`:`second` on `date`.
    public init(date: CalendarDate, hour: Int = 0, minute: Int = 0, second: Int = 0) {
        self.date = date
        self.hour = hour
        self.minute = minute
        self.second = second
    }

    /// The wall time on `year`-`month`-`day` at `hour`:`minute`:`second`.
    public init(year: Int, month: Int, day: Int, hour: Int = 0, minute: Int = 0, second: Int = 0) {
        self.init(date: CalendarDate(year: year, month: month, day: day), hour: hour, minute: minute, second: second)
    }

    /// Whether the date is real and the time lies in 00:00:00...23:59:60 (a leap second is allowed).
    public var isValid: Bool {
        date.isValid && (0...23).contains(hour) && (0...59).contains(minute) && (0...60).contains(second)
    }

    /// Seconds since 1970-01-01T00:00:00 reading this wall time as if it were UTC.
    public var secondsSinceEpoch: Int {
        date.daysSinceEpoch * 86_400 + hour * 3_600 + minute * 60 + second
    }

    /// The wall time `seconds` seconds after 1970-01-01T00:00:00.
    public init(secondsSinceEpoch seconds: Int) {
        let days = Self.days(beforeSecondsSinceEpoch: seconds)
        self.init(date: CalendarDate(daysSinceEpoch: days), secondOfDay: seconds - days * 86_400)
    }

    /// `secondOfDay` seconds (0 ..< 86,400) into `date`.
    @inlinable package init(date: CalendarDate, secondOfDay: Int) {
        self.init(date: date, hour: secondOfDay / 3_600, minute: secondOfDay % 3_600 / 60, second: secondOfDay % 60)
    }

    /// The day `seconds` after 1970-01-01T00:00:00 falls on, as days since 1970-01-01 (rounded down).
    package static func days(beforeSecondsSinceEpoch seconds: Int) -> Int {
        seconds >= 0 ? seconds / 86_400 : -((-seconds + 86_399) / 86_400)
    }

    /// This wall time moved by an exact number of seconds, ignoring any zone.
    public func adding(seconds: Int) -> LocalDateTime {
        LocalDateTime(secondsSinceEpoch: secondsSinceEpoch + seconds)
    }

    public static func < (lhs: LocalDateTime, rhs: LocalDateTime) -> Bool {
        (lhs.date, lhs.hour, lhs.minute, lhs.second) < (rhs.date, rhs.hour, rhs.minute, rhs.second)
    }
}

/// A time zone as an input named it, and the IANA zone that name was resolved to.
///
/// The two stay apart so that output can repeat the name a file used while arithmetic uses the
/// IANA rules; `ianaIdentifier` is nil until something (a VTIMEZONE, the zone tables) resolves it.
public struct TimeZoneReference: Hashable, Sendable, Codable {
    /// The name exactly as written: a TZID parameter, a Graph `timeZone` member.
    public var name: String
    /// The IANA id the name stands for, when known.
    public var ianaIdentifier: String?

    /// A reference to the zone `name`, resolved to `ianaIdentifier` when that is known.
    public init(name: String, ianaIdentifier: String? = nil) {
        self.name = name
        self.ianaIdentifier = ianaIdentifier
    }
}

/// When an event happens: one of the four forms RFC 5545 §3.3.4–3.3.5 allows.
public enum CalendarTime: Hashable, Sendable, Codable {
    /// A whole day (`VALUE=DATE`).
    case date(CalendarDate)
    /// A wall time that is the same in every zone (RFC 5545 form #1).
    case floating(LocalDateTime)
    /// An instant, written in UTC (form #2).
    case utc(LocalDateTime)
    /// A wall time in a named zone (form #3).
    case zoned(LocalDateTime, TimeZoneReference)

    /// The calendar day this time falls on, as written.
    public var date: CalendarDate {
        switch self {
        case .date(let date): return date
        case .floating(let local), .utc(let local), .zoned(let local, _): return local.date
        }
    }

    /// The wall time as written; midnight for a date.
    public var localDateTime: LocalDateTime {
        switch self {
        case .date(let date): return LocalDateTime(date: date)
        case .floating(let local), .utc(let local), .zoned(let local, _): return local
        }
    }

    /// Whether this is a whole day rather than a time of day.
    public var isDate: Bool {
        if case .date = self { return true }
        return false
    }

    /// The zone, for a zoned time.
    public var timeZone: TimeZoneReference? {
        if case .zoned(_, let zone) = self { return zone }
        return nil
    }

    /// The same kind of time (same zone, or same floating/UTC/date form) at another wall time.
    public func withLocalDateTime(_ local: LocalDateTime) -> CalendarTime {
        switch self {
        case .date: return .date(local.date)
        case .floating: return .floating(local)
        case .utc: return .utc(local)
        case .zoned(_, let zone): return .zoned(local, zone)
        }
    }
}
