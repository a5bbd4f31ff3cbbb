import CalendarModel

/// Why a recurrence cannot be written to Graph: a stable diagnostic code and a reason.
struct GraphRecurrenceRefusal: Error, Hashable {
    let code: String
    let reason: String
}

extension RecurrenceRule {
    /// The Graph pattern for this rule on a series starting `start`, and the range type (the
    /// endDate, which needs the zone, is left to the caller); or why Graph cannot hold it.
    func graphRecurrence(start: CalendarDate) throws(GraphRecurrenceRefusal) -> PatternedRecurrence {
        try checkGraphCanHold()
        var recurrence: PatternedRecurrence
        switch frequency {
        case .daily where byDay.isEmpty:
            recurrence = PatternedRecurrence(type: .daily, startDate: start)
        case .daily, .weekly:
            // DAILY;BYDAY=MO,TU is WEEKLY;BYDAY=MO,TU when every week counts.
            if frequency == .daily && interval != 1 {
                throw refusal(
                    "graph-unsupported-combination", "Graph cannot repeat on chosen weekdays every \(interval) days")
            }
            if !byMonthDay.isEmpty || !bySetPosition.isEmpty || byDay.contains(where: { $0.ordinal != nil }) {
                throw refusal("graph-unsupported-combination", "a Graph weekly pattern takes plain weekdays only")
            }
            recurrence = PatternedRecurrence(type: .weekly, startDate: start)
            recurrence.daysOfWeek = byDay.isEmpty ? [start.weekday] : byDay.map(\.weekday)
            recurrence.firstDayOfWeek = weekStart ?? .monday
        case .monthly:
            recurrence = try monthlyOrYearly(start: start, absolute: .absoluteMonthly, relative: .relativeMonthly)
        case .yearly:
            recurrence = try monthlyOrYearly(start: start, absolute: .absoluteYearly, relative: .relativeYearly)
            recurrence.month = byMonth.first ?? start.month
        case .hourly, .minutely, .secondly:
            throw refusal("graph-unsupported-frequency", "Graph repeats daily at most often")
        }
        recurrence.interval = interval
        try checkGraphKeepsDays(recurrence, start: start)
        switch end {
        case .never: recurrence.rangeType = .noEnd
        case .count(let count):
            recurrence.rangeType = .numbered
            recurrence.numberOfOccurrences = count
        case .until: recurrence.rangeType = .endDate
        }
        return recurrence
    }

    /// The rule parts Graph has no room for, checked before the shape of the pattern.
    private func checkGraphCanHold() throws(GraphRecurrenceRefusal) {
        if !bySecond.isEmpty || !byMinute.isEmpty || !byHour.isEmpty {
            throw refusal(
                "graph-unsupported-by-time", "Graph repeats at the start time only (BYHOUR, BYMINUTE, BYSECOND)")
        }
        if !byWeekNumber.isEmpty {
            throw refusal("graph-unsupported-by-week-number", "Graph has no week-number pattern (BYWEEKNO)")
        }
        if !byYearDay.isEmpty {
            throw refusal("graph-unsupported-by-year-day", "Graph has no day-of-year pattern (BYYEARDAY)")
        }
        if let part = extraParts.first {
            throw refusal("graph-unsupported-rule-part", "Graph has no equivalent of \(part.name)")
        }
        if byMonth.count > 1 {
            throw refusal("graph-unsupported-by-month", "Graph repeats in one month of the year only")
        }
        if !byMonth.isEmpty && frequency != .yearly {
            throw refusal("graph-unsupported-by-month", "Graph can limit only a yearly pattern to a month")
        }
        let limit = frequency == .daily ? 999 : 99
        if !(1...limit).contains(interval) {
            throw refusal(
                "graph-interval-out-of-range", "Graph accepts an interval of 1 to \(limit) for this frequency")
        }
        // The first in the rule's order: taken from a `Set`, which one was named changed from run to run.
        if let bad = (byDay.compactMap(\.ordinal) + bySetPosition).first(where: { ![1, 2, 3, 4, -1].contains($0) }) {
            throw refusal(
                "graph-unsupported-ordinal", "Graph picks the first to fourth or the last weekday, not position \(bad)")
        }
        if bySetPosition.count > 1 {
            throw refusal("graph-unsupported-ordinal", "Graph picks one position per period (BYSETPOS)")
        }
    }

    private func monthlyOrYearly(
        start: CalendarDate, absolute: PatternedRecurrence.PatternType, relative: PatternedRecurrence.PatternType
    ) throws(GraphRecurrenceRefusal) -> PatternedRecurrence {
        if !byDay.isEmpty {
            guard byMonthDay.isEmpty else {
                throw refusal("graph-unsupported-combination", "Graph cannot combine weekdays with days of the month")
            }
            if frequency == .yearly && byMonth.isEmpty {
                throw refusal("graph-unsupported-combination", "Graph picks weekdays within a month, not within a year")
            }
            var recurrence = PatternedRecurrence(type: relative, startDate: start)
            recurrence.daysOfWeek = byDay.map(\.weekday)
            let ordinals = Set(byDay.map(\.ordinal))
            if byDay.count == 1, let ordinal = byDay[0].ordinal, bySetPosition.isEmpty {
                recurrence.index = ordinal
            } else if ordinals == [nil], let position = bySetPosition.first {
                recurrence.index = position
            } else {
                throw refusal(
                    "graph-unsupported-by-day",
                    "Graph picks one position among the weekdays, e.g. BYDAY=TH,FR;BYSETPOS=1")
            }
            return recurrence
        }
        var recurrence = PatternedRecurrence(type: absolute, startDate: start)
        recurrence.dayOfMonth = try graphDayOfMonth(start: start)
        return recurrence
    }

    /// One BYMONTHDAY; -1 or "the last of 28…N" (how this module writes Graph's day 29–31) is day N
    /// moved back in shorter months, which is what Graph does with it.
    private func graphDayOfMonth(start: CalendarDate) throws(GraphRecurrenceRefusal) -> Int {
        let days = byMonthDay
        if days.isEmpty && bySetPosition.isEmpty { return start.day }
        if days.count == 1 && bySetPosition.isEmpty {
            if (1...31).contains(days[0]) { return days[0] }
            if days[0] == -1 { return 31 }
        }
        if let last = days.last, days.count > 1, last <= 31, days == Array(28...max(28, last)), bySetPosition == [-1] {
            return last
        }
        if days.count > 1 {
            throw refusal("graph-unsupported-by-month-day", "Graph repeats on one day of the month only")
        }
        throw refusal(
            "graph-unsupported-by-month-day",
            "Graph has no day \(days.map(String.init).joined(separator: ",")) of the month")
    }

    /// Graph moves an absolute day 29 to 31 to the last day of a shorter month (and 29 February to
    /// the 28th), where the RRULE skips that month (RFC 5545 §3.3.10: invalid dates are ignored). The
    /// pattern is kept only when no month the series passes through, over its whole range (twenty
    /// years for an endless one), is shorter than the day.
    private func checkGraphKeepsDays(_ recurrence: PatternedRecurrence, start: CalendarDate)
        throws(GraphRecurrenceRefusal)
    {
        guard recurrence.type == .absoluteMonthly || recurrence.type == .absoluteYearly else { return }
        let day = recurrence.dayOfMonth
        // Day 31 written for "the last day" (BYMONTHDAY=-1, or 28…31 with BYSETPOS=-1) is what Graph means.
        let ruleDays = byMonthDay.isEmpty ? [start.day] : byMonthDay
        guard day >= 29, ruleDays == [day] else { return }
        let stepMonths = interval * (recurrence.type == .absoluteYearly ? 12 : 1)
        let firstMonth = recurrence.type == .absoluteYearly ? recurrence.month : start.month
        var months = start.year * 12 + firstMonth - 1
        var remaining = Int.max
        var lastMonth = (start.year + 20) * 12 + start.month - 1
        switch end {
        case .count(let count): remaining = count
        case .until(let until): lastMonth = until.date.year * 12 + until.date.month - 1
        case .never: break
        }
        while remaining > 0 && (months <= lastMonth || remaining != .max) && months < 10_000 * 12 {
            let (year, month) = (months / 12, months % 12 + 1)
            let length = CalendarDate.daysIn(month: month, year: year)
            months += stepMonths
            // Graph's first occurrence is the first fitting day on or after the start.
            guard CalendarDate(year: year, month: month, day: Swift.min(day, length)) >= start else { continue }
            if length < day {
                throw refusal(
                    "graph-pattern-differs",
                    "Graph would put day \(day) on \(year)-\(month < 10 ? "0" : "")\(month)-\(length), a month the RRULE skips"
                )
            }
            if remaining != .max { remaining -= 1 }
        }
    }

    private func refusal(_ code: String, _ reason: String) -> GraphRecurrenceRefusal {
        GraphRecurrenceRefusal(code: code, reason: reason)
    }
}
