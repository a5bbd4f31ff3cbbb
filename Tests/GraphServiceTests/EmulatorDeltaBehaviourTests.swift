import Foundation
import GraphEvents
import GraphService
import Testing

/// The emulator's calendarView/delta pinned to its sources (event: delta, delta-query-events,
/// delta-query-overview, and the SyncStateNotFound field report), one behaviour a test.
@Suite(.timeLimit(.minutes(1))) struct EmulatorDeltaBehaviourTests {
    static let window = "startDateTime=2027-01-01T00:00:00Z&endDateTime=2027-02-01T00:00:00Z"

    /// A one-hour event at 10:00 UTC on `date` (`YYYY-MM-DD`).
    static func single(_ subject: String, on date: String) -> JSONValue {
        [
            "subject": .string(subject), "start": ["dateTime": .string(date + "T10:00:00"), "timeZone": "UTC"],
            "end": ["dateTime": .string(date + "T11:00:00"), "timeZone": "UTC"],
        ]
    }

    /// Every page of a round from `url`: its items and its deltaLink.
    static func round(_ client: GraphClient, _ url: URL, pageSize: Int = 2) async throws -> (
        items: [JSONValue], pages: Int, deltaLink: URL
    ) {
        var items: [JSONValue] = []
        var page = url
        var pages = 0
        while true {
            let body = try await client.json("GET", page, headers: ["Prefer": "odata.maxpagesize=\(pageSize)"])
            pages += 1
            items += body["value"]?.arrayValue ?? []
            if let next = body["@odata.nextLink"]?.stringValue {
                #expect(next.contains("$skiptoken=") || next.contains("%24skiptoken="))
                #expect(!next.contains("startDateTime"), "the window is encoded in the token")
                page = try #require(URL(string: next))
            } else {
                let link = try #require(body["@odata.deltaLink"]?.stringValue)
                #expect(link.contains("$deltatoken=") || link.contains("%24deltatoken="))
                return (items, pages, try #require(URL(string: link)))
            }
        }
    }

    @Test func aRoundPagesWithSkipTokensAndEndsWithADeltaLink() async throws {
        let emulator = try GraphEmulator()
        let client = emulator.client()
        for day in 1...5 {
            _ = try await client.json(
                "POST", emulator.endpoints.graph("/me/events"), body: Self.single("E\(day)", on: "2027-01-0\(day)"))
        }
        let first = try await Self.round(
            client, emulator.endpoints.graph("/me/calendarView/delta", query: Self.window))
        #expect(first.items.count == 5 && first.pages == 3)
        let quiet = try await Self.round(client, first.deltaLink)
        #expect(quiet.items.isEmpty, "nothing changed since")
    }

    @Test func theFirstCallNeedsTheWindowAndTakesNoSelectOrExpand() async throws {
        let emulator = try GraphEmulator()
        let client = emulator.client()
        for query in ["", Self.window + "&$select=subject", Self.window + "&$expand=singleValueExtendedProperties"] {
            await #expect(throws: GraphServiceError.self) {
                _ = try await client.json("GET", emulator.endpoints.graph("/me/calendarView/delta", query: query))
            }
        }
    }

    @Test func changesComeInFullAndRemovalsAsRemovedDeleted() async throws {
        let emulator = try GraphEmulator()
        let client = emulator.client()
        let events = emulator.endpoints.graph("/me/events")
        let kept = try #require(
            try await client.json("POST", events, body: Self.single("Kept", on: "2027-01-03"))["id"]?.stringValue)
        let gone = try #require(
            try await client.json("POST", events, body: Self.single("Gone", on: "2027-01-04"))["id"]?.stringValue)
        let outside = try #require(
            try await client.json("POST", events, body: Self.single("Outside", on: "2027-03-03"))["id"]?.stringValue)
        let first = try await Self.round(client, emulator.endpoints.graph("/me/calendarView/delta", query: Self.window))
        #expect(first.items.count == 2)

        _ = try await client.json(
            "PATCH", emulator.endpoints.graph("/me/events/\(kept)"), body: ["subject": "Kept, renamed"])
        _ = try await client.json("DELETE", emulator.endpoints.graph("/me/events/\(gone)"))
        _ = try await client.json("PATCH", emulator.endpoints.graph("/me/events/\(outside)"), body: ["subject": "x"])
        let next = try await Self.round(client, first.deltaLink)
        let updated = try #require(next.items.first { $0["id"]?.stringValue == kept })
        // Strictest reading of "at least the properties that have been updated": those only.
        #expect(updated["subject"]?.stringValue == "Kept, renamed" && updated["start"] == nil)
        for id in [gone, outside] {
            let removed = try #require(next.items.first { $0["id"]?.stringValue == id })
            #expect(removed["@removed"]?["reason"]?.stringValue == "deleted")
        }
    }

    @Test func aDeltaLinkThreeGenerationsOldIsGone() async throws {
        let emulator = try GraphEmulator()
        let client = emulator.client()
        var links = [
            try await Self.round(client, emulator.endpoints.graph("/me/calendarView/delta", query: Self.window))
                .deltaLink
        ]
        for _ in 0..<3 { links.append(try await Self.round(client, links.last!).deltaLink) }
        // Generations 2 to 4 are kept; the first is gone.
        _ = try await Self.round(client, links[1])
        do {
            _ = try await Self.round(client, links[0])
            Issue.record("an evicted deltaLink was answered")
        } catch let error as GraphServiceError {
            guard case .http(_, let status, let code, _) = error else { throw error }
            #expect(status == 410 && code == "SyncStateNotFound")
        }
    }
}
