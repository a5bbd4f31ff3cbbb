import CalendarConversion
import Foundation
import ICalendar
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
