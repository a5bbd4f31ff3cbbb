import CalendarModel
import Testing

@testable import ICalendar

/// Reading a `.listing` (what `calport expand` lists) decodes what an occurrence shows and what
/// places it in time, and leaves the rest of a VEVENT unparsed. The expected members are those RFC
/// 5545 gives the lines below; the defects of the unread lines are the whole reading's to report.
@Suite struct ListingReadingTests {
    private func read(_ text: String, _ reading: EventReading) -> (events: [Event], diagnostics: [Diagnostic]) {
        var reader = ICalendarReader(
            source: InMemoryByteSource(Array(text.utf8)), file: nil, limits: ICalendarLimits(), timeZones: [],
            part: nil, reading: reading)
        var events: [Event] = []
        while let item = reader.next() {
            if case .event(let event) = item { events.append(event) }
        }
        return (events, reader.takeDiagnostics())
    }

    private static let calendar = """
        BEGIN:VCALENDAR\r
        VERSION:2.0\r
        PRODID:-//t//EN\r
        BEGIN:VEVENT\r
        uid:weekly@example.com\r
        dtstamp:20260101T000000Z\r
        Sequence:2\r
        DTSTART;TZID=Europe/Berlin:20260105T120000\r
        DTEND;TZID=Europe/Berlin:20260105T130000\r
        RRULE:FREQ=WEEKLY;COUNT=3\r
        EXDATE;TZID=Europe/Berlin:20260112T120000\r
        summary:Lunch\r
        DESCRIPTION:Agenda https://meet.google.com/abc-defg-hij\r
        Status:CANCELLED\r
        ATTENDEE;CN="unterminated:mailto:a@example.com\r
        X-APPLE-STRUCTURED-LOCATION;VALUE=URI;X-TITLE=Café Kranzler:geo:52.5,13.3\r
        BEGIN:VALARM\r
        DESCRIPTION:an alarm without an action or trigger\r
        END:VALARM\r
        END:VEVENT\r
        BEGIN:VEVENT\r
        UID:weekly@example.com\r
        RECURRENCE-ID;TZID=Europe/Berlin:20260119T120000\r
        DTSTART;TZID=Europe/Berlin:20260119T140000\r
        DURATION:PT30M\r
        GEO:52.5;13.4\r
        LAST-MODIFIED:20260102T000000Z\r
        ORGANIZER:mailto:o@example.com\r
        BEGIN:VEVENT\r
        UID:inside@example.com\r
        DTSTART:20260120T090000Z\r
        ATTENDEE:mailto:b@example.com\r
        END:VEVENT\r
        END:VEVENT\r
        END:VCALENDAR\r

        """

    @Test func aListingReadsWhatAnOccurrenceShowsAndPlaces() throws {
        let (events, _) = read(Self.calendar, .listing)
        try #require(events.count == 3)
        let master = events[0]
        #expect(master.uid == "weekly@example.com")
        #expect(master.sequence == 2)
        #expect(master.timestamp == .utc(LocalDateTime(date: CalendarDate(year: 2026, month: 1, day: 1))))
        #expect(master.summary == "Lunch")
        #expect(master.status == .cancelled)
        #expect(master.recurrenceRules.count == 1 && master.recurrenceRules.first?.end == .count(3))
        #expect(master.exceptionDates.count == 1)
        // No LOCATION: the Apple pin names the first location, as reading the whole event does.
        #expect(master.locations.first?.name == "Café Kranzler")
        // Left unread: the attendee, the description, its link, the alarm.
        #expect(master.attendees.isEmpty && master.description == nil)
        #expect(master.conferences.isEmpty && master.alarms.isEmpty)

        let override = events[2]
        #expect(override.recurrenceID?.time.localDateTime.hour == 12)
        #expect(override.end == .duration(EventDuration(minutes: 30)))
        #expect(override.lastModified != nil && override.organizer == nil)
        // GEO alone makes a nameless first location, which a listing shows as an empty one.
        #expect(override.locations.first?.name == "")
        // A VEVENT misplaced inside another is lifted out and read whole.
        #expect(events[1].uid == "inside@example.com" && events[1].attendees.count == 1)
    }

    @Test func aListingReadsTheListedMembersAsTheWholeReadingDoes() {
        let (listed, _) = read(Self.calendar, .listing)
        let (whole, _) = read(Self.calendar, .whole)
        #expect(listed.map(\.uid) == whole.map(\.uid))
        for (event, full) in zip(listed, whole) {
            #expect(event.start == full.start && event.end == full.end && event.recurrenceID == full.recurrenceID)
            #expect(event.recurrenceRules == full.recurrenceRules && event.exceptionDates == full.exceptionDates)
            #expect(event.summary == full.summary && event.status == full.status)
            #expect(event.locations.first?.name == full.locations.first?.name)
            #expect(event.sequence == full.sequence && event.lastModified == full.lastModified)
        }
    }

    /// A UID made up for an event derives from all its lines (`DecodingContext.derivedUID`): a listing
    /// reads such an event whole, so that it gets the UID, and the warning, reading it whole gives.
    @Test func anEventThatNeedsAUIDMadeUpIsReadWhole() {
        let text = """
            BEGIN:VCALENDAR\r
            BEGIN:VEVENT\r
            DTSTART:20260105T120000Z\r
            SUMMARY:no UID\r
            DESCRIPTION:what tells it apart\r
            END:VEVENT\r
            BEGIN:VEVENT\r
            DTSTART:20260105T120000Z\r
            SUMMARY:no UID\r
            DESCRIPTION:what tells it apart\r
            END:VEVENT\r
            BEGIN:VEVENT\r
            UID:series@example.com\r
            RECURRENCE-ID:not a time\r
            DTSTART:20260106T120000Z\r
            DESCRIPTION:an override whose instance cannot be read\r
            END:VEVENT\r
            END:VCALENDAR\r

            """
        let (listed, listedDiagnostics) = read(text, .listing)
        let (whole, wholeDiagnostics) = read(text, .whole)
        #expect(listed.count == 3)
        #expect(listed.map(\.uid) == whole.map(\.uid))
        #expect(listed[1].uid == listed[0].uid + "-2", "the second of two alike")
        #expect(listed[2].uid != "series@example.com", "an unreadable RECURRENCE-ID makes an event of its own")
        #expect(listedDiagnostics.map(\.message) == wholeDiagnostics.map(\.message))
        #expect(listedDiagnostics.map(\.uid) == wholeDiagnostics.map(\.uid))
    }

    /// A zone no VTIMEZONE defines is reported at its first use, which may be an event's CREATED:
    /// a listing reads it, so the report names the same line and event.
    @Test func anUnknownZoneIsReportedWhereItIsFirstUsed() {
        let text = """
            BEGIN:VCALENDAR\r
            BEGIN:VEVENT\r
            UID:a\r
            CREATED;TZID=Mars/Olympus:20250101T000000\r
            DTSTART:20260105T100000Z\r
            END:VEVENT\r
            BEGIN:VEVENT\r
            UID:b\r
            DTSTART;TZID=Mars/Olympus:20260106T100000\r
            END:VEVENT\r
            END:VCALENDAR\r

            """
        let unknown = { (reading: EventReading) in
            self.read(text, reading).diagnostics.filter { $0.code == "unknown-tzid" }.map { ($0.location.line, $0.uid) }
        }
        #expect(unknown(.listing).map(\.0) == [4] && unknown(.listing).map(\.1) == ["a"])
        #expect(unknown(.whole).map(\.0) == unknown(.listing).map(\.0))
    }

    @Test func theDefectsOfUnreadLinesAreTheWholeReadingsToReport() {
        let codes = { (reading: EventReading) in self.read(Self.calendar, reading).diagnostics.map(\.code) }
        #expect(codes(.whole).contains("syntax"))
        #expect(codes(.whole).contains("invalid-alarm"))
        #expect(!codes(.listing).contains("syntax"))
        #expect(!codes(.listing).contains("invalid-alarm"))
    }
}
