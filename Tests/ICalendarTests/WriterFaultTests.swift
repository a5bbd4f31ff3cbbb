import CalendarModel
import Testing

@testable import ICalendar

// What calport once wrote that real readers refuse (docs/interop.md, "Real readers"): each fixed
// fault, with the reader that showed it.

/// The output's unfolded lines for `input`, and what reading the input reported.
private func converted(_ input: [UInt8]) -> (lines: [String], diagnostics: [Diagnostic]) {
    let parsed = parse(input)
    return (unfoldedLines(serialize(parsed.document)), parsed.diagnostics)
}

@Test func versionAndProductIDWithParametersAreWrittenOnce() throws {
    // Radicale: "cannot contain more than 1 VERSION"; RFC 5545 §3.6 allows one VERSION and one PRODID.
    let input = ics([
        "BEGIN:VCALENDAR", "VERSION;X-BLA=1:2.0", "PRODID;X-KIND=test:-//vendor//app//EN", "BEGIN:VEVENT",
        "UID:v", "DTSTAMP:20261201T000000Z", "DTSTART:20261201T090000Z", "END:VEVENT", "END:VCALENDAR",
    ])
    let (lines, diagnostics) = converted(input)
    #expect(lines.filter { $0.hasPrefix("VERSION") } == ["VERSION:2.0"])
    #expect(lines.filter { $0.hasPrefix("PRODID") } == ["PRODID:-//vendor//app//EN"])
    #expect(diagnostics.filter { $0.code == "parameters-dropped" }.map(\.location.line) == [2, 3])
    let output = ics(lines)
    #expect(ICalendarValidator().validate(output).filter { $0.severity == .error } == [])
}

@Test func aPeriodReadWithDatesIsWrittenWithValueOnce() throws {
    // `RDATE;VALUE=PERIOD:19970101/19970102` was written `;VALUE=PERIOD;VALUE=DATE:`, which libical
    // drops whole (RFC 5545 §3.2: a parameter once). It is written back as it was read.
    let input = calendar(event: [
        "UID:1", "DTSTAMP:19970101T000000Z", "DTSTART:19970101T180000Z", "RDATE;VALUE=PERIOD:19970101/19970102",
    ])
    let (lines, _) = converted(input)
    #expect(lines.filter { $0.hasPrefix("RDATE") } == ["RDATE;VALUE=PERIOD:19970101/19970102"])
    let complaints = try #require(Libical.parserComplaints(lines.joined(separator: "\r\n") + "\r\n"))
    #expect(complaints.isEmpty, "\(complaints)")
}

// Radicale 3.9 (vobject 0.9.9) refuses any object with `RDATE;VALUE=PERIOD`, khal 0.10.5 crashes
// on it and imports nothing: a period is written as its start and, when it lasts otherwise than the
// event, an override for that occurrence (RFC 5545 §3.8.4.4), which every reader takes.

/// The lines of each VEVENT in `lines`, in order.
private func vevents(_ lines: [String]) -> [[String]] {
    var events: [[String]] = []
    for line in lines {
        if line == "BEGIN:VEVENT" {
            events.append([])
        } else if line != "END:VEVENT", !events.isEmpty {
            events[events.count - 1].append(line)
        }
    }
    return events
}

/// issue_464_invalid_rdate.ics's valid period: 4 hours of event, a 13-hour second occurrence.
private let periodEvent = [
    "UID:rdate_period", "DTSTAMP:19961201T000000Z", "SUMMARY:RDATE period", "DTSTART:19961230T020000Z",
    "DTEND:19961230T060000Z", "RDATE;VALUE=PERIOD:19970101T180000Z/19970102T070000Z",
]

@Test func aPeriodLastingOtherwiseThanItsEventIsWrittenAsAnOverride() throws {
    let (lines, _) = converted(calendar(event: periodEvent))
    let events = vevents(lines)
    try #require(events.count == 2)
    #expect(events[0].filter { $0.hasPrefix("RDATE") } == ["RDATE:19970101T180000Z"])
    #expect(!events[0].contains { $0.hasPrefix("RECURRENCE-ID") })
    // The override replaces the occurrence the RDATE adds, with the period's own end.
    for expected in [
        "UID:rdate_period", "RECURRENCE-ID:19970101T180000Z", "DTSTART:19970101T180000Z", "DTEND:19970102T070000Z",
        "SUMMARY:RDATE period",
    ] {
        #expect(events[1].contains(expected), "\(expected) in \(events[1])")
    }
    #expect(!events[1].contains { $0.hasPrefix("RDATE") || $0.hasPrefix("RRULE") })
    // RFC 5545 §3.8.5.2: the set is DTSTART (02:00–06:00) and the period (18:00 to 07:00 next day).
    let read = occurrences(ics(lines)).map { "\(utcText($0.startInstant))/\(utcText($0.endInstant))" }
    #expect(read == ["19961230T020000Z/19961230T060000Z", "19970101T180000Z/19970102T070000Z"])
    let complaints = try #require(Libical.parserComplaints(lines.joined(separator: "\r\n") + "\r\n"))
    #expect(complaints.isEmpty, "\(complaints)")
}

@Test func aZonedPeriodAsLongAsItsEventIsWrittenAsARecurrenceDateInItsZone() throws {
    let input = calendar(event: [
        "UID:1", "DTSTAMP:20261201T000000Z", "DTSTART;TZID=Europe/Berlin:20261201T090000", "DURATION:PT1H",
        "RDATE;VALUE=PERIOD;TZID=Europe/Berlin:20261203T090000/PT1H",
    ])
    let events = vevents(converted(input).lines)
    try #require(events.count == 1)
    #expect(events[0].filter { $0.hasPrefix("RDATE") } == ["RDATE;TZID=Europe/Berlin:20261203T090000"])
}

@Test func aPeriodWhoseOccurrenceTheInputOverridesGetsNoSecondOverride() throws {
    let input = calendar(events: [
        periodEvent,
        [
            "UID:rdate_period", "DTSTAMP:19961201T000000Z", "RECURRENCE-ID:19970101T180000Z",
            "DTSTART:19970101T190000Z", "DTEND:19970101T200000Z", "SUMMARY:moved",
        ],
    ])
    let events = vevents(unfoldedLines(serialize(parse(input).document)))
    #expect(events.filter { $0.contains("RECURRENCE-ID:19970101T180000Z") }.count == 1)
    #expect(events.contains { $0.contains("SUMMARY:moved") && $0.contains("DTSTART:19970101T190000Z") })
}

@Test func theStreamWriterWritesPeriodOverridesUnlessTheInputHasItsOwn() throws {
    func streamed(_ events: [[String]]) -> [[String]] {
        let document = parse(calendar(events: events)).document
        var bytes: [UInt8] = []
        var writer = ICalendarStreamWriter { bytes += $0 }
        for event in document.events { writer.write(event, header: document) }
        writer.finish(header: document)
        return vevents(unfoldedLines(String(decoding: bytes, as: UTF8.self)))
    }
    let alone = streamed([periodEvent])
    #expect(alone.count == 2)
    #expect(alone.last?.contains("DTEND:19970102T070000Z") == true)
    // The input's override comes after its master, as written by calendar apps: it alone is kept.
    let overridden = streamed([
        periodEvent,
        ["UID:rdate_period", "DTSTAMP:19961201T000000Z", "RECURRENCE-ID:19970101T180000Z", "DTSTART:19970101T190000Z"],
    ])
    #expect(overridden.count == 2)
    #expect(overridden.filter { $0.contains("RECURRENCE-ID:19970101T180000Z") }.count == 1)
    #expect(overridden.contains { $0.contains("DTSTART:19970101T190000Z") })
}

@Test func aSecondCopyOfAnUnreadableSingletonGivesTheValue() throws {
    // Found by scripts/fuzz (Fuzz/regressions/icalendar/): the first DTSTAMP unreadable and dropped,
    // the second was kept verbatim, and so read again as the first, then dropped: a second reading
    // changed the output. A later copy now gives the value the first could not.
    let (lines, _) = converted(
        calendar(event: ["UID:1", "DTSTAMP:2026-12-01", "DTSTART:20261201T090000Z", "DTSTAMP:20261130T080000Z"]))
    #expect(lines.filter { $0.hasPrefix("DTSTAMP") } == ["DTSTAMP:20261130T080000Z"])
    let (twice, _) = converted(
        calendar(event: ["UID:1", "DTSTAMP:2026-12-01", "DTSTART:20261201T090000Z", "DTSTAMP:20261130T08"]))
    #expect(!twice.contains { $0.hasPrefix("DTSTAMP") })
}

@Test func anUnreadableValueTakesItsParametersWithIt() throws {
    // Found by scripts/fuzz (Fuzz/regressions/icalendar/round-trip-tied-overrides.ics): the second
    // copy of an override had a DTEND that could not be read, dropped, but its unknown parameter
    // stayed in the model. The two copies then differed, were both kept as a tie, and were written
    // identically (the parameter goes out only on its property), so a second reading merged them.
    let override = [
        "UID:1", "DTSTAMP:20261120T090000Z", "RECURRENCE-ID:20261202T093000Z", "DTSTART:20261202T110000Z",
    ]
    let input = calendar(events: [override, override + ["DTEND;X-TZIL=/mozi:VEVENT"]])
    let (lines, diagnostics) = converted(input)
    // RFC 5545 §3.6.1: without a readable DTEND the second copy is the first one, and one event.
    #expect(lines.filter { $0.hasPrefix("RECURRENCE-ID") } == ["RECURRENCE-ID:20261202T093000Z"])
    #expect(!diagnostics.contains { $0.code == "duplicate-version" })
    #expect(diagnostics.filter { $0.code == "invalid-value" }.map(\.location.line) == [15])
    let again = converted(ics(lines)).lines
    #expect(again.filter { $0.hasPrefix("RECURRENCE-ID") }.count == 1)
}

@Test func tiedVersionsThatSplitAlikeAreWrittenOnce() throws {
    // Found by scripts/fuzz (Fuzz/regressions/icalendar/round-trip-tied-period-masters.ics): two
    // versions of one master that tie, differing only in how long a period lasts, are both kept;
    // once the periods are split into overrides (RFC 5545 §3.8.4.4) the two masters were the same,
    // and so was the override of the period they share, and reading the output merged the copies.
    func version(lasting duration: String) -> [String] {
        [
            "UID:tied", "DTSTAMP:19960101T000000Z", "DTSTART:19960402T020000Z", "DTEND:19960402T040000Z",
            "RDATE;VALUE=PERIOD:19960403T020000Z/19960403T050000Z,19960404T010000Z/\(duration)",
        ]
    }
    let input = calendar(events: [version(lasting: "PT3H"), version(lasting: "PT8H")])
    func written(_ bytes: [UInt8], streaming: Bool) -> [[String]] {
        let document = parse(bytes).document
        guard streaming else { return vevents(unfoldedLines(serialize(document))) }
        var output: [UInt8] = []
        var writer = ICalendarStreamWriter { output += $0 }
        for event in document.events { writer.write(event, header: document) }
        writer.finish(header: document)
        return vevents(unfoldedLines(String(decoding: output, as: UTF8.self)))
    }
    for streaming in [false, true] {
        let events = written(input, streaming: streaming)
        // One master; the shared period's override once; the other period's two lengths both (a tie).
        #expect(events.filter { !$0.contains { $0.hasPrefix("RECURRENCE-ID") } }.count == 1)
        let overrides = events.compactMap { $0.first { $0.hasPrefix("RECURRENCE-ID") } }.sorted()
        #expect(
            overrides == [
                "RECURRENCE-ID:19960403T020000Z", "RECURRENCE-ID:19960404T010000Z", "RECURRENCE-ID:19960404T010000Z",
            ])
        let again = written(ics(events.flatMap { ["BEGIN:VEVENT"] + $0 + ["END:VEVENT"] }), streaming: streaming)
        #expect(again.count == events.count, "read again, the output keeps its \(events.count) events")
    }
}

@Test func theValidatorReportsAParameterGivenTwice() {
    let input = calendar(event: [
        "UID:1", "DTSTAMP:19970101T000000Z", "DTSTART:19970101T180000Z",
        "RDATE;VALUE=PERIOD;VALUE=DATE:19970101/19970102",
    ])
    let repeated = ICalendarValidator().validate(input).filter { $0.code == "repeated-parameter" }
    #expect(repeated.map(\.severity) == [.error])
    #expect(repeated.first?.location.line == 8)
}

@Test func theValidatorWantsDTSTARTOnlyWithoutAMethod() {
    let event = ["BEGIN:VEVENT", "UID:1", "DTSTAMP:20261201T000000Z", "SUMMARY:when?", "END:VEVENT"]
    let plain = ics(["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:x"] + event + ["END:VCALENDAR"])
    let cancel = ics(["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:x", "METHOD:CANCEL"] + event + ["END:VCALENDAR"])
    // RFC 5545 §3.6.1: "dtstart ... REQUIRED if the component appears in an iCalendar object that
    // doesn't specify the METHOD property".
    let message = "VEVENT has no DTSTART, which RFC 5545 requires without a METHOD"
    #expect(ICalendarValidator().validate(plain).filter { $0.message == message }.count == 1)
    #expect(ICalendarValidator().validate(cancel).filter { $0.message == message }.isEmpty)
}

@Test func aDurationPastTheYear9999IsClampedWithAWarning() throws {
    // libical keeps each DURATION field in 32 bits: P999999999999999999W came back as P1410065407W,
    // silently. From 2024-01-01 the last writable day, 9999-12-31, is 2,913,173 days on
    // (Python: (date(9999, 12, 31) - date(2024, 1, 1)).days).
    let input = calendar(event: [
        "UID:d", "DTSTAMP:20240101T000000Z", "DTSTART:20240101T000000Z", "DURATION:P999999999999999999W",
    ])
    let (lines, diagnostics) = converted(input)
    #expect(lines.contains("DURATION:P2913173D"))
    let warning = try #require(diagnostics.first { $0.code == "duration-out-of-range" })
    #expect(warning.severity == .warning && warning.location.line == 8)
}

@Test func aDurationWithinTheYearsIsReadAsWritten() throws {
    let input = calendar(event: [
        "UID:d", "DTSTAMP:20240101T000000Z", "DTSTART:20240101T000000Z", "DURATION:P5200W",
    ])
    let (lines, diagnostics) = converted(input)
    #expect(lines.contains("DURATION:P5200W"))
    #expect(!diagnostics.contains { $0.code == "duration-out-of-range" })
}

@Test func anAlarmDurationBeyondAnyCalendarIsRefused() throws {
    let input = calendar(event: [
        "UID:a", "DTSTAMP:20240101T000000Z", "DTSTART:20240101T090000Z", "BEGIN:VALARM", "ACTION:DISPLAY",
        "DESCRIPTION:x", "TRIGGER:-PT99999999999999999999M", "END:VALARM",
    ])
    let (lines, diagnostics) = converted(input)
    #expect(!lines.contains { $0.hasPrefix("TRIGGER") })
    #expect(diagnostics.contains { $0.code == "duration-out-of-range" && $0.severity == .error })
}

@Test func aVEventWithoutUIDGetsAStableOneDerivedFromItsContent() throws {
    // RFC 5545 §3.8.4.7 requires UID; Radicale refuses a calendar object without one.
    let input = ics([
        "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:x",
        "BEGIN:VEVENT", "DTSTAMP:20260101T000000Z", "DTSTART:20260105T100000Z", "SUMMARY:One", "END:VEVENT",
        "BEGIN:VEVENT", "DTSTAMP:20260101T000000Z", "DTSTART:20260106T100000Z", "SUMMARY:Two", "END:VEVENT",
        "BEGIN:VEVENT", "DTSTAMP:20260101T000000Z", "DTSTART:20260106T100000Z", "SUMMARY:Two", "END:VEVENT",
        "END:VCALENDAR",
    ])
    let (lines, diagnostics) = converted(input)
    let uids = lines.filter { $0.hasPrefix("UID:") }
    #expect(uids.count == 3 && Set(uids).count == 3, "\(uids)")
    #expect(uids.allSatisfy { $0.hasPrefix("UID:calport-") })
    // Two events alike in every line are still two events.
    #expect(uids[2] == uids[1] + "-2")
    #expect(converted(input).lines == lines)
    let notes = diagnostics.filter { $0.code == "missing-uid" }
    #expect(notes.map(\.severity) == [.warning, .warning, .warning])
    #expect(notes.map(\.location.line) == [4, 9, 14])
    // Another summary, another UID.
    let other = converted(calendar(event: ["DTSTAMP:20260101T000000Z", "DTSTART:20260105T100000Z", "SUMMARY:Uno"]))
    #expect(!other.lines.contains(uids[0]))
}
