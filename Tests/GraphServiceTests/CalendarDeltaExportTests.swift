import Foundation
import GraphEvents
import Testing

@testable import GraphService

/// `calport export --delta` against the emulator's calendarView/delta (issue #22): a run after
/// changes gives what a full export gives; another window is refused; a forgotten state is read in
/// full with a warning; NDJSON gives change records.
@Suite(.timeLimit(.minutes(2))) struct CalendarDeltaExportTests {
    static let window = ["--start", "2027-01-01", "--end", "2027-02-01"]

    /// A mailbox on the emulator, calport, and a scratch directory for their files.
    struct Setup {
        let emulator: GraphEmulator
        let calport: CalportBinary
        let directory: URL
        let environment: [String: String]

        init() throws {
            emulator = try GraphEmulator(["--mailbox-zone", "Pacific Standard Time"])
            calport = try CalportBinary()
            directory = FileManager.default.temporaryDirectory.appendingPathComponent("calport-delta-\(UUID())")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            environment = [
                "CALPORT_GRAPH_URL": emulator.graphURL.absoluteString, "CALPORT_TOKEN": GraphEmulator.token,
                "XDG_CONFIG_HOME": directory.appendingPathComponent("config").path,
            ]
        }

        func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

        func run(_ arguments: [String]) async throws -> CalportBinary.Run {
            try await calport.run(arguments, environment: environment)
        }

        /// POSTs an event; its id.
        func post(_ body: JSONValue) async throws -> String {
            let created = try await emulator.client().json("POST", emulator.endpoints.graph("/me/events"), body: body)
            return try #require(created["id"]?.stringValue)
        }

        func patch(_ id: String, _ body: JSONValue) async throws {
            _ = try await emulator.client().json("PATCH", emulator.endpoints.graph("/me/events/\(id)"), body: body)
        }

        func delete(_ id: String) async throws {
            _ = try await emulator.client().json("DELETE", emulator.endpoints.graph("/me/events/\(id)"))
        }

        /// The id of the occurrence of `master` originally at `originalStart` (UTC, `…Z`).
        func occurrence(_ master: String, _ originalStart: String) async throws -> String {
            let url = emulator.endpoints.graph(
                "/me/events/\(master)/instances",
                query: "startDateTime=2027-01-01T00:00:00Z&endDateTime=2027-02-01T00:00:00Z")
            let page = try await emulator.client().json("GET", url)
            return try #require(
                page["value"]?.arrayValue?.first { $0["originalStart"]?.stringValue == originalStart }?["id"]?
                    .stringValue)
        }

        /// Evicts every delta state of the emulator (its control endpoint, not Graph).
        func expireDeltaStates() async throws {
            let request = HTTPRequest(
                method: "POST", url: URL(string: "http://127.0.0.1:\(emulator.port)/_emulator/expire-delta")!)
            _ = try await HelperTransport(timeout: 10).send(request)
        }
    }

    static func single(_ subject: String, day: Int, hour: Int = 10) -> JSONValue {
        let date = String(format: "2027-01-%02d", day)
        return [
            "subject": .string(subject),
            "start": ["dateTime": .string(date + String(format: "T%02d:00:00", hour)), "timeZone": "UTC"],
            "end": ["dateTime": .string(date + String(format: "T%02d:30:00", hour)), "timeZone": "UTC"],
        ]
    }

    @Test(.enabled(if: IndependentReader.isAvailable, "needs scripts/.venv with icalendar"))
    func aDeltaRunAfterChangesEqualsAFullExport() async throws {
        let setup = try Setup()
        defer { try? FileManager.default.removeItem(at: setup.directory) }
        let edited = try await setup.post(Self.single("To edit", day: 4))
        let deleted = try await setup.post(Self.single("To delete", day: 5))
        _ = try await setup.post(Self.single("Unchanged", day: 6))
        let series = try await setup.post([
            "subject": "Standup",
            "start": ["dateTime": "2027-01-04T09:00:00", "timeZone": "W. Europe Standard Time"],
            "end": ["dateTime": "2027-01-04T09:15:00", "timeZone": "W. Europe Standard Time"],
            "recurrence": [
                "pattern": ["type": "daily", "interval": 1],
                "range": ["type": "numbered", "startDate": "2027-01-04", "numberOfOccurrences": 10],
            ],
        ])
        let dropped = try await setup.post([
            "subject": "Weekly to delete",
            "start": ["dateTime": "2027-01-05T15:00:00", "timeZone": "UTC"],
            "end": ["dateTime": "2027-01-05T16:00:00", "timeZone": "UTC"],
            "recurrence": [
                "pattern": ["type": "weekly", "interval": 1, "daysOfWeek": ["tuesday"]],
                "range": ["type": "noEnd", "startDate": "2027-01-05"],
            ],
        ])
        let leaving = try await setup.post(Self.single("Leaving the window", day: 7))
        // An imported event: its UID comes back from calport's extended property, which delta
        // does not return, so a changed one has to be read again.
        let ics = setup.path("imported.ics")
        try """
        BEGIN:VCALENDAR\r
        VERSION:2.0\r
        PRODID:-//test//delta//EN\r
        BEGIN:VEVENT\r
        UID:imported-1@example.com\r
        DTSTAMP:20261201T000000Z\r
        DTSTART:20270112T150000Z\r
        DTEND:20270112T160000Z\r
        SUMMARY:Imported\r
        END:VEVENT\r
        END:VCALENDAR\r

        """.write(toFile: ics, atomically: true, encoding: .utf8)
        let imported = try await setup.run(["import", ics])
        try #require(imported.status == 0, "\(imported.stderr)")

        let state = setup.path("state.json")
        let mirror = setup.path("mirror.ics")
        let first = try await setup.run(["export", "--delta", state, "-o", mirror] + Self.window)
        try #require(first.status == 0, "\(first.stderr)")
        #expect(try IndependentReader.summaries(of: mirror).isSuperset(of: ["To delete", "Weekly to delete"]))

        // Berlin 09:00 in January is 08:00 UTC.
        let moved = try await setup.occurrence(series, "2027-01-06T08:00:00Z")
        let cancelled = try await setup.occurrence(series, "2027-01-08T08:00:00Z")
        _ = try await setup.post(Self.single("Added", day: 20))
        try await setup.patch(edited, ["subject": "Edited"])
        try await setup.delete(deleted)
        try await setup.patch(
            moved,
            [
                "start": ["dateTime": "2027-01-06T13:00:00", "timeZone": "W. Europe Standard Time"],
                "end": ["dateTime": "2027-01-06T13:15:00", "timeZone": "W. Europe Standard Time"],
            ])
        try await setup.delete(cancelled)
        try await setup.delete(dropped)
        try await setup.patch(
            leaving,
            [
                "start": ["dateTime": "2027-03-07T10:00:00", "timeZone": "UTC"],
                "end": ["dateTime": "2027-03-07T10:30:00", "timeZone": "UTC"],
            ])
        let importedID = try #require(
            try await setup.emulator.state()["events"]?.arrayValue?.first { $0["subject"]?.stringValue == "Imported" }?[
                "id"]?.stringValue)
        try await setup.patch(importedID, ["location": ["displayName": "Room 2"]])

        let second = try await setup.run(["export", "--delta", state, "-o", mirror])
        try #require(second.status == 0, "\(second.stderr)")
        let full = setup.path("full.ics")
        let fresh = try await setup.run(["export", "-o", full] + Self.window)
        try #require(fresh.status == 0, "\(fresh.stderr)")

        let mirrored = try IndependentReader.events(of: mirror)
        #expect(mirrored == (try IndependentReader.events(of: full)))
        // And the changes are there (not two equally stale files).
        let summaries = try IndependentReader.summaries(of: mirror)
        #expect(summaries.contains("Added") && summaries.contains("Edited"))
        #expect(!summaries.contains("To delete") && !summaries.contains("To edit"))
        #expect(!summaries.contains("Weekly to delete") && !summaries.contains("Leaving the window"))
        let standup = mirrored.filter { $0.contains("SUMMARY:Standup") }
        #expect(standup.contains { $0.contains("RECURRENCE-ID") && $0.contains("DTSTART:20270106T120000Z") })
        #expect(standup.contains { $0.contains("EXDATE") && $0.contains("20270108T080000Z") })
        #expect(mirrored.contains { $0.contains("UID:imported-1@example.com") && $0.contains("LOCATION:Room 2") })
    }

    /// The emulator sends an updated instance as its id and changed members only (no
    /// seriesMasterId), as Graph may: the move alone must still bring its series to be read again.
    @Test(.enabled(if: IndependentReader.isAvailable, "needs scripts/.venv with icalendar"))
    func anOccurrenceMovedAloneIsFoundInItsSeries() async throws {
        let setup = try Setup()
        defer { try? FileManager.default.removeItem(at: setup.directory) }
        let series = try await setup.post([
            "subject": "Daily", "start": ["dateTime": "2027-01-04T07:00:00", "timeZone": "UTC"],
            "end": ["dateTime": "2027-01-04T07:30:00", "timeZone": "UTC"],
            "recurrence": [
                "pattern": ["type": "daily", "interval": 1],
                "range": ["type": "numbered", "startDate": "2027-01-04", "numberOfOccurrences": 5],
            ],
        ])
        let state = setup.path("state.json")
        let mirror = setup.path("mirror.ics")
        let first = try await setup.run(["export", "--delta", state, "-o", mirror] + Self.window)
        try #require(first.status == 0, "\(first.stderr)")
        try await setup.patch(
            try await setup.occurrence(series, "2027-01-05T07:00:00Z"),
            [
                "start": ["dateTime": "2027-01-05T09:00:00", "timeZone": "UTC"],
                "end": ["dateTime": "2027-01-05T09:30:00", "timeZone": "UTC"],
            ])
        let second = try await setup.run(["export", "--delta", state, "-o", mirror])
        try #require(second.status == 0, "\(second.stderr)")
        let events = try IndependentReader.events(of: mirror)
        #expect(events.count == 2, "the master and one override: \(events)")
        #expect(
            events.contains { $0.contains("RECURRENCE-ID:20270105T070000Z") && $0.contains("DTSTART:20270105T090000Z") }
        )
    }

    @Test func anotherWindowWithTheSameStateIsAnError() async throws {
        let setup = try Setup()
        defer { try? FileManager.default.removeItem(at: setup.directory) }
        let state = setup.path("state.json")
        let first = try await setup.run(["export", "--delta", state, "-o", setup.path("a.ics")] + Self.window)
        try #require(first.status == 0, "\(first.stderr)")
        let other = try await setup.run([
            "export", "--delta", state, "--start", "2027-01-02", "--end", "2027-02-01", "-o", setup.path("a.ics"),
        ])
        #expect(other.status == 2)
        #expect(other.stderr.contains("another request") && other.stderr.contains("2027-01-02"), "\(other.stderr)")
    }

    @Test func aStateGraphForgotIsReadInFullWithAWarning() async throws {
        let setup = try Setup()
        defer { try? FileManager.default.removeItem(at: setup.directory) }
        let state = setup.path("state.json")
        let mirror = setup.path("mirror.ics")
        let first = try await setup.run(["export", "--delta", state, "-o", mirror] + Self.window)
        try #require(first.status == 0, "\(first.stderr)")
        let link = try #require(CalendarDeltaState.read(state)?.deltaLink)
        try await setup.expireDeltaStates()
        _ = try await setup.post(Self.single("After expiry", day: 9))

        let second = try await setup.run(["export", "--delta", state, "-o", mirror])
        #expect(second.status == 0, "\(second.stderr)")
        #expect(second.stderr.contains("warning") && second.stderr.contains("410"), "\(second.stderr)")
        #expect(try String(contentsOfFile: mirror, encoding: .utf8).contains("SUMMARY:After expiry"))
        #expect(try CalendarDeltaState.read(state)?.deltaLink != link)
    }

    @Test func ndjsonGivesOneChangeRecordPerChangedEvent() async throws {
        let setup = try Setup()
        defer { try? FileManager.default.removeItem(at: setup.directory) }
        let edited = try await setup.post(Self.single("To edit", day: 4))
        let deleted = try await setup.post(Self.single("To delete", day: 5))
        _ = try await setup.post(Self.single("Unchanged", day: 6))
        let state = setup.path("state.json")
        let arguments = ["export", "--delta", state, "--format", "ndjson"]
        let first = try await setup.run(arguments + Self.window)
        try #require(first.status == 0, "\(first.stderr)")
        #expect(try Self.records(first.stdout).map(\.change) == ["added", "added", "added"])

        try await setup.patch(edited, ["subject": "Edited"])
        try await setup.delete(deleted)
        _ = try await setup.post(Self.single("Added", day: 20))
        let second = try await setup.run(arguments)
        try #require(second.status == 0, "\(second.stderr)")
        let records = try Self.records(second.stdout)
        #expect(
            records.sorted { $0.summary < $1.summary }.map { "\($0.change) \($0.summary)" } == [
                "added Added", "updated Edited", "removed To delete",
            ])
    }

    @Test func goneSyncStateNotFoundAndResyncRequiredMeanAFullReadOtherErrorsDoNot() {
        func http(_ status: Int, _ code: String?) -> GraphServiceError {
            .http(request: "GET /me/calendarView/delta", status: status, code: code, message: nil)
        }
        #expect(CalendarDeltaExporter.isForgotten(http(410, nil)))
        #expect(CalendarDeltaExporter.isForgotten(http(400, "syncStateNotFound")))
        #expect(CalendarDeltaExporter.isForgotten(http(400, "resyncRequired")))
        #expect(!CalendarDeltaExporter.isForgotten(http(404, "ErrorItemNotFound")))
        #expect(!CalendarDeltaExporter.isForgotten(http(503, nil)))
    }

    @Test func flatOccurrencesAreRefusedWithDelta() async throws {
        let emulator = try GraphEmulator()
        await #expect(throws: GraphServiceError.self) {
            _ = try await CalendarDeltaExporter(client: emulator.client()).export(
                ExportRequest(start: "2027-01-01", end: "2027-02-01", instances: true), state: nil)
        }
    }

    /// (change, event summary) of each NDJSON line.
    static func records(_ text: String) throws -> [(change: String, summary: String)] {
        try text.split(separator: "\n").map { line in
            let record = try JSONParser.parse(String(line))
            return (record["change"]?.stringValue ?? "?", record["event"]?["summary"]?.stringValue ?? "?")
        }
    }
}

extension IndependentReader {
    /// Every VEVENT of the calendar at `path`, read by Python's icalendar: its properties as
    /// `NAME;PARAMS:value` lines (times in UTC), sorted, joined by newlines; the events sorted.
    static func events(of path: String) throws -> [String] {
        let script = """
            import sys, datetime as dt, icalendar
            utc = dt.timezone.utc
            def time(inner):
                if isinstance(inner, dt.datetime):
                    inner = inner.astimezone(utc) if inner.tzinfo else inner
                    return inner.strftime("%Y%m%dT%H%M%S") + ("Z" if inner.tzinfo else "")
                return inner.strftime("%Y%m%d")
            def text(name, value):
                if isinstance(value, icalendar.prop.vDDDLists):
                    return ",".join(sorted(time(t.dt) for t in value.dts))
                inner = getattr(value, "dt", None)
                if isinstance(inner, dt.date):
                    return time(inner)
                return value.to_ical().decode()
            calendar = icalendar.Calendar.from_ical(open(sys.argv[1], "rb").read())
            events = []
            for event in calendar.walk("VEVENT"):
                lines = []
                for name, value in event.property_items(recursive=False):
                    if name == "BEGIN" or name == "END":
                        continue
                    for item in value if isinstance(value, list) else [value]:
                        lines.append(f"{name}:{text(name, item)}")
                events.append("\\n".join(sorted(lines)))
            print("\\n\\u0000\\n".join(sorted(events)))
            """
        let output = path + ".events"
        _ = FileManager.default.createFile(atPath: output, contents: nil)
        defer { try? FileManager.default.removeItem(atPath: output) }
        let process = Process()
        process.executableURL = python
        process.arguments = ["-c", script, path]
        process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: output))
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw EmulatorError(message: "icalendar could not read \(path)") }
        let text = String(decoding: try Data(contentsOf: URL(fileURLWithPath: output)), as: UTF8.self)
        return text.components(separatedBy: "\n\u{0}\n").map { $0.trimmingCharacters(in: .newlines) }
    }

    /// The SUMMARY of each VEVENT at `path`.
    static func summaries(of path: String) throws -> Set<String> {
        Set(
            try events(of: path).flatMap { $0.split(separator: "\n") }.filter { $0.hasPrefix("SUMMARY:") }
                .map { String($0.dropFirst("SUMMARY:".count)) })
    }
}
