import CalendarModel
import Testing
import TimeZones

@testable import ICalendar

/// RDATE, EXDATE, overrides, durations and the forms of time, through the whole expansion.
/// Expected instants are worked out by hand from tzdata's offsets (New York EST −5, Berlin CET +1 / CEST +2).
struct RecurrenceSeriesTests {
    static let daily = ["UID:s", "DTSTART:20240101T100000Z", "DTEND:20240101T110000Z", "RRULE:FREQ=DAILY;COUNT=5"]

    func starts(_ events: [[String]], from: Int = utc(2024, 1, 1), to: Int = utc(2025, 1, 1)) -> [String] {
        occurrences(calendar(events: events), from: from, to: to).map { utcText($0.startInstant) }
    }

    /// 09:00 New York is 14:00Z and 15:00 Berlin in January: both EXDATEs name occurrences.
    @Test func exceptionDatesInAnotherZoneRemoveTheSameInstant() {
        let events = [
            [
                "UID:x", "DTSTART;TZID=America/New_York:20240105T090000", "RRULE:FREQ=DAILY;COUNT=3",
                "EXDATE:20240106T140000Z", "EXDATE;TZID=Europe/Berlin:20240107T150000",
            ]
        ]
        #expect(starts(events) == ["20240105T140000Z"])
    }

    /// Exchange writes `EXDATE;VALUE=DATE` on DATE-TIME series: the day's occurrence goes.
    @Test func aDateExceptionRemovesThatDaysOccurrence() {
        let events = [Self.daily + ["EXDATE;VALUE=DATE:20240102,20240104"]]
        #expect(starts(events) == ["20240101T100000Z", "20240103T100000Z", "20240105T100000Z"])
    }

    @Test func overridesMoveOccurrencesIntoAndOutOfTheWindow() {
        let events = [
            Self.daily,
            ["UID:s", "RECURRENCE-ID:20240102T100000Z", "DTSTART:20240110T120000Z", "DTEND:20240110T130000Z"],
            ["UID:s", "RECURRENCE-ID:20240103T100000Z", "DTSTART:20240201T100000Z", "DTEND:20240201T110000Z"],
        ]
        #expect(starts(events, to: utc(2024, 1, 6)) == ["20240101T100000Z", "20240104T100000Z", "20240105T100000Z"])
        #expect(starts(events, from: utc(2024, 1, 10), to: utc(2024, 1, 11)) == ["20240110T120000Z"])
    }

    @Test func cancelledOverridesRemoveTheirOccurrence() {
        let events = [Self.daily, ["UID:s", "RECURRENCE-ID:20240102T100000Z", "STATUS:CANCELLED"]]
        #expect(!starts(events).contains("20240102T100000Z"))
        #expect(starts(events).count == 4)
    }

    /// RANGE=THISANDFUTURE: January 3rd and every later occurrence move two hours later, last 90 minutes,
    /// and take the override's summary.
    @Test func thisAndFutureOverridesApplyToLaterOccurrences() {
        let events = [
            Self.daily + ["SUMMARY:old"],
            [
                "UID:s", "RECURRENCE-ID;RANGE=THISANDFUTURE:20240103T100000Z", "DTSTART:20240103T120000Z",
                "DTEND:20240103T133000Z", "SUMMARY:new",
            ],
        ]
        let listed = occurrences(calendar(events: events), from: utc(2024, 1, 1), to: utc(2025, 1, 1))
        #expect(
            listed.map { utcText($0.startInstant) } == [
                "20240101T100000Z", "20240102T100000Z", "20240103T120000Z", "20240104T120000Z", "20240105T120000Z",
            ])
        #expect(listed.map { $0.endInstant - $0.startInstant } == [3_600, 3_600, 5_400, 5_400, 5_400])
        #expect(listed.map(\.event.summary) == ["old", "old", "new", "new", "new"])
        #expect(listed.map { text($0.recurrenceID) }.last == "20240105T100000")
    }

    /// DURATION:P1D is a nominal day: 10:00 CET on March 30th to 10:00 CEST on the 31st is 23 hours;
    /// PT24H is exact and ends at 11:00 CEST.
    @Test func nominalDaysKeepTheWallClockAcrossDaylightSaving() {
        let nominal = [
            ["UID:n", "DTSTART;TZID=Europe/Berlin:20240330T100000", "DURATION:P1D", "RRULE:FREQ=DAILY;COUNT=2"]
        ]
        let listed = occurrences(calendar(events: nominal))
        #expect(listed.map { utcText($0.endInstant) } == ["20240331T080000Z", "20240401T080000Z"])
        #expect(listed.map { text($0.end) } == ["20240331T100000", "20240401T100000"])
        let exact = [["UID:n", "DTSTART;TZID=Europe/Berlin:20240330T100000", "DURATION:PT24H"]]
        #expect(occurrences(calendar(events: exact)).map { utcText($0.endInstant) } == ["20240331T090000Z"])
    }

    /// Floating times and dates are read in the zone the caller displays in.
    @Test func floatingTimesAreReadInTheDisplayZone() throws {
        let berlin = ZoneClock(rules: ZoneRules(ianaIdentifier: "Europe/Berlin"))
        let events = [["UID:f", "DTSTART:20240101T090000", "RRULE:FREQ=DAILY;COUNT=2"]]
        let listed = occurrences(calendar(events: events), floating: berlin)
        #expect(listed.map { utcText($0.startInstant) } == ["20240101T080000Z", "20240102T080000Z"])
        let allDay = [["UID:d", "DTSTART;VALUE=DATE:20240101"]]
        let day = try #require(occurrences(calendar(events: allDay), floating: berlin).first)
        #expect(utcText(day.startInstant) == "20231231T230000Z")
        #expect(utcText(day.endInstant) == "20240101T230000Z")
        #expect(day.isAllDay)
    }

    /// A DATE UNTIL on a DATE-TIME series includes that day; an RDATE on a DATE series is a day.
    @Test func dateValuesMixWithTheSeriesForm() {
        let until = [["UID:u", "DTSTART:20240101T100000Z", "RRULE:FREQ=DAILY;UNTIL=20240103"]]
        #expect(starts(until).count == 3)
        let dates = [["UID:v", "DTSTART;VALUE=DATE:20240101", "RDATE;VALUE=DATE:20240110,20240105"]]
        let listed = occurrences(calendar(events: dates))
        #expect(listed.map { text($0.start) } == ["20240101", "20240105", "20240110"])
    }

    /// An unbounded rule over a century is produced lazily: the first few come at once.
    @Test func unboundedRulesAreProducedLazily() {
        let events = [["UID:m", "DTSTART:20000101T000000Z", "RRULE:FREQ=MINUTELY"]]
        let result = ICalendarParser().parse(calendar(events: events))
        let all = DocumentOccurrences(
            document: result.document, window: ExpansionWindow(start: utc(2000, 1, 1), end: utc(2100, 1, 1)))
        #expect(
            all.prefix(3).map { utcText($0.startInstant) } == [
                "20000101T000000Z", "20000101T000100Z", "20000101T000200Z",
            ])
        let late = DocumentOccurrences(
            document: result.document, window: ExpansionWindow(start: utc(2099, 12, 31, 23, 58), end: utc(2100, 1, 1)))
        #expect(Array(late).count == 2)
    }

    /// The cap stops a series and says so.
    @Test func theOccurrenceCapIsReported() {
        let result = ICalendarParser().parse(calendar(events: [Self.daily]))
        var iterator = DocumentOccurrences(
            document: result.document, window: ExpansionWindow(start: utc(2024, 1, 1), end: utc(2025, 1, 1)),
            options: ExpansionOptions(maximumOccurrencesPerSeries: 2))
        var count = 0
        while iterator.next() != nil { count += 1 }
        #expect(count == 2)
        #expect(iterator.diagnostics.map(\.code) == ["occurrence-cap"])
        #expect(iterator.diagnostics.first?.uid == "s")
    }

    /// 01:30 on 2024-11-03 happens twice in New York: the first, EDT (05:30Z), is meant (RFC 5545 §3.3.5);
    /// the next day it is EST (06:30Z). Beyond 2037 the zone's rules still apply (09:00 CEST is 07:00Z).
    @Test func foldsAreReadAsTheirFirstOccurrenceAndLateYearsKeepTheirRules() {
        let fold = [["UID:f", "DTSTART;TZID=America/New_York:20241103T013000", "RRULE:FREQ=DAILY;COUNT=2"]]
        #expect(starts(fold) == ["20241103T053000Z", "20241104T063000Z"])
        let late = [["UID:l", "DTSTART;TZID=Europe/Berlin:20500701T090000", "RRULE:FREQ=YEARLY;COUNT=2"]]
        #expect(starts(late, from: utc(2050, 1, 1), to: utc(2052, 1, 1)) == ["20500701T070000Z", "20510701T070000Z"])
    }
}
