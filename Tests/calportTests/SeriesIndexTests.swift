import CalendarConversion
import Foundation
import GraphEvents
import ICalendar
import TestSupport
import Testing

/// The index of `farOverrides` (StreamingSeriesTests), whose series the CLI's streaming tests read.
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

/// Graph JSON members are noted by their number among the input's events (GraphStreamingTests'
/// `calendarView`: the master 0, its later exception 1, the single event 2 and its copy 3, then the
/// exception read before the master 4), and the events of shared UIDs are spooled to be read back.
@Test(arguments: [1, 1 << 16])
func seriesIndexSpoolsTheSharedEventsOfGraphJSON(memoryRecords: Int) throws {
    let directory = try temporaryDirectory()
    let file = directory.appendingPathComponent("view.json")
    try calendarView.write(to: file, atomically: true, encoding: .utf8)
    let content = try ReadableFile(path: file.path)
    let index = try SeriesIndex(
        [(file.path, content, .graph), (file.path, content, .graph)], scope: .acrossFiles, limits: ICalendarLimits(),
        jsonLimits: JSONLimits(), scratch: ScratchSpace(under: directory.path), memoryRecords: memoryRecords)
    let series = try #require(index.members(of: "series@example.com", file: 0))
    #expect(series.map(\.file) == [0, 0, 0, 1, 1, 1])
    #expect(series.map(\.offset) == [0, 1, 4, 0, 1, 4])
    #expect(index.members(of: "single@example.com", file: 0)?.map(\.offset) == [2, 3, 2, 3])
    #expect(index.files[1].spooledEvent(4)?.summary == "moved early")
    #expect(index.files[0].spooledEvent(0)?.summary == "weekly")
    #expect(index.files[0].years == 2026...2026)
}

/// The first pass only names Graph events (`GraphIdentityStream`): an input none of whose UIDs is
/// named twice is never mapped by the index (nothing is spooled), and a UID named twice but mapped
/// once (the exception of an event without a recurrence is an event of its own) is not shared.
@Test func graphJSONIsMappedByTheIndexOnlyWhenAUIDMayBeShared() throws {
    let directory = try temporaryDirectory()
    let singles = directory.appendingPathComponent("singles.json")
    try """
    [{"id": "a", "start": {"dateTime": "2026-12-01T09:00:00"}}, {"id": "b", "start": {"dateTime": "2027-01-04T09:00:00"}}]
    """.write(to: singles, atomically: true, encoding: .utf8)
    let seriesless = directory.appendingPathComponent("seriesless.json")
    try """
    {"iCalUId": "m@example.com", "start": {"dateTime": "2026-12-01T09:00:00"}, "exceptionOccurrences": [{"iCalUId": "own@example.com", "originalStart": "2026-12-08T09:00:00Z", "start": {"dateTime": "2026-12-08T11:00:00"}}]}
    """.write(to: seriesless, atomically: true, encoding: .utf8)
    let inputs: [(name: String, content: ReadableFile, format: InputFormat)] = [
        (singles.path, try ReadableFile(path: singles.path), .graph),
        (seriesless.path, try ReadableFile(path: seriesless.path), .graph),
    ]
    let index = try SeriesIndex(
        inputs, scope: .withinFile, limits: ICalendarLimits(), jsonLimits: JSONLimits(),
        scratch: ScratchSpace(under: directory.path))
    #expect(index.files[0].events == nil, "nothing shared, nothing spooled")
    #expect(index.files[0].years == 2026...2027)
    #expect(index.files[1].events != nil, "m@example.com was named twice: the input was mapped")
    #expect(index.members(of: "m@example.com", file: 1) == nil)
    #expect(index.members(of: "own@example.com", file: 1) == nil)
}

/// The halves are scanned at once only where the process may run on two processors: there, a
/// calendar of 4 MiB is cut (which HalvedScanTests and the test below rely on), and on one it is
/// scanned whole. On a machine that allows one, this is skipped and says so.
@Test(.enabled(if: Processors.available >= 2, "the process may run on one processor: no halves"))
func aLargeCalendarIsCutInHalvesWhereTwoProcessorsMayRunIt() throws {
    let text = straddling(filler(2_200))
    #expect(text.utf8.count >= 4 << 20)
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let file = directory.appendingPathComponent("large.ics")
    try text.write(to: file, atomically: true, encoding: .utf8)
    let index = try SeriesIndex(
        [(file.path, try ReadableFile(path: file.path))], scope: .withinFile, limits: ICalendarLimits(),
        scratch: ScratchSpace(under: directory.path))
    let cut = try #require(index.files[0].cut)
    #expect(cut.offset > text.utf8.count / 2 && cut.offset < text.utf8.count)
}

/// A calendar of 4 MiB and more is scanned in two halves at once (HalvedScanTests): the series
/// whose master is before the middle and whose override is after it is found, whether each half
/// keeps its records in memory or spills them, and so is the VTIMEZONE at the end.
@Test(arguments: [64, 1 << 16])
func seriesIndexJoinsTheHalvesOfALargeCalendar(memoryRecords: Int) throws {
    let text = straddling(filler(2_200))
    let directory = try temporaryDirectory()
    let file = directory.appendingPathComponent("large.ics")
    try text.write(to: file, atomically: true, encoding: .utf8)
    let index = try SeriesIndex(
        [(file.path, try ReadableFile(path: file.path))], scope: .withinFile, limits: ICalendarLimits(),
        scratch: ScratchSpace(under: directory.path), memoryRecords: memoryRecords)
    let bytes = Array(text.utf8)
    func uid(at offset: Int) -> String {
        let line = String(decoding: bytes[offset...].prefix(40), as: UTF8.self).components(separatedBy: "\r\n")
        return line[0] == "BEGIN:VEVENT" ? line[1] : "not at a BEGIN:VEVENT"
    }
    let members = try #require(index.members(of: "series-a", file: 0))
    #expect(members.map { uid(at: $0.offset) } == ["UID:series-a", "UID:series-a"])
    #expect(members[0].offset < bytes.count / 2 && members[1].offset > bytes.count / 2)
    #expect(index.members(of: "twice-d", file: 0)?.map { uid(at: $0.offset) } == ["UID:twice-d", "UID:twice-d"])
    #expect(index.members(of: "filler-7", file: 0) == nil)
    #expect(index.files[0].timeZones.map(\.identifier) == ["Office Time"])
    #expect(index.files[0].years == 2026...2026)
}
