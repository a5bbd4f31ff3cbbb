import Foundation
import Testing

@testable import calport

// Broken BEGIN/END structure (RFC 5545 §3.4, §3.6): each complete component is kept, each broken one
// is dropped with an error at its line, and the run exits 1.

private let header = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//hostile//EN"]

@Test func truncatedFileKeepsWhatCameBeforeTheCut() throws {
    // Lines 4–8 are the complete event; the second starts at line 9 and the file ends inside line 11.
    let text = (header + survivorEvent + ["BEGIN:VEVENT", "UID:cut@example.com", "SUMM"]).joined(separator: "\r\n")
    let file = try HostileFile(text)
    let run = file.run("convert", ["-o", file.output.path])
    #expect(run.status == .dataProblem)
    #expect(run.reports("error", "syntax", in: file.input, line: 11))
    #expect(run.reports("error", "missing-end", in: file.input, line: 9))
    #expect(try file.written().contains("UID:survivor@example.com"))
    #expect(try !file.written().contains("cut@example.com"))
}

@Test func missingEndDropsTheUnclosedComponentOnly() throws {
    // The event opened at line 9 is never closed; END:VCALENDAR at line 12 cannot close it.
    let text =
        (header + survivorEvent + ["BEGIN:VEVENT", "UID:open@example.com", "DTSTART:20260105T100000Z"]
        + ["END:VCALENDAR", ""]).joined(separator: "\r\n")
    let file = try HostileFile(text)
    let run = file.run("convert", ["-o", file.output.path])
    #expect(run.status == .dataProblem)
    #expect(run.reports("error", "unmatched-end", in: file.input, line: 12))
    #expect(run.reports("error", "missing-end", in: file.input, line: 9))
    #expect(try file.written().contains("UID:survivor@example.com"))
    #expect(try !file.written().contains("open@example.com"))
}

@Test func missingEndOfTheCalendarIsOnlyAWarning() throws {
    let file = try HostileFile((header + survivorEvent).joined(separator: "\r\n") + "\r\n")
    let run = file.run("convert", ["-o", file.output.path])
    #expect(run.status == .success, "every component was complete: nothing was lost")
    #expect(run.reports("warning", "missing-end", in: file.input))
    #expect(try file.written().hasSuffix("END:VCALENDAR\r\n"))
}

@Test func endWithoutBeginIsReportedAndSkipped() throws {
    let text = (header + ["END:VEVENT"] + survivorEvent + ["END:VCALENDAR", ""]).joined(separator: "\r\n")
    let file = try HostileFile(text)
    let run = file.run("convert", ["-o", file.output.path])
    #expect(run.status == .dataProblem)
    #expect(run.reports("error", "unmatched-end", in: file.input, line: 4))
    #expect(try file.written().contains("UID:survivor@example.com"))
}

@Test(.timeLimit(.minutes(1)))
func hundredThousandNestedBeginsStopAtTheDepthLimit() throws {
    // Default limit 64: components at depths 1…64 are kept, the BEGIN at line 3 + 65 is the first refused.
    let depth = 100_000
    let nested = Array(repeating: "BEGIN:X-NEST", count: depth) + Array(repeating: "END:X-NEST", count: depth)
    let file = try HostileFile((header + nested + survivorEvent + ["END:VCALENDAR", ""]).joined(separator: "\r\n"))
    let run = file.run("convert", ["-o", file.output.path])
    #expect(run.status == .dataProblem)
    #expect(run.reports("error", "nesting-limit", in: file.input, line: 3 + 65))
    #expect(run.count("nesting-limit") == 1, "one error for the whole skipped subtree")
    #expect(try file.written().contains("UID:survivor@example.com"))
}

@Test(.timeLimit(.minutes(1)))
func hundredThousandUnclosedBeginsEndTheInputWithOneError() throws {
    let nested = Array(repeating: "BEGIN:X-NEST", count: 100_000)
    let file = try HostileFile((header + survivorEvent + nested).joined(separator: "\r\n"))
    let run = file.run("convert", ["--max-depth", "8", "-o", file.output.path])
    #expect(run.status == .dataProblem)
    #expect(run.reports("error", "nesting-limit", in: file.input, line: 8 + 9))
    #expect(run.reports("error", "missing-end", in: file.input, line: 9))
    #expect(try file.written().contains("UID:survivor@example.com"))
}

@Test func aMaximumDepthPastTheCapIsAUsageError() {
    // 50,000 with input that deep overflowed the stack in the recursive readers (issue #25).
    let run = runCalport(["convert", "--max-depth", "50000", samplePath("team-week.ics")])
    #expect(run.status == .usage)
    #expect(run.errors.contains("--max-depth is at most 1000, found '50000'"), "\(run.errors)")
    #expect(run.output.isEmpty)
}

@Test func theDeepestNestingAllowedIsReadWithoutCrashing() throws {
    // Input exactly as deep as the cap, read by the built calport in its own process (a crash is a
    // signal, not an exit status): 998 arrays inside a Graph event (page: 1, event: 2), and 998
    // X-components inside a VEVENT (VCALENDAR and VEVENT count too), to every output format.
    let calport = packageRoot.appendingPathComponent(".build/debug/calport").path
    try #require(FileManager.default.isExecutableFile(atPath: calport), "swift build first")
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("deep-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let json =
        #"{"subject": "x", "start": {"dateTime": "2026-01-05T10:00:00", "timeZone": "UTC"}, "x": "#
        + String(repeating: "[", count: 998) + String(repeating: "]", count: 998) + "}"
    let ics =
        [
            "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//t//t//EN", "BEGIN:VEVENT", "UID:deep",
            "DTSTAMP:20260101T000000Z", "DTSTART:20260105T100000Z",
        ]
        + Array(repeating: "BEGIN:X-A", count: 998) + Array(repeating: "END:X-A", count: 998)
        + ["END:VEVENT", "END:VCALENDAR", ""]
    let inputs = [("deep.json", json), ("deep.ics", ics.joined(separator: "\r\n"))]
    for (name, text) in inputs {
        let input = directory.appendingPathComponent(name)
        try text.write(to: input, atomically: true, encoding: .utf8)
        for target in ["ics", "graph", "ndjson"] {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: calport)
            process.arguments = ["convert", "-q", "--max-depth", "1000", "--to", target, input.path]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            process.waitUntilExit()
            #expect(process.terminationReason == .exit, "\(name) to \(target): signal \(process.terminationStatus)")
            #expect(process.terminationStatus == 0, "\(name) to \(target)")
        }
    }
}
