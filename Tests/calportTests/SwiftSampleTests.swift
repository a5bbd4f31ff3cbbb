import Foundation
import TestSupport
import Testing

/// The README's "Use it from Swift" example: the README shows Samples/NextWeek's program verbatim, and
/// that program (built with the package as the `ReadmeExample` target) runs and does what the README says.
@Suite struct SwiftSampleTests {
    let source = packageRoot.appendingPathComponent("Samples/NextWeek/Sources/NextWeek/main.swift")

    @Test func theReadmeShowsTheSampleAsItIs() throws {
        let readme = try String(contentsOf: packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let program = try String(contentsOf: source, encoding: .utf8)
        #expect(readme.contains("```swift\n" + program + "```\n"))
        let code = program.split(separator: "\n").filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
        #expect(code.count < 20, "the issue asks for an example under 20 lines")
    }

    /// A daily 09:00–10:00 UTC event from 2020 with no end: next week holds seven of its starts, and an
    /// eighth when the run starts during one.
    @Test(.timeLimit(.minutes(3))) func theSampleListsNextWeekAndWritesGraphJSON() async throws {
        var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        var binary: URL?
        for _ in 0..<4 where binary == nil {
            let candidate = directory.appendingPathComponent("ReadmeExample")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { binary = candidate }
            directory.deleteLastPathComponent()
        }
        let program = try #require(binary, "the ReadmeExample target is built with the package")
        let work = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: work) }
        let calendar = work.appendingPathComponent("daily.ics")
        try Data(
            """
            BEGIN:VCALENDAR\r
            VERSION:2.0\r
            PRODID:-//calport tests//EN\r
            BEGIN:VEVENT\r
            UID:daily@example.com\r
            DTSTAMP:20200101T000000Z\r
            DTSTART:20200101T090000Z\r
            DTEND:20200101T100000Z\r
            RRULE:FREQ=DAILY\r
            SUMMARY:Daily check\r
            END:VEVENT\r
            END:VCALENDAR\r

            """.utf8
        ).write(to: calendar)
        let process = Process()
        process.executableURL = program
        process.arguments = [calendar.path]
        process.currentDirectoryURL = work
        process.environment = ["TZ": "UTC", "PATH": "/usr/bin:/bin"]
        let output = work.appendingPathComponent("stdout")
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        process.standardOutput = try FileHandle(forWritingTo: output)
        try process.run()
        while process.isRunning { try await Task.sleep(for: .milliseconds(20)) }
        #expect(process.terminationStatus == 0)
        let lines = try String(contentsOf: output, encoding: .utf8).split(separator: "\n")
        let listed = lines.filter { $0.hasSuffix(" Daily check") }
        #expect((7...8).contains(listed.count), "\(lines)")
        #expect(lines.last?.hasPrefix("wrote \(work.path)/events.json") == true)
        let written = try JSONSerialization.jsonObject(
            with: Data(contentsOf: work.appendingPathComponent("events.json")))
        let bodies = try #require(written as? [[String: Any]])
        #expect(bodies.map { $0["subject"] as? String } == ["Daily check"])
    }
}
