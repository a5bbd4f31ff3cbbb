import Foundation
import GraphEvents
import Testing

@testable import GraphService

/// The library against the emulator: export paging and zones, sign-in, and the emulator's own checks.
@Suite struct EmulatorServiceTests {
    func event(
        _ subject: String, _ start: String, _ end: String, zone: String = "UTC", extra: JSONObject = JSONObject()
    ) -> JSONValue {
        var object = JSONObject([
            JSONMember("subject", .string(subject)),
            JSONMember("start", ["dateTime": .string(start), "timeZone": .string(zone)]),
            JSONMember("end", ["dateTime": .string(end), "timeZone": .string(zone)]),
        ])
        for member in extra.members { object[member.key] = member.value }
        return .object(object)
    }

    @Test func exportFollowsEveryPageInTheMailboxZone() async throws {
        let emulator = try GraphEmulator(["--max-page-size", "2"])
        let client = emulator.client()
        for day in 4...8 {
            _ = try await client.json(
                "POST", emulator.endpoints.graph("/me/events"),
                body: event("Day \(day)", "2027-01-0\(day)T18:00:00", "2027-01-0\(day)T19:00:00"))
        }
        let weekly: JSONValue = [
            "pattern": ["type": "weekly", "interval": 1, "daysOfWeek": ["monday"]],
            "range": ["type": "numbered", "startDate": "2027-01-04", "numberOfOccurrences": 3],
        ]
        _ = try await client.json(
            "POST", emulator.endpoints.graph("/me/events"),
            body: event(
                "Weekly", "2027-01-04T12:00:00", "2027-01-04T13:00:00",
                extra: JSONObject([JSONMember("recurrence", weekly)])))
        let exporter = CalendarExporter(client: client)

        let series = try await exporter.export(ExportRequest(start: "2027-01-01", end: "2027-02-01"))
        // The mailbox's zone (the emulator's is Pacific Standard Time, UTC-8 in January).
        #expect(series.timeZone == "Pacific Standard Time")
        #expect(series.values.count == 6, "5 single events and 1 series master, read over 4 pages of 2")
        let day4 = try #require(series.values.first { $0["subject"] == "Day 4" })
        #expect(day4["start"] == ["dateTime": "2027-01-04T10:00:00.0000000", "timeZone": "Pacific Standard Time"])
        #expect(series.events.filter { !$0.recurrenceRules.isEmpty }.count == 1)

        let flat = try await exporter.export(
            ExportRequest(start: "2027-01-01", end: "2027-02-01", timeZone: "UTC", instances: true))
        #expect(flat.values.count == 8, "5 single events and 3 occurrences")
        #expect(flat.events.allSatisfy { $0.recurrenceRules.isEmpty })
    }

    @Test func importsIntoAndExportsFromANamedCalendar() async throws {
        let emulator = try GraphEmulator()
        let client = emulator.client()
        let entry = event(
            "Second calendar", "2027-01-05T09:00:00", "2027-01-05T10:00:00",
            extra: JSONObject([JSONMember("transactionId", "TX-2ND")]))
        let report = try await CalendarImporter(client: client, calendarID: "AAMkSecond").run(
            [ImportSource(name: "entries", plan: ImportPlan(entries: [entry]))])
        #expect(report.created == 1)
        let exporter = CalendarExporter(client: client)
        let mine = try await exporter.export(
            ExportRequest(start: "2027-01-01", end: "2027-02-01", calendarID: "AAMkSecond", timeZone: "UTC"))
        #expect(mine.values.map { $0["subject"] } == ["Second calendar"])
        let other = try await exporter.export(ExportRequest(start: "2027-01-01", end: "2027-02-01", timeZone: "UTC"))
        #expect(other.values.isEmpty, "the default calendar holds nothing")
    }

    @Test func signsInWithADeviceCodeAndRefreshesAnExpiringToken() async throws {
        let emulator = try GraphEmulator(["--token-lifetime", "60", "--pending-polls", "2"])
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "calport-login-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let cache = TokenCache(path: directory.appendingPathComponent("calport/token.json").path)
        let prompts = LockedList<DeviceCodePrompt>()
        let tokens = try await DeviceCodeLogin(
            endpoints: emulator.endpoints, transport: HelperTransport(), sleep: { _ in }
        )
        .signIn { prompt in prompts.append(prompt) }
        #expect(prompts.all.map(\.userCode) == ["EMU-CODE"])
        #expect(prompts.all.first?.verificationURL == "https://microsoft.com/devicelogin")
        try cache.save(tokens)
        let mode = try FileManager.default.attributesOfItem(atPath: cache.path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        let directoryMode =
            try FileManager.default.attributesOfItem(atPath: directory.appendingPathComponent("calport").path)[
                .posixPermissions] as? Int
        #expect(directoryMode == 0o700)

        // 60 s of validity is within the 5-minute margin, so the first use refreshes.
        let provider = CachedTokenProvider(
            cache: cache, endpoints: emulator.endpoints, transport: HelperTransport())
        let client = GraphClient(endpoints: emulator.endpoints, tokens: provider)
        let me = try await client.json("GET", emulator.endpoints.graph("/me"))
        #expect(me["displayName"] == "Emulated User")
        let refreshed = try #require(try cache.load())
        #expect(refreshed.accessToken != tokens.accessToken)
        #expect(refreshed.refreshToken != nil)
        #expect(try cache.remove())
        #expect(try cache.load() == nil)
    }

    @Test func theEmulatorValidatesBodiesAsGraphDoes() async throws {
        let emulator = try GraphEmulator()
        let client = emulator.client()
        let url = emulator.endpoints.graph("/me/events")
        let unknownZone = try await client.send(
            "POST", url, body: event("Z", "2027-01-04T10:00:00", "2027-01-04T11:00:00", zone: "Mars Standard Time"))
        #expect(unknownZone.status == 400)
        #expect(try JSONParser.parse(unknownZone.body)["error"]?["code"] == "TimeZoneNotSupportedException")
        let allDay = try await client.send(
            "POST", url,
            body: event(
                "A", "2027-01-04T10:00:00", "2027-01-05T10:00:00", extra: JSONObject([JSONMember("isAllDay", true)])))
        #expect(allDay.status == 400)
        let noEnd = try await client.send(
            "POST", url, body: ["subject": "E", "start": ["dateTime": "2027-01-04T10:00:00", "timeZone": "UTC"]])
        #expect(noEnd.status == 400)
        let once = event(
            "T", "2027-01-04T10:00:00", "2027-01-04T11:00:00", extra: JSONObject([JSONMember("transactionId", "TX-1")]))
        let first = try await client.send("POST", url, body: once)
        let second = try await client.send("POST", url, body: once)
        #expect(first.status == 201)
        #expect(second.status == 201, "a repeated transactionId answers with the event it made")
        #expect(try JSONParser.parse(first.body)["id"] == JSONParser.parse(second.body)["id"])
        #expect(try await emulator.state()["events"]?.arrayValue?.count == 1)
    }
}
