import CalendarModel
import TimeZones

/// Events read before the VTIMEZONE they use could not have it matched to an IANA zone; once the
/// whole calendar is read, those references are resolved as if the VTIMEZONE had come first.
enum ForwardZoneReferences {
    static func resolve(_ document: inout CalendarDocument) {
        let definitions = Dictionary(
            document.timeZones.map { ($0.identifier, $0) }, uniquingKeysWith: { first, _ in first })
        var matches: [String: String?] = [:]
        for index in document.events.indices {
            document.events[index].mapTimes { time in
                guard case .zoned(let local, var zone) = time, zone.ianaIdentifier == nil,
                    let definition = definitions[zone.name]
                else { return time }
                if matches[zone.name] == nil {
                    let year = local.date.year
                    matches[zone.name] = VTimeZoneMatcher.ianaIdentifier(
                        matching: definition, years: (year - 1)...(year + 1))
                }
                zone.ianaIdentifier = matches[zone.name] ?? nil
                return .zoned(local, zone)
            }
        }
    }
}

extension Event {
    /// Applies `transform` to every time the event states.
    mutating func mapTimes(_ transform: (CalendarTime) -> CalendarTime) {
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
