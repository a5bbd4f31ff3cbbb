import CalendarModel
import Foundation
import Testing

@testable import ICalendar

/// The convenience API a Swift program uses: parsing from text, `Data` and files, writing files, and
/// expanding in a `DateInterval`.
@Suite struct LibraryAPITests {
    /// A daily 09:00 Berlin stand-up from Monday 30 November 2026, five times, the Wednesday cancelled;
    /// and a floating all-day event on 2 December.
    let calendar = """
        BEGIN:VCALENDAR\r
        VERSION:2.0\r
        PRODID:-//calport tests//EN\r
        BEGIN:VEVENT\r
        UID:standup@example.com\r
        DTSTAMP:20261120T090000Z\r
        DTSTART;TZID=Europe/Berlin:20261130T090000\r
        DTEND;TZID=Europe/Berlin:20261130T091500\r
        RRULE:FREQ=DAILY;COUNT=5\r
        EXDATE;TZID=Europe/Berlin:20261202T090000\r
        SUMMARY:Stand-up\r
        END:VEVENT\r
        BEGIN:VEVENT\r
        UID:offsite@example.com\r
        DTSTAMP:20261120T090000Z\r
        DTSTART;VALUE=DATE:20261202\r
        SUMMARY:Offsite\r
        END:VEVENT\r
        END:VCALENDAR\r

        """

    func utc(_ text: String) -> Date { ISO8601DateFormatter().date(from: text)! }

    @Test func textDataAndFilesParseAlike() throws {
        let parser = ICalendarParser()
        let fromText = parser.parse(calendar)
        #expect(fromText.diagnostics.isEmpty)
        #expect(fromText.document.events.count == 2)
        #expect(parser.parse(Data(calendar.utf8)).document == fromText.document)
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("calport-\(UUID().uuidString).ics")
        defer { try? FileManager.default.removeItem(at: url) }
        try Data(calendar.utf8).write(to: url)
        #expect(try parser.parse(contentsOf: url).document == fromText.document)
    }

    @Test func aFileThatCannotBeReadIsATypedErrorNamingIt() {
        let url = URL(fileURLWithPath: "/nonexistent/calport/missing.ics")
        do {
            _ = try ICalendarParser().parse(contentsOf: url)
            Issue.record("a missing file was read")
        } catch {
            #expect(error.path == url.path)
            #expect(error.operation == .read)
        }
    }

    @Test func diagnosticsNameTheFileRead() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("calport-\(UUID().uuidString).ics")
        defer { try? FileManager.default.removeItem(at: url) }
        try Data(calendar.replacingOccurrences(of: "DTSTART;VALUE=DATE:20261202", with: "DTSTART:20241332T250000").utf8)
            .write(to: url)
        let result = try ICalendarParser().parse(contentsOf: url)
        #expect(result.diagnostics.contains { $0.severity == .error && $0.location.file == url.path })
    }

    @Test func aWrittenFileReadsBackAsTheSameEvents() throws {
        let document = ICalendarParser().parse(calendar).document
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("calport-\(UUID().uuidString).ics")
        defer { try? FileManager.default.removeItem(at: url) }
        try ICalendarSerializer().write(document, to: url)
        #expect(try ICalendarParser().parse(contentsOf: url).document.events == document.events)
        #expect(ICalendarSerializer().string(document).hasPrefix("BEGIN:VCALENDAR\r\n"))
    }

    /// Berlin is UTC+1 in December: the stand-ups are at 08:00Z; the all-day event covers 2 December
    /// in the zone asked for (New York, UTC-5: 05:00Z to 05:00Z the next day).
    @Test func occurrencesInADateIntervalAndAZone() {
        let document = ICalendarParser().parse(calendar).document
        let week = DateInterval(start: utc("2026-11-30T00:00:00Z"), end: utc("2026-12-07T00:00:00Z"))
        let expanded = document.occurrences(in: week, timeZone: TimeZone(identifier: "America/New_York")!)
        #expect(expanded.diagnostics.isEmpty)
        #expect(
            expanded.occurrences.map(\.startDate) == [
                utc("2026-11-30T08:00:00Z"), utc("2026-12-01T08:00:00Z"), utc("2026-12-02T05:00:00Z"),
                utc("2026-12-03T08:00:00Z"), utc("2026-12-04T08:00:00Z"),
            ])
        #expect(expanded.occurrences[2].endDate == utc("2026-12-03T05:00:00Z"))
        #expect(expanded.occurrences[0].dateInterval.duration == 15 * 60)
        // A window that ends before the fourth stand-up starts lists three occurrences.
        let short = DateInterval(start: utc("2026-11-30T00:00:00Z"), end: utc("2026-12-03T08:00:00Z"))
        #expect(document.occurrences(in: short, timeZone: TimeZone(identifier: "UTC")!).occurrences.count == 3)
    }
}
