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

// Inputs over 8 MiB (or any, with --stream) are checked in flat memory; the report must be the one
// the whole file gives. RFC 5545 §3.6.1 requires DTSTAMP; §3.8.2.2 puts DTEND after DTSTART; two
// versions of UID twice (same RECURRENCE-ID, none) keep the higher SEQUENCE (§3.8.7.4); Later/Zone
// is defined after the events that name it (legal: order is free), Europe/Berlin nowhere.
@Test(arguments: [[], ["--stream"]])
func aStreamedCheckReportsWhatTheWholeFileGives(_ options: [String]) {
    let calendar = [
        "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//t//EN",
        "BEGIN:VEVENT", "UID:no-stamp", "DTSTART;TZID=Europe/Berlin:20270104T100000",
        "DTEND;TZID=Europe/Berlin:20270104T090000", "END:VEVENT",  // lines 4-8
        "BEGIN:VEVENT", "UID:twice", "DTSTAMP:20270101T000000Z", "SEQUENCE:1",
        "DTSTART;TZID=Later/Zone:20270105T100000", "SUMMARY:Old", "END:VEVENT",  // lines 9-15
        "BEGIN:VEVENT", "UID:twice", "DTSTAMP:20270101T000000Z", "SEQUENCE:2",
        "DTSTART;TZID=Later/Zone:20270105T120000", "SUMMARY:New", "END:VEVENT",  // lines 16-22
        "BEGIN:VTIMEZONE", "TZID:Later/Zone", "BEGIN:STANDARD", "DTSTART:19700101T000000",
        "TZOFFSETFROM:+0100", "TZOFFSETTO:+0100", "END:STANDARD", "END:VTIMEZONE",
        "END:VCALENDAR",
    ].map { $0 + "\r\n" }.joined()
    let run = runCalport(["validate"] + options, stdin: calendar)
    #expect(run.status == .dataProblem)
    #expect(run.output == "<stdin>: invalid (3 errors, 1 warnings)\n")
    #expect(
        run.errors.split(separator: "\n").map(String.init) == [
            "<stdin>:4: error: VEVENT has no DTSTAMP, which RFC 5545 requires [missing-property] (UID no-stamp)",
            "<stdin>:7: error: DTEND 20270104T090000 is not after DTSTART 20270104T100000 [end-before-start] (UID no-stamp)",
            "<stdin>:16: error: UID twice has two versions, at <stdin>:9 and <stdin>:16; the one at <stdin>:16 was kept"
                + " (higher SEQUENCE, then later LAST-MODIFIED, then DTSTAMP) [duplicate-version] (UID twice)",
            "<stdin>: warning: TZID 'Europe/Berlin' has no VTIMEZONE; Outlook reads such times in its own zone"
                + " (calport convert adds one) [outlook-missing-vtimezone] (UID no-stamp)",
        ])
}
