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
    var defined: Set<String> = [] {
        didSet { (lastAsked, askedBefore) = (.unnamed, .unnamed) }
    }
    /// The two zones last asked about, the last first, and the ones they are written under: a
    /// calendar's events mostly name one or two zones, and comparing two names is cheaper than
    /// hashing one. Two, since events in two zones often alternate (the benchmark's Graph calendar
    /// does: remembering one, each of its events hashed its zone's name again, 1,000 instructions
    /// an event).
    private var lastAsked = Renaming.unnamed
    private var askedBefore = Renaming.unnamed

    /// A zone and the one it is written under. A struct, not a tuple: an optional tuple is copied
    /// and destroyed through the runtime's generic tuple functions (some 400 instructions of each
    /// Graph event written as .ics). And not optional: `if let` on it copied and destroyed both
    /// zones, through value witnesses, for each time asked about (1,600 instructions an event).
    private struct Renaming {
        var zone: TimeZoneReference
        var written: TimeZoneReference

        /// What is known before any zone is asked about: a zone without a name or an IANA id, which
        /// `renamed(_:)` leaves as it is.
        static let unnamed = Renaming(zone: TimeZoneReference(name: ""), written: TimeZoneReference(name: ""))
    }
    /// `isMicrosoftName` of the zone names asked about: a calendar names a few zones, each on most
    /// events, and the lookup lower-cases the name (a third of writing a Graph event's times).
    private var microsoftNames: [String: Bool] = [:]

    init(defined: Set<String> = []) {
        self.defined = defined
    }

    /// The name `zone` is written under. Only Microsoft's names are replaced: an IANA name stays as
    /// written (`Europe/Kiev`, which a reader with older tzdata knows and `Europe/Kyiv` it may not).
    mutating func writtenZone(_ zone: TimeZoneReference) -> TimeZoneReference {
        if lastAsked.zone == zone { return lastAsked.written }
        if askedBefore.zone == zone {
            swap(&lastAsked, &askedBefore)
            return lastAsked.written
        }
        let written = renamed(zone)
        askedBefore = lastAsked
        lastAsked = Renaming(zone: zone, written: written)
        return written
    }

    private mutating func renamed(_ zone: TimeZoneReference) -> TimeZoneReference {
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

    /// Renames, in place, every zone `event` states to the name it is written under. Most events
    /// need none and are left untouched; in place, a renamed one is not copied (an event is a few
    /// dozen references to retain and release).
    mutating func name(_ event: inout Event) {
        var renames = false
        event.forEachStatedTime { time in
            if !renames, let zone = time.timeZone, writtenZone(zone) != zone { renames = true }
        }
        guard renames else { return }
        func rename(_ time: inout CalendarTime) {
            guard case .zoned(let local, let zone) = time else { return }
            time = .zoned(local, writtenZone(zone))
        }
        func rename(_ time: inout CalendarTime?) {
            if !time.isNil { rename(&time!) }
        }
        rename(&event.start)
        if case .end(var end) = event.end {
            rename(&end)
            event.end = .end(end)
        }
        if !event.recurrenceID.isNil { rename(&event.recurrenceID!.time) }
        for index in event.exceptionDates.indices { rename(&event.exceptionDates[index]) }
        for index in event.recurrenceDates.indices {
            switch event.recurrenceDates[index] {
            case .time(var time):
                rename(&time)
                event.recurrenceDates[index] = .time(time)
            case .period(var start, var end):
                rename(&start)
                rename(&end)
                event.recurrenceDates[index] = .period(start: start, end: end)
            case .periodWithDuration(var start, let duration):
                rename(&start)
                event.recurrenceDates[index] = .periodWithDuration(start: start, duration: duration)
            }
        }
        func renameUntil(_ rules: inout [RecurrenceRule]) {
            for index in rules.indices {
                if case .until(var until) = rules[index].end {
                    rename(&until)
                    rules[index].end = .until(until)
                }
            }
        }
        renameUntil(&event.recurrenceRules)
        renameUntil(&event.exceptionRules)
        rename(&event.created)
        rename(&event.lastModified)
        rename(&event.timestamp)
    }

    /// Names the zones of `document`'s events as they are written, in place: an event held by no
    /// one else is renamed where it is, where a copy of the document copied every event renamed (a
    /// Graph calendar's Windows zones are renamed on every event).
    static func name(_ document: inout CalendarDocument) {
        var naming = ZoneNaming(defined: Set(document.timeZones.map(\.identifier)))
        for index in document.events.indices { naming.name(&document.events[index]) }
    }
}
