import Foundation
import GraphEvents
import Testing

@testable import GraphService

/// Import within Graph's limits: an occurrence Graph will not move is reported, never counted as
/// done; an import whose mailbox is kept busy by another client converges.
@Suite struct ImportLimitsTests {
    func write(_ lines: [String]) throws -> URL {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("calport-limits-\(UUID()).ics")
        let text = (["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//t//t//EN"] + lines + ["END:VCALENDAR"])
            .map { $0 + "\r\n" }.joined()
        try text.write(to: file, atomically: true, encoding: .utf8)
        return file
    }

    @Test func anOccurrenceMovedOntoItsNeighbourIsReportedByUIDAndDate() async throws {
        let emulator = try GraphEmulator()
        let calport = try CalportBinary()
        // Daily at 09:00 UTC from 4 January; the 5 January occurrence moved onto 6 January's day.
        let file = try write([
            "BEGIN:VEVENT", "UID:daily@calport.test", "DTSTAMP:20270101T000000Z", "SUMMARY:Daily",
            "DTSTART:20270104T090000Z", "DTEND:20270104T100000Z", "RRULE:FREQ=DAILY;COUNT=5", "END:VEVENT",
            "BEGIN:VEVENT", "UID:daily@calport.test", "DTSTAMP:20270101T000000Z", "SUMMARY:Daily (moved)",
            "RECURRENCE-ID:20270105T090000Z", "DTSTART:20270106T140000Z", "DTEND:20270106T150000Z", "END:VEVENT",
        ])
        defer { try? FileManager.default.removeItem(at: file) }
        let environment = ["CALPORT_GRAPH_URL": emulator.graphURL.absoluteString, "CALPORT_TOKEN": GraphEmulator.token]
        let run = try await calport.run(["import", "--quiet", file.path], environment: environment)
        #expect(run.status == 1)
        // The report is on standard error.
        let lines = run.stderr.split(separator: "\n").map(String.init).drop { !$0.hasPrefix("created: ") }
        #expect(lines.prefix(5) == ["created: 1", "updated: 0", "unchanged: 0", "deleted: 0", "failed: 1"])
        #expect(
            lines.contains {
                $0.contains("series daily@calport.test: the occurrence of 2027-01-05 (2027-01-05T09:00:00Z)")
                    && $0.contains("ErrorOccurrenceCrossingBoundary")
            }, "\(run.stderr)")
        let master = try #require(try await emulator.state()["events"]?.arrayValue?.first)
        #expect(master["exceptions"]?.objectValue?.members.isEmpty == true, "the occurrence is unchanged")
    }

    @Test(.timeLimit(.minutes(1))) func anImportIntoABusyMailboxConverges() async throws {
        let emulator = try GraphEmulator(["--operation-seconds", "0.1", "--retry-after", "1"])
        let calport = try CalportBinary()
        var lines: [String] = []
        for index in 0..<60 {
            let hour = index % 10 + 10
            lines += [
                "BEGIN:VEVENT", "UID:busy-\(index)@calport.test", "DTSTAMP:20270101T000000Z", "SUMMARY:Busy \(index)",
                "DTSTART:20270104T\(hour)0000Z", "DTEND:20270104T\(hour)3000Z", "END:VEVENT",
            ]
        }
        let file = try write(lines)
        defer { try? FileManager.default.removeItem(at: file) }
        // Another client (a Python loop, so that this process spawns nothing beside calport) keeps
        // two of the mailbox's four slots busy from before calport starts until it has finished.
        let stop = file.path + ".stop"
        let other = Process()
        other.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        other.arguments = [
            "python3", "-c",
            """
            import os, urllib.request
            body = b'{"requests":[{"id":"1","method":"GET","url":"/me"},{"id":"2","method":"GET","url":"/me"}]}'
            while not os.path.exists("\(stop)"):
                request = urllib.request.Request("\(emulator.graphURL.absoluteString)/$batch", body,
                    {"Authorization": "Bearer \(GraphEmulator.token)", "Content-Type": "application/json"})
                urllib.request.urlopen(request).read()
            """,
        ]
        try other.run()
        // Its first batch has been answered once the emulator counts a request.
        while (try await emulator.state()["requests"]?.numberValue ?? 0) < 1, other.isRunning {
            try await Task.sleep(for: .milliseconds(20))
        }
        let environment = ["CALPORT_GRAPH_URL": emulator.graphURL.absoluteString, "CALPORT_TOKEN": GraphEmulator.token]
        let run = try await calport.run(["import", "--quiet", file.path], environment: environment)
        _ = FileManager.default.createFile(atPath: stop, contents: nil)
        defer { try? FileManager.default.removeItem(atPath: stop) }
        await other.exited()
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(run.stderr.contains("created: 60\n"), "\(run.stderr)")
        let state = try await emulator.state()
        #expect(state["events"]?.arrayValue?.count == 60, "each event once")
        #expect((state["mailboxThrottled"]?.numberValue ?? 0) > 0, "the mailbox was busy enough to throttle")
        #expect((state["maxOperationsInFlight"]?.numberValue ?? 0) <= 4)
    }
}
