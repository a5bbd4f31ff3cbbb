import CalendarModel
import Testing

@testable import ICalendar

/// Debian's libical 3.0.16 gets these cases wrong. Each test shows what libical produces and that
/// calport's expansion gives the answer RFC 5545 requires instead (worked out by hand in the comments).
struct RecurrenceLibicalBugTests {
    static let year2024 = (start: utc(2024, 1, 1), end: utc(2025, 1, 1))

    static func libicalSpans(_ lines: [[String]]) -> [(start: Int, end: Int)] {
        let text = String(decoding: calendar(events: lines), as: UTF8.self)
        return LibicalRecurrenceSpans.spans(calendar: text, from: year2024.start, to: year2024.end)
    }

    static func calportSpans(_ lines: [[String]]) -> [(start: Int, end: Int)] {
        occurrences(calendar(events: lines), from: year2024.start, to: year2024.end).map {
            ($0.startInstant, $0.endInstant)
        }
    }

    /// Daily 10:00Z on January 1–3, 2024; the override moves January 2nd to 15:00Z.
    @Test func overridesReplaceTheOccurrenceTheyName() {
        let events = [
            ["UID:a", "DTSTART:20240101T100000Z", "DTEND:20240101T110000Z", "RRULE:FREQ=DAILY;COUNT=3"],
            ["UID:a", "RECURRENCE-ID:20240102T100000Z", "DTSTART:20240102T150000Z", "DTEND:20240102T160000Z"],
        ]
        let libical = Self.libicalSpans(events).map(\.start)
        #expect(libical == [utc(2024, 1, 1, 10), utc(2024, 1, 2, 10), utc(2024, 1, 3, 10)])
        let calport = Self.calportSpans(events).map(\.start)
        #expect(calport == [utc(2024, 1, 1, 10), utc(2024, 1, 2, 15), utc(2024, 1, 3, 10)])
    }

    /// An all-day event of January 1st (DTEND January 2nd) ends at January 2nd 00:00, not January 3rd minus a second.
    @Test func allDaySpansEndAtDTEND() {
        let events = [
            ["UID:b", "DTSTART;VALUE=DATE:20240101", "DTEND;VALUE=DATE:20240102", "RRULE:FREQ=DAILY;COUNT=2"]
        ]
        let libical = Self.libicalSpans(events)
        #expect(libical.first?.end == utc(2024, 1, 3) - 1)
        let calport = Self.calportSpans(events)
        #expect(calport.map(\.start) == [utc(2024, 1, 1), utc(2024, 1, 2)])
        #expect(calport.map(\.end) == [utc(2024, 1, 2), utc(2024, 1, 3)])
    }

    /// `RDATE;VALUE=PERIOD` adds an occurrence with its own end (RFC 5545 §3.8.5.2).
    @Test func periodRecurrenceDatesAreOccurrences() {
        let events = [
            [
                "UID:c", "DTSTART:20240101T100000Z", "DTEND:20240101T110000Z",
                "RDATE;VALUE=PERIOD:20240105T120000Z/20240105T150000Z",
            ]
        ]
        #expect(Self.libicalSpans(events).count == 1)
        let calport = Self.calportSpans(events)
        #expect(calport.map(\.start) == [utc(2024, 1, 1, 10), utc(2024, 1, 5, 12)])
        #expect(calport.map(\.end) == [utc(2024, 1, 1, 11), utc(2024, 1, 5, 15)])
    }

    /// An RDATE equal to an RRULE instance is one instance of the set.
    @Test func recurrenceDateEqualToARuleInstanceIsListedOnce() {
        let events = [
            [
                "UID:d", "DTSTART:20240101T100000Z", "DTEND:20240101T110000Z", "RRULE:FREQ=DAILY;COUNT=3",
                "RDATE:20240102T100000Z",
            ]
        ]
        #expect(Self.libicalSpans(events).filter { $0.start == utc(2024, 1, 2, 10) }.count == 2)
        #expect(
            Self.calportSpans(events).map(\.start) == [utc(2024, 1, 1, 10), utc(2024, 1, 2, 10), utc(2024, 1, 3, 10)])
    }

    /// Daily at 02:30 Europe/Berlin across 2024-03-31, when clocks jump from 02:00 CET to 03:00 CEST: the
    /// 31st's 02:30 does not exist and is read with the offset before the gap (RFC 5545 §3.3.5), i.e.
    /// 01:30Z (03:30 CEST); on April 1st the occurrence is back at 02:30 CEST, 00:30Z.
    @Test func anOccurrenceInADaylightSavingGapIsShiftedOnlyThatDay() throws {
        let start = LocalDateTime(year: 2024, month: 3, day: 30, hour: 2, minute: 30)
        let libical = try #require(LibicalRuleIterator(rule: "FREQ=DAILY;COUNT=3", start: start, tzid: "Europe/Berlin"))
        let libicalWalls = [libical.next(), libical.next(), libical.next()].compactMap { $0 }
        #expect(libicalWalls.last == LocalDateTime(year: 2024, month: 4, day: 1, hour: 3, minute: 30))
        let events = [["UID:e", "DTSTART;TZID=Europe/Berlin:20240330T023000", "RRULE:FREQ=DAILY;COUNT=3"]]
        let calport = occurrences(calendar(events: events))
        #expect(
            calport.map { utcText($0.startInstant) } == ["20240330T013000Z", "20240331T013000Z", "20240401T003000Z"])
        #expect(calport.map { text($0.start) } == ["20240330T023000", "20240331T023000", "20240401T023000"])
    }

    /// Weekly on the last of Monday–Wednesday (BYSETPOS=-1) from Wednesday 2024-01-03: every Wednesday.
    @Test func setPositionsApplyToWeeklyRules() throws {
        let start = LocalDateTime(year: 2024, month: 1, day: 3, hour: 9)
        let rule = "FREQ=WEEKLY;COUNT=3;BYDAY=MO,TU,WE;BYSETPOS=-1"
        let libical = try #require(LibicalRuleIterator(rule: rule, start: start))
        let libicalWalls = [libical.next(), libical.next(), libical.next()].compactMap { $0 }
        #expect(libicalWalls.contains(LocalDateTime(year: 2024, month: 1, day: 8, hour: 9)))
        let events = [["UID:f", "DTSTART:20240103T090000", "RRULE:\(rule)"]]
        #expect(occurrences(calendar(events: events)).map { text($0.start) } == days(2024, 1, [3, 10, 17]))
    }
}

/// Half-hourly from 02:30 Europe/Berlin on 2024-03-31, when 02:00 CET jumps to 03:00 CEST. The wall
/// times are 02:30, 03:00, 03:30, 04:00, 04:30, 05:00; 02:30 does not exist and is read with the
/// offset before the gap (RFC 5545 §3.3.5, which RFC 7529 §4.2 applies to recurrence instances): 01:30Z,
/// the instant 03:30 CEST names too, and after 03:00 CEST (01:00Z). §3.8.5.3 keeps a duplicate once:
/// the set is 01:00Z to 03:00Z, every half hour, in time order. Found by ZonedSeriesDifferentialTests.
@Test func aHalfHourlyRuleAcrossASpringGapListsEachInstantOnceInTimeOrder() {
    let events = [
        [
            "UID:g", "DTSTAMP:20240101T000000Z", "DTSTART;TZID=Europe/Berlin:20240331T023000",
            "RRULE:FREQ=HOURLY;BYMINUTE=0,30;COUNT=6",
        ]
    ]
    #expect(
        occurrences(calendar(events: events)).map { utcText($0.startInstant) } == [
            "20240331T010000Z", "20240331T013000Z", "20240331T020000Z", "20240331T023000Z", "20240331T030000Z",
        ])
}
