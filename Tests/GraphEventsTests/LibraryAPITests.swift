import CalendarModel
import Foundation
import Testing

@testable import GraphEvents

/// The convenience API a Swift program uses: reading Graph JSON from text, `Data` and files, and
/// writing it in each layout.
@Suite struct LibraryAPITests {
    /// Two single events as a Graph page (Graph docs, "List events": a `value` array of `event`s).
    let page = """
        {"value": [
          {"id": "a", "iCalUId": "uid-a", "subject": "Review",
           "start": {"dateTime": "2026-12-01T09:00:00.0000000", "timeZone": "UTC"},
           "end": {"dateTime": "2026-12-01T10:00:00.0000000", "timeZone": "UTC"}},
          {"id": "b", "iCalUId": "uid-b", "subject": "Retro",
           "start": {"dateTime": "2026-12-02T09:00:00.0000000", "timeZone": "Pacific Standard Time"},
           "end": {"dateTime": "2026-12-02T10:00:00.0000000", "timeZone": "Pacific Standard Time"}}
        ]}
        """

    @Test func textDataAndFilesReadAlike() throws {
        let reader = GraphEventReader()
        let fromText = reader.read(page)
        #expect(fromText.diagnostics.isEmpty)
        #expect(fromText.events.map(\.summary) == ["Review", "Retro"])
        #expect(fromText.document.events == fromText.events)
        #expect(reader.read(Data(page.utf8)).events == fromText.events)
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("calport-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: url) }
        try Data(page.utf8).write(to: url)
        #expect(try reader.read(contentsOf: url).events == fromText.events)
        #expect(throws: CalendarFileError.self) {
            try reader.read(contentsOf: URL(fileURLWithPath: "/nonexistent/calport/missing.json"))
        }
    }

    @Test func eachLayoutHoldsEveryEvent() throws {
        let events = GraphEventReader().read(page).events
        let writer = GraphEventWriter(style: .full)
        let array = try JSONParser.parse(writer.encode(events, layout: .array).output)
        #expect(array.arrayValue?.count == 2)
        let paged = try JSONParser.parse(writer.encode(events, layout: .page, pretty: true).output)
        #expect(paged["value"]?.arrayValue?.count == 2)
        let lines = writer.encode(events, layout: .lines).output.split(separator: 0x0A)
        #expect(lines.count == 2)
        #expect(try lines.map { try JSONParser.parse(Array($0))["subject"]?.stringValue } == ["Review", "Retro"])
        // What was written reads back as the same summaries and starts.
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("calport-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: url) }
        try writer.write(events, to: url, layout: .page)
        #expect(try GraphEventReader().read(contentsOf: url).events.map(\.start) == events.map(\.start))
    }
}
