import CalendarModel
import Foundation
import Testing

@testable import ICalendar

/// calport's expansion against libical's `icalrecur_iterator` on 1,000 series of 132 occurrences each.
/// Run on demand, in release mode:
/// `CALPORT_BENCHMARK=1 swift test -c release -Xswiftc -enable-testing --filter RecurrenceBenchmarkTests`
@Suite(.enabled(if: ProcessInfo.processInfo.environment["CALPORT_BENCHMARK"] != nil))
struct RecurrenceBenchmarkTests {
    static let rules = [
        "FREQ=DAILY;COUNT=132", "FREQ=WEEKLY;BYDAY=MO,WE,FR;COUNT=132", "FREQ=MONTHLY;BYDAY=1MO,3TH;COUNT=132",
        "FREQ=MONTHLY;BYMONTHDAY=1,15;COUNT=132", "FREQ=WEEKLY;INTERVAL=2;BYDAY=TU,TH;COUNT=132",
        "FREQ=YEARLY;BYMONTH=1,4,7,10;BYMONTHDAY=10;COUNT=132", "FREQ=HOURLY;INTERVAL=5;COUNT=132",
        "FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1;COUNT=132",
    ]
    static let seriesCount = 1_000

    /// The series: rule `i % rules.count`, starting on varying days of 2020 at 09:00 Europe/Berlin.
    static var calendarBytes: [UInt8] {
        calendar(
            events: (0..<seriesCount).map { index in
                let day = index % 28 + 1
                return [
                    "UID:bench-\(index)", String(format: "DTSTART;TZID=Europe/Berlin:202001%02dT090000", day),
                    "DURATION:PT1H", "RRULE:\(rules[index % rules.count])",
                ]
            })
    }

    static func measure(_ label: String, _ body: () -> Int) -> Double {
        var best = Double.infinity
        var count = 0
        for _ in 0..<5 {
            let start = DispatchTime.now().uptimeNanoseconds
            count = body()
            best = min(best, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
        }
        print("benchmark \(label): \(count) occurrences, best of 5: \(String(format: "%.1f", best)) ms")
        return best
    }

    @Test func calportIsAtLeastAsFastAsLibical() {
        let starts = (0..<Self.seriesCount).map { LocalDateTime(year: 2020, month: 1, day: $0 % 28 + 1, hour: 9) }
        let parsed = (0..<Self.seriesCount).map { Libical.parseRecurrence(Self.rules[$0 % Self.rules.count])! }
        let libical = Self.measure("libical icalrecur_iterator (wall times)") {
            var count = 0
            for index in 0..<Self.seriesCount {
                let iterator = LibicalRuleIterator(
                    rule: Self.rules[index % Self.rules.count], start: starts[index], tzid: "Europe/Berlin")!
                while iterator.next() != nil { count += 1 }
            }
            return count
        }
        let rules = Self.measure("calport RecurrenceRuleIterator (wall times)") {
            var count = 0
            for index in 0..<Self.seriesCount {
                var iterator = RecurrenceRuleIterator(rule: parsed[index], start: starts[index])
                while iterator.nextWallSeconds() != nil { count += 1 }
            }
            return count
        }
        let document = ICalendarParser().parse(Self.calendarBytes).document
        let window = ExpansionWindow(start: utc(2019, 1, 1), end: utc(2100, 1, 1))
        let full = Self.measure("calport DocumentOccurrences (instants, ends, overrides)") {
            var occurrences = DocumentOccurrences(document: document, window: window)
            var count = 0
            while occurrences.next() != nil { count += 1 }
            return count
        }
        #expect(rules <= libical)
        #expect(full <= libical)
    }
}
