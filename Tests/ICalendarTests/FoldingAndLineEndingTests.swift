import CalendarModel
import Testing

@testable import ICalendar

@Test func longLinesFoldAt75OctetsWithoutSplittingUTF8() throws {
    var event = Event(uid: "fold@example.com")
    let summary = String(repeating: "日本語テキスト", count: 20) + String(repeating: "é", count: 50) + "🎉🎉🎉"
    event.summary = summary
    let bytes = ICalendarSerializer().serialize(CalendarDocument(events: [event]))
    var physicalLines: [[UInt8]] = [[]]
    var index = 0
    while index < bytes.count {
        if bytes[index] == 0x0D {
            #expect(bytes[index + 1] == 0x0A, "every line ends in CRLF")
            physicalLines.append([])
            index += 2
            continue
        }
        #expect(bytes[index] != 0x0A, "no bare LF")
        physicalLines[physicalLines.count - 1].append(bytes[index])
        index += 1
    }
    for line in physicalLines {
        #expect(line.count <= 75)
        #expect(String(validating: line, as: UTF8.self) != nil, "a fold split a UTF-8 sequence")
    }
    #expect(physicalLines.filter { $0.first == 0x20 }.count >= 5)
    let reparsed = parse(bytes)
    #expect(reparsed.document.events.first?.summary == summary)
}

@Test func lfCrAndMixedLineEndingsBomAndBlankLinesAreAccepted() {
    let lines = [
        "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:x", "", "BEGIN:VEVENT", "UID:1", "DTSTART:20260105T100000Z",
        "SUMMARY:folded", " across lines", "END:VEVENT", "", "END:VCALENDAR",
    ]
    for ending in ["\n", "\r", "\r\n"] {
        let bytes = [0xEF, 0xBB, 0xBF] + ics(lines, ending: ending)
        let result = parse(bytes)
        #expect(result.diagnostics.isEmpty, "ending \(ending.debugDescription): \(result.diagnostics)")
        #expect(result.document.events.count == 1)
        #expect(result.document.events.first?.summary == "foldedacross lines")
    }
}

/// Physical lines longer than the reader's search window for a line end (512 bytes), ending in LF,
/// CR or CRLF, each ending mixed with a lone CR inside another line's neighbours, are read whole.
@Test func longLinesAreReadWholeWhateverTheirEnding() {
    let long = String(repeating: "0123456789", count: 130)
    let lines = [
        "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:x", "BEGIN:VEVENT", "UID:1", "DTSTART:20260105T100000Z",
        "SUMMARY:\(long)", "DESCRIPTION:\(long)x", " \(long)y", "END:VEVENT", "END:VCALENDAR",
    ]
    for ending in ["\n", "\r", "\r\n"] {
        let result = parse(ics(lines, ending: ending))
        #expect(result.diagnostics.isEmpty, "ending \(ending.debugDescription): \(result.diagnostics)")
        #expect(result.document.events.first?.summary == long)
        #expect(result.document.events.first?.description == long + "x" + long + "y")
    }
    // A CR alone ends a line in a file of LF ends too, past a window's worth of bytes.
    let mixed = [
        "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:x", "BEGIN:VEVENT", "UID:1", "DTSTART:20260105T100000Z",
        "DESCRIPTION:\(long)x\rX-A:1", "END:VEVENT", "END:VCALENDAR",
    ]
    let read = parse(ics(mixed, ending: "\n"))
    #expect(read.document.events.first?.description == long + "x")
    #expect(read.document.events.first?.extraProperties.map(\.name) == ["X-A"])
}

@Test func lineNumbersCountPhysicalLines() {
    let bytes = ics([
        "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:x", "BEGIN:VEVENT", "UID:1", "DESCRIPTION:a", " b", " c",
        "PRIORITY:high", "DTSTART:20260105T100000Z", "END:VEVENT", "END:VCALENDAR",
    ])
    let diagnostics = parse(bytes, file: "lines.ics").diagnostics
    #expect(diagnostics.count == 1)
    #expect(diagnostics.first?.location == SourceLocation(file: "lines.ics", line: 9))
}

@Test func aBlankLineInsideAFoldedPropertyDoesNotBreakIt() throws {
    // Seen in Mozilla exports (shared corpus: multiple_calendar_components.ics).
    let bytes = Array(
        "BEGIN:VCALENDAR\nVERSION\n\n :2.0\nPRODID:x\nBEGIN:VEVENT\nUID\n\n :42\nEND:VEVENT\nEND:VCALENDAR\n".utf8)
    let result = parse(bytes)
    #expect(result.diagnostics.isEmpty)
    #expect(try #require(result.document.events.first).uid == "42")
}
