import CalendarModel

/// How much of each VEVENT a reader decodes.
package enum EventReading: Sendable {
    /// Every property and component: what conversion and validation need.
    case whole
    /// What an occurrence listing shows (UID, SUMMARY, the first location, STATUS) and what placing
    /// its occurrences in time needs (the times, the recurrence, and the SEQUENCE, LAST-MODIFIED and
    /// DTSTAMP that choose between two versions of an event), and CREATED, a time whose TZID may be
    /// the first use of an unknown zone. The event's other properties are left unparsed and its
    /// components (alarms) unread, with their defects unreported: a listing of a large calendar spent
    /// half its time on attendees, descriptions and alarms it does not show. An event that needs a
    /// UID made up is read whole, since the UID derives from all its lines.
    case listing

    /// The names of the properties `listing` reads in a VEVENT, beside BEGIN and END.
    static let listedNames: [[UInt8]] = {
        let properties: [EventProperty] = [
            .uid, .start, .end, .duration, .rule, .exceptionRule, .recurrenceDates, .exceptionDates, .recurrenceID,
            .sequence, .lastModified, .timestamp, .summary, .location, .calportLocation, .geo, .status,
            // Not shown, but a time with a TZID: an unknown zone is reported at its first use.
            .created,
        ]
        // Apple's pin names the first location of an event that has no LOCATION.
        let names = properties.map(\.name) + [Event.appleStructuredLocation, "BEGIN", "END"]
        return names.map { Array($0.utf8) }
    }()
}
