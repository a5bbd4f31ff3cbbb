import CalendarModel
import Foundation
import GraphEvents
import Testing

@testable import GraphService

/// A program with its own access token imports and exports through the library alone, against the
/// emulator.
@Suite struct AccessTokenClientTests {
    @Test(.timeLimit(.minutes(3))) func importThenExportWithAnAccessToken() async throws {
        let emulator = try GraphEmulator()
        let client = GraphClient(accessToken: GraphEmulator.token, graphURL: emulator.graphURL)
        var event = Event(uid: "review@example.com")
        event.summary = "Design review"
        event.start = .utc(LocalDateTime(year: 2026, month: 12, day: 1, hour: 9))
        event.end = .end(.utc(LocalDateTime(year: 2026, month: 12, day: 1, hour: 10)))
        let source = ImportSource.planning([event], name: "library-test")
        #expect(source.diagnostics.filter { $0.severity == .error }.isEmpty)
        let report = try await CalendarImporter(client: client).run([source.output])
        #expect(report.created == 1)

        let exported = try await CalendarExporter(client: client).export(
            ExportRequest(start: "2026-12-01", end: "2026-12-02", timeZone: "UTC"))
        #expect(exported.events.map(\.summary) == ["Design review"])
        #expect(exported.events.first?.uid == "review@example.com")
    }

    @Test func aRefusedTokenIsAnErrorNotARetryLoop() async throws {
        let emulator = try GraphEmulator()
        let client = GraphClient(accessToken: "not-the-token", graphURL: emulator.graphURL)
        await #expect(throws: GraphServiceError.self) {
            try await CalendarExporter(client: client).export(ExportRequest(start: "2026-12-01", end: "2026-12-02"))
        }
    }
}
