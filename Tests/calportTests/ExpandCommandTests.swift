import ArgumentParsing
import CalendarModel
import Foundation
import ICalendar
import Testing

@testable import calport

/// `calport expand` end to end: arguments, window, formats, escaping, exit statuses. Expected text is
/// worked out by hand (Berlin is UTC+1 in winter, UTC+2 from 2024-03-31 01:00Z).
struct ExpandCommandTests {
    func run(_ arguments: [String], input: String) -> Run {
        runCalport(["expand"] + arguments, stdin: input)
    }

    static let standup =
        [
            "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//t//EN", "BEGIN:VEVENT", "UID:s1",
            "SUMMARY:Stand \"up\"\\, \\\\ daily\\nsecond line",
            "DTSTART;TZID=Europe/Berlin:20240329T093000", "DTEND;TZID=Europe/Berlin:20240329T094500",
            "RRULE:FREQ=DAILY;COUNT=4", "EXDATE;TZID=Europe/Berlin:20240330T093000", "END:VEVENT", "BEGIN:VEVENT",
            "UID:s1", "RECURRENCE-ID;TZID=Europe/Berlin:20240331T093000", "SUMMARY:moved",
            "DTSTART;TZID=Europe/Berlin:20240331T120000", "DTEND;TZID=Europe/Berlin:20240331T130000", "END:VEVENT",
            "BEGIN:VEVENT", "UID:h", "SUMMARY:Holiday", "DTSTART;VALUE=DATE:20240401", "END:VEVENT", "END:VCALENDAR",
        ].joined(separator: "\r\n") + "\r\n"

    @Test func ndjsonListsEachOccurrenceWithOffsetsOfTheDisplayZone() {
        let result = run(
            ["--start", "2024-03-01", "--end", "2024-05-01", "--tz", "Europe/Berlin"], input: Self.standup)
        #expect(result.status == calport.ExitStatus.success)
        let summary = #""Stand \"up\", \\ daily\nsecond line""#
        #expect(
            result.output.split(separator: "\n").map(String.init) == [
                #"{"uid":"s1","recurrenceId":"2024-03-29T09:30:00+01:00","start":"2024-03-29T09:30:00+01:00","end":"2024-03-29T09:45:00+01:00","isAllDay":false,"isOverride":false,"summary":"#
                    + summary + #","location":null,"status":null,"timeZone":"Europe/Berlin"}"#,
                #"{"uid":"s1","recurrenceId":"2024-03-31T09:30:00+02:00","start":"2024-03-31T12:00:00+02:00","end":"2024-03-31T13:00:00+02:00","isAllDay":false,"isOverride":true,"summary":"moved","location":null,"status":null,"timeZone":"Europe/Berlin"}"#,
                #"{"uid":"h","recurrenceId":null,"start":"2024-04-01","end":"2024-04-02","isAllDay":true,"isOverride":false,"summary":"Holiday","location":null,"status":null,"timeZone":null}"#,
                #"{"uid":"s1","recurrenceId":"2024-04-01T09:30:00+02:00","start":"2024-04-01T09:30:00+02:00","end":"2024-04-01T09:45:00+02:00","isAllDay":false,"isOverride":false,"summary":"#
                    + summary + #","location":null,"status":null,"timeZone":"Europe/Berlin"}"#,
            ])
    }

    /// Every line is JSON that Foundation reads back to the same strings.
    @Test func ndjsonEscapesControlCharactersAndLineSeparators() throws {
        // A raw control character is not allowed in TEXT (RFC 5545 §3.3.11) and is removed on reading;
        // an escaped newline is the control character that reaches the JSON writer.
        let input = Self.standup.replacingOccurrences(of: "SUMMARY:Holiday", with: "SUMMARY:a\\nb\u{2028}c")
        let result = run(["--start", "2024-04-01", "--end", "2024-04-02"], input: input)
        let holiday = try #require(result.output.split(separator: "\n").first { $0.contains(#""uid":"h""#) })
        // RFC 8259 requires control characters escaped; U+2028 is valid JSON as it is.
        #expect(holiday.contains(#""summary":"a\nb"#))
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(holiday.utf8)) as? [String: Any])
        #expect(object["summary"] as? String == "a\nb\u{2028}c")
    }

    /// The window is read in --tz: from 10:00 Berlin on April 1st the 09:30 occurrence is over and none
    /// follows, so only the all-day event, which overlaps, is listed.
    @Test func windowBoundsWithoutOffsetAreReadInTheDisplayZone() {
        let result = run(
            [
                "--start", "2024-04-01T10:00", "--end", "2024-04-02T00:00:00+02:00", "--tz", "Europe/Berlin",
                "--format", "table",
            ],
            input: Self.standup)
        #expect(
            result.output == "START                     END                       SUMMARY\n"
                + "2024-04-01                2024-04-02                Holiday\n")
    }

    /// Expand keeps each event's template in a table slot chosen by the event's serial number: with
    /// more series than slots (8,192) interleaved, events share slots and their templates are made
    /// again. Every occurrence must still carry its own event's members: event n is summarised
    /// "Event n", and each of its two daily occurrences (one on each day, in document order within a
    /// day) says so, in both formats that use templates.
    @Test(arguments: ["ndjson", "ics"])
    func templatesOfEventsSharingASlotStayTheirEvents(format: String) {
        let count = 8_192 + 40
        var lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//t//EN"]
        for n in 0..<count {
            lines += [
                "BEGIN:VEVENT", "UID:e\(n)", "SUMMARY:Event \(n)", "DTSTART:20240301T090000Z",
                "DTEND:20240301T100000Z", "RRULE:FREQ=DAILY;COUNT=2", "END:VEVENT",
            ]
        }
        let input = (lines + ["END:VCALENDAR"]).joined(separator: "\r\n") + "\r\n"
        let result = run(["--start", "2024-03-01", "--end", "2024-03-03", "--format", format], input: input)
        #expect(result.status == calport.ExitStatus.success, "\(result.errors)")
        let expected = (0..<2 * count).map { "e\($0 % count)|Event \($0 % count)" }
        let found: [String]
        if format == "ndjson" {
            found = result.output.split(separator: "\n").map { line in
                let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
                return "\(object?["uid"] as? String ?? "?")|\(object?["summary"] as? String ?? "?")"
            }
        } else {
            found = ICalendarParser().parse(Array(result.output.utf8)).document.events.map {
                "\($0.uid)|\($0.summary ?? "?")"
            }
        }
        #expect(found.count == expected.count)
        let wrong = zip(found, expected).enumerated().filter { $0.element.0 != $0.element.1 }
        #expect(
            wrong.isEmpty, "first of \(wrong.count) wrong: \(wrong.prefix(3).map { "\($0.offset): \($0.element)" })")
    }

    /// A DATE-TIME with a second of 60 (a leap second, RFC 5545 §3.3.5) in an override's DTSTART and
    /// RECURRENCE-ID and in an RDATE is written as it was read, as the event's own time, not as the
    /// next minute its seconds since 1970 come to: occurrences whose times are their own are not
    /// written from seconds (found by review: --format ics wrote `20170101T000000Z`).
    @Test func icsKeepsALeapSecondInTimesOfTheirOwn() {
        let input =
            [
                "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//t//EN", "BEGIN:VEVENT", "UID:a",
                "DTSTART:20161230T120000Z", "RRULE:FREQ=DAILY;COUNT=3", "RDATE:20161229T235960Z", "END:VEVENT",
                "BEGIN:VEVENT", "UID:a", "RECURRENCE-ID:20161231T120000Z", "DTSTART:20161231T235960Z",
                "END:VEVENT", "END:VCALENDAR",
            ].joined(separator: "\r\n") + "\r\n"
        let result = run(["--start", "2016-12-01", "--end", "2017-02-01", "--format", "ics"], input: input)
        #expect(result.status == calport.ExitStatus.success, "\(result.errors)")
        let times = result.output.components(separatedBy: "\r\n").filter {
            $0.hasPrefix("DTSTART") || $0.hasPrefix("RECURRENCE-ID")
        }
        #expect(
            times == [
                "RECURRENCE-ID:20161229T235960Z", "DTSTART:20161229T235960Z",
                "RECURRENCE-ID:20161230T120000Z", "DTSTART:20161230T120000Z",
                "RECURRENCE-ID:20161231T120000Z", "DTSTART:20161231T235960Z",
                "RECURRENCE-ID:20170101T120000Z", "DTSTART:20170101T120000Z",
            ])
    }

    @Test func icsOutputHasOneStandaloneEventPerOccurrence() {
        let result = run(["--start", "2024-03-01", "--end", "2024-05-01", "--format", "ics"], input: Self.standup)
        let parsed = ICalendarParser().parse(Array(result.output.utf8))
        #expect(parsed.diagnostics.filter { $0.severity == .error }.isEmpty)
        #expect(parsed.document.events.count == 4)
        #expect(parsed.document.events.allSatisfy { $0.recurrenceRules.isEmpty && $0.exceptionDates.isEmpty })
        #expect(parsed.document.events.map { $0.recurrenceID != nil } == [true, true, false, true])
    }

    /// Each VEVENT is its event's text with the occurrence's own DTSTART, DTEND and RECURRENCE-ID
    /// (RFC 5545 §3.8.4.4: an instance's RECURRENCE-ID is its original start in DTSTART's form), the
    /// rest as the event has it: a folded UTF-8 DESCRIPTION and the attendee written for every
    /// occurrence, also for a second occurrence of the same event after other events' ones.
    @Test func icsOccurrencesRewriteOnlyTheirTimes() throws {
        let description =
            "Ordre du jour de la réunion\\, état des lieux et décisions: " + String(repeating: "é", count: 60)
        let input = Self.standup.replacingOccurrences(
            of: "RRULE:FREQ=DAILY;COUNT=4",
            with: "RRULE:FREQ=DAILY;COUNT=4\r\nDESCRIPTION:\(description)\r\nATTENDEE;CN=Zoë:mailto:zoe@example.com")
        let result = run(["--start", "2024-03-01", "--end", "2024-05-01", "--format", "ics"], input: input)
        #expect(result.status == calport.ExitStatus.success)
        let unfolded = result.output.replacingOccurrences(of: "\r\n ", with: "")
        let events = unfolded.components(separatedBy: "BEGIN:VEVENT\r\n").dropFirst().map {
            $0.components(separatedBy: "\r\n")
        }
        let times = events.map { lines in
            lines.filter { $0.hasPrefix("DTSTART") || $0.hasPrefix("DTEND") || $0.hasPrefix("RECURRENCE-ID") }
        }
        #expect(
            times == [
                [
                    "RECURRENCE-ID;TZID=Europe/Berlin:20240329T093000", "DTSTART;TZID=Europe/Berlin:20240329T093000",
                    "DTEND;TZID=Europe/Berlin:20240329T094500",
                ],
                [
                    "RECURRENCE-ID;TZID=Europe/Berlin:20240331T093000", "DTSTART;TZID=Europe/Berlin:20240331T120000",
                    "DTEND;TZID=Europe/Berlin:20240331T130000",
                ],
                ["DTSTART;VALUE=DATE:20240401", "DTEND;VALUE=DATE:20240402"],
                [
                    "RECURRENCE-ID;TZID=Europe/Berlin:20240401T093000", "DTSTART;TZID=Europe/Berlin:20240401T093000",
                    "DTEND;TZID=Europe/Berlin:20240401T094500",
                ],
            ])
        for index in [0, 3] {
            #expect(events[index].contains("DESCRIPTION:\(description)"))
            #expect(events[index].contains("ATTENDEE;CN=Zoë:mailto:zoe@example.com"))
            #expect(!events[index].contains { $0.hasPrefix("RRULE") || $0.hasPrefix("EXDATE") })
        }
        // Every line of the output, folds included, within RFC 5545's 75 octets.
        #expect(result.output.components(separatedBy: "\r\n").allSatisfy { $0.utf8.count <= 75 })
    }

    /// A second DTSTART (RFC 5545 allows one) is kept as the input wrote it; the occurrence's own
    /// DTSTART is the first one's time, not written into the kept line too.
    @Test func icsOccurrenceLeavesAKeptSecondDTSTARTAsWritten() {
        let input =
            [
                "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//t//EN", "BEGIN:VEVENT", "UID:two", "SUMMARY:two starts",
                "DTSTART;TZID=Europe/Berlin:20240304T080000", "DTSTART;TZID=Europe/Berlin:20240304T100000",
                "DTEND;TZID=Europe/Berlin:20240304T090000", "RRULE:FREQ=DAILY;COUNT=2", "END:VEVENT", "END:VCALENDAR",
            ].joined(separator: "\r\n") + "\r\n"
        let result = run(["--start", "2024-03-01", "--end", "2024-04-01", "--format", "ics"], input: input)
        let starts = result.output.components(separatedBy: "\r\n").filter { $0.hasPrefix("DTSTART") }
        #expect(
            starts == [
                "DTSTART;TZID=Europe/Berlin:20240304T080000", "DTSTART;TZID=Europe/Berlin:20240304T100000",
                "DTSTART;TZID=Europe/Berlin:20240305T080000", "DTSTART;TZID=Europe/Berlin:20240304T100000",
            ])
    }

    @Test func theCapIsReportedOnStandardError() {
        let result = run(
            ["--start", "2024-03-01", "--end", "2024-05-01", "--max-occurrences", "1"], input: Self.standup)
        #expect(result.output.split(separator: "\n").count == 2)
        #expect(result.errors.contains("[occurrence-cap]"))
        #expect(result.errors.contains("UID s1"))
    }

    static func calendar(_ lines: [String]) -> String {
        (["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//t//EN"] + lines + ["END:VCALENDAR"])
            .joined(separator: "\r\n") + "\r\n"
    }

    /// An attendee line that cannot be parsed, in an event a listing shows.
    static let unparsableAttendee = calendar([
        "BEGIN:VEVENT", "UID:bad", "DTSTART:20260106T090000Z", "SUMMARY:Bad attendee",
        #"ATTENDEE;CN="unterminated:mailto:a@example.com"#, "END:VEVENT",
    ])

    /// A listing leaves unread what it does not show: a defect there is `--strict`'s and `validate`'s
    /// to report.
    @Test func aListingLeavesDefectsOfWhatItDoesNotShowToStrictAndValidate() {
        let window = ["--start", "2026-01-01", "--end", "2026-02-01"]
        for streamed in [[], ["--stream"]] {
            let listed = run(window + streamed, input: Self.unparsableAttendee)
            #expect(listed.status == calport.ExitStatus.success)
            #expect(listed.output.contains(#""summary":"Bad attendee""#) && !listed.errors.contains("[syntax]"))
            let strict = run(window + streamed + ["--strict"], input: Self.unparsableAttendee)
            #expect(strict.status == calport.ExitStatus.dataProblem)
            #expect(strict.errors.contains("<stdin>:8:13: error: unterminated quoted value of parameter CN"))
            // The occurrences in ICS are whole events: there everything is read.
            #expect(
                run(window + streamed + ["--format", "ics"], input: Self.unparsableAttendee).errors.contains("[syntax]")
            )
        }
        let validated = runCalport(["validate", "-"], stdin: Self.unparsableAttendee)
        #expect(validated.status != calport.ExitStatus.success && validated.errors.contains("[syntax]"))
    }

    /// Two versions of one event that tie (the same SEQUENCE, LAST-MODIFIED and DTSTAMP) are both
    /// kept when they differ (RFC 5545 gives neither precedence), as reading the whole events does,
    /// even when they differ only in what a listing does not show.
    @Test func versionsThatDifferOnlyInWhatAListingLeavesUnreadAreBothListed() {
        let version = { (description: String) in
            [
                "BEGIN:VEVENT", "UID:tie", "DTSTAMP:20260101T000000Z", "DTSTART:20260105T090000Z", "SUMMARY:Tie",
                "DESCRIPTION:\(description)", "END:VEVENT",
            ]
        }
        let input = Self.calendar(version("first") + version("second"))
        for streamed in [[], ["--stream"]] {
            let listed = run(["--start", "2026-01-01", "--end", "2026-02-01"] + streamed, input: input)
            #expect(listed.output.split(separator: "\n").map { $0.contains(#""uid":"tie""#) } == [true, true])
            #expect(listed.errors.contains("[duplicate-version]"))
        }
        // Versions of an override read before and after the VTIMEZONE its times name: alike once the
        // zone is known, as `EventVersions` compares them.
        let zone = [
            "BEGIN:VTIMEZONE", "TZID:Office", "BEGIN:STANDARD", "DTSTART:19700101T000000", "TZOFFSETFROM:+0100",
            "TZOFFSETTO:+0100", "END:STANDARD", "END:VTIMEZONE",
        ]
        let override = { (description: String) in
            [
                "BEGIN:VEVENT", "UID:fw", "DTSTAMP:20260101T000000Z", "RECURRENCE-ID;TZID=Office:20260106T100000",
                "DTSTART;TZID=Office:20260106T150000", "SUMMARY:moved", "DESCRIPTION:\(description)", "END:VEVENT",
            ]
        }
        let master = [
            "BEGIN:VEVENT", "UID:fw", "DTSTAMP:20260101T000000Z", "DTSTART;TZID=Office:20260105T100000",
            "RRULE:FREQ=DAILY;COUNT=5", "SUMMARY:master", "END:VEVENT",
        ]
        let aroundTheZone = Self.calendar(master + override("one") + zone + override("two"))
        for streamed in [[], ["--stream"]] {
            let listed = run(["--start", "2026-01-01", "--end", "2026-02-01"] + streamed, input: aroundTheZone)
            #expect(listed.output.split(separator: "\n").filter { $0.contains(#""summary":"moved""#) }.count == 2)
            #expect(listed.errors.contains("[duplicate-version]"))
        }
        // Identical copies are one event.
        let copies = run(
            ["--start", "2026-01-01", "--end", "2026-02-01"], input: Self.calendar(version("a") + version("a")))
        #expect(copies.output.split(separator: "\n").count == 1)
    }

    @Test func badArgumentsAreUsageErrors() {
        #expect(run(["--start", "2024-03-01"], input: Self.standup).status == calport.ExitStatus.usage)
        #expect(
            run(["--start", "2024-13-01", "--end", "2024-05-01"], input: Self.standup).status
                == calport.ExitStatus.usage)
        #expect(
            run(["--start", "2024-05-01", "--end", "2024-03-01"], input: Self.standup).status
                == calport.ExitStatus.usage)
        #expect(
            run(["--start", "2024-03-01", "--end", "2024-05-01", "--tz", "Nowhere/Else"], input: "").status
                == calport.ExitStatus.usage)
        #expect(
            run(["--start", "2024-03-01", "--end", "2024-05-01", "--format", "graph"], input: "").status
                == calport.ExitStatus.usage)
    }
}

/// 2026-12-01 23:30 UTC: already 2 December in Berlin (UTC+1), still 1 December in UTC.
private let lateOnTheFirst = LocalDateTime(year: 2026, month: 12, day: 1, hour: 23, minute: 30).secondsSinceEpoch

@Test func windowsMayBeRelativeToTodayInTheZone() throws {
    func window(_ start: String, _ end: String, _ zone: String? = nil) throws -> (LocalDateTime, LocalDateTime) {
        let window = try ExpandWindow(start: start, end: end, zone: zone, now: lateOnTheFirst).window
        return (LocalDateTime(secondsSinceEpoch: window.start), LocalDateTime(secondsSinceEpoch: window.end))
    }
    #expect(
        try window("today", "tomorrow")
            == (LocalDateTime(year: 2026, month: 12, day: 1), LocalDateTime(year: 2026, month: 12, day: 2)))
    // In Berlin it is the 2nd: today starts at 2026-12-02 00:00+01:00, 2026-12-01T23:00Z.
    #expect(
        try window("today", "+1w", "Europe/Berlin")
            == (
                LocalDateTime(year: 2026, month: 12, day: 1, hour: 23),
                LocalDateTime(year: 2026, month: 12, day: 8, hour: 23)
            ))
    #expect(
        try window("-1w", "yesterday")
            == (LocalDateTime(year: 2026, month: 11, day: 24), LocalDateTime(year: 2026, month: 11, day: 30)))
    // A month is its first day.
    #expect(
        try window("2026-12", "2027-01")
            == (LocalDateTime(year: 2026, month: 12, day: 1), LocalDateTime(year: 2027, month: 1, day: 1)))
    for wrong in ["+7", "7d", "+d", "+-3d", "2026-13", "next week"] {
        #expect(throws: UsageError.self, "\(wrong)") { try window(wrong, "2030-01-01") }
    }
}

@Test func expandTakesARelativeWindowOnTheCommandLine() {
    let run = runCalport(["expand", "--start", "-1w", "--end", "+1w"], stdin: "BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n")
    #expect(run.status == .success, "\(run.errors)")
}
