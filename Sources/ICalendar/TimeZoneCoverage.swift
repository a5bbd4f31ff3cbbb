import CalendarModel
import TimeZones

/// The VTIMEZONEs a calendar needs: Outlook reads a TZID only when the file defines it, so every
/// zone the events use without a definition gets one, built from tzdata over the years they cover.
enum TimeZoneCoverage {
    static func missingDefinitions(for document: CalendarDocument) -> [TimeZoneDefinition] {
        let defined = Set(document.timeZones.map(\.identifier))
        var years: [String: (zone: TimeZoneReference, range: ClosedRange<Int>)] = [:]
        for event in document.events {
            for time in event.zonedTimes {
                guard case .zoned(let local, let zone) = time, !defined.contains(zone.name), zone.ianaIdentifier != nil
                else { continue }
                let year = local.date.year
                let known = years[zone.name]?.range ?? year...year
                years[zone.name] = (zone, min(known.lowerBound, year)...max(known.upperBound, year))
            }
        }
        return years.keys.sorted().compactMap { name in
            guard let entry = years[name], let identifier = entry.zone.ianaIdentifier,
                let rules = ZoneRules(ianaIdentifier: identifier, years: entry.range)
            else { return nil }
            return VTimeZoneBuilder.definition(identifier: name, rules: rules, years: entry.range)
        }
    }
}

extension Event {
    /// Every time the event states, for finding the zones and years it uses.
    var zonedTimes: [CalendarTime] {
        var times = [start, recurrenceID?.time, created, lastModified, timestamp].compactMap { $0 }
        if case .end(let end) = end { times.append(end) }
        times += exceptionDates + recurrenceDates.map(\.start)
        for rule in recurrenceRules + exceptionRules {
            if case .until(let until) = rule.end { times.append(until) }
        }
        return times
    }
}
