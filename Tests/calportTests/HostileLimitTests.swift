import ArgumentParsing
import CalendarConversion
import Foundation
import Testing

@testable import calport

// The resource limits of `convert` as options: sizes are positive integers with an optional binary
// K, M or G suffix, and each limit reached is an error naming its code.

@Test(arguments: [("64", 64), ("1K", 1024), ("1k", 1024), ("2M", 2 << 20), ("1G", 1 << 30)])
func sizesAcceptBinarySuffixes(_ text: String, _ bytes: Int) throws {
    let parsed = try ArgumentParser.parse(["--max-line-length", text], spec: ConvertCommand.spec)
    #expect(try InputLimits(parsed).iCalendar.maximumLineLength == bytes)
}

@Test(arguments: ["0", "-1", "1X", "K", "", "1.5M", "99999999999999G"])
func invalidSizesAreUsageErrors(_ text: String) {
    let run = runCalport(["convert", "--max-input-size", text, samplePath("team-week.ics")])
    #expect(run.status == .usage)
    #expect(run.errors.contains("--max-input-size expects a positive size"))
    #expect(run.output.isEmpty)
}

@Test func maxLineLengthDropsLongerLines() throws {
    let file = try HostileFile(
        hostileCalendar(["DTSTART:20260105T100000Z", "DESCRIPTION:" + String(repeating: "d", count: 1100)]))
    let run = file.run("convert", ["--max-line-length", "1K", "-o", file.output.path])
    #expect(run.status == .dataProblem)
    #expect(run.reports("error", "line-too-long", in: file.input, line: 8))
    #expect(run.errors.contains("longer than the limit of 1024 bytes"))
    #expect(file.run("convert", ["--max-line-length", "2K", "-o", file.output.path]).status == .success)
}

@Test func maxDepthAppliesToICalendarAndJSON() throws {
    // VEVENT is depth 1 and VALARM depth 2, at line 8.
    let file = try HostileFile(
        hostileCalendar([
            "DTSTART:20260105T100000Z", "BEGIN:VALARM", "TRIGGER:-PT5M",
            "ACTION:DISPLAY", "DESCRIPTION:x", "END:VALARM",
        ]))
    let run = file.run("convert", ["--max-depth", "1", "-o", file.output.path])
    #expect(run.status == .dataProblem)
    #expect(run.reports("error", "nesting-limit", in: file.input, line: 8))
    #expect(file.run("convert", ["--max-depth", "2", "-o", file.output.path]).status == .success)
}

@Test func largeICalendarStreamsPastTheInputSizeLimitInEveryFormat() throws {
    // Streaming holds one component (or series) at a time, so --max-input-size does not apply to it.
    let events = (0..<60_000).map {
        "BEGIN:VEVENT\r\nUID:\($0)\r\nDTSTAMP:20260101T000000Z\r\nDTSTART:20260105T100000Z\r\nSUMMARY:\(String(repeating: "s", count: 100))\r\nEND:VEVENT"
    }
    let text =
        "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//hostile//EN\r\n" + events.joined(separator: "\r\n")
        + "\r\nEND:VCALENDAR\r\n"
    #expect(text.utf8.count > InputFile.streamingThreshold)
    let file = try HostileFile(text)
    let streamed = file.run("convert", ["--max-input-size", "1M", "-o", file.output.path])
    #expect(streamed.status == .success)
    let lines = file.run("convert", ["--max-input-size", "1M", "--to", "ndjson", "-o", file.output.path])
    #expect(lines.status == .success)
    let written = try String(contentsOf: file.output, encoding: .utf8)
    #expect(written.split(separator: "\n").count == 60_000)
    #expect(written.hasPrefix("{\"uid\":\"0\""))
}

@Test func validateReadsAllOfALargeFile() throws {
    // Regression: validate checked only the first chunk (1 MiB) of a file over the streaming threshold and
    // reported its own cut as missing END lines.
    let events = (0..<45_000).map {
        "BEGIN:VEVENT\r\nUID:\($0)\r\nDTSTAMP:20260101T000000Z\r\nDTSTART:20260105T100000Z\r\nSUMMARY:"
            + String(repeating: "s", count: 140) + "\r\nEND:VEVENT"
    }
    let text =
        "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//hostile//EN\r\n" + events.joined(separator: "\r\n")
        + "\r\nEND:VCALENDAR\r\n"
    #expect(text.utf8.count > InputFile.streamingThreshold)
    let file = try HostileFile(text)
    let run = file.run("validate")
    #expect(run.status == .success)
    #expect(run.errors.isEmpty)
    #expect(run.output == "\(file.input.path): valid (0 errors, 0 warnings)\n")
}
