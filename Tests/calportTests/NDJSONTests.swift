import CalendarConversion
import CalendarModel
import GraphEvents
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

@Test func ndjsonIsReadLineByLineAsItArrives() {
    let text = runCalport(["convert", "--to", "ndjson", samplePath("team-week.ics")]).output
    let bytes = Array(text.utf8)
    let firstLineEnd = bytes.firstIndex(of: 0x0A)! + 1
    var lines = EventJSONReader(file: "<stdin>", limits: JSONLimits())
    var events: [Event] = []
    // The first line and a few bytes of the second: the first event only.
    var problems = lines.read(Array(bytes[..<(firstLineEnd + 5)])) { events.append($0) }
    #expect(events.count == 1)
    // The rest in chunks of 7 bytes, then the end.
    var offset = firstLineEnd + 5
    while offset < bytes.count {
        problems += lines.read(Array(bytes[offset..<min(offset + 7, bytes.count)])) { events.append($0) }
        offset += 7
    }
    problems += lines.read(nil) { events.append($0) }
    #expect(problems.isEmpty)
    #expect(events == EventJSONReader.read(bytes, file: "<stdin>", limits: JSONLimits()).events)
    #expect(events.count == 4)
}

@Test func aStreamedNDJSONLineThatIsNotAnEventIsReportedAndTheOthersConverted() {
    let lines = runCalport(["convert", "--to", "ndjson", samplePath("team-week.ics")]).output
        .split(separator: "\n").map(String.init)
    // A second line that is JSON but no event, and a repeated member on the third.
    let third = lines[1].replacingOccurrences(of: "{\"uid\"", with: "{\"summary\":\"x\",\"summary\":\"y\",\"uid\"")
    let input = [lines[0], "[1, 2]", third, lines[2], lines[3]].joined(separator: "\n") + "\n"
    let run = runCalport(["convert", "--stream", "--from", "ndjson"], stdin: input)
    #expect(run.status == .dataProblem)
    #expect(run.errors.contains("<stdin>:2: error: expected an event object"))
    #expect(run.errors.contains("<stdin>:3:") && run.errors.contains("[json-duplicate-key]"))
    #expect(run.output.components(separatedBy: "BEGIN:VEVENT").count == 5)
}

/// Two lines of calport NDJSON, each an event.
private let twoEventLines = [
    #"{"uid":"first","summary":"One","start":"2026-01-05T10:00:00Z","end":"2026-01-05T11:00:00Z"}"#,
    #"{"uid":"last","summary":"Two","start":"2026-01-06T10:00:00Z","end":"2026-01-06T11:00:00Z"}"#,
]

@Test func badNDJSONLinesAreEachReportedAndTheLinesAfterThemRead() {
    // Line 2 is 4,001 bytes of JSON without a string (over the 1 KiB limit however it parses),
    // line 3 is not JSON, line 4 is two values: each is dropped with its number, lines 1 and 5 kept.
    let long = "[" + Array(repeating: "1", count: 2_000).joined(separator: ",") + "]"
    let input = [twoEventLines[0], long, #"{"uid": broken"#, "{} {}", twoEventLines[1]].joined(separator: "\n") + "\n"
    for mode in [[], ["--stream"]] {
        let run = runCalport(["convert", "--from", "ndjson", "--max-string-length", "1K"] + mode, stdin: input)
        #expect(run.status == .dataProblem, "\(mode)")
        #expect(run.errors.contains("<stdin>:2: error: line longer than the limit of 1024 bytes"), "\(run.errors)")
        #expect(run.errors.contains("<stdin>:3:9: error: "), "\(run.errors)")
        #expect(run.errors.contains("<stdin>:4:4: error: more than one value on the line"), "\(run.errors)")
        #expect(run.output.contains("UID:first") && run.output.contains("UID:last"), "\(mode)")
        #expect(run.output.components(separatedBy: "BEGIN:VEVENT").count == 3)
    }
}

@Test func aByteOrderMarkBeforeTheFirstNDJSONLineIsSkipped() {
    let run = runCalport(
        ["convert", "--from", "ndjson"], stdin: "\u{FEFF}" + twoEventLines.joined(separator: "\n") + "\n")
    #expect(run.status == .success, "\(run.errors)")
    #expect(run.output.components(separatedBy: "BEGIN:VEVENT").count == 3)
    // Detected as NDJSON without --from, too.
    let detected = runCalport(["convert"], stdin: "\u{FEFF}" + twoEventLines[0] + "\n")
    #expect(detected.status == .success, "\(detected.errors)")
    #expect(detected.output.contains("UID:first"))
}
