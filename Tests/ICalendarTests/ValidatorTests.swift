import CalendarModel
import Testing

@testable import ICalendar

private func codes(_ lines: [String]) -> [String] {
    ICalendarValidator().validate(calendar(event: lines)).map(\.code)
}

@Test func aCompleteEventIsValid() {
    #expect(codes(["UID:1", "DTSTAMP:20260101T000000Z", "DTSTART:20260105T100000Z", "DTEND:20260105T110000Z"]).isEmpty)
}

@Test func uidAndDtstampAreRequired() {
    // RFC 5545 §3.6.1: "dtstamp / uid ... REQUIRED".
    let diagnostics = ICalendarValidator().validate(calendar(event: ["DTSTART:20260105T100000Z"]), file: "v.ics")
    let missing = diagnostics.filter { $0.code == "missing-property" }.map(\.message)
    #expect(missing.contains { $0.contains("DTSTAMP") })
    #expect(missing.contains { $0.contains("UID") })
    #expect(diagnostics.allSatisfy { $0.location.file == "v.ics" && $0.location.line == 4 || $0.code == "missing-uid" })
}

@Test func dtendMustFollowDtstartAndNotCoexistWithDuration() {
    #expect(
        codes(["UID:1", "DTSTAMP:20260101T000000Z", "DTSTART:20260105T100000Z", "DTEND:20260105T090000Z"])
            == ["end-before-start"])
    #expect(
        codes([
            "UID:1", "DTSTAMP:20260101T000000Z", "DTSTART:20260105T100000Z", "DTEND:20260105T110000Z", "DURATION:PT1H",
        ])
            == ["dtend-and-duration"])
    #expect(
        codes(["UID:1", "DTSTAMP:20260101T000000Z", "DTSTART;VALUE=DATE:20260105", "DTEND:20260106T000000Z"])
            .contains("value-type-mismatch"))
}

@Test func propertiesOfOtherComponentsAndRepeatsAreErrors() {
    let found = codes([
        "UID:1", "DTSTAMP:20260101T000000Z", "DTSTART:20260105T100000Z", "DUE:20260106T100000Z", "SUMMARY:a",
        "SUMMARY:b",
    ])
    #expect(found.contains("misplaced-property"))
    #expect(found.contains("repeated-property"))
}

@Test func rruleWithCountAndUntilIsAnError() {
    // RFC 5545 §3.3.10: UNTIL and COUNT MUST NOT occur in the same recur.
    let found = codes([
        "UID:1", "DTSTAMP:20260101T000000Z", "DTSTART:20260105T100000Z",
        "RRULE:FREQ=DAILY;COUNT=3;UNTIL=20260110T000000Z",
    ])
    #expect(found.contains("invalid-rrule"))
}

@Test func alarmsNeedWhatTheirActionRequires() {
    // RFC 5545 §3.6.6: DISPLAY needs DESCRIPTION; DURATION and REPEAT go together.
    let found = codes([
        "UID:1", "DTSTAMP:20260101T000000Z", "DTSTART:20260105T100000Z", "BEGIN:VALARM", "ACTION:DISPLAY",
        "TRIGGER:-PT5M",
        "REPEAT:2", "END:VALARM",
    ])
    #expect(found.sorted() == ["missing-property", "repeat-without-duration"])
}

@Test func calendarNeedsVersionAndProdidAndOneMethod() {
    let bytes = ics(["BEGIN:VCALENDAR", "METHOD:REQUEST", "METHOD:PUBLISH", "END:VCALENDAR"])
    let found = ICalendarValidator().validate(bytes).map(\.code)
    #expect(found.filter { $0 == "missing-property" }.count == 2)
    #expect(found.contains("repeated-property"))
}
