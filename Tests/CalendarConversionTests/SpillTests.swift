import Foundation
import TestSupport
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

@Test func externalSortKeepsRecordsThatStraddleItsReadBuffers() throws {
    let directory = try temporaryDirectory()
    var generator = SystemRandomNumberGenerator()
    // Records of up to 9,000 bytes in runs of about 60,000: the merge reads each run through about
    // 8,000 bytes of buffer, so records cross its end and some are longer than it. Keys span
    // negative and positive values beyond 32 bits (a start before 1970, a far one), many equal.
    let starts: [Int64] = [-62_135_596_800, -1, 0, 1, 1_767_225_600, 253_402_300_799]
    let records = (0..<300).map { index in
        (
            key: [
                Int64.random(in: 0...1, using: &generator), starts.randomElement(using: &generator)!,
                Int64(index % 3 - 1),
            ],
            bytes: Array("record \(index):".utf8)
                + (0..<Int.random(in: 0...9_000, using: &generator)).map {
                    UInt8(truncatingIfNeeded: $0 &* 31 &+ index)
                }
        )
    }
    // Equal keys in the order they were added.
    let expected = records.indices.sorted { a, b in
        (records[a].key[0], records[a].key[1], records[a].key[2], a) < (
            records[b].key[0], records[b].key[1], records[b].key[2], b
        )
    }
    var sorter = ExternalSorter(scratch: ScratchSpace(under: directory.path), runBytes: 60_000)
    for record in records {
        try sorter.append(ExternalSorter.Key(record.key[0], record.key[1], record.key[2]), record.bytes)
    }
    #expect(sorter.spilledRuns > 10)
    var sorted: [(key: [Int64], bytes: [UInt8])] = []
    var read = try sorter.sorted()
    while try read.advance() { sorted.append(([read.key.first, read.key.second, read.key.third], Array(read.record))) }
    #expect(sorted.count == records.count)
    let wrong = zip(sorted, expected).filter { $0.0.key != records[$0.1].key || $0.0.bytes != records[$0.1].bytes }
    #expect(wrong.isEmpty, "\(wrong.count) of \(records.count) records out of place or changed")
}

/// Two sorters filled at once from two parts of an input (`ExpansionPart`): the second's keys all
/// differ from the first's (its third member is past all of the first's), equal keys within each.
/// Taken in by the first, the merge gives what one sorter fed both parts in turn gives: a stable
/// sort of all the records, worked out here with the standard library's.
@Test(arguments: [(true, 2_000), (false, 2_000), (false, 1 << 20)])
func aSorterTakesInAnotherFilledBesideIt(spillsAside: Bool, runBytes: Int) throws {
    let directory = try temporaryDirectory()
    let scratch = ScratchSpace(under: directory.path)
    var generator = SystemRandomNumberGenerator()
    func records(part: Int64) -> [(key: ExternalSorter.Key, bytes: [UInt8])] {
        (0..<1_500).map { index in
            let key = ExternalSorter.Key(
                0, Int64.random(in: -20...20, using: &generator),
                part << 40 + Int64.random(in: 0...3, using: &generator))
            return (key, Array("part \(part) record \(index)".utf8))
        }
    }
    let (first, second) = (records(part: 0), records(part: 1))
    let all = first + second
    let expected = all.indices.sorted { (all[$0].key, $0) < (all[$1].key, $1) }.map { all[$0].bytes }

    var sorter = ExternalSorter(scratch: scratch, runBytes: runBytes, spillsAside: spillsAside)
    var beside = ExternalSorter(scratch: scratch, runBytes: runBytes, spillsAside: spillsAside)
    for record in first { try sorter.append(record.key) { $0 += record.bytes } }
    for record in second { try beside.append(record.key, record.bytes) }
    if runBytes < 1 << 20 { #expect(sorter.spilledRuns > 3 && beside.spilledRuns > 3) }
    try sorter.adopt(beside)
    var sorted: [[UInt8]] = []
    var read = try sorter.sorted()
    while try read.advance() {
        let bytes = read.withRecord { Array($0) }
        #expect(bytes == Array(read.record))
        sorted.append(bytes)
    }
    #expect(sorted.count == expected.count)
    let misplaced = zip(sorted, expected).filter { $0 != $1 }.count
    #expect(misplaced == 0, "\(misplaced) of \(expected.count) records out of place")
}

@Test func aRegionOfAFileIsReadUpToItsEndIntoTheBufferGiven() throws {
    let directory = try temporaryDirectory()
    let path = directory.appendingPathComponent("region.ics").path
    let content = (0..<5_000).map { UInt8(truncatingIfNeeded: $0 &* 13) }
    try Data(content).write(to: URL(fileURLWithPath: path))
    let file = try ReadableFile(path: path)
    // A region that ends inside a chunk: the last read stops at its end, not at the chunk's.
    var region = file.reader(from: 700, upTo: 3_100, chunkSize: 1_000)
    var buffer: [UInt8] = [9]
    var reads = 0
    while region.readChunk(appendingTo: &buffer) { reads += 1 }
    #expect(reads == 3)
    #expect(buffer == [9] + content[700..<3_100])
    #expect(region.remainingByteCount == 0)
    // Chunk by chunk, the same bytes.
    var chunks = file.reader(from: 700, upTo: 3_100, chunkSize: 1_000)
    var joined: [UInt8] = []
    while let chunk = chunks.nextChunk() { joined += chunk }
    #expect(joined == Array(content[700..<3_100]))
}
