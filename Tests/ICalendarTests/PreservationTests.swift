import CalendarModel
import Testing

@testable import ICalendar

@Test func unmodelledPropertiesParametersAndComponentsSurviveARoundTrip() throws {
    let input = ics([
        "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//test//EN", "X-WR-CALNAME:Team", "X-PUBLISHED-TTL:PT1H",
        "BEGIN:VEVENT", "UID:keep@example.com", "DTSTAMP:20260101T000000Z", "DTSTART:20260105T100000Z",
        "SUMMARY;LANGUAGE=de;X-TONE=formal:Besprechung", "X-CUSTOM;X-P=\"a;b\":raw\\,value;kept",
        "FOOBAR;A=b:an IANA property libical drops", "ATTENDEE;X-UNKNOWN=q;CN=Jo:mailto:jo@example.com",
        "BEGIN:X-SUB", "X-Y:1", "END:X-SUB",
        "BEGIN:VALARM", "ACTION:DISPLAY", "TRIGGER;RELATED=END:-PT5M", "DESCRIPTION:bye", "X-ALARM-EXTRA:1",
        "END:VALARM",
        "END:VEVENT",
        "BEGIN:VTODO", "UID:todo@example.com", "SUMMARY:todo", "END:VTODO",
        "BEGIN:VJOURNAL", "UID:j@example.com", "DESCRIPTION:journal", "END:VJOURNAL",
        "BEGIN:VFREEBUSY", "UID:fb@example.com", "FREEBUSY:19980314T233000Z/19980315T003000Z", "END:VFREEBUSY",
        "BEGIN:VAVAILABILITY", "UID:av@example.com", "BEGIN:AVAILABLE", "UID:a1", "DTSTART:20260105T090000Z",
        "END:AVAILABLE",
        "END:VAVAILABILITY",
        "END:VCALENDAR",
    ])
    let first = parse(input)
    #expect(first.diagnostics.isEmpty, "\(first.diagnostics)")
    let output = serialize(first.document)
    let lines = unfoldedLines(output)
    for expected in [
        "SUMMARY;LANGUAGE=de;X-TONE=formal:Besprechung", "X-CUSTOM;X-P=\"a;b\":raw\\,value;kept",
        "FOOBAR;A=b:an IANA property libical drops", "ATTENDEE;CN=Jo;X-UNKNOWN=q:mailto:jo@example.com", "BEGIN:X-SUB",
        "X-Y:1", "END:X-SUB", "TRIGGER;RELATED=END:-PT5M", "X-ALARM-EXTRA:1", "BEGIN:VTODO", "BEGIN:VJOURNAL",
        "FREEBUSY:19980314T233000Z/19980315T003000Z", "BEGIN:AVAILABLE", "END:VAVAILABILITY", "X-PUBLISHED-TTL:PT1H",
    ] {
        #expect(lines.contains(expected), "missing \(expected)")
    }
    let second = parse(Array(output.utf8))
    #expect(second.document == first.document)
}

@Test func modelledValuesComeFromTheRFC5545EventExample() throws {
    // RFC 5545 §3.6.1, the second VEVENT example (a timed, busy, recurring-free meeting), plus an RRULE from §3.8.5.3.
    let result = parse(
        calendar(event: [
            "UID:19970901T130000Z-123401@example.com", "DTSTAMP:19970901T130000Z", "DTSTART:19970903T163000Z",
            "DTEND:19970903T190000Z", "SUMMARY:Annual Employee Review", "CLASS:PRIVATE",
            "CATEGORIES:BUSINESS,HUMAN RESOURCES",
            "RRULE:FREQ=MONTHLY;COUNT=10;BYDAY=1FR", "EXDATE:19970905T163000Z,19971003T163000Z",
            "RDATE;VALUE=PERIOD:19960403T020000Z/19960403T040000Z,19960404T010000Z/PT3H",
        ]))
    #expect(result.diagnostics.isEmpty)
    let event = try #require(result.document.events.first)
    #expect(event.uid == "19970901T130000Z-123401@example.com")
    #expect(event.timestamp == .utc(LocalDateTime(year: 1997, month: 9, day: 1, hour: 13)))
    #expect(event.start == .utc(LocalDateTime(year: 1997, month: 9, day: 3, hour: 16, minute: 30)))
    #expect(event.end == .end(.utc(LocalDateTime(year: 1997, month: 9, day: 3, hour: 19))))
    #expect(event.classification == .private)
    #expect(event.categories == ["BUSINESS", "HUMAN RESOURCES"])
    #expect(
        event.recurrenceRules == [
            RecurrenceRule(frequency: .monthly, end: .count(10), byDay: [WeekdayNumber(.friday, ordinal: 1)])
        ])
    #expect(event.exceptionDates.count == 2)
    #expect(
        event.recurrenceDates == [
            .period(
                start: .utc(LocalDateTime(year: 1996, month: 4, day: 3, hour: 2)),
                end: .utc(LocalDateTime(year: 1996, month: 4, day: 3, hour: 4))),
            .periodWithDuration(
                start: .utc(LocalDateTime(year: 1996, month: 4, day: 4, hour: 1)), duration: EventDuration(hours: 3)),
        ])
    // Written, each period is its start and an override lasting as the period does (docs/interop.md);
    // the event itself lasts 2 h 30 min, so both periods get one.
    let again = parse(Array(serialize(result.document).utf8)).document.events
    try #require(again.count == 3)
    var master = event
    master.recurrenceDates = [
        .time(.utc(LocalDateTime(year: 1996, month: 4, day: 3, hour: 2))),
        .time(.utc(LocalDateTime(year: 1996, month: 4, day: 4, hour: 1))),
    ]
    #expect(again[0] == master)
    #expect(
        again.dropFirst().map { [$0.recurrenceID?.time, $0.start] } == [
            [
                .utc(LocalDateTime(year: 1996, month: 4, day: 3, hour: 2)),
                .utc(LocalDateTime(year: 1996, month: 4, day: 3, hour: 2)),
            ],
            [
                .utc(LocalDateTime(year: 1996, month: 4, day: 4, hour: 1)),
                .utc(LocalDateTime(year: 1996, month: 4, day: 4, hour: 1)),
            ],
        ])
    #expect(
        again.dropFirst().map(\.end) == [
            .end(.utc(LocalDateTime(year: 1996, month: 4, day: 3, hour: 4))), .duration(EventDuration(hours: 3)),
        ])
    #expect(again.dropFirst().allSatisfy { $0.summary == event.summary && $0.recurrenceRules.isEmpty })
}

// RFC 5545 §3.8.5.3 rules and the values each part must read as.
@Test(arguments: [
    (
        "FREQ=DAILY;UNTIL=19971224T000000Z",
        RecurrenceRule(frequency: .daily, end: .until(.utc(LocalDateTime(year: 1997, month: 12, day: 24))))
    ),
    ("FREQ=DAILY;INTERVAL=10;COUNT=5", RecurrenceRule(frequency: .daily, interval: 10, end: .count(5))),
    (
        "FREQ=WEEKLY;INTERVAL=2;WKST=SU;BYDAY=TU,TH",
        RecurrenceRule(
            frequency: .weekly, interval: 2, byDay: [WeekdayNumber(.tuesday), WeekdayNumber(.thursday)],
            weekStart: .sunday)
    ),
    (
        "FREQ=MONTHLY;BYDAY=-2MO;COUNT=6",
        RecurrenceRule(frequency: .monthly, end: .count(6), byDay: [WeekdayNumber(.monday, ordinal: -2)])
    ),
    ("FREQ=MONTHLY;BYMONTHDAY=-3", RecurrenceRule(frequency: .monthly, byMonthDay: [-3])),
    ("FREQ=YEARLY;BYDAY=20MO", RecurrenceRule(frequency: .yearly, byDay: [WeekdayNumber(.monday, ordinal: 20)])),
    (
        "FREQ=YEARLY;BYWEEKNO=20;BYDAY=MO",
        RecurrenceRule(frequency: .yearly, byDay: [WeekdayNumber(.monday)], byWeekNumber: [20])
    ),
    (
        "FREQ=YEARLY;INTERVAL=3;COUNT=10;BYYEARDAY=1,100,200",
        RecurrenceRule(frequency: .yearly, interval: 3, end: .count(10), byYearDay: [1, 100, 200])
    ),
    (
        "FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-2",
        RecurrenceRule(
            frequency: .monthly, byDay: [.monday, .tuesday, .wednesday, .thursday, .friday].map { WeekdayNumber($0) },
            bySetPosition: [-2])
    ),
    (
        "FREQ=HOURLY;INTERVAL=3;UNTIL=19970902T170000Z",
        RecurrenceRule(
            frequency: .hourly, interval: 3, end: .until(.utc(LocalDateTime(year: 1997, month: 9, day: 2, hour: 17))))
    ),
    (
        "FREQ=MINUTELY;INTERVAL=20;BYHOUR=9,10,11,12,13,14,15,16",
        RecurrenceRule(frequency: .minutely, interval: 20, byHour: Array(9...16))
    ),
])
func rfc5545RecurrenceRulesReadAndWriteBack(text: String, expected: RecurrenceRule) throws {
    let result = parse(calendar(event: ["UID:r@example.com", "DTSTART:19970902T090000Z", "RRULE:\(text)"]))
    #expect(result.diagnostics.isEmpty)
    let rule = try #require(result.document.events.first?.recurrenceRules.first)
    #expect(rule == expected)
    let again = parse(Array(serialize(result.document).utf8))
    #expect(again.document.events.first?.recurrenceRules.first == expected)
}

@Test func malformedRecurrenceRuleIsDroppedAndTheEventKept() {
    // Issue #18: only a DTSTART that cannot be read costs the event.
    let result = parse(calendar(event: ["UID:r@example.com", "DTSTART:19970902T090000Z", "RRULE:FREQ=DAILY;BYDAY=XX"]))
    #expect(result.document.events.map(\.recurrenceRules) == [[]])
    #expect(result.diagnostics.map(\.code) == ["invalid-rrule"])
}

@Test func structuralErrorsAreReportedAndValidEventsKept() {
    let bytes = ics([
        "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:x", "END:VALARM", "BEGIN:VEVENT", "UID:ok",
        "DTSTART:20260105T100000Z",
        "END:VEVENT", "BEGIN:VEVENT", "UID:truncated", "DTSTART:20260106T100000Z",
    ])
    let result = parse(bytes)
    #expect(result.document.events.map(\.uid) == ["ok"])
    #expect(result.droppedComponents == 1)
    #expect(result.diagnostics.map(\.code) == ["unmatched-end", "missing-end"])
    #expect(result.diagnostics.map(\.location.line) == [4, 9])
}

@Test func aParticipantsModelledParametersAreReadOnceWhateverTheirOrderAndCase() throws {
    // Parameter names and tokens compare case-insensitively (RFC 5545 §2); of a name given twice the
    // first is read, and no copy is kept beside the modelled value (it would be written twice).
    let result = parse(
        calendar(event: [
            "UID:p@example.com", "DTSTART:20260105T100000Z",
            "ATTENDEE;x-seat=12A;rsvp=true;Role=chair;CN=First;cn=Second;PartStat=accepted;"
                + "DELEGATED-FROM=\"mailto:a@example.com\",\"mailto:b@example.com\";DELEGATED-FROM=\"mailto:c@example.com\";"
                + "CUTYPE=room:mailto:jo@example.com",
            "ORGANIZER;CN=Boss;ROLE=CHAIR;X-A=1:mailto:boss@example.com",
        ]))
    let event = try #require(result.document.events.first)
    let attendee = try #require(event.attendees.first)
    #expect(attendee.participant.address == "mailto:jo@example.com")
    #expect(attendee.participant.commonName == "First")
    #expect(attendee.role == .chair)
    #expect(attendee.participationStatus == .accepted)
    #expect(attendee.rsvp == true)
    #expect(attendee.userType == .room)
    #expect(attendee.delegatedFrom == ["mailto:a@example.com", "mailto:b@example.com"])
    #expect(attendee.participant.parameters == [Parameter(name: "X-SEAT", values: ["12A"])])
    // ORGANIZER models CN only, and ROLE is not among its parameters in RFC 5545 §3.8.4.3.
    #expect(event.organizer?.commonName == "Boss")
    #expect(event.organizer?.parameters == [Parameter(name: "X-A", values: ["1"])])
}

/// The parameters of a VALARM's properties survive a round trip (RFC 5545 §3.2 allows any on any
/// property): all of a SUMMARY's or DESCRIPTION's, and those of ACTION and TRIGGER other than the
/// VALUE and RELATED the model reads; a property without any gains none.
@Test func alarmPropertiesKeepTheirParameters() throws {
    let input = ics([
        "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//test//EN",
        "BEGIN:VEVENT", "UID:alarm@example.com", "DTSTAMP:20260101T000000Z", "DTSTART:20260105T100000Z",
        "BEGIN:VALARM", "ACTION;X-A=2:DISPLAY", "TRIGGER;RELATED=END;X-T=1:-PT5M",
        "DESCRIPTION;LANGUAGE=en:bye", "SUMMARY:plain", "REPEAT;X-R=3:2", "DURATION:PT1M", "END:VALARM",
        "END:VEVENT", "END:VCALENDAR",
    ])
    let first = parse(input)
    #expect(first.diagnostics.isEmpty, "\(first.diagnostics)")
    let alarm = try #require(first.document.events.first?.alarms.first)
    #expect(alarm.propertyParameters["ACTION"] == [Parameter(name: "X-A", values: ["2"])])
    #expect(alarm.propertyParameters["TRIGGER"] == [Parameter(name: "X-T", values: ["1"])])
    #expect(alarm.propertyParameters["DESCRIPTION"] == [Parameter(name: "LANGUAGE", values: ["en"])])
    #expect(alarm.propertyParameters["REPEAT"] == [Parameter(name: "X-R", values: ["3"])])
    #expect(alarm.propertyParameters["SUMMARY"] == nil)
    #expect(alarm.propertyParameters["DURATION"] == nil)
    let lines = unfoldedLines(serialize(first.document))
    for expected in [
        "ACTION;X-A=2:DISPLAY", "TRIGGER;RELATED=END;X-T=1:-PT5M", "DESCRIPTION;LANGUAGE=en:bye", "SUMMARY:plain",
        "REPEAT;X-R=3:2", "DURATION:PT1M",
    ] {
        #expect(lines.contains(expected), "missing \(expected)")
    }
}
