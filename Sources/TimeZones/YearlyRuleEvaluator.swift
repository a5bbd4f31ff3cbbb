import CalendarModel

/// The occurrences of the yearly RRULEs VTIMEZONEs use (BYMONTH with BYDAY ordinals, BYMONTHDAY lists,
/// BYSETPOS, UNTIL, COUNT, INTERVAL), without the full recurrence engine.
///
/// Rules of other frequencies, or without BYMONTH, recur on DTSTART's month as a yearly rule would.
struct YearlyRuleEvaluator: Sendable {
    let rule: RecurrenceRule
    /// The first onset (DTSTART), in the local time before it.
    let start: LocalDateTime
    /// The offset before the onset, for comparing with a UTC UNTIL.
    let offsetFrom: Int

    /// The onsets whose year lies in `years`, in order, local time before the onset.
    func occurrences(in years: ClosedRange<Int>) -> [LocalDateTime] {
        let interval = max(rule.interval, 1)
        var firstYear = max(start.date.year, years.lowerBound)
        var remaining = Int.max
        if case .count(let count) = rule.end {
            // COUNT counts from DTSTART, so the years before the window must be counted too.
            firstYear = start.date.year
            remaining = count
        }
        guard firstYear <= years.upperBound else { return [] }
        var result: [LocalDateTime] = []
        for year in firstYear...years.upperBound where (year - start.date.year) % interval == 0 {
            for onset in onsets(inYear: year) where onset >= start {
                guard isBeforeEnd(onset), remaining > 0 else { return result }
                remaining -= 1
                if years.contains(year) { result.append(onset) }
            }
        }
        return result
    }

    private func onsets(inYear year: Int) -> [LocalDateTime] {
        let months = rule.byMonth.isEmpty ? [start.date.month] : rule.byMonth.sorted()
        var dates = months.flatMap { days(inMonth: $0, year: year) }
        if !rule.bySetPosition.isEmpty {
            dates = rule.bySetPosition.compactMap { position in
                let index = position > 0 ? position - 1 : dates.count + position
                return dates.indices.contains(index) ? dates[index] : nil
            }
        }
        let hour = rule.byHour.first ?? start.hour
        let minute = rule.byMinute.first ?? start.minute
        let second = rule.bySecond.first ?? start.second
        return dates.map { LocalDateTime(date: $0, hour: hour, minute: minute, second: second) }
    }

    private func days(inMonth month: Int, year: Int) -> [CalendarDate] {
        let length = CalendarDate.daysIn(month: month, year: year)
        guard (1...12).contains(month) else { return [] }
        let monthDays = Set(rule.byMonthDay.map { $0 > 0 ? $0 : length + 1 + $0 })
        var days: [CalendarDate] = []
        for day in 1...length {
            let date = CalendarDate(year: year, month: month, day: day)
            if rule.byDay.isEmpty {
                let wanted = monthDays.isEmpty ? [min(start.date.day, length)] : monthDays
                if wanted.contains(day) { days.append(date) }
            } else if monthDays.isEmpty || monthDays.contains(day) {
                if rule.byDay.contains(where: { matches($0, date: date, length: length) }) { days.append(date) }
            }
        }
        return days
    }

    /// Whether `date` is the weekday, and the nth (or nth-from-last) of it in the month when numbered.
    private func matches(_ weekday: WeekdayNumber, date: CalendarDate, length: Int) -> Bool {
        guard date.weekday == weekday.weekday else { return false }
        guard let ordinal = weekday.ordinal, ordinal != 0 else { return true }
        if ordinal > 0 { return (date.day - 1) / 7 + 1 == ordinal }
        return (length - date.day) / 7 + 1 == -ordinal
    }

    private func isBeforeEnd(_ onset: LocalDateTime) -> Bool {
        guard case .until(let until) = rule.end else { return true }
        switch until {
        case .utc(let instant):
            return onset.secondsSinceEpoch - offsetFrom <= instant.secondsSinceEpoch
        case .date(let date):
            return onset.date <= date
        case .floating(let local), .zoned(let local, _):
            return onset <= local
        }
    }
}
