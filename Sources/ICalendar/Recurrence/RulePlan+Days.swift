import CalendarModel

/// Which days a plan keeps: BYMONTH, BYWEEKNO, BYYEARDAY, BYMONTHDAY and BYDAY, applied to one day.
///
/// Expanding and limiting come to the same test once a period's days are walked one by one: a day of a
/// YEARLY period is kept when every part the rule gives holds for it (RFC 5545 §3.3.10's table, with
/// the defaults already taken from DTSTART).
extension RulePlan {
    /// Whether the day `days` (since 1970-01-01) of `month`/`day` in `year` passes every day-level part.
    func keeps(days: Int, year: Int, month: Int, day: Int) -> Bool {
        if let months, !months[month] { return false }
        let daysInMonth = CalendarDate.daysIn(month: month, year: year)
        if !monthDays.isEmpty && !monthDays.contains(where: { $0 > 0 ? $0 == day : daysInMonth + $0 + 1 == day }) {
            return false
        }
        let needsYearDay = !yearDays.isEmpty || (!ordinalWeekdays.isEmpty && !ordinalsCountInMonth)
        var dayOfYear = 0
        var daysInYear = 365
        if needsYearDay {
            let firstOfYear = CalendarDate(year: year, month: 1, day: 1).daysSinceEpoch
            dayOfYear = days - firstOfYear + 1
            daysInYear = CalendarDate.isLeap(year) ? 366 : 365
            if !yearDays.isEmpty
                && !yearDays.contains(where: { $0 > 0 ? $0 == dayOfYear : daysInYear + $0 + 1 == dayOfYear })
            {
                return false
            }
        }
        if !weekNumbers.isEmpty && !matchesWeekNumber(days: days, year: year) { return false }
        guard plainWeekdays != 0 || !ordinalWeekdays.isEmpty else { return true }
        let weekday = RulePlan.weekday(ofDay: days)
        if plainWeekdays & (1 << UInt8(weekday)) != 0 { return true }
        let (position, span) = ordinalsCountInMonth ? (day, daysInMonth) : (dayOfYear, daysInYear)
        let fromStart = (position - 1) / 7 + 1
        let fromEnd = -((span - position) / 7 + 1)
        return ordinalWeekdays.contains { $0.weekday == weekday && ($0.ordinal == fromStart || $0.ordinal == fromEnd) }
    }

    /// BYWEEKNO with WKST: week 1 is the first week with at least four days in the year (RFC 5545 §3.3.10).
    /// Days before a year's week 1 belong to the previous year's last week, and late December days to
    /// the next year's week 1, as python-dateutil and libical count them.
    private func matchesWeekNumber(days: Int, year: Int) -> Bool {
        let thisYear = firstWeekStart(year)
        let nextYear = firstWeekStart(year + 1)
        if days < thisYear {
            let weeks = (thisYear - firstWeekStart(year - 1)) / 7
            return weekNumbers.contains { $0 == weeks || $0 == -1 }
        }
        if days >= nextYear {
            let weeks = (firstWeekStart(year + 2) - nextYear) / 7
            return weekNumbers.contains { $0 == 1 || $0 == -weeks }
        }
        let number = (days - thisYear) / 7 + 1
        let weeks = (nextYear - thisYear) / 7
        return weekNumbers.contains { $0 == number || $0 == number - weeks - 1 }
    }

    /// The first day of week 1 of `year`: the WKST-started week holding January 4th.
    private func firstWeekStart(_ year: Int) -> Int {
        let fourth = CalendarDate(year: year, month: 1, day: 4).daysSinceEpoch
        return fourth - (RulePlan.weekday(ofDay: fourth) - weekStart + 7) % 7
    }

    /// Appends the kept days of `month` in `year` to `days`.
    func collectDays(year: Int, month: Int, into days: inout [Int]) {
        if let months, !months[month] { return }
        let first = CalendarDate(year: year, month: month, day: 1).daysSinceEpoch
        for day in 1...CalendarDate.daysIn(month: month, year: year)
        where keeps(
            days: first + day - 1, year: year, month: month, day: day)
        {
            days.append(first + day - 1)
        }
    }

    /// Appends the kept days among `count` consecutive days from `firstDay` to `days`.
    func collectDays(from firstDay: Int, count: Int, into days: inout [Int]) {
        var date = CalendarDate(daysSinceEpoch: firstDay)
        for offset in 0..<count {
            if offset > 0 {
                date =
                    date.day < CalendarDate.daysIn(month: date.month, year: date.year)
                    ? CalendarDate(year: date.year, month: date.month, day: date.day + 1)
                    : CalendarDate(daysSinceEpoch: firstDay + offset)
            }
            if keeps(days: firstDay + offset, year: date.year, month: date.month, day: date.day) {
                days.append(firstDay + offset)
            }
        }
    }
}
