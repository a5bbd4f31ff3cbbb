import CalendarModel

/// The BYDAY / BYMONTHDAY form that names one weekday of a month in several years: the nth, the last,
/// or the first on or after a day (as in tzdata's `Sun>=8`).
enum YearlyPattern: Hashable, Sendable {
    case nth(Int)
    case last
    case onOrAfter(Int)

    /// The simplest pattern that names every one of `dates` (same month and weekday, different years).
    init?(fitting dates: [CalendarDate]) {
        let days = dates.map(\.day)
        let isLast = dates.allSatisfy { $0.day + 7 > CalendarDate.daysIn(month: $0.month, year: $0.year) }
        let ordinals = Set(days.map { ($0 - 1) / 7 + 1 })
        guard let first = days.min(), let latest = days.max() else { return nil }
        if isLast {
            self = .last
        } else if ordinals.count == 1, let ordinal = ordinals.first {
            self = .nth(ordinal)
        } else if latest - first <= 6 && first + 6 <= 28 {
            self = .onOrAfter(first)
        } else {
            return nil
        }
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
