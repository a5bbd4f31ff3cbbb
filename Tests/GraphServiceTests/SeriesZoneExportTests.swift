import Foundation
import GraphEvents
import Testing

@testable import GraphService

/// Python with icalendar and recurring-ical-events (`.ci/run` installs them in `scripts/.venv`),
/// an independent reader of the `.ics` calport writes.
enum IndependentReader {
    static let python = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("scripts/.venv/bin/python")

    static var isAvailable: Bool {
        guard FileManager.default.isExecutableFile(atPath: python.path) else { return false }
        let process = Process()
        process.executableURL = python
        process.arguments = ["-c", "import icalendar, recurring_ical_events"]
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }

    /// Every occurrence in `[start, end)` of the calendar at `path`, as `summary|start|end` with
    /// times in UTC (`…Z`) and dates as dates, sorted.
    static func occurrences(of path: String, start: String, end: String) async throws -> [String] {
        let script = """
            import sys, datetime as dt, icalendar, recurring_ical_events
            utc = dt.timezone.utc
            def text(value):
                if isinstance(value, dt.datetime):
                    return value.astimezone(utc).strftime("%Y-%m-%dT%H:%M:%SZ")
                return value.isoformat()
            calendar = icalendar.Calendar.from_ical(open(sys.argv[1], "rb").read())
            window = [dt.datetime.fromisoformat(t).replace(tzinfo=utc) for t in sys.argv[2:4]]
            found = [f"{e['SUMMARY']}|{text(e['DTSTART'].dt)}|{text(e['DTEND'].dt)}"
                     for e in recurring_ical_events.of(calendar).between(*window)]
            print("\\n".join(sorted(found)))
            """
        let process = Process()
        process.executableURL = python
        process.arguments = ["-c", script, path, start, end]
        // A file, not a pipe, so that waiting needs no blocking read.
        let output = path + ".occurrences"
        _ = FileManager.default.createFile(atPath: output, contents: nil)
        defer { try? FileManager.default.removeItem(atPath: output) }
        process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: output))
        try process.run()
        await process.exited()
        let data = try Data(contentsOf: URL(fileURLWithPath: output))
        return String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
    }
}

/// The issue's acceptance test: a Pacific mailbox with series in Berlin and New York, moved and
/// cancelled occurrences between and after the US (14 March 2027) and EU (28 March 2027) clock
/// changes, exported from v1.0 and read back by an independent reader, equal the calendarView.
@Suite struct SeriesZoneExportTests {
    let windowStart = "2027-02-01T00:00:00"
    let windowEnd = "2027-05-01T00:00:00"

    @Test(
        .enabled(
            if: IndependentReader.isAvailable,
            "needs scripts/.venv with icalendar and recurring-ical-events, which .ci/run installs"),
        .timeLimit(.minutes(1)))
    func exportKeepsTheSeriesHoursAcrossBothClockChanges() async throws {
        let emulator = try GraphEmulator(["--mailbox-zone", "Pacific Standard Time"])
        let client = emulator.client()
        let events = emulator.endpoints.graph("/me/events")
        func post(_ body: JSONValue) async throws -> String {
            try #require(try await client.json("POST", events, body: body)["id"]?.stringValue)
        }
        func instance(_ master: String, originalStart: String) async throws -> String {
            let url = emulator.endpoints.graph(
                "/me/events/\(master)/instances",
                query: "startDateTime=2027-02-01T00:00:00Z&endDateTime=2027-06-01T00:00:00Z")
            let all = try await GraphPager(client: client).all(url)
            return try #require(all.first { $0["originalStart"]?.stringValue == originalStart }?["id"]?.stringValue)
        }
        func occurrence(_ master: String, _ originalStart: String) async throws -> URL {
            emulator.endpoints.graph("/me/events/\(try await instance(master, originalStart: originalStart))")
        }
        func cancel(_ master: String, _ originalStart: String) async throws {
            _ = try await client.send("DELETE", try await occurrence(master, originalStart))
        }
        func move(_ master: String, _ originalStart: String, to body: JSONValue) async throws {
            _ = try await client.json("PATCH", try await occurrence(master, originalStart), body: body)
        }
        func times(_ start: String, _ end: String, _ zone: String) -> (JSONValue, JSONValue) {
            (
                ["dateTime": .string(start), "timeZone": .string(zone)],
                ["dateTime": .string(end), "timeZone": .string(zone)]
            )
        }
        func weekly(_ day: String, from date: String, count: Int) -> JSONValue {
            [
                "pattern": ["type": "weekly", "interval": 1, "daysOfWeek": [.string(day)]],
                "range": [
                    "type": "numbered", "startDate": .string(date), "numberOfOccurrences": .number(Double(count)),
                ],
            ]
        }
        let berlinZone = "W. Europe Standard Time"
        // Weekly on Tuesday 09:00 Berlin, ten times from 23 February.
        let first = times("2027-02-23T09:00:00", "2027-02-23T10:00:00", berlinZone)
        let berlin = try await post([
            "subject": "Berlin weekly", "start": first.0, "end": first.1,
            "recurrence": weekly("tuesday", from: "2027-02-23", count: 10),
        ])
        // 16 March (between the changes, 08:00Z) moved to Wednesday 11:00 Berlin; 30 March
        // (after both, 07:00Z) cancelled.
        let moved = times("2027-03-17T11:00:00", "2027-03-17T12:00:00", berlinZone)
        try await move(
            berlin, "2027-03-16T08:00:00Z", to: ["subject": "Berlin moved", "start": moved.0, "end": moved.1])
        try await cancel(berlin, "2027-03-30T07:00:00Z")
        // Daily at 09:00 New York, posted with a UTC start and the series' zone in the range.
        let utcStart = times("2027-03-11T14:00:00", "2027-03-11T14:30:00", "UTC")
        let newYork = try await post([
            "subject": "New York daily", "start": utcStart.0, "end": utcStart.1,
            "recurrence": [
                "pattern": ["type": "daily", "interval": 1],
                "range": [
                    "type": "endDate", "startDate": "2027-03-11", "endDate": "2027-03-18",
                    "recurrenceTimeZone": "Eastern Standard Time",
                ],
            ],
        ])
        try await cancel(newYork, "2027-03-15T13:00:00Z")
        let later = times("2027-03-13T16:00:00", "2027-03-13T16:30:00", "Eastern Standard Time")
        try await move(newYork, "2027-03-13T14:00:00Z", to: ["start": later.0, "end": later.1])
        // All-day on Mondays in Berlin; 15 March cancelled, 22 March moved to the Tuesday.
        let day = times("2027-03-01T00:00:00", "2027-03-02T00:00:00", berlinZone)
        let allDay = try await post([
            "subject": "Berlin all-day", "isAllDay": true, "start": day.0, "end": day.1,
            "recurrence": weekly("monday", from: "2027-03-01", count: 6),
        ])
        // Graph gives an all-day occurrence's originalStart as the Pacific mailbox's midnight in UTC.
        try await cancel(allDay, "2027-03-15T07:00:00Z")
        let tuesday = times("2027-03-23T00:00:00", "2027-03-24T00:00:00", berlinZone)
        try await move(allDay, "2027-03-22T07:00:00Z", to: ["isAllDay": true, "start": tuesday.0, "end": tuesday.1])
        _ = try await post([
            "subject": "Single",
            "start": ["dateTime": "2027-03-20T10:00:00", "timeZone": "Pacific Standard Time"],
            "end": ["dateTime": "2027-03-20T11:00:00", "timeZone": "Pacific Standard Time"],
        ])

        let expected = try await calendarView(emulator, client)
        // Worked out by hand for the Berlin series: 09:00 Berlin is 08:00Z before 28 March, 07:00Z after.
        #expect(expected.contains("Berlin weekly|2027-03-09T08:00:00Z|2027-03-09T09:00:00Z"))
        #expect(expected.contains("Berlin weekly|2027-03-23T08:00:00Z|2027-03-23T09:00:00Z"))
        #expect(expected.contains("Berlin weekly|2027-04-06T07:00:00Z|2027-04-06T08:00:00Z"))
        #expect(expected.contains("New York daily|2027-03-14T13:00:00Z|2027-03-14T13:30:00Z"))
        // Berlin 10 - 1 cancelled, New York 8 - 1, all-day 6 - 1, and the single event.
        #expect(expected.count == 22)

        let calport = try CalportBinary()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("calport-zones-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        // v1.0 in series form and flat; beta (the user pointed calport at /beta) in series form.
        let beta = "http://127.0.0.1:\(emulator.port)/beta"
        for (name, graph, flags) in [
            ("series", emulator.graphURL.absoluteString, []),
            ("instances", emulator.graphURL.absoluteString, ["--instances"]),
            ("beta", beta, []),
        ] {
            let path = directory.appendingPathComponent("\(name).ics").path
            let run = try await calport.run(
                ["export", "--start", "2027-02-01", "--end", "2027-05-01", "-o", path] + flags,
                environment: ["CALPORT_GRAPH_URL": graph, "CALPORT_TOKEN": GraphEmulator.token])
            #expect(run.status == 0, "\(run.stderr)")
            let read = try await IndependentReader.occurrences(of: path, start: windowStart, end: windowEnd)
            #expect(read == expected, "\(name)")
        }
    }

    /// The calendarView's occurrences in the `summary|start|end` form, times in UTC (Graph's default).
    func calendarView(_ emulator: GraphEmulator, _ client: GraphClient) async throws -> [String] {
        let url = emulator.endpoints.graph(
            "/me/calendarView", query: "startDateTime=\(windowStart)Z&endDateTime=\(windowEnd)Z")
        return try await GraphPager(client: client).all(url).map { event in
            let allDay = event["isAllDay"]?.boolValue == true
            func time(_ member: String) -> String {
                let text = event[member]?["dateTime"]?.stringValue ?? ""
                return allDay ? String(text.prefix(10)) : String(text.prefix(19)) + "Z"
            }
            return "\(event["subject"]?.stringValue ?? "")|\(time("start"))|\(time("end"))"
        }.sorted()
    }
}
