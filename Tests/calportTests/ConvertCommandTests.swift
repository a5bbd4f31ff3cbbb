import Foundation
import TestSupport
import Testing

@testable import calport

@Test func convertsTheSampleToStandardOutput() {
    let run = runCalport(["convert", samplePath("team-week.ics")])
    #expect(run.status == .success)
    #expect(run.errors.isEmpty)
    let lines = run.output.replacingOccurrences(of: "\r\n ", with: "").components(separatedBy: "\r\n")
    #expect(lines.first == "BEGIN:VCALENDAR")
    #expect(lines.filter { $0 == "BEGIN:VEVENT" }.count == 4)
    #expect(lines.contains("RECURRENCE-ID;TZID=Europe/Berlin:20261202T093000"))
    #expect(lines.contains("X-CONTOSO-TICKET;X-SYSTEM=jira:PLAT-1717"))
    #expect(lines.contains("BEGIN:VTODO"))
}

@Test func readsStandardInputWhenNoFileIsGiven() {
    let run = runCalport(["convert"], stdin: badEvent)
    #expect(run.status == .dataProblem, "an event was dropped")
    #expect(run.output.contains("UID:good@example.com"))
    #expect(!run.output.contains("bad@example.com"))
    #expect(run.errors.contains("<stdin>:10: error: DTSTART '20241332T250000' is not a valid DATE or DATE-TIME"))
    #expect(run.errors.contains("(UID bad@example.com)"))
}

@Test func strictStopsAtTheFirstProblemAndLeavesTheOutputFileAlone() throws {
    let directory = try temporaryDirectory()
    let input = directory.appendingPathComponent("in.ics")
    let output = directory.appendingPathComponent("out.ics")
    try badEvent.write(to: input, atomically: true, encoding: .utf8)
    try "previous content".write(to: output, atomically: true, encoding: .utf8)
    let run = runCalport(["convert", "--strict", input.path, "-o", output.path])
    #expect(run.status == .dataProblem)
    #expect(run.errors.contains("stopped by --strict"))
    #expect(try String(contentsOf: output, encoding: .utf8) == "previous content")
}

@Test func outputFileIsReplacedWholeWithNoTemporaryFilesLeft() throws {
    let directory = try temporaryDirectory()
    let output = directory.appendingPathComponent("out.ics")
    try "previous content".write(to: output, atomically: true, encoding: .utf8)
    let run = runCalport(["convert", samplePath("team-week.ics"), "-o", output.path])
    #expect(run.status == .success)
    #expect(run.output.isEmpty)
    let written = try String(contentsOf: output, encoding: .utf8)
    #expect(written.hasPrefix("BEGIN:VCALENDAR\r\n"))
    #expect(written.hasSuffix("END:VCALENDAR\r\n"))
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["out.ics"])
}

@Test func convertingAFileOntoItselfIsSafe() throws {
    let directory = try temporaryDirectory()
    let file = directory.appendingPathComponent("cal.ics")
    try FileManager.default.copyItem(atPath: samplePath("team-week.ics"), toPath: file.path)
    let run = runCalport(["convert", file.path, "-o", file.path])
    #expect(run.status == .success)
    #expect(try String(contentsOf: file, encoding: .utf8).contains("UID:offsite-2026@platform.contoso.example"))
}

@Test func usageErrorsSayWhatWasExpected() {
    let unknown = runCalport(["convert", "--frobnicate"])
    #expect(unknown.status == .usage)
    #expect(unknown.errors.contains("unknown option '--frobnicate'"))
    let badChoice = runCalport(["convert", "--to", "pdf"])
    #expect(badChoice.status == .usage)
    #expect(badChoice.errors.contains("expects one of"))
    #expect(runCalport(["frobnicate"]).status == .usage)
}

@Test func missingInputIsAnIOError() {
    let run = runCalport(["convert", "/nonexistent/calendar.ics"])
    #expect(run.status == .ioError)
    #expect(run.errors.contains("/nonexistent/calendar.ics: error: cannot read input: No such file or directory"))
}

@Test func nonCalendarInputIsRejectedWithItsLocation() {
    let run = runCalport(["convert"], stdin: "hello\n")
    #expect(run.status == .dataProblem)
    #expect(run.errors.contains("<stdin>:1: error: expected iCalendar (BEGIN:VCALENDAR), Graph JSON"))
}

@Test func helpIsGeneratedFromTheDeclaration() {
    let help = runCalport(["help", "convert"])
    #expect(help.status == .success)
    #expect(help.output == runCalport(["convert", "--help"]).output)
    for option in ConvertCommand.spec.options {
        for name in option.names { #expect(help.output.contains(name)) }
    }
}

@Test func batchConversionMirrorsPathsAndSurvivesABadFile() throws {
    let input = try temporaryDirectory()
    let output = try temporaryDirectory()
    try FileManager.default.createDirectory(
        at: input.appendingPathComponent("team/2026"), withIntermediateDirectories: true)
    try FileManager.default.copyItem(
        atPath: samplePath("team-week.ics"), toPath: input.appendingPathComponent("team/2026/week.ics").path)
    try badEvent.write(to: input.appendingPathComponent("bad.ics"), atomically: true, encoding: .utf8)
    try "not a calendar".write(to: input.appendingPathComponent("notes.ics"), atomically: true, encoding: .utf8)
    let run = runCalport(["convert", "--out-dir", output.path, input.path])
    #expect(run.status == .dataProblem)
    let week = try String(contentsOf: output.appendingPathComponent("team/2026/week.ics"), encoding: .utf8)
    #expect(week.contains("UID:design-review-17@platform.contoso.example"))
    // The valid event of the bad file is kept; the invalid one is reported.
    let bad = try String(contentsOf: output.appendingPathComponent("bad.ics"), encoding: .utf8)
    #expect(bad.contains("UID:good@example.com"))
    #expect(!FileManager.default.fileExists(atPath: output.appendingPathComponent("notes.ics").path))
    #expect(run.errors.contains("notes.ics: error: expected iCalendar (BEGIN:VCALENDAR), Graph JSON"))
    #expect(run.errors.contains("calport: 3 files, 5 events, 0 warnings, 2 failed"))
}

@Test func streamingGivesTheSameCalendarAsReadingWhole() {
    // The sample defines every zone it uses, so no VTIMEZONE is added and the order cannot differ.
    let whole = runCalport(["convert", samplePath("team-week.ics")])
    let streamed = runCalport(["convert", "--stream", samplePath("team-week.ics")])
    #expect(streamed.status == .success)
    #expect(streamed.output == whole.output)
}

@Test func streamingStrictFailureWritesNothingToStandardOutput() {
    let run = runCalport(["convert", "--stream", "--strict"], stdin: badEvent)
    #expect(run.status == .dataProblem)
    #expect(run.output.isEmpty)
}

@Test func convertingACalendarWithItselfDoesNotDoubleItsEvents() throws {
    // Issue #18: one output holds one version of each event (same UID and RECURRENCE-ID).
    let path = samplePath("team-week.ics")
    let run = runCalport(["convert", path, path])
    #expect(run.status == .success)
    let events = run.output.components(separatedBy: "\r\n").filter { $0 == "BEGIN:VEVENT" }
    #expect(events.count == 4)
}
