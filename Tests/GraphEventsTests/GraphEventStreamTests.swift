import CalendarModel
import Foundation
import Testing

@testable import GraphEvents

@Suite struct GraphEventStreamTests {
    private func stream(_ bytes: [UInt8], chunk: Int) -> (
        events: [Event], records: [GraphEventRecord], diagnostics: [Diagnostic]
    ) {
        var stream = GraphEventStream(file: "in.json")
        var records: [GraphEventRecord] = []
        var position = 0
        while position < bytes.count {
            stream.append(bytes[position..<min(bytes.count, position + chunk)]) { records.append($0) }
            position += chunk
        }
        let diagnostics = stream.finish { records.append($0) }
        return (records.map(\.event), records, diagnostics)
    }

    @Test func chunksOfTheSampleGiveTheReadersEvents() throws {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Samples/graph-work-week.json")
        let bytes = Array(try #require(FileManager.default.contents(atPath: url.path)))
        let whole = GraphEventReader().read(bytes)
        for chunk in [1_000, 7_919] {
            let streamed = stream(bytes, chunk: chunk)
            #expect(streamed.events == whole.events)
            #expect(streamed.diagnostics == [])
            #expect(streamed.records.map(\.location.jsonPath) == whole.records.map(\.location.jsonPath))
        }
    }

    @Test func ndjsonEventsArriveAsTheirLinesComplete() {
        let text = """
            {"id": "a", "start": {"dateTime": "2026-12-01T10:00:00"}}
            {"id": "b", "subject": 5, "start": {"dateTime": "2026-12-02T10:00:00"}}
            [1, {"id": "c", "start": {"dateTime": "2026-12-03T10:00:00"}}]
            {"id": "d",
            """
        var stream = GraphEventStream(file: "in.ndjson")
        var seen: [String] = []
        stream.append(Array(text.utf8).prefix(70)) { seen.append($0.event.uid) }
        #expect(seen == ["a"])
        stream.append(Array(text.utf8).dropFirst(70)) { seen.append($0.event.uid) }
        let diagnostics = stream.finish { seen.append($0.event.uid) }
        #expect(seen == ["a", "b", "c"])
        #expect(diagnostics.map(\.code) == ["graph-wrong-type", "graph-not-an-event", "json-syntax"])
        #expect(diagnostics.map(\.location.line) == [2, 3, 4])
        #expect(diagnostics.map(\.location.jsonPath) == ["$.subject", "$[0]", nil])
    }

    @Test func eventsOfATopLevelArrayArriveOneByOneOnTheirOwnLines() {
        let text = """
            [
              {"id": "a", "start": {"dateTime": "2026-12-01T10:00:00"}},
              {"id": "b", "subject": 5, "start": {"dateTime": "2026-12-02T10:00:00"}},
              {"id": "c", "start": {"dateTime": "2026-12-03T10:00:00"}}
            ]
            """
        let bytes = Array(text.utf8)
        // The first chunk ends inside event b: a is handed over before the array is complete.
        let cut = bytes.firstIndex(of: UInt8(ascii: "5"))!
        var stream = GraphEventStream(file: "in.json")
        var records: [GraphEventRecord] = []
        stream.append(bytes[..<cut]) { records.append($0) }
        #expect(records.map(\.event.uid) == ["a"])
        stream.append(bytes[cut...]) { records.append($0) }
        let diagnostics = stream.finish { records.append($0) }
        #expect(records.map(\.event.uid) == ["a", "b", "c"])
        #expect(records.map(\.location.line) == [2, 3, 4])
        #expect(records.map(\.location.column) == [3, 3, 3])
        #expect(records.map(\.location.jsonPath) == ["$[0]", "$[1]", "$[2]"])
        // The wrong type is reported on b's own line, as the whole-input reader does.
        #expect(diagnostics.map(\.code) == ["graph-wrong-type"])
        #expect(diagnostics.map(\.location.line) == [3])
        #expect(GraphEventReader(file: "in.json").read(bytes).diagnostics == diagnostics)
    }

    @Test func aPageCutShortByASyntaxErrorKeepsItsCompleteEvents() {
        let text = """
            {"value": [
              {"id": "a", "start": {"dateTime": "2026-12-01T10:00:00"}},
              {"id": "b", "start": {"dateTime": "2026-12-02T10:00:00"}},
              {"id": "c", "start": {"dateTime": "2026-12-03T10:00:00"},,
            """
        for chunk in [7, 1 << 20] {
            let streamed = stream(Array(text.utf8), chunk: chunk)
            #expect(streamed.events.map(\.uid) == ["a", "b"])
            #expect(streamed.records.map(\.location.line) == [2, 3])
            #expect(
                streamed.diagnostics.map(\.description) == [
                    "in.json:4:60: error: unexpected ',', expected a member name; reading stops here [json-syntax]"
                ])
        }
    }

    @Test func anExceptionBeforeItsMasterWaitsWithItsOwnCopyOfTheBytes() {
        // The exception is read first, from a buffer the stream drops and reuses; it becomes an
        // override only once the master is read, chunks later.
        let exception =
            #"{"id": "x1", "type": "exception", "seriesMasterId": "m", "subject": "moved", "#
            + #""originalStart": "2026-12-08T09:00:00Z", "start": {"dateTime": "2026-12-08T11:00:00", "timeZone": "UTC"}}"#
        let master =
            #"{"id": "m", "iCalUId": "series@example.com", "type": "seriesMaster", "subject": "weekly", "#
            + #""start": {"dateTime": "2026-12-01T09:00:00", "timeZone": "UTC"}, "#
            + #""recurrence": {"pattern": {"type": "weekly", "interval": 1, "daysOfWeek": ["tuesday"]}, "#
            + #""range": {"type": "noEnd", "startDate": "2026-12-01"}}}"#
        let padding = String(repeating: " ", count: 70_000)
        let streamed = stream(Array("\(exception)\n\(padding)\n\(master)\n".utf8), chunk: 4_096)
        #expect(streamed.events.map(\.uid) == ["series@example.com", "series@example.com"])
        #expect(streamed.events.map(\.summary) == ["weekly", "moved"])
        #expect(streamed.events.last?.recurrenceID?.time == utc(2026, 12, 8, 9))
    }

    @Test func eventsOfAPageArriveOneByOneAndItsLinkIsReadAfterThem() {
        let text = """
            {"@odata.context": "https://graph.microsoft.com/v1.0/$metadata#users('me')/events", "value": [
              {"id": "a", "start": {"dateTime": "2026-12-01T10:00:00"}},
              {"id": "b", "start": {"dateTime": "2026-12-02T10:00:00"}}
            ], "@odata.nextLink": "https://graph.microsoft.com/v1.0/me/events?$skip=2",
            "@odata.context": "again"}
            """
        let bytes = Array(text.utf8)
        let cut = bytes.firstIndex(of: UInt8(ascii: "b"))!
        var stream = GraphEventStream(file: "page.json")
        var seen: [String] = []
        stream.append(bytes[..<cut]) { seen.append($0.event.uid) }
        // a is handed over while the page is still arriving.
        #expect(seen == ["a"])
        #expect(stream.nextLink == nil)
        stream.append(bytes[cut...]) { seen.append($0.event.uid) }
        let diagnostics = stream.finish { seen.append($0.event.uid) }
        #expect(seen == ["a", "b"])
        #expect(stream.nextLink == "https://graph.microsoft.com/v1.0/me/events?$skip=2")
        // The page's repeated member is reported where it is, line 5 column 1.
        #expect(
            diagnostics.map(\.description) == [
                "page.json:5:1: warning: duplicate key \"@odata.context\"; the last value is used [json-duplicate-key]"
            ])
        let whole = GraphEventReader(file: "page.json").read(bytes)
        #expect(
            whole.events.map(\.uid) == seen && whole.nextLink == stream.nextLink && whole.diagnostics == diagnostics)
    }

    @Test func aNumberCutByAChunkBoundaryIsReadWhenItsDigitsHaveArrived() {
        // Numbers after a page's events, as a member and as elements, and a top-level array of
        // events and numbers: cut after every byte, each is read whole, as from the whole text.
        let texts = [
            #"{"value": [{"id": "a", "start": {"dateTime": "2026-12-01T10:00:00"}}], "@odata.count": 123}"#,
            #"[{"id": "a", "start": {"dateTime": "2026-12-01T10:00:00"}}, 4567]"#,
        ]
        for text in texts {
            let bytes = Array(text.utf8)
            let whole = GraphEventReader(file: "in.json").read(bytes)
            for cut in 1..<bytes.count {
                var stream = GraphEventStream(file: "in.json")
                var uids: [String] = []
                stream.append(bytes[..<cut]) { uids.append($0.event.uid) }
                stream.append(bytes[cut...]) { uids.append($0.event.uid) }
                let diagnostics = stream.finish { uids.append($0.event.uid) }
                #expect(uids == ["a"], "cut at \(cut)")
                #expect(diagnostics == whole.diagnostics, "cut at \(cut)")
                #expect(!diagnostics.contains { $0.code == "json-syntax" }, "cut at \(cut)")
            }
        }
    }

    @Test func eventPathsCountPastNine() {
        let event = #"{"id": "e", "start": {"dateTime": "2026-12-01T10:00:00"}}"#
        let events = Array(repeating: event, count: 101).joined(separator: ",")
        let array = stream(Array("[\(events)]".utf8), chunk: 1 << 20)
        #expect(array.records.map(\.location.jsonPath) == (0...100).map { "$[\($0)]" })
        let page = stream(Array("{\"value\": [\(events)]}".utf8), chunk: 1 << 20)
        #expect(page.records.map(\.location.jsonPath) == (0...100).map { "$.value[\($0)]" })
    }
}
