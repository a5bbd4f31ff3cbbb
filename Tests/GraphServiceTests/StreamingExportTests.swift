import Foundation
import GraphEvents
import Testing

@testable import GraphService

/// `calport export` over many pages (issue 25): it writes each page's entries as it reads them,
/// each series whole where the view first shows it, and `-o` stays atomic when a later page fails.
@Suite struct StreamingExportTests {
    func times(_ start: String, _ end: String) -> [String: JSONValue] {
        [
            "start": ["dateTime": .string(start), "timeZone": "UTC"],
            "end": ["dateTime": .string(end), "timeZone": "UTC"],
        ]
    }

    func event(_ subject: String, _ start: String, _ end: String, extra: [String: JSONValue] = [:]) -> JSONValue {
        var object = JSONObject([JSONMember("subject", .string(subject))])
        for (key, value) in times(start, end).merging(extra, uniquingKeysWith: { $1 }).sorted(by: { $0.key < $1.key }) {
            object[key] = value
        }
        return .object(object)
    }

    func recurrence(_ type: String, on day: String? = nil, from date: String, count: Int) -> JSONValue {
        var pattern = JSONObject([JSONMember("type", .string(type)), JSONMember("interval", 1)])
        if let day { pattern["daysOfWeek"] = [.string(day)] }
        return [
            "pattern": .object(pattern),
            "range": ["type": "numbered", "startDate": .string(date), "numberOfOccurrences": .number(Double(count))],
        ]
    }

    /// Pages of 3 (the emulator honours no larger `odata.maxpagesize`, as Graph may send fewer than
    /// asked): a daily series on the first three pages, a weekly one on the last two, singles between.
    @Test(
        .enabled(
            if: IndependentReader.isAvailable,
            "needs scripts/.venv with icalendar and recurring-ical-events, which .ci/run installs"),
        .timeLimit(.minutes(2)))
    func eachSeriesIsWrittenWholeWhereTheViewFirstShowsItAcrossPages() async throws {
        let emulator = try GraphEmulator(["--max-page-size", "3"])
        let client = emulator.client()
        let events = emulator.endpoints.graph("/me/events")
        func post(_ body: JSONValue) async throws -> String {
            try #require(try await client.json("POST", events, body: body)["id"]?.stringValue)
        }
        func occurrence(_ master: String, _ originalStart: String) async throws -> URL {
            let url = emulator.endpoints.graph(
                "/me/events/\(master)/instances",
                query: "startDateTime=2027-01-01T00:00:00Z&endDateTime=2027-02-01T00:00:00Z")
            let all = try await GraphPager(client: client).all(url)
            let id = try #require(all.first { $0["originalStart"]?.stringValue == originalStart }?["id"]?.stringValue)
            return emulator.endpoints.graph("/me/events/\(id)")
        }
        // Daily 09:00–09:30 UTC, 4–9 January 2027; the 6th cancelled, the 8th moved to 15:00.
        let dailyID = try await post(
            event(
                "Daily", "2027-01-04T09:00:00", "2027-01-04T09:30:00",
                extra: ["recurrence": recurrence("daily", from: "2027-01-04", count: 6)]))
        _ = try await client.send("DELETE", try await occurrence(dailyID, "2027-01-06T09:00:00Z"))
        var moved = times("2027-01-08T15:00:00", "2027-01-08T15:30:00")
        moved["subject"] = "Daily moved"
        _ = try await client.json(
            "PATCH", try await occurrence(dailyID, "2027-01-08T09:00:00Z"),
            body: .object(JSONObject(moved.sorted { $0.key < $1.key }.map { JSONMember($0.key, $0.value) })))
        // Weekly on Monday 12:00–13:00 UTC, 11, 18 and 25 January.
        _ = try await post(
            event(
                "Weekly", "2027-01-11T12:00:00", "2027-01-11T13:00:00",
                extra: ["recurrence": recurrence("weekly", on: "monday", from: "2027-01-11", count: 3)]))
        let singles = [
            ("S1", "2027-01-04T08:00:00"), ("S2", "2027-01-05T10:00:00"), ("S3", "2027-01-07T11:00:00"),
            ("S4", "2027-01-10T10:00:00"), ("S5", "2027-01-12T10:00:00"), ("S6", "2027-01-20T10:00:00"),
        ]
        for (subject, start) in singles {
            _ = try await post(event(subject, start, String(start.prefix(14)) + "30:00"))
        }
        // The view by start: [S1, Daily 4th, Daily 5th] [S2, Daily 7th, S3] [Daily moved, Daily 9th,
        // S4] [Weekly 11th, S5, Weekly 18th] [S6, Weekly 25th]: five pages. Each series whole where
        // first shown: the Daily master and its override after S1, the Weekly master after S4.
        let order = ["S1", "Daily", "Daily moved", "S2", "S3", "S4", "Weekly", "S5", "S6"]
        var expected = singles.map { "\($0.0)|\($0.1)Z|\($0.1.prefix(14))30:00Z" }
        expected += ["04", "05", "07", "09"].map { "Daily|2027-01-\($0)T09:00:00Z|2027-01-\($0)T09:30:00Z" }
        expected.append("Daily moved|2027-01-08T15:00:00Z|2027-01-08T15:30:00Z")
        expected += ["11", "18", "25"].map { "Weekly|2027-01-\($0)T12:00:00Z|2027-01-\($0)T13:00:00Z" }
        expected.sort()

        let calport = try CalportBinary()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("calport-pages-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let environment = ["CALPORT_GRAPH_URL": emulator.graphURL.absoluteString, "CALPORT_TOKEN": GraphEmulator.token]
        let window = ["export", "--start", "2027-01-01", "--end", "2027-02-01", "--tz", "UTC"]
        let requestsBefore = try await emulator.state()["requests"]?.numberValue ?? 0

        let ics = directory.appendingPathComponent("out.ics").path
        let run = try await calport.run(window + ["-o", ics], environment: environment)
        #expect(run.status == 0, "\(run.stderr)")
        // Five view pages at least (then each series' master and instances).
        let requests = try await emulator.state()["requests"]?.numberValue ?? 0
        #expect(requests - requestsBefore >= 5)
        let text = try String(contentsOfFile: ics, encoding: .utf8)
        let components = text.components(separatedBy: "BEGIN:VEVENT").dropFirst()
        #expect(components.map { Self.property("SUMMARY", in: $0) } == order)
        #expect(Self.property("EXDATE", in: components[components.startIndex + 1]) == "20270106T090000Z")
        #expect(Self.property("RECURRENCE-ID", in: components[components.startIndex + 2]) == "20270108T090000Z")
        let read = try await IndependentReader.occurrences(
            of: ics, start: "2027-01-01T00:00:00", end: "2027-02-01T00:00:00")
        #expect(read == expected)

        let graph = try await calport.run(window + ["--format", "graph"], environment: environment)
        #expect(graph.status == 0, "\(graph.stderr)")
        let values = try #require(try JSONParser.parse(Array(graph.stdout.utf8))["value"]?.arrayValue)
        #expect(values.map { $0["subject"]?.stringValue ?? "" } == order)
        #expect(values[1]["cancelledOccurrences"]?.arrayValue?.count == 1)
        #expect(values[2]["type"]?.stringValue == "exception")

        let ndjson = try await calport.run(window + ["--format", "ndjson"], environment: environment)
        #expect(ndjson.status == 0, "\(ndjson.stderr)")
        let lines = ndjson.stdout.split(separator: "\n").map { try? JSONParser.parse(Array($0.utf8)) }
        #expect(lines.map { $0?["summary"]?.stringValue ?? "" } == order)
    }

    /// The value of the first `name` property of a VEVENT's text (unfolded, without parameters).
    static func property(_ name: String, in component: String) -> String? {
        let unfolded = component.replacingOccurrences(of: "\r\n ", with: "")
        for line in unfolded.components(separatedBy: "\r\n") {
            guard line.hasPrefix(name + ":") || line.hasPrefix(name + ";") else { continue }
            return line.split(separator: ":", maxSplits: 1).last.map(String.init)
        }
        return nil
    }

    /// A 500 on the fourth page, after more than 64 KiB (the writer's chunk) has gone to the
    /// temporary file: the run fails, the old file is left as it was and no temporary file is left.
    @Test(.timeLimit(.minutes(2)))
    func aLaterPageThatFailsLeavesTheOutputFileAsItWas() async throws {
        let emulator = try GraphEmulator(["--max-page-size", "3"])
        let client = emulator.client()
        let body = String(repeating: "A long agenda line. ", count: 1_200)  // 24 KB a description
        for index in 0..<12 {
            let start = "2027-01-\(10 + index)T10:00:00"
            _ = try await client.json(
                "POST", emulator.endpoints.graph("/me/events"),
                body: event(
                    "Meeting \(index)", start, String(start.prefix(14)) + "30:00",
                    extra: ["body": ["contentType": "text", "content": .string(body)]]))
        }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("calport-fail-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let target = directory.appendingPathComponent("calendar.ics")
        let old = "BEGIN:VCALENDAR\r\nthe previous export\r\nEND:VCALENDAR\r\n"
        try old.write(to: target, atomically: true, encoding: .utf8)
        // The export's requests: the view's four pages (singles only; --tz, so no mailboxSettings).
        let before = Int(try await emulator.state()["requests"]?.numberValue ?? 0)
        try await emulator.configure(["fault_every": .number(Double(before + 4)), "faults": ["500"]])

        let run = try await CalportBinary().run(
            ["export", "--start", "2027-01-01", "--end", "2027-02-01", "--tz", "UTC", "-o", target.path],
            environment: ["CALPORT_GRAPH_URL": emulator.graphURL.absoluteString, "CALPORT_TOKEN": GraphEmulator.token])
        #expect(run.status == 3, "\(run.stderr)")
        #expect(run.stderr.contains("calendarView") && run.stderr.contains("500"), "\(run.stderr)")
        let state = try await emulator.state()
        #expect(state["faults"]?.numberValue == 1)
        #expect(Int(state["requests"]?.numberValue ?? 0) == before + 4)
        #expect(try String(contentsOf: target, encoding: .utf8) == old)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["calendar.ics"])
    }

    /// A diagnostic names its object's place in the output's `value` array: the single event after
    /// a series (master and one exception) is `$.value[2]`, whatever order they were mapped in.
    @Test(.timeLimit(.minutes(1)))
    func aDiagnosticIsLocatedAtItsObjectInTheOutput() async throws {
        let emulator = try GraphEmulator()
        let client = emulator.client()
        let events = emulator.endpoints.graph("/me/events")
        let master = try #require(
            try await client.json(
                "POST", events,
                body: event(
                    "Weekly", "2027-01-04T09:00:00", "2027-01-04T10:00:00",
                    extra: ["recurrence": recurrence("weekly", on: "monday", from: "2027-01-04", count: 2)])
            )["id"]?.stringValue)
        let instances = try await GraphPager(client: client).all(
            emulator.endpoints.graph(
                "/me/events/\(master)/instances",
                query: "startDateTime=2027-01-01T00:00:00Z&endDateTime=2027-02-01T00:00:00Z"))
        let second = try #require(instances.last?["id"]?.stringValue)
        _ = try await client.json("PATCH", emulator.endpoints.graph("/me/events/\(second)"), body: ["subject": "Moved"])
        let linked = try #require(
            try await client.json("POST", events, body: event("Linked", "2027-01-05T09:00:00", "2027-01-05T10:00:00"))[
                "id"]?.stringValue)
        try await emulator.seedAttachment(
            event: linked, name: "plan.docx", contentType: "", path: "", kind: "reference")

        let calport = try CalportBinary()
        let environment = ["CALPORT_GRAPH_URL": emulator.graphURL.absoluteString, "CALPORT_TOKEN": GraphEmulator.token]
        let window = ["export", "--start", "2027-01-01", "--end", "2027-02-01", "--tz", "UTC"]
        // --format graph has no place for attachments and reads none: the array's order from it,
        // the warning from an export that reads them.
        let graph = try await calport.run(window + ["--format", "graph"], environment: environment)
        #expect(graph.status == 0, "\(graph.stderr)")
        let values = try #require(try JSONParser.parse(Array(graph.stdout.utf8))["value"]?.arrayValue)
        #expect(values.map { $0["subject"]?.stringValue ?? "" } == ["Weekly", "Moved", "Linked"])
        let run = try await calport.run(window + ["--format", "ndjson"], environment: environment)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("$.value[2].attachments"), "\(run.stderr)")
        #expect(run.stderr.contains("plan.docx"), "\(run.stderr)")
    }
}
