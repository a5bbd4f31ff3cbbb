import CalendarModel
import Testing

@testable import ICalendar

// Each test here pins one way Debian's libical 3.0.16 loses data silently, and what calport does instead.

@Test func unknownTZIDStaysZonedAndIsReported() throws {
    let result = parse(
        calendar(event: ["UID:tz@example.com", "DTSTART;TZID=Mars Standard Time:20260308T093000", "DURATION:PT1H"]))
    let event = try #require(result.document.events.first)
    // libical would make this floating time; calport keeps the zone name as written, unresolved.
    #expect(
        event.start
            == .zoned(
                LocalDateTime(year: 2026, month: 3, day: 8, hour: 9, minute: 30),
                TimeZoneReference(name: "Mars Standard Time")))
    let diagnostic = try #require(result.diagnostics.first { $0.code == "unknown-tzid" })
    #expect(diagnostic.location.line == 6)
    #expect(diagnostic.uid == "tz@example.com")
    let output = serialize(result.document)
    #expect(unfoldedLines(output).contains("DTSTART;TZID=Mars Standard Time:20260308T093000"))
}

@Test func windowsTZIDWithoutVTIMEZONEResolvesToItsIANAZoneAndIsWrittenUnderIt() throws {
    // CLDR windowsZones.xml: <mapZone other="Pacific Standard Time" territory="001" type="America/Los_Angeles"/>
    let result = parse(
        calendar(event: ["UID:tz@example.com", "DTSTART;TZID=Pacific Standard Time:20260308T093000", "DURATION:PT1H"]))
    #expect(result.diagnostics.isEmpty)
    let event = try #require(result.document.events.first)
    #expect(
        event.start?.timeZone == TimeZoneReference(name: "Pacific Standard Time", ianaIdentifier: "America/Los_Angeles")
    )
    // No VTIMEZONE defines the Windows name: calport writes one from tzdata, under the IANA id.
    let lines = unfoldedLines(serialize(result.document))
    #expect(lines.contains("DTSTART;TZID=America/Los_Angeles:20260308T093000"))
    #expect(lines.contains("TZID:America/Los_Angeles"))
}

@Test func windowsTZIDWithItsOwnVTIMEZONEIsWrittenAsItCame() throws {
    let result = parse(
        ics([
            "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:x", "BEGIN:VTIMEZONE", "TZID:Pacific Standard Time",
            "BEGIN:STANDARD", "DTSTART:16011104T020000", "RRULE:FREQ=YEARLY;BYDAY=1SU;BYMONTH=11",
            "TZOFFSETFROM:-0700", "TZOFFSETTO:-0800", "END:STANDARD", "BEGIN:DAYLIGHT", "DTSTART:16010311T020000",
            "RRULE:FREQ=YEARLY;BYDAY=2SU;BYMONTH=3", "TZOFFSETFROM:-0800", "TZOFFSETTO:-0700", "END:DAYLIGHT",
            "END:VTIMEZONE", "BEGIN:VEVENT", "UID:tz", "DTSTAMP:20260101T000000Z",
            "DTSTART;TZID=Pacific Standard Time:20260308T093000", "END:VEVENT", "END:VCALENDAR",
        ]))
    let lines = unfoldedLines(serialize(result.document))
    #expect(lines.contains("DTSTART;TZID=Pacific Standard Time:20260308T093000"))
    #expect(lines.filter { $0.hasPrefix("TZID:") } == ["TZID:Pacific Standard Time"])
}

@Test func tzidDefinedByAVTIMEZONELaterInTheFileIsNotUnknown() {
    let bytes = ics([
        "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:x", "BEGIN:VEVENT", "UID:1",
        "DTSTART;TZID=Custom Zone:20260101T100000",
        "END:VEVENT", "BEGIN:VTIMEZONE", "TZID:Custom Zone", "BEGIN:STANDARD", "DTSTART:19700101T000000",
        "TZOFFSETFROM:+0300", "TZOFFSETTO:+0300", "END:STANDARD", "END:VTIMEZONE", "END:VCALENDAR",
    ])
    let result = parse(bytes)
    #expect(result.diagnostics.isEmpty)
    #expect(result.document.timeZones.first?.observances.first?.offsetTo == 3 * 3_600)
}

@Test func nonIntegerPriorityIsReportedNotReadAsZero() throws {
    let result = parse(calendar(event: ["UID:p@example.com", "DTSTART:20260105T100000Z", "PRIORITY:high"]))
    let event = try #require(result.document.events.first)
    #expect(event.priority == nil)
    let diagnostic = try #require(result.diagnostics.first)
    #expect(diagnostic.code == "invalid-value")
    #expect(diagnostic.location.line == 7)
    #expect(!serialize(result.document).contains("PRIORITY"))
}

@Test func priorityOutsideZeroToNineIsReported() {
    // RFC 5545 §3.8.1.9: PRIORITY is 0 to 9.
    let result = parse(calendar(event: ["UID:p@example.com", "DTSTART:20260105T100000Z", "PRIORITY:10"]))
    #expect(result.diagnostics.map(\.code) == ["invalid-value"])
}

@Test func impossibleDateTimeDropsTheEventWithAnError() throws {
    let result = parse(
        calendar(event: ["UID:bad@example.com", "DTSTART:20241332T250000", "SUMMARY:never"]))
    #expect(result.document.events.isEmpty)
    #expect(result.droppedComponents == 1)
    let diagnostic = try #require(result.diagnostics.first)
    #expect(diagnostic.severity == .error)
    #expect(diagnostic.location.line == 6)
    #expect(diagnostic.message.contains("20241332T250000"))
}

@Test func parameterWithoutValueIsReportedWithItsColumnAndTheValueKept() throws {
    let result = parse(calendar(event: ["UID:s@example.com", "DTSTART:20260105T100000Z", "SUMMARY;FOO:hello"]))
    #expect(result.document.events.first?.summary == "hello")
    let diagnostic = try #require(result.diagnostics.first)
    #expect(diagnostic.code == "parameter-without-value")
    #expect(diagnostic.location.line == 7)
    #expect(diagnostic.location.column == 12)
}

@Test func xLicErrorPropertiesBecomeDiagnosticsAndAreNotWritten() throws {
    let result = parse(
        calendar(event: [
            "UID:e@example.com", "DTSTART:20260105T100000Z",
            "X-LIC-ERROR;X-LIC-ERRORTYPE=VALUE-PARSE-ERROR:Can't parse as DURATION value in DURATION property",
        ]))
    let diagnostic = try #require(result.diagnostics.first)
    #expect(diagnostic.code == "libical-error")
    #expect(diagnostic.location.line == 7)
    #expect(diagnostic.message.contains("Can't parse as DURATION"))
    #expect(!serialize(result.document).contains("X-LIC-ERROR"))
}

@Test func vendorPrefixedTZIDsAreNeverWritten() throws {
    let prefixed = "/freeassociation.sourceforge.net/Tzfile/Europe/Berlin"
    let bytes = ics([
        "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:x", "BEGIN:VTIMEZONE", "TZID:\(prefixed)", "BEGIN:STANDARD",
        "DTSTART:19701025T030000", "TZOFFSETFROM:+0200", "TZOFFSETTO:+0100", "END:STANDARD", "END:VTIMEZONE",
        "BEGIN:VEVENT", "UID:1", "DTSTART;TZID=\(prefixed):20260105T100000", "END:VEVENT", "END:VCALENDAR",
    ])
    let result = parse(bytes)
    let event = try #require(result.document.events.first)
    // The prefix is the writing program's, not the zone's: the name keeps the rest.
    #expect(event.start?.timeZone?.name == "Europe/Berlin")
    #expect(result.document.timeZones.first?.identifier == "Europe/Berlin")
    #expect(event.start?.timeZone?.ianaIdentifier == "Europe/Berlin")
    let output = serialize(result.document)
    #expect(!output.contains("freeassociation"))
    #expect(unfoldedLines(output).contains("TZID:Europe/Berlin"))
    #expect(unfoldedLines(output).contains("DTSTART;TZID=Europe/Berlin:20260105T100000"))
}

/// Outlook writes a zone it cannot name as "Customized Time Zone" with its rules: here the EU rules
/// (last Sunday of March and October) between UTC+1 and UTC+2, which the CLDR default zones of
/// "W. Europe", "Romance", "Central Europe" and "Central European Standard Time" all follow.
@Test func customizedTimeZoneIsMatchedByItsTransitions() throws {
    let bytes = ics([
        "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:x", "BEGIN:VTIMEZONE", "TZID:Customized Time Zone", "BEGIN:STANDARD",
        "DTSTART:16010101T030000", "TZOFFSETFROM:+0200", "TZOFFSETTO:+0100", "RRULE:FREQ=YEARLY;BYDAY=-1SU;BYMONTH=10",
        "END:STANDARD", "BEGIN:DAYLIGHT", "DTSTART:16010101T020000", "TZOFFSETFROM:+0100", "TZOFFSETTO:+0200",
        "RRULE:FREQ=YEARLY;BYDAY=-1SU;BYMONTH=3", "END:DAYLIGHT", "END:VTIMEZONE", "BEGIN:VEVENT", "UID:c",
        "DTSTART;TZID=Customized Time Zone:20260615T100000", "END:VEVENT", "END:VCALENDAR",
    ])
    let result = parse(bytes)
    #expect(result.diagnostics.isEmpty)
    let zone = try #require(result.document.events.first?.start?.timeZone)
    #expect(zone.name == "Customized Time Zone")
    #expect(["Europe/Berlin", "Europe/Paris", "Europe/Budapest", "Europe/Warsaw"].contains(zone.ianaIdentifier ?? ""))
}

@Test func aVTimeZoneNoIANAZoneFollowsIsUsedAsItIsAndReported() throws {
    let bytes = ics([
        "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:x", "BEGIN:VTIMEZONE", "TZID:Base Camp Time", "BEGIN:STANDARD",
        "DTSTART:19700101T000000", "TZOFFSETFROM:+0517", "TZOFFSETTO:+0517", "END:STANDARD", "END:VTIMEZONE",
        "BEGIN:VEVENT", "UID:b", "DTSTART;TZID=Base Camp Time:20260615T100000", "END:VEVENT", "END:VCALENDAR",
    ])
    let result = parse(bytes)
    #expect(result.diagnostics.map(\.code) == ["custom-time-zone"])
    #expect(result.document.events.first?.start?.timeZone == TimeZoneReference(name: "Base Camp Time"))
}

/// A VTIMEZONE after the events that use it is matched the same way, and when nothing matches it is
/// said, as for one that comes first.
@Test func aLaterVTimeZoneNoIANAZoneFollowsIsReportedToo() throws {
    let bytes = ics([
        "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:x", "BEGIN:VEVENT", "UID:b",
        "DTSTART;TZID=Base Camp Time:20260615T100000", "END:VEVENT", "BEGIN:VTIMEZONE", "TZID:Base Camp Time",
        "BEGIN:STANDARD", "DTSTART:19700101T000000", "TZOFFSETFROM:+0517", "TZOFFSETTO:+0517", "END:STANDARD",
        "END:VTIMEZONE", "END:VCALENDAR",
    ])
    let result = parse(bytes)
    #expect(result.diagnostics.map(\.code) == ["custom-time-zone"])
    #expect(result.document.events.first?.start?.timeZone == TimeZoneReference(name: "Base Camp Time"))
}
