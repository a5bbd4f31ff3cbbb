import CalendarModel
import TimeZones

/// The VTIMEZONEs a calendar needs: Outlook reads a TZID only when the file defines it, so every
/// zone the events use without a definition gets one, built from tzdata over the years they cover.
struct TimeZoneCoverage {
    private var defined: Set<String> = []
    private var used: [String: (zone: TimeZoneReference, years: ClosedRange<Int>)] = [:]
    /// The last few zones noted, with the years `used` has for them: most times are in a zone and
    /// year just noted, and finding them here spares hashing the zone's name, which profiling put
    /// at 800 instructions a time.
    private var recent: [(name: String, years: ClosedRange<Int>)] = []
    private var nextRecent = 0
    private static let recentCount = 4

    /// Notes a definition the calendar has.
    mutating func define(_ identifier: String) {
        defined.insert(identifier)
    }

    /// Notes what `other` noted too: the union of the definitions, each zone over the years of both.
    mutating func merge(_ other: TimeZoneCoverage) {
        defined.formUnion(other.defined)
        used.merge(other.used) { mine, theirs in (mine.zone, mine.years.widened(to: theirs.years)) }
        recent = []
        nextRecent = 0
    }

    /// Notes the zones and years an event uses.
    mutating func note(_ event: Event) {
        event.forEachStatedTime { time in
            guard case .zoned(let local, let zone) = time, zone.ianaIdentifier != nil else { return }
            let year = local.date.year
            if recent.contains(where: { $0.name == zone.name && $0.years.contains(year) }) { return }
            let known = used[zone.name]?.years
            if let known, known.contains(year) { return remember(zone.name, known) }
            let years = known.widened(to: year...year)
            used[zone.name] = (zone, years)
            remember(zone.name, years)
        }
    }

    private mutating func remember(_ name: String, _ years: ClosedRange<Int>) {
        if let index = recent.firstIndex(where: { $0.name == name }) {
            recent[index].years = years
        } else if recent.count < TimeZoneCoverage.recentCount {
            recent.append((name, years))
        } else {
            recent[nextRecent] = (name, years)
            nextRecent = (nextRecent + 1) % TimeZoneCoverage.recentCount
        }
    }

    /// tzdata states no rule changes beyond this year: the rules in force then recur without end.
    static let lastRuleYear = 2100

    /// Definitions, from tzdata, of the zones used but not defined.
    var missingDefinitions: [TimeZoneDefinition] {
        used.keys.sorted().compactMap { name in
            guard !defined.contains(name), let entry = used[name], let identifier = entry.zone.ianaIdentifier else {
                return nil
            }
            // Later years add nothing to the definition (its last rules have no UNTIL) but time: a date
            // in year 9999 would otherwise cost minutes of building.
            let years =
                entry.years.lowerBound...max(entry.years.lowerBound, min(entry.years.upperBound, Self.lastRuleYear))
            guard let rules = ZoneRules(ianaIdentifier: identifier, years: years) else { return nil }
            return VTimeZoneBuilder.definition(identifier: name, rules: rules, years: years)
        }
    }

    static func missingDefinitions(for document: CalendarDocument) -> [TimeZoneDefinition] {
        var coverage = TimeZoneCoverage()
        for zone in document.timeZones { coverage.define(zone.identifier) }
        for event in document.events { coverage.note(event) }
        return coverage.missingDefinitions
    }
}

extension Event {
    /// Calls `body` with every time the event states, for finding the zones and years it uses.
    func forEachStatedTime(_ body: (CalendarTime) -> Void) {
        if let start { body(start) }
        if let time = recurrenceID?.time { body(time) }
        if let created { body(created) }
        if let lastModified { body(lastModified) }
        if let timestamp { body(timestamp) }
        if case .end(let end) = end { body(end) }
        for date in exceptionDates { body(date) }
        for date in recurrenceDates { body(date.start) }
        for rule in recurrenceRules { if case .until(let until) = rule.end { body(until) } }
        for rule in exceptionRules { if case .until(let until) = rule.end { body(until) } }
    }
}
