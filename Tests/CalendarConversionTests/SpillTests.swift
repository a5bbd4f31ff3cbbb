import Foundation
import Testing

@testable import CalendarConversion

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
        var records = try sorter.sorted()
        while try records.advance() { sorted.append(Array(records.record)) }
        #expect(sorted == expected)
    }
}

@Test func externalSortOfFewRecordsStaysInMemory() throws {
    let directory = try temporaryDirectory()
    var sorter = ExternalSorter(scratch: ScratchSpace(under: directory.path))
    try sorter.append(ExternalSorter.Key(0, 5, 0), [5])
    try sorter.append(ExternalSorter.Key(0, 1, 0), [1])
    try sorter.append(ExternalSorter.Key(0, 5, 0), [6])
    #expect(sorter.spilledRuns == 0)
    var sorted: [UInt8] = []
    var records = try sorter.sorted()
    while try records.advance() { sorted += records.record }
    #expect(sorted == [1, 5, 6])
}
