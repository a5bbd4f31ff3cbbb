import CalendarModel
import Foundation

@testable import ICalendar

/// A calendar holding the given VEVENTs, each given as its body lines.
func calendar(events: [[String]], extra: [String] = []) -> [UInt8] {
    ics(
        ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//test//EN"] + extra
            + events.flatMap { ["BEGIN:VEVENT"] + $0 + ["END:VEVENT"] } + ["END:VCALENDAR"])
}

/// UTC seconds of a UTC wall time.
func utc(_ year: Int, _ month: Int, _ day: Int, _ hour: Int = 0, _ minute: Int = 0) -> Int {
    LocalDateTime(year: year, month: month, day: day, hour: hour, minute: minute).secondsSinceEpoch
}

/// The occurrences of a parsed calendar in a window, floating times and dates read in UTC unless told.
func occurrences(
    _ bytes: [UInt8], from start: Int = utc(1900, 1, 1), to end: Int = utc(2100, 1, 1), floating: ZoneClock = .utc,
    limit: Int = 10_000
) -> [Occurrence] {
    let result = ICalendarParser().parse(bytes, file: "test.ics")
    return Array(
        DocumentOccurrences(
            document: result.document, window: ExpansionWindow(start: start, end: end), floating: floating
        )
        .prefix(limit))
}

/// A wall time as `YYYYMMDDTHHMMSS`, or `YYYYMMDD` for a date.
func text(_ time: CalendarTime) -> String {
    let date = time.date
    let day = String(format: "%04d%02d%02d", date.year, date.month, date.day)
    guard !time.isDate else { return day }
    let local = time.localDateTime
    return day + String(format: "T%02d%02d%02d", local.hour, local.minute, local.second)
}

/// An instant as `YYYYMMDDTHHMMSSZ`.
func utcText(_ instant: Int) -> String {
    text(.utc(LocalDateTime(secondsSinceEpoch: instant))) + "Z"
}

/// `YYYYMMDDTHHMMSS` wall times on the given days of one month, at one time of day.
func days(_ year: Int, _ month: Int, _ days: [Int], at time: String = "090000") -> [String] {
    days.map { String(format: "%04d%02d%02dT", year, month, $0) + time }
}

/// A Python script run with scripts/.venv's interpreter (the peers: icalendar, recurring-ical-events,
/// python-dateutil), off the test runner's cooperative threads.
enum PythonPeer {
    static let python = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("scripts/.venv/bin/python")

    /// The JSON array `script` prints for `input` on its stdin; nil when scripts/.venv does not exist.
    static func run(_ script: String, input: String) async throws -> [Any]? {
        guard FileManager.default.isExecutableFile(atPath: python.path) else { return nil }
        let data = try await RecurrenceDifferentialTests.offThePool {
            let process = Process()
            process.executableURL = python
            process.arguments = ["-c", script]
            let stdin = Pipe()
            let stdout = Pipe()
            process.standardInput = stdin
            process.standardOutput = stdout
            try process.run()
            // Written on a thread of its own: a large input would fill the pipe while the script's
            // output, unread, fills the other.
            let writer = Thread {
                stdin.fileHandleForWriting.write(Data(input.utf8))
                try? stdin.fileHandleForWriting.close()
            }
            writer.start()
            let data = stdout.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return data
        }
        return try JSONSerialization.jsonObject(with: data) as? [Any]
    }
}
