import CalendarModel

extension PatternedRecurrence {
    /// The RRULE with the same occurrences. `until` is the UNTIL for an endDate range, worked out
    /// by the caller, which knows the series' zone.
    func recurrenceRule(until: CalendarTime?) -> RecurrenceRule {
        var rule: RecurrenceRule
        switch type {
        case .daily:
            rule = RecurrenceRule(frequency: .daily)
        case .weekly:
            rule = RecurrenceRule(
                frequency: .weekly, byDay: daysOfWeek.map { WeekdayNumber($0) }, weekStart: firstDayOfWeek)
        case .absoluteMonthly:
            rule = RecurrenceRule(frequency: .monthly)
            setMonthDay(dayOfMonth, in: &rule)
        case .relativeMonthly:
            rule = RecurrenceRule(frequency: .monthly)
            setRelativeDays(in: &rule)
        case .absoluteYearly:
            rule = RecurrenceRule(frequency: .yearly, byMonth: [month])
            setMonthDay(dayOfMonth, in: &rule)
        case .relativeYearly:
            rule = RecurrenceRule(frequency: .yearly, byMonth: [month])
            setRelativeDays(in: &rule)
        }
        rule.interval = interval
        switch rangeType {
        case .noEnd: rule.end = .never
        case .numbered: rule.end = .count(numberOfOccurrences)
        case .endDate: rule.end = until.map(RecurrenceEnd.until) ?? .never
        }
        return rule
    }

    /// Graph (like Outlook) moves day 29–31 to the last day of a shorter month, where RFC 5545's
    /// BYMONTHDAY=31 would skip it; "the last of days 28…31 that exist" says the same in RFC terms.
    private func setMonthDay(_ day: Int, in rule: inout RecurrenceRule) {
        if day > 28 {
            rule.byMonthDay = Array(28...day)
            rule.bySetPosition = [-1]
        } else {
            rule.byMonthDay = [day]
        }
    }

    /// One day is `BYDAY=1TH`; several are a set to pick from (`BYDAY=TH,FR;BYSETPOS=1`), since
    /// `1TH,1FR` would mean both the first Thursday and the first Friday.
    private func setRelativeDays(in rule: inout RecurrenceRule) {
        if daysOfWeek.count == 1 {
            rule.byDay = [WeekdayNumber(daysOfWeek[0], ordinal: index)]
        } else {
            rule.byDay = daysOfWeek.map { WeekdayNumber($0) }
            rule.bySetPosition = [index]
        }
    }

    /// The first date on or after `anchor` that the pattern produces (RFC 5545 counts DTSTART as an
    /// occurrence whether or not it matches, so DTSTART must be this date).
    func firstOccurrence(onOrAfter anchor: CalendarDate) -> CalendarDate {
        switch type {
        case .daily:
            return anchor
        case .weekly:
            let weekOfAnchor = weekStart(anchor).daysSinceEpoch
            for offset in 0..<(7 * interval + 7) {
                let day = anchor.adding(days: offset)
                let weeks = (weekStart(day).daysSinceEpoch - weekOfAnchor) / 7
                if weeks % interval == 0 && daysOfWeek.contains(day.weekday) { return day }
            }
            return anchor
        case .absoluteMonthly, .relativeMonthly, .absoluteYearly, .relativeYearly:
            let monthsPerStep = type == .absoluteMonthly || type == .relativeMonthly ? interval : 12 * interval
            let firstMonth = type == .absoluteMonthly || type == .relativeMonthly ? anchor.month : month
            // Every period has an occurrence, so the anchor's period or the next one holds the first.
            for step in 0..<2 {
                let months = anchor.year * 12 + firstMonth - 1 + step * monthsPerStep
                let candidate = occurrence(year: months / 12, month: months % 12 + 1)
                if candidate >= anchor { return candidate }
            }
            return anchor
        }
    }

    /// The occurrence in one month of a monthly or yearly pattern.
    func occurrence(year: Int, month: Int) -> CalendarDate {
        let length = CalendarDate.daysIn(month: month, year: year)
        if type == .absoluteMonthly || type == .absoluteYearly {
            return CalendarDate(year: year, month: month, day: min(dayOfMonth, length))
        }
        let matching = (1...length).map { CalendarDate(year: year, month: month, day: $0) }.filter {
            daysOfWeek.contains($0.weekday)
        }
        return index == -1 ? matching.last! : matching[min(index, matching.count) - 1]
    }

    /// The first day of the week holding `date`, by `firstDayOfWeek`.
    func weekStart(_ date: CalendarDate) -> CalendarDate {
        let position = Weekday.allCases.firstIndex(of: date.weekday)!
        let first = Weekday.allCases.firstIndex(of: firstDayOfWeek)!
        return date.adding(days: -((position - first + 7) % 7))
    }
}
