import CalendarModel

/// A part of a calendar read on its own, beside readers of the parts before and after it: where it
/// begins in the whole input (its first byte's offset and line), and whether a calendar is open at
/// its start and still open at its end. Its readers give offsets and lines as a reader of the whole
/// input does, and report no calendar begun or left unfinished at a cut.
package struct CalendarPart: Sendable {
    /// The offset in the whole input of the part's first byte.
    package var offset: Int
    /// The line the part's first byte is on.
    package var line: Int
    /// Whether the part begins inside a BEGIN:VCALENDAR its reader does not see.
    package var startsInsideCalendar: Bool
    /// Whether the part ends inside a calendar whose END:VCALENDAR its reader does not see.
    package var endsInsideCalendar: Bool

    /// The part of an input up to a cut between the components of its one open calendar.
    package static let beforeCut = CalendarPart(
        offset: 0, line: 1, startsInsideCalendar: false, endsInsideCalendar: true)

    /// The part of an input from a cut at `offset`, on `line`, to its end.
    package static func afterCut(offset: Int, line: Int) -> CalendarPart {
        CalendarPart(offset: offset, line: line, startsInsideCalendar: true, endsInsideCalendar: false)
    }

    package init(offset: Int, line: Int, startsInsideCalendar: Bool, endsInsideCalendar: Bool) {
        self.offset = offset
        self.line = line
        self.startsInsideCalendar = startsInsideCalendar
        self.endsInsideCalendar = endsInsideCalendar
    }
}

extension CalendarPart {
    /// Whether readers of parts of a calendar with these VTIMEZONEs resolve its zones as one reader
    /// of the whole does: each TZID defined once, and known by name. A VTIMEZONE known only by its
    /// rules is matched to tzdata around the year of its first use (`DecodingContext.match`), which
    /// the reader of each part would meet at a different event.
    package static func zonesReadAlike(_ zones: [TimeZoneDefinition]) -> Bool {
        var cache: [String: TimeZoneReference] = [:]
        return Set(zones.map(\.identifier)).count == zones.count
            && zones.allSatisfy { TimeZoneReference(resolvingName: $0.identifier, cache: &cache).ianaIdentifier != nil }
    }
}
