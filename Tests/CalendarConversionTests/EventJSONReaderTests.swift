import CalendarConversion
import CalendarModel
import GraphEvents
import Testing

/// One line of calport NDJSON (docs/ndjson.md), an event.
private let lastEvent =
    #"{"uid":"last","summary":"Two","start":"2026-01-06T10:00:00Z","end":"2026-01-06T11:00:00Z"}"#

@Test func aLongNDJSONLineIsNeverHeldPastTheLimit() {
    // 1 MiB of one line in 4 KiB chunks, with a 64 KiB limit: the reader holds at most 64 KiB of it,
    // then the next line is read as usual.
    var lines = EventJSONReader(file: "<stdin>", limits: JSONLimits(maximumStringLength: 64 << 10))
    var events: [Event] = []
    var problems = lines.read(Array("[\"".utf8)) { events.append($0) }
    var held = 0
    for _ in 0..<256 {
        problems += lines.read(Array(repeating: UInt8(ascii: "x"), count: 4 << 10)) { events.append($0) }
        held = max(held, lines.heldBytes)
    }
    problems += lines.read(Array(("\"]\n" + lastEvent + "\n").utf8)) { events.append($0) }
    problems += lines.read(nil) { events.append($0) }
    #expect(held <= 64 << 10)
    #expect(
        problems.map(\.description) == [
            "<stdin>:1: error: line longer than the limit of 65536 bytes (--max-string-length); the line was dropped [json-syntax]"
        ])
    #expect(events.map(\.uid) == ["last"])
}
