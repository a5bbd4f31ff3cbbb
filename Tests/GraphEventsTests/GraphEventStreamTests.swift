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
}
