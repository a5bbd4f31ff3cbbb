import CalendarConversion
import Foundation
import TestSupport
import Testing

/// An .ics of one event, its times in UTC, and no DTSTAMP so that the line holds only what is below.
private let planning = """
    BEGIN:VCALENDAR\r
    VERSION:2.0\r
    PRODID:-//calport tests//EN\r
    BEGIN:VEVENT\r
    UID:planning-1\r
    DTSTART:20261201T090000Z\r
    DTEND:20261201T100000Z\r
    SUMMARY:Planning\r
    END:VEVENT\r
    END:VCALENDAR\r

    """

@Test func aBatchWritesEachInputToItsOwnFileAndRefusesWhatItCannotPlace() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let inputs = directory.appendingPathComponent("in")
    for folder in ["one", "two"] {
        try FileManager.default.createDirectory(
            at: inputs.appendingPathComponent(folder), withIntermediateDirectories: true)
    }
    try planning.write(to: inputs.appendingPathComponent("one/planning.ics"), atomically: true, encoding: .utf8)
    try "not a calendar\n".write(to: inputs.appendingPathComponent("one/notes.ics"), atomically: true, encoding: .utf8)
    // Both named alone, so both would be `same.ics` under the output directory: neither is written.
    for folder in ["one", "two"] {
        try planning.write(to: inputs.appendingPathComponent("\(folder)/same.ics"), atomically: true, encoding: .utf8)
    }
    let batch =
        InputDiscovery.expand([inputs.appendingPathComponent("one").path])
        .filter { !$0.path.hasSuffix("same.ics") }
        + InputDiscovery.expand(["one", "two"].map { inputs.appendingPathComponent("\($0)/same.ics").path })
    #expect(batch.map(\.relativePath) == ["notes.ics", "planning.ics", "same.ics", "same.ics"])

    let output = directory.appendingPathComponent("out")
    let outcomes = BatchConverter(to: OutputFormat(rawValue: "ndjson")!).run(batch, under: output.path)

    #expect(outcomes.count == 4)
    #expect(outcomes[0].failure == InputFormat.unrecognised)
    #expect(outcomes[1].failure == nil && outcomes[1].events == 1 && outcomes[1].dropped == 0)
    #expect(outcomes[2].failure?.contains("would also be written from") == true)
    #expect(outcomes[3].failure?.contains("would also be written from") == true)
    // docs/ndjson.md: members in its order, times as {"utc": …}, absent values left out.
    let line = try String(contentsOf: output.appendingPathComponent("planning.ndjson"), encoding: .utf8)
    #expect(
        line == #"{"uid":"planning-1","summary":"Planning","start":{"utc":"2026-12-01T09:00:00Z"},"#
            + #""end":{"utc":"2026-12-01T10:00:00Z"},"isAllDay":false}"# + "\n")
    let written = try FileManager.default.contentsOfDirectory(atPath: output.path)
    #expect(written == ["planning.ndjson"])
}
