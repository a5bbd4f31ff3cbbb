/// Operations over every time an event states.
extension Event {
    /// Applies `transform` to every time the event states (start, end, recurrence, timestamps, alarms).
    public mutating func mapTimes(_ transform: (CalendarTime) -> CalendarTime) {
        start = start.map(transform)
        if case .end(let time) = end { end = .end(transform(time)) }
        if let identifier = recurrenceID { recurrenceID?.time = transform(identifier.time) }
        created = created.map(transform)
        lastModified = lastModified.map(transform)
        timestamp = timestamp.map(transform)
        exceptionDates = exceptionDates.map(transform)
        recurrenceDates = recurrenceDates.map { date in
            switch date {
            case .time(let time): return .time(transform(time))
            case .period(let start, let end): return .period(start: transform(start), end: transform(end))
            case .periodWithDuration(let start, let duration):
                return .periodWithDuration(start: transform(start), duration: duration)
            }
        }
        for index in recurrenceRules.indices {
            if case .until(let until) = recurrenceRules[index].end {
                recurrenceRules[index].end = .until(transform(until))
            }
        }
        for index in alarms.indices {
            if case .absolute(let time) = alarms[index].trigger { alarms[index].trigger = .absolute(transform(time)) }
        }
    }
}
