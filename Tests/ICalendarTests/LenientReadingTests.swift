import CalendarModel
import Testing

@testable import ICalendar

// Issue #18: an event is dropped only without a usable DTSTART; a bad value in any other property
// drops that property (or list element) with a warning naming the line. Each calendar below is
// hand-made; `calendar(event:)` puts the event's first line on line 5, `calendar(events:)` the
// first event's BEGIN:VEVENT on line 4. Expected values come from RFC 5545 as cited.

private func warnings(_ result: ICalendarParser.Result) -> [String] {
    result.diagnostics.filter { $0.severity == .warning }.map { "\($0.code) \($0.location.line ?? 0)" }
}

@Test func emptyRRuleLinesKeepEveryEventOfAHolidayFeedAsSingleEvents() throws {
    // A holiday-feed generator writes `RRULE:` in every event; RFC 5545 §3.3.10 requires FREQ.
    let bytes = calendar(events: [
        ["UID:h1", "DTSTAMP:20260101T000000Z", "DTSTART;VALUE=DATE:20261225", "RRULE:", "SUMMARY:Christmas"],
        ["UID:h2", "DTSTAMP:20260101T000000Z", "DTSTART;VALUE=DATE:20261226", "RRULE:", "SUMMARY:Boxing Day"],
    ])
    let result = parse(bytes)
    #expect(result.document.events.map(\.uid) == ["h1", "h2"])
    #expect(result.document.events.allSatisfy { $0.recurrenceRules.isEmpty })
    #expect(result.droppedComponents == 0)
    // Lines: BEGIN:VEVENT 4, UID 5, DTSTAMP 6, DTSTART 7, RRULE 8; the second event's 7 lines later.
    #expect(warnings(result) == ["invalid-rrule 8", "invalid-rrule 15"])
    // Each is its DTSTART alone: one all-day occurrence on its day.
    #expect(occurrences(bytes).map { utcText($0.startInstant) } == ["20261225T000000Z", "20261226T000000Z"])
}

@Test(arguments: ["FREQ=WEEKLY;FOO=BAR", "FREQ=DAILY;BYDAY=XX", "FREQ=DAILY;COUNT=three", "FREQ=FORTNIGHTLY"])
func unreadableRRuleLeavesTheEventAsItsFirstOccurrence(rule: String) throws {
    let bytes = calendar(event: [
        "UID:r@example.com", "DTSTAMP:20260101T000000Z", "DTSTART:20260105T100000Z", "DTEND:20260105T110000Z",
        "RRULE:\(rule)",
    ])
    let result = parse(bytes)
    let event = try #require(result.document.events.first)
    #expect(event.recurrenceRules.isEmpty)
    #expect(warnings(result) == ["invalid-rrule 9"])
    // RFC 5545 §3.8.5.3: DTSTART is the first instance of a recurrence set, so it is the one certain.
    #expect(occurrences(bytes).map { utcText($0.startInstant) } == ["20260105T100000Z"])
}

@Test func googleBirthdayRDatesWithAZAreReadAsTheDatesTheyName() throws {
    // As ../shared/corpus/icaljs/google_birthday.ics writes them: DATE values with a UTC designator.
    let result = parse(
        calendar(event: [
            "UID:bday", "DTSTAMP:20260101T000000Z", "DTSTART;VALUE=DATE:20141210",
            "RRULE:FREQ=DAILY;INTERVAL=1;COUNT=1",
            "RDATE:20131210Z", "RDATE:20121210Z", "SUMMARY:Birthday",
        ]))
    let event = try #require(result.document.events.first)
    #expect(
        event.recurrenceDates == [
            .time(.date(CalendarDate(year: 2013, month: 12, day: 10))),
            .time(.date(CalendarDate(year: 2012, month: 12, day: 10))),
        ])
    #expect(warnings(result) == ["date-with-utc 9", "date-with-utc 10"])
}

@Test func rdateOfValueTimeIsDroppedAndTheEventKept() throws {
    // As ../shared/corpus/icalendar/calendars/multiple_timezones.ics writes it; RFC 5545 §3.8.5.2
    // allows DATE-TIME, DATE or PERIOD, and a time of day alone names no occurrence.
    let result = parse(
        calendar(event: [
            "UID:t", "DTSTAMP:20260101T000000Z", "DTSTART;TZID=America/New_York:20210302T000000",
            "RDATE;VALUE=TIME;TZID=America/New_York:083000",
        ]))
    let event = try #require(result.document.events.first)
    #expect(event.recurrenceDates.isEmpty)
    #expect(
        event.start
            == .zoned(
                LocalDateTime(year: 2021, month: 3, day: 2),
                TimeZoneReference(name: "America/New_York", ianaIdentifier: "America/New_York")))
    #expect(warnings(result) == ["invalid-value-type 8"])
}

@Test func oneBadElementOfAnRDateOrEXDateListCostsOnlyThatElement() throws {
    let bytes = calendar(event: [
        "UID:l", "DTSTAMP:20260101T000000Z", "DTSTART:20260105T100000Z", "RRULE:FREQ=DAILY;COUNT=4",
        "EXDATE:20260106T100000Z,2026XX07T100000Z", "RDATE:20260110T100000Z,20261340T100000Z,20260112T100000Z",
    ])
    let result = parse(bytes)
    let event = try #require(result.document.events.first)
    let utc = { (day: Int) in CalendarTime.utc(LocalDateTime(year: 2026, month: 1, day: day, hour: 10)) }
    #expect(event.exceptionDates == [utc(6)])
    #expect(event.recurrenceDates == [.time(utc(10)), .time(utc(12))])
    #expect(warnings(result) == ["invalid-value 9", "invalid-value 10"])
    // Days 5–8 by the rule, less the 6th; the 10th and 12th added.
    #expect(
        occurrences(bytes).map { utcText($0.startInstant) } == [
            "20260105T100000Z", "20260107T100000Z", "20260108T100000Z", "20260110T100000Z", "20260112T100000Z",
        ])
}

@Test func badDTEndOrDurationEndsTheEventAsRFC5545SaysForNoEnd() throws {
    // RFC 5545 §3.6.1: without DTEND or DURATION a DATE-TIME start ends at the start, a DATE start
    // lasts one day.
    let timed = calendar(event: [
        "UID:a", "DTSTAMP:20260101T000000Z", "DTSTART:20260105T100000Z", "DTEND:20260105T1100",
    ])
    let read = try #require(parse(timed).document.events.first)
    #expect(read.end == nil)
    #expect(warnings(parse(timed)) == ["invalid-value 8"])
    let listed = occurrences(timed)
    #expect(listed.map { $0.endInstant - $0.startInstant } == [0])

    let allDay = calendar(event: ["UID:b", "DTSTAMP:20260101T000000Z", "DTSTART;VALUE=DATE:20260105", "DURATION:P1X"])
    let day = try #require(parse(allDay).document.events.first)
    #expect(day.end == .end(.date(CalendarDate(year: 2026, month: 1, day: 6))))
    #expect(warnings(parse(allDay)) == ["invalid-value 8"])
}

@Test func badTimestampsAreDroppedAndTheEventKept() throws {
    let result = parse(
        calendar(event: [
            "UID:s", "DTSTAMP:yesterday", "LAST-MODIFIED:2026-01-01", "DTSTART:20260105T100000Z",
        ]))
    let event = try #require(result.document.events.first)
    #expect(event.timestamp == nil && event.lastModified == nil)
    #expect(warnings(result) == ["invalid-value 6", "invalid-value 7"])
}

@Test func dtstartWithAnEmptyParameterKeepsItsValueAsRadicaleReadsIt() throws {
    // ../shared/corpus/icalendar/calendars/broken_ical.ics, line for line.
    let bytes = ics([
        "BEGIN:VCALENDAR", "BEGIN:VEVENT", "SUMMARY:An Event with too many semicolons",
        "DTSTART;;VALUE=DATE-TIME:20140409T093000", "UID:abc", "END:VEVENT", "END:VCALENDAR",
    ])
    let result = parse(bytes)
    let event = try #require(result.document.events.first)
    #expect(event.start == .floating(LocalDateTime(year: 2014, month: 4, day: 9, hour: 9, minute: 30)))
    #expect(warnings(result).contains("empty-parameter 4"))
    // Written back with its DTSTART, which a CalDAV server requires (RFC 5545 §3.6.1, no METHOD).
    #expect(unfoldedLines(serialize(result.document)).contains("DTSTART:20140409T093000"))
}

@Test func validateReportsEveryRecoveredDefectAsTheErrorItIs() {
    let bytes = ics([
        "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//test//EN", "BEGIN:VEVENT", "UID:v", "DTSTAMP:20260101T000000Z",
        "DTSTART;;VALUE=DATE:20260105", "RRULE:", "RDATE:20260110Z", "RDATE;VALUE=TIME:083000", "EXDATE:2026XX07",
        "DTEND;VALUE=DATE:2026-01-06", "END:VEVENT", "END:VCALENDAR",
    ])
    let errors = ICalendarValidator().validate(bytes, file: "v.ics").filter { $0.severity == .error }
        .map { "\($0.code) \($0.location.line ?? 0)" }
    for expected in [
        "empty-parameter 7", "invalid-rrule 8", "date-with-utc 9", "invalid-value-type 10", "invalid-value 11",
        "invalid-value 12",
    ] {
        #expect(errors.contains(expected), "\(expected) not in \(errors)")
    }
}

// MARK: Structure

@Test func aNestedCalendarIsMergedAndItsEndClosesIt() throws {
    let result = parse(
        ics([
            "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:x", "BEGIN:VCALENDAR", "BEGIN:VEVENT", "UID:a",
            "DTSTAMP:20260101T000000Z", "DTSTART:20260105T100000Z", "END:VEVENT", "END:VCALENDAR", "END:VCALENDAR",
        ]))
    #expect(result.document.events.map(\.uid) == ["a"])
    // The inner END closes the inner BEGIN: nothing is unmatched.
    #expect(result.diagnostics.map { "\($0.code) \($0.location.line ?? 0)" } == ["nested-calendar 4"])
}

@Test func aRepeatedCalendarAndAnUnmatchedEndKeepBothEvents() throws {
    let result = parse(
        ics([
            "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:x", "BEGIN:VEVENT", "UID:a", "DTSTAMP:20260101T000000Z",
            "DTSTART:20260105T100000Z", "END:VEVENT", "END:VCALENDAR", "BEGIN:VCALENDAR", "BEGIN:VEVENT", "UID:b",
            "DTSTAMP:20260101T000000Z", "DTSTART:20260106T100000Z", "END:VEVENT", "END:VCALENDAR", "END:VCALENDAR",
        ]))
    #expect(result.document.events.map(\.uid) == ["a", "b"])
    #expect(result.diagnostics.map { "\($0.code) \($0.location.line ?? 0)" } == ["unmatched-end 17"])
}

/// A VEVENT inside a VEVENT (line 8), a VEVENT inside a VTODO (line 16), and a VEVENT cut off by
/// the end of input (line 21).
private let misplaced = ics([
    "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:x", "BEGIN:VEVENT", "UID:a", "DTSTAMP:20260101T000000Z",
    "DTSTART:20260105T100000Z", "BEGIN:VEVENT", "UID:b", "DTSTAMP:20260101T000000Z", "DTSTART:20260106T100000Z",
    "END:VEVENT", "END:VEVENT", "BEGIN:VTODO", "UID:t", "BEGIN:VEVENT", "UID:c", "DTSTART:20260107T100000Z",
    "END:VEVENT", "END:VTODO", "BEGIN:VEVENT", "UID:d", "DTSTART:20260108T100000Z",
])

@Test func aComponentInsideTheWrongParentIsReadAsTheCalendarsOwn() throws {
    let result = parse(misplaced)
    // b is complete at line 12, before a closes at 13; c at 19, inside the VTODO; d never ends.
    #expect(result.document.events.map(\.uid) == ["b", "a", "c"])
    #expect(result.document.events.allSatisfy { $0.extraComponents.isEmpty })
    #expect(result.document.otherComponents.map(\.name) == ["VTODO"])
    #expect(result.document.otherComponents.first?.components.isEmpty == true)
    #expect(
        result.diagnostics.map { "\($0.code) \($0.location.line ?? 0)" } == [
            "misplaced-component 8", "misplaced-component 16", "missing-end 21",
        ])
    #expect(result.droppedComponents == 1)
    #expect(
        ICalendarValidator().validate(misplaced).contains { $0.code == "misplaced-component" && $0.severity == .error })
}

@Test func aLiftedComponentIsReReadFromItsOwnOffsetAsStreamingDoes() throws {
    var reader = ICalendarReader(source: InMemoryByteSource(misplaced), file: "m.ics")
    var places: [(uid: String, offset: Int)] = []
    while let item = reader.next() {
        if case .event(let event) = item { places.append((event.uid, reader.componentOffset)) }
    }
    #expect(places.map(\.uid) == ["b", "a", "c"])
    for place in places {
        let again = ICalendarReader.event(
            at: InMemoryByteSource(Array(misplaced[place.offset...])), file: "m.ics", timeZones: [])
        #expect(again?.uid == place.uid)
    }
}

// MARK: Versions

@Test func theHigherSequenceOfTwoVersionsIsTheOneEventKept() throws {
    let result = parse(
        calendar(events: [
            ["UID:v", "SEQUENCE:1", "DTSTAMP:20260101T000000Z", "DTSTART:20260105T100000Z", "SUMMARY:old"],
            ["UID:v", "SEQUENCE:2", "DTSTAMP:20260101T000000Z", "DTSTART:20260105T110000Z", "SUMMARY:new"],
        ]))
    #expect(result.document.events.map(\.summary) == ["new"])
    // The second BEGIN:VEVENT is line 11 (4 + 7 lines of the first).
    let warning = try #require(result.diagnostics.first)
    #expect(result.diagnostics.count == 1)
    #expect(warning.code == "duplicate-version" && warning.location.line == 11)
    #expect(warning.message.contains("test.ics:4") && warning.message.contains("test.ics:11"))
}

@Test func withoutSequenceTheLaterLastModifiedWinsThenTheLaterDTStamp() throws {
    // The edited copy comes first in the file: place in the file decides nothing.
    let edited = parse(
        calendar(events: [
            [
                "UID:e", "LAST-MODIFIED:20260102T000000Z", "DTSTAMP:20260101T000000Z", "DTSTART:20260105T100000Z",
                "SUMMARY:edited",
            ],
            [
                "UID:e", "LAST-MODIFIED:20260101T000000Z", "DTSTAMP:20260103T000000Z", "DTSTART:20260105T100000Z",
                "SUMMARY:first",
            ],
        ]))
    #expect(edited.document.events.map(\.summary) == ["edited"])
    let stamped = parse(
        calendar(events: [
            ["UID:s", "DTSTAMP:20260101T000000Z", "DTSTART:20260105T100000Z", "SUMMARY:older"],
            ["UID:s", "DTSTAMP:20260103T000000Z", "DTSTART:20260105T100000Z", "SUMMARY:newer"],
        ]))
    #expect(stamped.document.events.map(\.summary) == ["newer"])
}

@Test func identicalCopiesMergeSilentlyAndOverridesStayApart() throws {
    let master = ["UID:m", "DTSTAMP:20260101T000000Z", "DTSTART:20260105T100000Z", "RRULE:FREQ=DAILY;COUNT=3"]
    let override = [
        "UID:m", "DTSTAMP:20260101T000000Z", "RECURRENCE-ID:20260106T100000Z", "DTSTART:20260106T120000Z",
    ]
    let result = parse(calendar(events: [master, override, master, override]))
    #expect(result.diagnostics.isEmpty)
    #expect(result.document.events.map { $0.recurrenceID == nil } == [true, false])
}

// MARK: Dialects

private func notes(_ result: ICalendarParser.Result) -> [String] {
    result.diagnostics.filter { $0.severity == .note }.map { "\($0.code) \($0.location.line ?? 0)" }
}

@Test func aDateWithTZIDAndNoValueDateIsAnAllDayDateWithANote() throws {
    let result = parse(calendar(event: ["UID:d", "DTSTAMP:20260101T000000Z", "DTSTART;TZID=Europe/Berlin:20261225"]))
    let event = try #require(result.document.events.first)
    #expect(event.start == .date(CalendarDate(year: 2026, month: 12, day: 25)))
    #expect(notes(result) == ["date-with-tzid 7"])
}

@Test func floatingTimesBesideAZonedStartAreReadInItsZone() throws {
    let bytes = calendar(events: [
        [
            "UID:f", "DTSTAMP:20260101T000000Z", "DTSTART;TZID=Europe/Berlin:20260105T100000", "DTEND:20260105T110000",
            "RRULE:FREQ=DAILY;UNTIL=20260108T100000", "EXDATE:20260106T100000",
        ],
        [
            "UID:f", "DTSTAMP:20260101T000000Z", "RECURRENCE-ID:20260107T100000",
            "DTSTART;TZID=Europe/Berlin:20260107T120000",
        ],
    ])
    let result = parse(bytes)
    let berlin = TimeZoneReference(name: "Europe/Berlin", ianaIdentifier: "Europe/Berlin")
    let at = { (day: Int, hour: Int) in
        CalendarTime.zoned(LocalDateTime(year: 2026, month: 1, day: day, hour: hour), berlin)
    }
    let master = try #require(result.document.events.first)
    #expect(master.end == .end(at(5, 11)))
    #expect(master.exceptionDates == [at(6, 10)])
    #expect(result.document.events.last?.recurrenceID?.time == at(7, 10))
    // Lines: DTEND 8, RRULE 9, EXDATE 10; the override's RECURRENCE-ID 15.
    #expect(
        notes(result) == [
            "floating-beside-zoned 8", "floating-beside-zoned 9", "floating-beside-zoned 10",
            "floating-beside-zoned 15",
        ])
    // Berlin is UTC+1 in January: 5th 09:00Z for an hour, the 6th excluded, the 7th moved to 11:00Z,
    // the 8th at 09:00Z, UNTIL 10:00 Berlin included. The override has no DTEND of its own, so it
    // takes no time (RFC 5545 §3.6.1).
    #expect(
        occurrences(bytes).map { "\(utcText($0.startInstant))/\(($0.endInstant - $0.startInstant) / 60)" } == [
            "20260105T090000Z/60", "20260107T110000Z/0", "20260108T090000Z/60",
        ])
}

@Test func floatingTimesAreExpandedInTheCalendarsXWRTimeZone() throws {
    let bytes = calendar(
        events: [
            ["UID:g", "DTSTAMP:20260101T000000Z", "DTSTART:20260105T090000", "DTEND:20260105T100000"],
            ["UID:h", "DTSTAMP:20260101T000000Z", "DTSTART;VALUE=DATE:20260106"],
        ], extra: ["X-WR-TIMEZONE:America/New_York"])
    // New York is UTC-5 in January: 09:00 there is 14:00Z. The date stays on the caller's clock
    // (UTC here): a date has no zone.
    #expect(
        occurrences(bytes).map { utcText($0.startInstant) } == ["20260105T140000Z", "20260106T000000Z"])
}

@Test func aTimedRecurrenceIDOnAnAllDaySeriesReplacesTheInstanceOfItsDate() throws {
    // Exchange writes an all-day series' overrides with midnight in the series' zone.
    let bytes = calendar(events: [
        ["UID:x", "DTSTAMP:20260101T000000Z", "DTSTART;VALUE=DATE:20261201", "RRULE:FREQ=DAILY;COUNT=3", "SUMMARY:a"],
        [
            "UID:x", "DTSTAMP:20260101T000000Z", "RECURRENCE-ID;TZID=GMT Standard Time:20261202T000000",
            "DTSTART;VALUE=DATE:20261202", "SUMMARY:b",
        ],
    ])
    // Three days, the second one the override: one occurrence a day, not two on the 2nd.
    let listed = occurrences(bytes)
    #expect(listed.map { utcText($0.startInstant) } == ["20261201T000000Z", "20261202T000000Z", "20261203T000000Z"])
    #expect(listed.map(\.isOverride) == [false, true, false])
}

@Test func aNewerVersionReplacesEveryVersionItOutdatesEvenTiedOnes() throws {
    // "a" and "b" tie (neither is newer: both kept), "c" has the higher SEQUENCE: only "c" is left,
    // and reading what is written again keeps it alone.
    let result = parse(
        calendar(events: [
            ["UID:t", "DTSTAMP:20260101T000000Z", "DTSTART:20260105T100000Z", "SUMMARY:a"],
            ["UID:t", "DTSTAMP:20260101T000000Z", "DTSTART:20260105T100000Z", "SUMMARY:b"],
            ["UID:t", "SEQUENCE:1", "DTSTAMP:20260101T000000Z", "DTSTART:20260105T100000Z", "SUMMARY:c"],
        ]))
    #expect(result.document.events.map(\.summary) == ["c"])
    #expect(result.diagnostics.map(\.code) == ["duplicate-version", "duplicate-version", "duplicate-version"])
    #expect(parse(ICalendarSerializer().serialize(result.document)).document == result.document)
}

@Test func anOverrideWithAnUnreadableRecurrenceIDIsKeptAsAnEventOfItsOwn() throws {
    // It has a DTSTART, so it can be placed in time; under the series' UID without RECURRENCE-ID it
    // would be another version of the master, so it gets a UID of its own.
    let bytes = calendar(events: [
        ["UID:s", "DTSTAMP:20260101T000000Z", "DTSTART:20260601T090000Z", "RRULE:FREQ=DAILY;COUNT=3"],
        ["UID:s", "DTSTAMP:20260101T000000Z", "RECURRENCE-ID:2026-06-02", "DTSTART:20260602T150000Z", "SUMMARY:moved"],
    ])
    let result = parse(bytes)
    #expect(result.document.events.count == 2)
    let kept = try #require(result.document.events.last)
    #expect(kept.uid != "s" && kept.recurrenceID == nil && kept.summary == "moved")
    #expect(result.document.events.first?.recurrenceRules.count == 1)
    // The first event is lines 4–9; the override begins on line 10, its RECURRENCE-ID on 13.
    #expect(warnings(result) == ["invalid-value 13", "unmatched-override 10"])
    // The series keeps its three days; the override is one event more, at its own time.
    #expect(
        occurrences(bytes).map { utcText($0.startInstant) }.sorted() == [
            "20260601T090000Z", "20260602T090000Z", "20260602T150000Z", "20260603T090000Z",
        ])
    #expect(ICalendarValidator().validate(bytes).contains { $0.severity == .error })
}
