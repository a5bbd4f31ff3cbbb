import Testing

@testable import calport

@Test func cleanSampleIsValid() {
    let run = runCalport(["validate", samplePath("team-week.ics")])
    #expect(run.status == .success)
    #expect(run.output.hasSuffix("team-week.ics: valid (0 errors, 0 warnings)\n"))
    #expect(run.errors.isEmpty)
}

@Test func invalidFileIsReportedWithLinesAndFails() {
    let run = runCalport(["validate"], stdin: badEvent)
    #expect(run.status == .dataProblem)
    #expect(run.errors.contains("<stdin>:10: error: DTSTART '20241332T250000' is not a valid DATE or DATE-TIME"))
    #expect(run.errors.contains("[missing-property]"), "no DTSTAMP: RFC 5545 §3.6.1 requires it")
    #expect(run.output.contains("<stdin>: invalid ("))
}

/// RFC-valid but not portable: a TZID without its VTIMEZONE, and FREQ=HOURLY which Graph's
/// patternedRecurrence cannot express (daily is its finest pattern).
@Test func outlookAndGraphCompatibilityAreWarnings() {
    let hourly = """
        BEGIN:VCALENDAR\r
        VERSION:2.0\r
        PRODID:x\r
        BEGIN:VEVENT\r
        UID:pump@example.com\r
        DTSTAMP:20260101T000000Z\r
        DTSTART;TZID=Europe/Berlin:20260105T090000\r
        DURATION:PT15M\r
        RRULE:FREQ=HOURLY;COUNT=5\r
        END:VEVENT\r
        END:VCALENDAR\r

        """
    let lenient = runCalport(["validate"], stdin: hourly)
    #expect(lenient.status == .success)
    #expect(lenient.errors.contains("[outlook-missing-vtimezone]"))
    #expect(lenient.errors.contains("[graph-unsupported-frequency]"))
    #expect(runCalport(["validate", "--strict"], stdin: hourly).status == .dataProblem)
}
