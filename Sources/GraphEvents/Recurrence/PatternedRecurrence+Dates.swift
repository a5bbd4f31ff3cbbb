import CalendarModel

extension PatternedRecurrence {
    /// The local dates of the series' occurrences, in order, from `startDate` through `last` (and
    /// the range's own end), as Graph expands them: the first is the first day on or after
    /// `startDate` that fits the pattern; a numbered range counts from there.
    func dates(through last: CalendarDate) -> [CalendarDate] {
        let end = rangeType == .endDate ? min(endDate ?? last, last) : last
        let first = firstOccurrence(onOrAfter: startDate)
        var found: [CalendarDate] = []
        var day = first
        while day <= end && (rangeType != .numbered || found.count < numberOfOccurrences) {
            if fits(day, first: first) { found.append(day) }
            day = day.adding(days: 1)
        }
        return found
    }

    /// Whether `day` is an occurrence of a series whose first occurrence is `first`.
    private func fits(_ day: CalendarDate, first: CalendarDate) -> Bool {
        switch type {
        case .daily:
            return (day.daysSinceEpoch - first.daysSinceEpoch) % interval == 0
        case .weekly:
            let weeks = (weekStart(day).daysSinceEpoch - weekStart(first).daysSinceEpoch) / 7
            return weeks % interval == 0 && daysOfWeek.contains(day.weekday)
        case .absoluteMonthly, .relativeMonthly:
            let months = (day.year - first.year) * 12 + day.month - first.month
            return months % interval == 0 && occurrence(year: day.year, month: day.month) == day
        case .absoluteYearly, .relativeYearly:
            return (day.year - first.year) % interval == 0 && day.month == month
                && occurrence(year: day.year, month: day.month) == day
        }
    }

    /// The longest gap, in days, between two neighbouring occurrences of the pattern.
    var periodDays: Int {
        switch type {
        case .daily: return interval
        case .weekly: return 7 * interval
        case .absoluteMonthly, .relativeMonthly: return 31 * interval
        case .absoluteYearly, .relativeYearly: return 366 * interval
        }
    }
}
