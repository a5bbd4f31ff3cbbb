import Foundation
import TestSupport
import Testing

@testable import calport

// convert, expand, validate and import read the same inputs: .ics, Graph JSON and calport NDJSON,
// detected or named by --from, from files, directories and standard input.

/// A weekly series on Tuesdays at 09:00 Berlin, three times from 2026-12-01, as Graph returns it.
/// Berlin is UTC+1 in December, so the occurrences start 08:00Z on 1, 8 and 15 December.
private let graphWeekly = #"""
    {"value":[{"id":"AAA","iCalUId":"weekly@example.com","subject":"Weekly sync","type":"seriesMaster",
    "start":{"dateTime":"2026-12-01T09:00:00.0000000","timeZone":"W. Europe Standard Time"},
    "end":{"dateTime":"2026-12-01T09:30:00.0000000","timeZone":"W. Europe Standard Time"},
    "recurrence":{"pattern":{"type":"weekly","interval":1,"daysOfWeek":["tuesday"],"firstDayOfWeek":"monday"},
    "range":{"type":"numbered","startDate":"2026-12-01","numberOfOccurrences":3,
    "recurrenceTimeZone":"W. Europe Standard Time"}}}]}
    """#
private let graphStarts = ["2026-12-01T08:00:00+00:00", "2026-12-08T08:00:00+00:00", "2026-12-15T08:00:00+00:00"]

/// A daily stand-up at 09:00 Berlin, twice from 2026-12-01, as calport's NDJSON writes it.
private let ndjsonDaily =
    #"{"uid":"daily@example.com","summary":"Stand-up","#
    + #""start":{"local":"2026-12-01T09:00:00","timeZone":"Europe/Berlin","iana":"Europe/Berlin"},"#
    + #""end":{"local":"2026-12-01T09:15:00","timeZone":"Europe/Berlin","iana":"Europe/Berlin"},"#
    + #""rrules":["FREQ=DAILY;COUNT=2"]}"# + "\n"
private let ndjsonStarts = ["2026-12-01T08:00:00+00:00", "2026-12-02T08:00:00+00:00"]

/// The same stand-up in iCalendar, with a zone libical's table knows.
private let icsDaily = """
    BEGIN:VCALENDAR\r
    VERSION:2.0\r
    PRODID:x\r
    BEGIN:VEVENT\r
    UID:ics-daily@example.com\r
    DTSTAMP:20260101T000000Z\r
    DTSTART:20261201T080000Z\r
    DURATION:PT15M\r
    RRULE:FREQ=DAILY;COUNT=2\r
    SUMMARY:Stand-up\r
    END:VEVENT\r
    END:VCALENDAR\r

    """

private let window = ["--start", "2026-11-30", "--end", "2027-01-01"]

/// The `start` of each NDJSON occurrence line.
private func starts(_ output: String) -> [String] {
    output.split(separator: "\n").compactMap { line in
        guard let range = line.range(of: #""start":""#) else { return nil }
        return String(line[range.upperBound...].prefix(25))
    }
}

private func write(_ text: String, _ name: String, in directory: URL) throws -> String {
    let url = directory.appendingPathComponent(name)
    try FileManager.default.createDirectory(
        at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    try text.write(to: url, atomically: true, encoding: .utf8)
    return url.path
}

@Test(arguments: [("graph", graphWeekly, graphStarts), ("ndjson", ndjsonDaily, ndjsonStarts)])
func expandReadsEveryFormatFromStandardInputAndFiles(format: String, input: String, expected: [String]) throws {
    let detected = runCalport(["expand"] + window, stdin: input)
    #expect(detected.status == .success, "\(detected.errors)")
    #expect(starts(detected.output) == expected)
    let named = runCalport(["expand", "--from", format] + window, stdin: input)
    #expect(starts(named.output) == expected)
    let file = try write(input, "in.\(format == "graph" ? "json" : "ndjson")", in: try temporaryDirectory())
    #expect(starts(runCalport(["expand"] + window + [file]).output) == expected)
}

@Test func expandReadsDirectoriesAndWritesFilesOrADirectory() throws {
    let inputs = try temporaryDirectory()
    _ = try write(graphWeekly, "work/weekly.json", in: inputs)
    _ = try write(ndjsonDaily, "daily.ndjson", in: inputs)
    _ = try write(icsDaily, "daily.ics", in: inputs)
    let all = runCalport(["expand"] + window + [inputs.path])
    #expect(all.status == .success, "\(all.errors)")
    // Files in path order: daily.ics, daily.ndjson, work/weekly.json.
    #expect(
        starts(all.output) == ["2026-12-01T08:00:00+00:00", "2026-12-02T08:00:00+00:00"] + ndjsonStarts + graphStarts)

    let output = try temporaryDirectory().appendingPathComponent("all.ndjson")
    let toFile = runCalport(["expand"] + window + ["-o", output.path, inputs.path])
    #expect(toFile.status == .success && toFile.output.isEmpty)
    #expect(try String(contentsOf: output, encoding: .utf8) == all.output)

    let directory = try temporaryDirectory()
    let split = runCalport(["expand"] + window + ["--format", "table", "--out-dir", directory.path, inputs.path])
    // daily.ics and daily.ndjson would both write daily.txt: both are refused, each naming the other.
    #expect(split.status == .dataProblem, "\(split.errors)")
    let weekly = try String(contentsOf: directory.appendingPathComponent("work/weekly.txt"), encoding: .utf8)
    #expect(weekly.split(separator: "\n").count == 4, "a title line and three occurrences")
    let daily = directory.appendingPathComponent("daily.txt").path
    #expect(
        split.errors.contains(
            "\(inputs.path)/daily.ics: error: \(daily) would also be written from \(inputs.path)/daily.ndjson"))
    #expect(FileManager.default.fileExists(atPath: daily) == false)
}

@Test func validateReadsGraphAndNDJSONAndDirectories() throws {
    let inputs = try temporaryDirectory()
    let good = try write(graphWeekly, "good.json", in: inputs)
    let lines = try write(ndjsonDaily, "lines.ndjson", in: inputs)
    // Graph requires a start (the event resource's start is required for create).
    let bad = try write(#"{"iCalUId":"x","subject":"no start"}"#, "bad.json", in: inputs)
    let run = runCalport(["validate", "-v", inputs.path])
    #expect(run.status == .dataProblem)
    #expect(run.output.contains("\(good): valid (0 errors, 0 warnings)\n"), "\(run.errors)")
    #expect(run.output.contains("\(lines): valid (0 errors, 0 warnings)\n"), "\(run.errors)")
    #expect(run.output.contains("\(bad): invalid (1 errors"))
    #expect(run.errors.contains("\(bad):1:1: $.start: error:"))
    #expect(!run.errors.contains("BEGIN:VCALENDAR"), "no RFC 5545 errors made up for JSON")
    #expect(run.errors.hasSuffix("calport: 3 files, 1 invalid: \(bad)\n"), "the summary names the file that failed")
    let stdin = runCalport(["validate", "--from", "graph"], stdin: graphWeekly)
    #expect(stdin.output == "<stdin>: valid (0 errors, 0 warnings)\n")
}

@Test func validateReportsAProblemOnceWithOneSeverity() {
    let repeated =
        [
            "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:x", "BEGIN:VEVENT", "UID:r@example.com",
            "DTSTAMP:20260101T000000Z", "DTSTART:20261201T100000Z", "DTSTART:20261202T100000Z", "END:VEVENT",
            "END:VCALENDAR", "",
        ].joined(separator: "\r\n")
    let run = runCalport(["validate"], stdin: repeated)
    // RFC 5545 §3.6.1: dtstart "MUST NOT occur more than once".
    #expect(
        run.errors
            == "<stdin>:8: error: DTSTART may appear only once in VEVENT [repeated-property] (UID r@example.com)\n")
    #expect(run.output == "<stdin>: invalid (1 errors, 0 warnings)\n")
}

@Test func validateStrictStopsAtTheFirstWarning() {
    let lenient = runCalport(["validate"], stdin: hourlyPumpCheck)
    #expect(lenient.errors.split(separator: "\n").count == 2, "two warnings: \(lenient.errors)")
    let strict = runCalport(["validate", "--strict"], stdin: hourlyPumpCheck)
    #expect(strict.status == .dataProblem)
    let lines = strict.errors.split(separator: "\n")
    #expect(lines.count == 2, "\(strict.errors)")
    #expect(lines.first?.contains(": error: ") == true)
    #expect(lines.last?.hasPrefix("calport: stopped by --strict at <stdin>") == true)
}

@Test func aDirectoryWithoutCalendarsIsSaidToBeSo() throws {
    let empty = try temporaryDirectory()
    try "not a calendar".write(to: empty.appendingPathComponent("notes.txt"), atomically: true, encoding: .utf8)
    for command in [["convert"], ["validate"], ["expand"] + window] {
        let run = runCalport(command + [empty.path])
        #expect(run.status == .ioError, "\(command[0])")
        #expect(run.errors.hasPrefix("\(empty.path): error: no calendar files (.ical, .ics, .ifb, .json, .ndjson)"))
    }
}

/// A directory named as input is walked through symbolic links: a linked directory is read (it was
/// skipped without a word), and a link back up the tree (a loop) is reported and not followed
/// again, so the walk ends and every file is converted once.
@Test func symbolicLinksToDirectoriesAreFollowedOnceAndLoopsReported() throws {
    let root = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: root) }
    let manager = FileManager.default
    let inputs = root.appendingPathComponent("in")
    let elsewhere = root.appendingPathComponent("elsewhere")
    try manager.createDirectory(at: inputs.appendingPathComponent("sub"), withIntermediateDirectories: true)
    try manager.createDirectory(at: elsewhere, withIntermediateDirectories: true)
    try icsDaily.write(to: inputs.appendingPathComponent("sub/own.ics"), atomically: true, encoding: .utf8)
    try icsDaily.write(to: elsewhere.appendingPathComponent("linked.ics"), atomically: true, encoding: .utf8)
    try manager.createSymbolicLink(
        atPath: inputs.appendingPathComponent("shared").path, withDestinationPath: "../elsewhere")
    try manager.createSymbolicLink(atPath: inputs.appendingPathComponent("sub/up").path, withDestinationPath: "..")
    let out = root.appendingPathComponent("out")

    let run = runCalport(["convert", "--out-dir", out.path, inputs.path])
    #expect(run.status == .success, "\(run.errors)")
    let written = (manager.enumerator(atPath: out.path)?.allObjects as? [String] ?? []).filter { $0.hasSuffix(".ics") }
    #expect(written.sorted() == ["shared/linked.ics", "sub/own.ics"])
    #expect(
        run.errors.contains(
            "\(inputs.path)/sub/up: warning: a link to the directory \(inputs.path), already read; not followed again\n"
        ),
        "\(run.errors)")
    // The link warning is one of the summary's: two files converted clean, one warning.
    #expect(run.errors.hasSuffix("calport: 2 files, 2 events, 1 warnings, 0 failed\n"), "\(run.errors)")
    let quiet = runCalport(["convert", "--quiet", "--out-dir", root.appendingPathComponent("quiet").path, inputs.path])
    #expect(!quiet.errors.contains("warning:"), "\(quiet.errors)")
}
