import Foundation
import Testing

@testable import ICalendar

/// A skimming `ComponentReader` (the scanner's first pass) parses only the structure, UID and DTSTART
/// of top-level VEVENTs; the reader that parses every line is the oracle for what it hands on.
@Suite struct SkimmingTests {
    /// Every top-level item of `bytes`, and each component read again in full when it was skimmed.
    private func read(_ bytes: [UInt8], skimming: Bool, limits: ICalendarLimits) -> [ContentItem] {
        var reader = ComponentReader(source: InMemoryByteSource(bytes), file: nil, limits: limits, skimming: skimming)
        var items: [ContentItem] = []
        while let item = reader.next() {
            if case .component(let component) = item, reader.lastComponentIsSkimmed,
                let full = reader.parsedInFull(component)
            {
                items.append(.component(full))
            } else {
                items.append(item)
            }
        }
        return items
    }

    private func same(_ left: [ContentItem], _ right: [ContentItem]) -> Bool {
        left.count == right.count
            && zip(left, right).allSatisfy { pair in
                switch pair {
                case (.calendarProperty(let a), .calendarProperty(let b)): a == b
                case (.component(let a), .component(let b)): a == b
                default: false
                }
            }
    }

    @Test func aSkimmedEventKeepsItsStructureUIDAndStartOnly() throws {
        let text = """
            BEGIN:VCALENDAR\r
            BEGIN:VEVENT\r
            uid:one@example.com\r
            SUMMARY:lunch\r
            DTSTART;TZID=Europe/Berlin:20261201T120000\r
            DTSTART-X:not the start\r
            DTEND:20261201T130000\r
            BEGIN:VALARM\r
            TRIGGER:-PT15M\r
            END:VALARM\r
            END:VEVENT\r
            END:VCALENDAR\r

            """
        var reader = ComponentReader(source: InMemoryByteSource(Array(text.utf8)), file: nil, skimming: true)
        guard case .component(let skimmed)? = reader.next() else {
            Issue.record("no component")
            return
        }
        #expect(reader.lastComponentIsSkimmed)
        #expect(skimmed.properties.map(\.name) == ["UID", "DTSTART"])
        #expect(skimmed.components.first?.properties.map(\.name) == ["TRIGGER"], "nested components are read whole")
        let full = try #require(reader.parsedInFull(skimmed))
        #expect(full.properties.map(\.name) == ["UID", "SUMMARY", "DTSTART", "DTSTART-X", "DTEND"])
        #expect(full.components.count == 1)
    }

    /// Each file of the saved icalendar fuzz corpus and the samples, read with and without skimming,
    /// at the CLI's limits and at small ones: the same items, once skimmed ones are read in full.
    @Test func skimmingThenReadingInFullGivesWhatFullReadingGives() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        var files: [URL] = []
        for directory in ["Fuzz/corpus/icalendar", "Fuzz/regressions/icalendar", "Samples"] {
            let url = root.appendingPathComponent(directory)
            let names = (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []
            // The fuzz corpus's files have no extension; of the samples, the calendars.
            let calendars = directory == "Samples" ? names.filter { $0.hasSuffix(".ics") } : names
            files += calendars.sorted().map { url.appendingPathComponent($0) }
        }
        #expect(files.count > 100, "the corpus is part of the repository")
        for limits in [ICalendarLimits(), ICalendarLimits(maximumLineLength: 4096, maximumDepth: 2)] {
            for file in files {
                let bytes = try [UInt8](Data(contentsOf: file))
                let full = read(bytes, skimming: false, limits: limits)
                let skimmed = read(bytes, skimming: true, limits: limits)
                #expect(same(full, skimmed), "\(file.lastPathComponent)")
            }
        }
    }

    /// A component's lines are held in an array with room for more only once it has a second line: a
    /// calendar may hold a million empty or one-line components inside one event, all held until the
    /// event ends (with room for eight each, one such input took 1,008 MB instead of 163 MB).
    @Test func componentsOfOneLineOrNoneHoldNoRoomForMore() {
        let text = """
            BEGIN:VCALENDAR\r
            BEGIN:VEVENT\r
            UID:u\r
            BEGIN:X-EMPTY\r
            END:X-EMPTY\r
            BEGIN:X-ONE\r
            X-A:1\r
            END:X-ONE\r
            BEGIN:VALARM\r
            ACTION:DISPLAY\r
            DESCRIPTION:r\r
            TRIGGER:-PT5M\r
            END:VALARM\r
            END:VEVENT\r
            END:VCALENDAR\r

            """
        let items = read(Array(text.utf8), skimming: false, limits: ICalendarLimits())
        guard case .component(let event)? = items.last else {
            Issue.record("no component")
            return
        }
        let inner = event.components
        #expect(inner.map(\.name) == ["X-EMPTY", "X-ONE", "VALARM"])
        #expect(inner.map(\.properties.count) == [0, 1, 3])
        guard inner.count == 3 else { return }
        #expect(inner[0].properties.capacity == 0)
        #expect(inner[1].properties.capacity < 4)
    }
}

/// BEGIN and END name their component in any case (RFC 5545 §2: names are case-insensitive), and
/// each END closes the BEGIN of its name however either was written.
@Test func componentNamesAreReadInAnyCase() {
    let result = parse(
        ics([
            "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:x",
            "begin:vevent", "UID:a", "DTSTART:20260101T100000Z",
            "Begin:Valarm", "ACTION:DISPLAY", "DESCRIPTION:r", "TRIGGER:-PT5M", "END:valarm",
            "end:VEvent",
            "BEGIN:vEvent", "UID:b", "DTSTART:20260102T100000Z", "END:VEVENT",
            "END:vcalendar",
        ]))
    #expect(result.document.events.map(\.uid) == ["a", "b"])
    #expect(result.document.events.first?.alarms.count == 1)
    #expect(result.diagnostics.filter { $0.severity == .error }.isEmpty)
}
