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
    let lenient = runCalport(["validate"], stdin: hourlyPumpCheck)
    #expect(lenient.status == .success)
    #expect(lenient.errors.contains("[outlook-missing-vtimezone]"))
    #expect(lenient.errors.contains("[graph-unsupported-frequency]"))
    #expect(runCalport(["validate", "--strict"], stdin: hourlyPumpCheck).status == .dataProblem)
}

// `validate -q` once checked each diagnostic against every error found before it (40,000 errors:
// 50 s, against 0.75 s without -q). 20,000 events without DTSTAMP (RFC 5545 §3.6.1 requires it)
// whose DTEND comes before DTSTART (§3.8.2.2) are 40,000 errors, each counted, the first five of
// each code shown.
@Test(.timeLimit(.minutes(1)))
func quietValidationOfManyErrorsTakesTimeLinearInThem() {
    var calendar = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//EN\r\n"
    for index in 0..<20_000 {
        calendar +=
            "BEGIN:VEVENT\r\nUID:e\(index)\r\nDTSTART:20270101T100000Z\r\nDTEND:20270101T090000Z\r\nEND:VEVENT\r\n"
    }
    calendar += "END:VCALENDAR\r\n"
    let run = runCalport(["validate", "-q"], stdin: calendar)
    #expect(run.status == .dataProblem)
    #expect(run.output.isEmpty)
    let lines = run.errors.split(separator: "\n")
    #expect(lines.count == 12)
    #expect(lines.filter { $0.hasSuffix("[missing-property] (UID e0)") }.count == 1)
    #expect(
        lines.contains("calport: 20,000 × missing-property (20,000 errors), the first 5 shown; --verbose lists each"))
    #expect(
        lines.contains("calport: 20,000 × end-before-start (20,000 errors), the first 5 shown; --verbose lists each"))
}
