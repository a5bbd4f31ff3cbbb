import CalendarModel

/// The BYDAY / BYMONTHDAY form that names one weekday of a month in several years: the nth, the last,
/// or the first on or after a day (as in tzdata's `Sun>=8`).
enum YearlyPattern: Hashable, Sendable {
    case nth(Int)
    case last
    case onOrAfter(Int)

    /// What decides the pattern of a set of dates, gathered one date at a time: a run of yearly
    /// transitions asks after each one whether a pattern still fits, and asking again of all the
    /// run's dates made `tz vtimezone --from 1900 --to 5000` take 29 s (quadratic in the years).
    struct Evidence: Sendable {
        private var allInLastWeek: Bool
        private var ordinals: Set<Int>
        private var earliestDay: Int
        private var latestDay: Int

        init(_ date: CalendarDate) {
            allInLastWeek = Self.isInLastWeek(date)
            ordinals = [Self.ordinal(date)]
            (earliestDay, latestDay) = (date.day, date.day)
        }

        mutating func add(_ date: CalendarDate) {
            allInLastWeek = allInLastWeek && Self.isInLastWeek(date)
            ordinals.insert(Self.ordinal(date))
            earliestDay = min(earliestDay, date.day)
            latestDay = max(latestDay, date.day)
        }

        /// The evidence with `date` added.
        func adding(_ date: CalendarDate) -> Evidence {
            var evidence = self
            evidence.add(date)
            return evidence
        }

        /// The last weekday of the month, the nth, or the first on or after a day; nil when none fits.
        var pattern: YearlyPattern? {
            if allInLastWeek { return .last }
            if ordinals.count == 1, let ordinal = ordinals.first { return .nth(ordinal) }
            if latestDay - earliestDay <= 6 && earliestDay + 6 <= 28 { return .onOrAfter(earliestDay) }
            return nil
        }

        private static func isInLastWeek(_ date: CalendarDate) -> Bool {
            date.day + 7 > CalendarDate.daysIn(month: date.month, year: date.year)
        }

        private static func ordinal(_ date: CalendarDate) -> Int { (date.day - 1) / 7 + 1 }
    }

    /// A yearly RRULE recurring on this pattern in `month` on `weekday`.
    func rule(month: Int, weekday: Weekday, end: RecurrenceEnd) -> RecurrenceRule {
        let byDay: WeekdayNumber
        var byMonthDay: [Int] = []
        switch self {
        case .nth(let ordinal):
            byDay = WeekdayNumber(weekday, ordinal: ordinal)
        case .last:
            byDay = WeekdayNumber(weekday, ordinal: -1)
        case .onOrAfter(let day):
            byDay = WeekdayNumber(weekday)
            byMonthDay = Array(day...(day + 6))
        }
        return RecurrenceRule(frequency: .yearly, end: end, byDay: [byDay], byMonthDay: byMonthDay, byMonth: [month])
    }
}
