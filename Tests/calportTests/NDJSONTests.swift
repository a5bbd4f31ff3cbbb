import Testing

@testable import calport

/// `--to ndjson` and back: the schema of docs/ndjson.md carries every modelled property, so the model
/// comes back the same, and lines filtered out by a pipeline (jq, grep) are simply not there.
@Test func ndjsonReadsBackToTheSameEvents() {
    let lines = runCalport(["convert", "--to", "ndjson", samplePath("team-week.ics")])
    #expect(lines.status == .success)
    #expect(lines.output.split(separator: "\n").count == 4)
    let calendar = runCalport(["convert"], stdin: lines.output)
    #expect(calendar.status == .success, "\(calendar.errors)")
    let again = runCalport(["convert", "--to", "ndjson"], stdin: calendar.output)
    #expect(again.output == lines.output)
}

@Test func aFilteredNDJSONStreamConvertsOnlyWhatIsLeft() {
    let lines = runCalport(["convert", "--to", "ndjson", samplePath("team-week.ics")]).output
    let allDay = lines.split(separator: "\n").filter { $0.contains("\"isAllDay\":true") }.joined(separator: "\n")
    let run = runCalport(["convert"], stdin: allDay + "\n")
    #expect(run.status == .success)
    let text = run.output.replacingOccurrences(of: "\r\n ", with: "")
    #expect(text.contains("SUMMARY:Team offsite – Potsdam"))
    #expect(text.contains("DTSTART;VALUE=DATE:20261203"))
    #expect(text.components(separatedBy: "BEGIN:VEVENT").count == 2)
}

@Test func aLineThatIsNotAnEventIsReportedWithItsLine() {
    let run = runCalport(["convert", "--from", "ndjson"], stdin: "{\"uid\":\"a\"}\n{\"name\":\"no uid\"}\n")
    #expect(run.status == .dataProblem)
    #expect(run.errors.contains("<stdin>:2: error: expected an event object"))
}

@Test func aGraphPageOnOneLongLineIsReadAsGraphNotNDJSON() {
    // A page as Graph sends it: one line, here of about 110 KiB, longer than the 64 KiB looked at to
    // tell calport's NDJSON (an event a line) apart.
    let events = (0..<300).map { index in
        #"{"iCalUId":"page-\#(index)","subject":"\#(String(repeating: "x", count: 300))","#
            + #""start":{"dateTime":"2026-12-01T09:00:00","timeZone":"UTC"},"#
            + #""end":{"dateTime":"2026-12-01T10:00:00","timeZone":"UTC"}}"#
    }
    let page = #"{"value":["# + events.joined(separator: ",") + "]}\n"
    #expect(page.utf8.count > 100_000)
    let run = runCalport(["convert", "-q"], stdin: page)
    #expect(run.status == .success, "\(run.errors)")
    #expect(run.output.components(separatedBy: "BEGIN:VEVENT").count == 301)
}
