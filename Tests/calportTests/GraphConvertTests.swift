import Foundation
import TestSupport
import Testing

@testable import calport

private func unfolded(_ text: String) -> [String] {
    text.replacingOccurrences(of: "\r\n ", with: "").components(separatedBy: "\r\n")
}

/// Samples/graph-work-week.json is a calendarView page: a weekday stand-up seriesMaster (weekly,
/// monday–friday, firstDayOfWeek sunday) whose Wednesday occurrence was moved (exception with
/// originalStart 2026-12-02T17:00:00Z = 09:00 PST) and whose Thursday one is absent (cancelled), an
/// all-day release freeze on Friday 2026-12-04, and single meetings.
@Test func graphWorkWeekBecomesASeriesWithItsOverrideAndCancellation() {
    let run = runCalport(["convert", samplePath("graph-work-week.json")])
    #expect(run.status == .success, "\(run.errors)")
    let lines = unfolded(run.output)
    #expect(lines.contains("RRULE:FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR;WKST=SU"))
    // Graph's Windows zone is written under its IANA id (CLDR: Pacific Standard Time, 001 →
    // America/Los_Angeles), with a VTIMEZONE of that name (docs/mapping.md, "Time zones in .ics").
    #expect(lines.contains("EXDATE;TZID=America/Los_Angeles:20261203T090000"))
    #expect(lines.contains("RECURRENCE-ID;TZID=America/Los_Angeles:20261202T090000"))
    #expect(lines.contains("DTSTART;TZID=America/Los_Angeles:20261202T110000"))
    #expect(lines.contains("DTSTART;VALUE=DATE:20261204"))
    #expect(lines.contains("DTEND;VALUE=DATE:20261205"))
    #expect(lines.contains("TZID:America/Los_Angeles"), "a VTIMEZONE for the zone the events use")
    #expect(!run.output.contains("Pacific Standard Time:"))
}

@Test func graphToICalendarToGraphKeepsTheEvents() throws {
    let directory = try temporaryDirectory()
    let ics = directory.appendingPathComponent("week.ics").path
    #expect(runCalport(["convert", samplePath("graph-work-week.json"), "-o", ics]).status == .success)
    let direct = runCalport(["convert", "--to", "graph", samplePath("graph-work-week.json")])
    let roundTripped = runCalport(["convert", "--to", "graph", ics])
    // RFC 5545 §3.3.11 TEXT writes a line break as \n only: a body's CRLF comes back as LF.
    #expect(roundTripped.output == direct.output.replacingOccurrences(of: "\\r\\n", with: "\\n"))
}

@Test func postBodiesCarryStableTransactionIds() {
    let first = runCalport(["convert", "--to", "graph-post", samplePath("team-week.ics")])
    let second = runCalport(["convert", "--to", "graph-post", samplePath("team-week.ics")])
    #expect(first.output == second.output)
    #expect(first.output.contains("\"transactionId\":"))
    // Windows names go to Graph: Europe/Berlin is CLDR's "W. Europe Standard Time" (territory 001).
    #expect(first.output.contains("\"timeZone\":\"W. Europe Standard Time\""))
}

/// FREQ=HOURLY is beyond Graph; expanded in a stated window it becomes single events. From 09:00
/// Berlin (08:00Z) every 4 hours: 09, 13, 17, 21 fall before 2026-01-06T00:00Z; 01:00 on the 6th does not.
@Test func seriesGraphRefusesAreRefusedOrExpandedOnRequest() {
    let refused = runCalport(["convert", "--to", "graph-post"], stdin: hourlyPumpCheck)
    #expect(refused.status == .dataProblem)
    #expect(refused.errors.contains("RRULE:FREQ=HOURLY"))
    #expect(!refused.output.contains("Pump check"))
    let expanded = runCalport(
        ["convert", "--to", "graph-post", "--expand-unsupported", "2026-01-05/2026-01-06"], stdin: hourlyPumpCheck)
    #expect(expanded.status == .success)
    #expect(expanded.errors.contains("[graph-series-expanded]"))
    let starts = ["09", "13", "17", "21"].map { "\"start\":{\"dateTime\":\"2026-01-05T\($0):00:00\"" }
    for start in starts { #expect(expanded.output.contains(start)) }
    #expect(expanded.output.components(separatedBy: "\"subject\":\"Pump check\"").count - 1 == 4)
}

@Test func streamingGraphInputGivesTheSameCalendarWithZonesLast() {
    let whole = runCalport(["convert", samplePath("graph-work-week.json")])
    let streamed = runCalport(["convert", "--stream", samplePath("graph-work-week.json")])
    #expect(streamed.status == .success)
    // Same lines; only the generated VTIMEZONE moves after the events when streaming.
    #expect(unfolded(streamed.output).sorted() == unfolded(whole.output).sorted())
    let lines = unfolded(streamed.output)
    #expect(lines.firstIndex(of: "BEGIN:VTIMEZONE")! > lines.firstIndex(of: "BEGIN:VEVENT")!)
}

/// Google and Apple write floating times with the calendar's zone in X-WR-TIMEZONE; Graph has no
/// floating time, so they go out in that zone (Europe/Paris is CLDR's "Romance Standard Time", 001).
@Test func floatingTimesTakeTheCalendarsZoneOnTheWayToGraph() {
    let floating = """
        BEGIN:VCALENDAR\r
        VERSION:2.0\r
        PRODID:x\r
        X-WR-TIMEZONE:Europe/Paris\r
        BEGIN:VEVENT\r
        UID:f@example.com\r
        DTSTAMP:20260101T000000Z\r
        DTSTART:20260615T100000\r
        DTEND:20260615T110000\r
        END:VEVENT\r
        END:VCALENDAR\r

        """
    let run = runCalport(["convert", "--to", "graph-post"], stdin: floating)
    #expect(run.status == .success)
    #expect(
        run.output.contains("\"start\":{\"dateTime\":\"2026-06-15T10:00:00\",\"timeZone\":\"Romance Standard Time\"}"))
    #expect(!run.errors.contains("graph-floating-time"))
}

@Test func streamingGraphInputToNDJSONGivesTheSameLinesPastTheInputSizeLimit() {
    let whole = runCalport(["convert", "--to", "ndjson", samplePath("graph-work-week.json")])
    let streamed = runCalport(["convert", "--stream", "--to", "ndjson", samplePath("graph-work-week.json")])
    #expect(streamed.status == whole.status)
    #expect(streamed.output == whole.output)
    // Eight entries: three plain occurrences of the listed master are not events of their own.
    #expect(streamed.output.split(separator: "\n").count == 5)
    // Read whole, the input is refused over the limit; streamed, it is never held.
    let limited = ["convert", "--max-input-size", "1K", "--to", "ndjson", samplePath("graph-work-week.json")]
    #expect(runCalport(limited).errors.contains("input-too-large"))
    #expect(runCalport(limited + ["--stream"]).output == whole.output)
}

/// Exchange writes the overrides of an all-day series with a timed RECURRENCE-ID, midnight in its
/// Windows zone (in June, 23:00Z the day before in "GMT Standard Time"). Read as the instance of its
/// date in the series' zone (issue #18), the override must still replace that one instance after a
/// trip through Graph JSON: four weekly days from Monday 2026-06-01, the second moved to Tuesday 06-09.
@Test func anAllDayOverrideWithATimedRecurrenceIDSurvivesGraphJSON() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let source = directory.appendingPathComponent("exchange.ics")
    let zone = [
        "BEGIN:VTIMEZONE", "TZID:GMT Standard Time", "BEGIN:STANDARD", "DTSTART:16011028T020000",
        "RRULE:FREQ=YEARLY;BYDAY=-1SU;BYMONTH=10", "TZOFFSETFROM:+0100", "TZOFFSETTO:+0000", "END:STANDARD",
        "BEGIN:DAYLIGHT", "DTSTART:16010325T010000", "RRULE:FREQ=YEARLY;BYDAY=-1SU;BYMONTH=3", "TZOFFSETFROM:+0000",
        "TZOFFSETTO:+0100", "END:DAYLIGHT", "END:VTIMEZONE",
    ]
    let events = [
        "BEGIN:VEVENT", "UID:allday-series", "DTSTAMP:20260101T000000Z", "SUMMARY:Offsite",
        "DTSTART;VALUE=DATE:20260601", "DTEND;VALUE=DATE:20260602", "RRULE:FREQ=WEEKLY;COUNT=4", "END:VEVENT",
        "BEGIN:VEVENT", "UID:allday-series", "DTSTAMP:20260101T000000Z", "SUMMARY:Offsite (moved)",
        "RECURRENCE-ID;TZID=GMT Standard Time:20260608T000000", "DTSTART;VALUE=DATE:20260609",
        "DTEND;VALUE=DATE:20260610", "END:VEVENT",
    ]
    let text =
        (["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Microsoft Corporation//Outlook 16.0 MIMEDIR//EN"]
        + zone + events + ["END:VCALENDAR"]).joined(separator: "\r\n") + "\r\n"
    try text.write(to: source, atomically: true, encoding: .utf8)
    let graph = directory.appendingPathComponent("exchange.json").path
    let converted = runCalport(["convert", "--quiet", "--to", "graph", "-o", graph, source.path])
    #expect(converted.status == .success, "\(converted.errors)")
    let expanded = runCalport(["expand", "--start", "2026-05-01", "--end", "2026-08-01", graph])
    let starts = expanded.output.split(separator: "\n").compactMap { line -> String? in
        guard let range = line.range(of: "\"start\":\"") else { return nil }
        return String(line[range.upperBound...].prefix(10))
    }
    #expect(starts == ["2026-06-01", "2026-06-09", "2026-06-15", "2026-06-22"])
}

/// What writing Graph finds about an event (it knows only the UID) names the file the event came
/// from; a UID in two files is the first's.
@Test func whatWritingGraphFindsNamesTheEventsFile() throws {
    let directory = try temporaryDirectory()
    func calendar(_ name: String, _ events: [(uid: String, rule: String?)]) throws -> String {
        let path = directory.appendingPathComponent(name).path
        let body = events.map { event in
            ["BEGIN:VEVENT", "UID:\(event.uid)", "DTSTAMP:20261201T000000Z", "DTSTART:20261201T090000Z"]
                + (event.rule.map { ["RRULE:\($0)"] } ?? []) + ["SUMMARY:\(event.uid)", "END:VEVENT"]
        }
        let lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//test//EN"] + body.flatMap { $0 } + ["END:VCALENDAR"]
        try (lines.joined(separator: "\r\n") + "\r\n").write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }
    // Graph has no hourly recurrence: writing refuses each series with an error naming its UID.
    let first = try calendar("first.ics", [("plain", nil), ("hourly-both", "FREQ=HOURLY;COUNT=2")])
    let second = try calendar(
        "second.ics", [("hourly-second", "FREQ=HOURLY;COUNT=2"), ("hourly-both", "FREQ=HOURLY;COUNT=3")])
    let run = runCalport(["convert", "--to", "graph-post", first, second])
    let refusals = run.errors.split(separator: "\n").filter { $0.contains("error:") && $0.contains("hourly") }
    #expect(refusals.contains { $0.hasPrefix("\(second):") && $0.contains("hourly-second") }, "\(run.errors)")
    #expect(refusals.contains { $0.hasPrefix("\(first):") && $0.contains("hourly-both") }, "\(run.errors)")
    #expect(!refusals.contains { $0.hasPrefix("\(second):") && $0.contains("hourly-both") }, "\(run.errors)")
}
