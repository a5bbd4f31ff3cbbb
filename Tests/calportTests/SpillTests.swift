import Foundation
import ICalendar
import Testing

@testable import calport

@Test func externalSortSpillsRunsMergesThemInLevelsAndLeavesNoFiles() throws {
    let directory = try temporaryDirectory()
    var generator = SystemRandomNumberGenerator()
    // Keys from a small range so that many are equal: equal keys keep the order they were added in.
    let records = (0..<2_000).map { index in
        (
            key: (Int64.random(in: 0...2, using: &generator), Int64.random(in: -50...50, using: &generator)),
            bytes: Array("record \(index)".utf8)
        )
    }
    let expected = records.enumerated().sorted { a, b in
        (a.element.key.0, a.element.key.1, a.offset) < (b.element.key.0, b.element.key.1, b.offset)
    }.map(\.element.bytes)
    do {
        let scratch = ScratchSpace(under: directory.path)
        // Runs of about 40 records and a fan-in of 3: about 50 runs, merged in four levels.
        var sorter = ExternalSorter(scratch: scratch, runBytes: 2_000, fanIn: 3)
        for record in records { try sorter.append(ExternalSorter.Key(record.key.0, record.key.1, 0), record.bytes) }
        #expect(sorter.spilledRuns > 3)
        // The runs have no names: a run killed now leaves nothing behind.
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
        var sorted: [[UInt8]] = []
        try sorter.drain { _, record in
            sorted.append(Array(record))
            return true
        }
        #expect(sorted == expected)
    }
}

@Test func externalSortOfFewRecordsStaysInMemory() throws {
    let directory = try temporaryDirectory()
    var sorter = ExternalSorter(scratch: ScratchSpace(under: directory.path))
    try sorter.append(ExternalSorter.Key(0, 5, 0), [5])
    try sorter.append(ExternalSorter.Key(0, 1, 0), [1])
    try sorter.append(ExternalSorter.Key(0, 5, 0), [6])
    var sorted: [UInt8] = []
    try sorter.drain { _, record in
        sorted += record
        return true
    }
    #expect(sorted == [1, 5, 6])
    #expect(sorter.spilledRuns == 0)
}

@Test(arguments: [1, 1 << 16])
func seriesIndexFindsSharedUIDsWhetherOrNotItSpills(memoryRecords: Int) throws {
    let (directory, path) = try {
        let directory = try temporaryDirectory()
        let file = directory.appendingPathComponent("far.ics")
        try farOverrides.write(to: file, atomically: true, encoding: .utf8)
        return (directory, file.path)
    }()
    let scratch = ScratchSpace(under: directory.path)
    let index = try SeriesIndex(
        [(path, try ReadableFile(path: path))], scope: .withinFile, limits: ICalendarLimits(), scratch: scratch,
        memoryRecords: memoryRecords)
    let bytes = Array(farOverrides.utf8)
    // Each offset is that of the BEGIN:VEVENT whose UID follows.
    func uid(at offset: Int) -> String {
        let line = String(decoding: bytes[offset...].prefix(40), as: UTF8.self).components(separatedBy: "\r\n")
        return line[0] == "BEGIN:VEVENT" ? line[1] : "not at a BEGIN:VEVENT"
    }
    #expect(index.members(of: "series-a", file: 0)?.map { uid(at: $0.offset) } == ["UID:series-a", "UID:series-a"])
    #expect(index.members(of: "twice-d", file: 0)?.count == 2)
    #expect(index.members(of: "single-b", file: 0) == nil)
    #expect(index.members(of: "orphan-c", file: 0) == nil)
    #expect(index.files[0].timeZones.map(\.identifier) == ["Office Time"])
    #expect(index.files[0].years == 2026...2026)
}
