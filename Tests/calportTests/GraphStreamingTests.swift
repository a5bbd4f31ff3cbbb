import CalendarModel
import Foundation
import ICalendar
import TestSupport
import Testing

@testable import calport

/// Streamed Graph JSON and NDJSON inputs (alone or beside iCalendar) keep one version of each event
/// and write each series whole, as reading the inputs whole does.

/// A calendarView page, one event a line (line 1 is `{"value": [`): an exception of series "m"
/// before its master (line 2), the master, a weekly series of four (line 3), a plain occurrence
/// (line 4, which the RRULE makes), an exception after the master (line 5), a single event (line 6)
/// and an identical copy of it (line 7).
let calendarView = """
    {"value": [
    {"id": "x1", "type": "exception", "seriesMasterId": "m", "iCalUId": "series@example.com", "subject": "moved early", "originalStart": "2026-12-08T09:00:00Z", "start": {"dateTime": "2026-12-08T11:00:00", "timeZone": "UTC"}, "end": {"dateTime": "2026-12-08T12:00:00", "timeZone": "UTC"}, "lastModifiedDateTime": "2026-11-01T00:00:00Z"},
    {"id": "m", "iCalUId": "series@example.com", "type": "seriesMaster", "subject": "weekly", "start": {"dateTime": "2026-12-01T09:00:00", "timeZone": "UTC"}, "end": {"dateTime": "2026-12-01T10:00:00", "timeZone": "UTC"}, "recurrence": {"pattern": {"type": "weekly", "interval": 1, "daysOfWeek": ["tuesday"]}, "range": {"type": "numbered", "startDate": "2026-12-01", "numberOfOccurrences": 4}}, "lastModifiedDateTime": "2026-11-01T00:00:00Z"},
    {"id": "o1", "type": "occurrence", "seriesMasterId": "m", "iCalUId": "series@example.com", "subject": "weekly", "originalStart": "2026-12-15T09:00:00Z", "start": {"dateTime": "2026-12-15T09:00:00", "timeZone": "UTC"}, "end": {"dateTime": "2026-12-15T10:00:00", "timeZone": "UTC"}},
    {"id": "x2", "type": "exception", "seriesMasterId": "m", "iCalUId": "series@example.com", "subject": "moved late", "originalStart": "2026-12-22T09:00:00Z", "start": {"dateTime": "2026-12-22T14:00:00", "timeZone": "UTC"}, "end": {"dateTime": "2026-12-22T15:00:00", "timeZone": "UTC"}, "lastModifiedDateTime": "2026-11-01T00:00:00Z"},
    {"id": "s", "iCalUId": "single@example.com", "type": "singleInstance", "subject": "lunch", "start": {"dateTime": "2026-12-02T12:00:00", "timeZone": "UTC"}, "end": {"dateTime": "2026-12-02T13:00:00", "timeZone": "UTC"}, "lastModifiedDateTime": "2026-11-01T00:00:00Z"},
    {"id": "s", "iCalUId": "single@example.com", "type": "singleInstance", "subject": "lunch", "start": {"dateTime": "2026-12-02T12:00:00", "timeZone": "UTC"}, "end": {"dateTime": "2026-12-02T13:00:00", "timeZone": "UTC"}, "lastModifiedDateTime": "2026-11-01T00:00:00Z"}
    ]}

    """

/// `calendarView` with the single event (both copies, lines 6 and 7) moved half an hour and
/// modified later.
private let editedCalendarView = calendarView.components(separatedBy: "\n").map { line in
    guard line.contains("single@example.com") else { return line }
    return line.replacingOccurrences(of: "\"lunch\"", with: "\"lunch moved\"")
        .replacingOccurrences(of: "T12:00:00", with: "T12:30:00").replacingOccurrences(
            of: "T13:00:00", with: "T13:30:00"
        )
        .replacingOccurrences(of: "2026-11-01T00:00:00Z", with: "2026-11-05T00:00:00Z")
}.joined(separator: "\n")

private func write(_ files: [(name: String, text: String)]) throws -> (URL, [String]) {
    let directory = try temporaryDirectory()
    let paths = try files.map { file in
        let url = directory.appendingPathComponent(file.name)
        try file.text.write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }
    return (directory, paths)
}

/// The lines of stderr, in any order: a stream reports write problems series by series.
private func reports(_ run: Run) -> [String] {
    run.errors.split(separator: "\n").map(String.init).sorted()
}

/// The events of an iCalendar output.
private func events(_ run: Run) -> [Event] {
    ICalendarParser().parse(Array(run.output.utf8)).document.events
}

private func ndjsonLines(_ run: Run) throws -> [[String: Any]] {
    try run.output.split(separator: "\n").map {
        try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
    }
}

private func december(_ day: Int, _ hour: Int) -> LocalDateTime {
    LocalDateTime(year: 2026, month: 12, day: day, hour: hour)
}

@Test(arguments: [false, true])
func graphJSONGivenTwiceGivesEachEventOnce(streamed: Bool) throws {
    let (directory, paths) = try write([("g.json", calendarView)])
    let run = runCalport(
        ["convert"] + (streamed ? ["--stream"] : []) + [paths[0], paths[0]], temporaryDirectory: directory)
    #expect(run.status == .success)
    // By hand: the master, its later exception, the single event (its copy merged), then the
    // exception read before its master (held until the input ended); the occurrence is the RRULE's.
    let read = events(run)
    #expect(
        read.map(\.uid) == ["series@example.com", "series@example.com", "single@example.com", "series@example.com"])
    #expect(read.map(\.summary) == ["weekly", "moved late", "lunch", "moved early"])
    #expect(read.map { $0.recurrenceID?.time.localDateTime } == [nil, december(22, 9), nil, december(8, 9)])
    #expect(!run.errors.contains("duplicate-version"), "identical copies merge silently")
}

@Test(arguments: ["ics", "ndjson", "graph", "graph-post"])
func streamedGraphJSONEqualsReadingWhole(format: String) throws {
    let (directory, paths) = try write([("g.json", calendarView), ("edited.json", editedCalendarView)])
    for inputs in [[paths[0], paths[0]], [paths[0], paths[1]], [paths[1], paths[0]]] {
        let whole = runCalport(["convert", "--to", format] + inputs)
        let streamed = runCalport(["convert", "--stream", "--to", format] + inputs, temporaryDirectory: directory)
        #expect(streamed.status == whole.status)
        if format == "ics" {
            #expect(events(streamed) == events(whole))
        } else {
            #expect(streamed.output == whole.output)
        }
        #expect(reports(streamed) == reports(whole))
    }
    let left = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasPrefix("calport-") }
    #expect(left.isEmpty, "no scratch file is left")
}

@Test(arguments: [false, true])
func anEditedGraphCopyWinsWithAWarningNamingBothLines(streamed: Bool) throws {
    let (directory, paths) = try write([("g.json", calendarView), ("edited.json", editedCalendarView)])
    let run = runCalport(
        ["convert", "--to", "ndjson"] + (streamed ? ["--stream"] : []) + paths, temporaryDirectory: directory)
    let lines = try ndjsonLines(run)
    // Four events, as for one input: the later lastModifiedDateTime wins, where the first version was.
    #expect(lines.map { $0["summary"] as? String } == ["weekly", "moved late", "lunch moved", "moved early"])
    #expect(run.output.split(separator: "\n")[2].contains("2026-12-02T12:30:00"))
    // One warning: each file's copies on lines 6 and 7 are identical; the two files' differ.
    #expect(run.errors.split(separator: "\n").count == 1)
    #expect(
        run.errors.hasPrefix(
            "\(paths[1]):6: warning: UID single@example.com has two versions, at \(paths[0]):6 and \(paths[1]):6; the one at \(paths[1]):6 was kept"
        ))
    #expect(run.errors.contains("[duplicate-version]"))
}

@Test(arguments: [false, true])
func twoVersionsInOneGraphFileAreResolvedWithTheirLines(streamed: Bool) throws {
    // The edited single event follows the original and its copy in one page, on line 8.
    let edited = editedCalendarView.components(separatedBy: "\n")
    var lines = calendarView.components(separatedBy: "\n")
    lines[6] += ","
    lines.insert(edited[6], at: 7)
    let text = lines.joined(separator: "\n")
    let (directory, paths) = try write([("one.json", text)])
    let run = runCalport(
        ["convert", "--to", "ndjson"] + (streamed ? ["--stream"] : []) + paths, temporaryDirectory: directory)
    #expect(
        try ndjsonLines(run).map { $0["summary"] as? String } == ["weekly", "moved late", "lunch moved", "moved early"])
    // Line 6 against line 8 (the edit wins); line 7's copy of line 6 is merged silently with it.
    #expect(run.errors.split(separator: "\n").count == 1)
    #expect(
        run.errors.hasPrefix(
            "\(paths[0]):8: warning: UID single@example.com has two versions, at \(paths[0]):6 and \(paths[0]):8;"))
}

/// calport NDJSON: a daily series of three (line 1), a single event (line 2) and an override of the
/// series' second day (line 3).
private let ndjson = """
    {"uid":"n-series","summary":"daily","start":{"utc":"2026-12-01T09:00:00Z"},"end":{"utc":"2026-12-01T10:00:00Z"},"rrules":["FREQ=DAILY;COUNT=3"]}
    {"uid":"n-single","summary":"one","start":{"utc":"2026-12-05T09:00:00Z"},"end":{"utc":"2026-12-05T10:00:00Z"}}
    {"uid":"n-series","recurrenceId":{"utc":"2026-12-02T09:00:00Z"},"summary":"moved","start":{"utc":"2026-12-02T11:00:00Z"},"end":{"utc":"2026-12-02T12:00:00Z"}}

    """

@Test(arguments: [false, true])
func ndjsonGivenTwiceOrEditedKeepsOneVersionOfEachEvent(streamed: Bool) throws {
    let edited = ndjson.replacingOccurrences(of: #""summary":"one""#, with: #""sequence":1,"summary":"one edited""#)
    let (directory, paths) = try write([("n.ndjson", ndjson), ("edited.ndjson", edited)])
    let stream = streamed ? ["--stream"] : []
    let twice = runCalport(
        ["convert", "--to", "ndjson"] + stream + [paths[0], paths[0]], temporaryDirectory: directory)
    #expect(try ndjsonLines(twice).map { $0["summary"] as? String } == ["daily", "one", "moved"])
    #expect(twice.errors.isEmpty && twice.status == .success)
    let run = runCalport(["convert", "--to", "ndjson"] + stream + paths, temporaryDirectory: directory)
    // The higher SEQUENCE wins, at the place of the first version.
    #expect(try ndjsonLines(run).map { $0["summary"] as? String } == ["daily", "one edited", "moved"])
    #expect(run.errors.split(separator: "\n").count == 1)
    #expect(
        run.errors.hasPrefix(
            "\(paths[1]):2: warning: UID n-single has two versions, at \(paths[0]):2 and \(paths[1]):2; "
                + "the one at \(paths[1]):2 was kept"))
    // As Graph JSON, a series with its override: the override's entry names its master.
    let post = runCalport(["convert", "--to", "graph-post"] + stream + paths, temporaryDirectory: directory)
    let whole = runCalport(["convert", "--to", "graph-post"] + paths)
    #expect(post.output == whole.output && reports(post) == reports(whole))
    let entries = try #require(try JSONSerialization.jsonObject(with: Data(post.output.utf8)) as? [[String: Any]])
    #expect(entries.map { $0["subject"] as? String } == ["daily", "moved", "one edited"])
}

/// An iCalendar file holding the Graph page's single event at SEQUENCE 1 (its VEVENT begins on
/// line 4) and an event of its own (line 12).
private let calendar = """
    BEGIN:VCALENDAR\r
    VERSION:2.0\r
    PRODID:-//calport tests//EN\r
    BEGIN:VEVENT\r
    UID:single@example.com\r
    SEQUENCE:1\r
    DTSTAMP:20261101T000000Z\r
    DTSTART:20261202T120000Z\r
    DTEND:20261202T130000Z\r
    SUMMARY:lunch (ics)\r
    END:VEVENT\r
    BEGIN:VEVENT\r
    UID:ics-only@example.com\r
    DTSTAMP:20261101T000000Z\r
    DTSTART:20261203T120000Z\r
    SUMMARY:ics only\r
    END:VEVENT\r
    END:VCALENDAR\r

    """

@Test(arguments: [false, true])
func iCalendarBesideGraphJSONKeepsOneVersionOfEachEvent(streamed: Bool) throws {
    let (directory, paths) = try write([("a.ics", calendar), ("g.json", calendarView)])
    let stream = streamed ? ["--stream"] : []
    let icsFirst = runCalport(["convert", "--to", "ndjson"] + stream + paths, temporaryDirectory: directory)
    // Two events and four, less the Graph single event, which SEQUENCE 1 beats (Graph has none).
    #expect(
        try ndjsonLines(icsFirst).map { $0["summary"] as? String } == [
            "lunch (ics)", "ics only", "weekly", "moved late", "moved early",
        ])
    #expect(
        icsFirst.errors.split(separator: "\n").map(String.init) == [
            "\(paths[1]):6: warning: UID single@example.com has two versions, at \(paths[0]):4 and \(paths[1]):6; "
                + "the one at \(paths[0]):4 was kept (higher SEQUENCE, then later LAST-MODIFIED, then DTSTAMP) "
                + "[duplicate-version] (UID single@example.com)"
        ])
    let graphFirst = runCalport(
        ["convert", "--to", "ndjson"] + stream + paths.reversed(), temporaryDirectory: directory)
    #expect(
        try ndjsonLines(graphFirst).map { $0["summary"] as? String } == [
            "weekly", "moved late", "lunch (ics)", "moved early", "ics only",
        ])
    for format in ["ics", "graph-post"] {
        let whole = runCalport(["convert", "--to", format] + paths)
        let streamed = runCalport(["convert", "--stream", "--to", format] + paths, temporaryDirectory: directory)
        #expect(format == "ics" ? events(streamed) == events(whole) : streamed.output == whole.output)
        #expect(reports(streamed) == reports(whole))
    }
}
