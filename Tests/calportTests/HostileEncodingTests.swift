import Foundation
import Testing

@testable import calport

// Bytes that are not clean RFC 5545 text (§3.1: UTF-8 content lines ending in CRLF, no CONTROL
// characters but HTAB): what can be kept is kept, each change is a warning at its line.

@Test func invalidUTF8IsReplacedWithAWarning() throws {
    // Line 9 is SUMMARY, ending in a Latin-1 é (0xE9), which is not UTF-8.
    let text = hostileCalendar(["DTSTART:20260105T100000Z", "SUMMARY:caf\u{1}"])
    let bytes = Array(text.utf8).map { $0 == 0x01 ? 0xE9 : $0 }
    let file = try HostileFile(bytes)
    let run = file.run("convert", ["-o", file.output.path])
    #expect(run.status == .success, "nothing was dropped")
    #expect(run.reports("warning", "invalid-utf8", in: file.input, line: 8))
    #expect(try file.written().contains("SUMMARY:caf\u{FFFD}\r\n"))
    let strict = file.run("convert", ["--strict", "-o", file.directory.appendingPathComponent("strict").path])
    #expect(strict.status == .dataProblem)
    #expect(!FileManager.default.fileExists(atPath: file.directory.appendingPathComponent("strict").path))
}

@Test func nulBytesAreRemovedWithAWarning() throws {
    let text = hostileCalendar(["DTSTART:20260105T100000Z", "SUMMARY:a\u{0}b\u{0}"])
    let file = try HostileFile(text)
    let run = file.run("convert", ["-o", file.output.path])
    #expect(run.status == .success)
    #expect(run.reports("warning", "control-character", in: file.input, line: 8))
    let written = try Data(contentsOf: file.output)
    #expect(!written.contains(0), "no NUL reaches the output")
    #expect(try file.written().contains("SUMMARY:ab\r\n"))
}

@Test func nulFromGraphJSONIsNotWrittenToICalendar() throws {
    let json =
        #"{"subject": "a\u0000b", "start": {"dateTime": "2026-01-05T10:00:00", "timeZone": "UTC"},"#
        + #" "end": {"dateTime": "2026-01-05T11:00:00", "timeZone": "UTC"}}"#
    let file = try HostileFile(json, name: "in.json")
    let run = file.run("convert", ["-o", file.output.path])
    #expect(run.status == .success)
    #expect(try !Data(contentsOf: file.output).contains(0))
    #expect(try file.written().contains("SUMMARY:ab\r\n"))
}

@Test(arguments: [["\r"], ["\r\n", "\n", "\r"], ["\n", "\r", "\r\n"]])
func crOnlyAndMixedLineEndingsReadAsLines(_ endings: [String]) throws {
    let lines =
        ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//hostile//EN"] + survivorEvent + [
            "BEGIN:VEVENT", "UID:second@example.com", "DTSTAMP:20260101T000000Z", "DTSTART:20260106T100000Z",
            "SUMMARY:folded", " across", "END:VEVENT", "END:VCALENDAR",
        ]
    let text = lines.enumerated().map { $0.element + endings[$0.offset % endings.count] }.joined()
    let file = try HostileFile(text)
    let run = file.run("convert", ["-o", file.output.path])
    #expect(run.status == .success)
    #expect(run.errors.isEmpty)
    let written = try file.written()
    #expect(written.contains("UID:survivor@example.com\r\n"))
    #expect(written.contains("UID:second@example.com\r\n"))
    #expect(written.contains("SUMMARY:foldedacross\r\n"), "RFC 5545 §3.1 unfolding removes CRLF + one space")
    #expect(written.replacingOccurrences(of: "\r\n", with: "").allSatisfy { $0 != "\r" && $0 != "\n" })
}

@Test(.timeLimit(.minutes(1)))
func tenMegabyteLineIsDroppedAtTheDefaultLimit() throws {
    // The default limit is 8 MiB (ICalendarLimits); line 8 is 10,000,012 bytes long.
    let text = hostileCalendar(
        ["DTSTART:20260105T100000Z", "DESCRIPTION:" + String(repeating: "x", count: 10_000_000), "SUMMARY:kept"])
    let file = try HostileFile(text)
    let run = file.run("convert", ["-o", file.output.path])
    #expect(run.status == .dataProblem)
    #expect(run.reports("error", "line-too-long", in: file.input, line: 8))
    let written = try file.written()
    #expect(written.contains("SUMMARY:kept\r\n"), "the event keeps its other properties")
    #expect(!written.contains("DESCRIPTION"))
}
