import CalendarModel
import TimeZones

/// The TZIDs calport writes for zones it defines itself.
///
/// A zone the calendar has a VTIMEZONE for is written under the TZID that VTIMEZONE has. One it has
/// none for gets a VTIMEZONE built from tzdata (`TimeZoneCoverage`), and when calport knows its IANA
/// zone, under the IANA id: a Graph `"Pacific Standard Time"` becomes `TZID=America/Los_Angeles`,
/// the name Google, Apple and every tzdata-based reader (khal, Python's zoneinfo) know, and Outlook
/// reads with its VTIMEZONE. Nothing is lost on the way back to Graph: CLDR maps each Windows id to
/// one IANA zone and back (docs/mapping.md, "Time zones in .ics").
struct ZoneNaming {
    /// The TZIDs of the VTIMEZONEs the calendar has (so far, when it is written as it is read).
    var defined: Set<String> = []
    /// `isMicrosoftName` of the zone names asked about: a calendar names a few zones, each on most
    /// events, and the lookup lower-cases the name (a third of writing a Graph event's times).
    private var microsoftNames: [String: Bool] = [:]

    init(defined: Set<String> = []) {
        self.defined = defined
    }

    /// The name `zone` is written under. Only Microsoft's names are replaced: an IANA name stays as
    /// written (`Europe/Kiev`, which a reader with older tzdata knows and `Europe/Kyiv` it may not).
    mutating func writtenZone(_ zone: TimeZoneReference) -> TimeZoneReference {
        guard let iana = zone.ianaIdentifier, iana != zone.name, !defined.contains(zone.name) else { return zone }
        let isMicrosoft: Bool
        if let known = microsoftNames[zone.name] {
            isMicrosoft = known
        } else {
            isMicrosoft = ZoneNaming.isMicrosoftName(zone.name)
            // Bounded: a hostile calendar may name a zone differently on each event.
            if microsoftNames.count < 256 { microsoftNames[zone.name] = isMicrosoft }
        }
        return isMicrosoft ? TimeZoneReference(name: iana, ianaIdentifier: iana) : zone
    }

    /// A Windows id, an Outlook display name or `tzone://Microsoft/Utc`: names tzdata has not.
    static func isMicrosoftName(_ name: String) -> Bool {
        WindowsZones.canonicalWindowsID(name) != nil || WindowsZones.windowsID(forDisplayName: name) != nil
            || name.lowercased() == "tzone://microsoft/utc"
    }

    /// `event` with every zone named as it is written; the event itself when none is renamed, as
    /// for most events, so that writing does not copy them.
    mutating func naming(_ event: Event) -> Event {
        var renames = false
        event.forEachStatedTime { time in
            if !renames, let zone = time.timeZone, writtenZone(zone) != zone { renames = true }
        }
        guard renames else { return event }
        var named = event
        func rename(_ time: CalendarTime) -> CalendarTime {
            guard case .zoned(let local, let zone) = time else { return time }
            return .zoned(local, self.writtenZone(zone))
        }
        named.start = event.start.map(rename)
        if case .end(let end) = event.end { named.end = .end(rename(end)) }
        if let recurrenceID = event.recurrenceID { named.recurrenceID?.time = rename(recurrenceID.time) }
        named.exceptionDates = event.exceptionDates.map(rename)
        named.recurrenceDates = event.recurrenceDates.map { date in
            switch date {
            case .time(let time): return .time(rename(time))
            case .period(let start, let end): return .period(start: rename(start), end: rename(end))
            case .periodWithDuration(let start, let duration):
                return .periodWithDuration(start: rename(start), duration: duration)
            }
        }
        func renameUntil(_ rules: inout [RecurrenceRule]) {
            for index in rules.indices {
                if case .until(let until) = rules[index].end { rules[index].end = .until(rename(until)) }
            }
        }
        renameUntil(&named.recurrenceRules)
        renameUntil(&named.exceptionRules)
        named.created = event.created.map(rename)
        named.lastModified = event.lastModified.map(rename)
        named.timestamp = event.timestamp.map(rename)
        return named
    }

    /// `document` with the events' zones named as they are written.
    static func naming(_ document: CalendarDocument) -> CalendarDocument {
        var naming = ZoneNaming(defined: Set(document.timeZones.map(\.identifier)))
        var named = document
        named.events = document.events.map { naming.naming($0) }
        return named
    }
}
