import CalendarModel
import Testing

@testable import GraphEvents

/// Events whose iCalendar says more, or less, than Graph holds, written to Graph: what each
/// occurrence becomes is worked out from RFC 5545 and tzdata's offsets (Berlin is UTC+1 until 30
/// March 2025; Los Angeles UTC−8 until 9 March 2025), not from calport's own expansion.
@Suite struct GraphWriterDefectTests {
    private static let berlin = TimeZoneReference(name: "Europe/Berlin", ianaIdentifier: "Europe/Berlin")
    private static let losAngeles = TimeZoneReference(
        name: "America/Los_Angeles", ianaIdentifier: "America/Los_Angeles")

    private func daily(_ uid: String, at start: CalendarTime, count: Int = 10) -> Event {
        var event = Event(uid: uid)
        event.start = start
        event.end = .duration(EventDuration(minutes: 60))
        event.recurrenceRules = [RecurrenceRule(frequency: .daily, end: .count(count))]
        return event
    }

    private func inBerlin(_ day: Int, _ hour: Int) -> CalendarTime {
        .zoned(LocalDateTime(year: 2025, month: 3, day: day, hour: hour), Self.berlin)
    }

    /// RFC 5545 §3.8.5.1: an EXDATE removes the occurrence whose start it is. One at 12:00 of a
    /// series at 10:00 removes none, so no day is cancelled for it; one at 10:00 cancels its day.
    @Test func anExdateAtAnotherTimeCancelsNothing() {
        var series = daily("x1", at: inBerlin(3, 10))
        series.exceptionDates = [inBerlin(5, 12), inBerlin(6, 10)]
        let full = GraphEventWriter(style: .full).write([series])
        #expect(full.output.first?["cancelledOccurrences"] == ["OID.x1.2025-03-06"])
        #expect(full.diagnostics.map(\.code) == ["graph-exdate-not-an-occurrence"])
        #expect(full.diagnostics.first?.message.contains("20250305T110000Z") == true)
        let post = GraphEventWriter(style: .post).write([series])
        let cancelled = post.output.filter { $0["isCancelled"] == true }
        #expect(cancelled.map { $0["originalStart"] } == ["2025-03-06T09:00:00Z"])
    }

    /// An EXDATE and an occurrence are compared as moments, a wall time the clocks skip read with
    /// the offset before the change (RFC 5545 §3.3.5), as Python's zoneinfo reads it (`fold=0`):
    /// midnight in Santiago on 8 September 2024 is 04:00Z, 02:30 in New York on 10 March 07:30Z;
    /// and 01:30 in New York on 3 November, which happens twice, is the first (05:30Z), so an
    /// EXDATE at the second (06:30Z) cancels nothing.
    @Test func exdatesAndOccurrencesAreComparedAsMoments() {
        let santiago = TimeZoneReference(name: "America/Santiago", ianaIdentifier: "America/Santiago")
        let newYork = TimeZoneReference(name: "America/New_York", ianaIdentifier: "America/New_York")
        func at(_ zone: TimeZoneReference, _ month: Int, _ day: Int, _ hour: Int, _ minute: Int = 0) -> CalendarTime {
            .zoned(LocalDateTime(year: 2024, month: month, day: day, hour: hour, minute: minute), zone)
        }
        var midnight = daily("s1", at: at(santiago, 9, 1, 0), count: 4)
        midnight.recurrenceRules = [RecurrenceRule(frequency: .weekly, end: .count(4))]
        midnight.exceptionDates = [at(santiago, 9, 8, 0)]
        var skipped = daily("s2", at: at(newYork, 3, 9, 2, 30), count: 3)
        skipped.exceptionDates = [utc(2024, 3, 10, 7, 30)]
        var twice = daily("s3", at: at(newYork, 11, 2, 1, 30), count: 3)
        twice.exceptionDates = [utc(2024, 11, 3, 6, 30)]
        let full = GraphEventWriter(style: .full).write([midnight, skipped, twice])
        #expect(full.output.map { $0["cancelledOccurrences"] } == [["OID.s1.2024-09-08"], ["OID.s2.2024-03-10"], nil])
        #expect(full.diagnostics.map(\.code) == ["graph-exdate-not-an-occurrence"])
        #expect(full.diagnostics.first?.message.contains("20241103T063000Z") == true)
        let post = GraphEventWriter(style: .post).write([midnight, skipped])
        #expect(
            post.output.filter { $0["isCancelled"] == true }.map { $0["originalStart"] } == [
                "2024-09-08T04:00:00Z", "2024-03-10T07:30:00Z",
            ])
    }

    /// An EXDATE with a time on an all-day series cancels the occurrence of its own date: midnight
    /// on 3 March in Auckland is still 2 March in UTC.
    @Test func anAllDaySeriesIsCancelledOnTheExdatesOwnDate() {
        var series = Event(uid: "d3")
        series.start = .date(CalendarDate(year: 2024, month: 3, day: 1))
        series.recurrenceRules = [RecurrenceRule(frequency: .daily, end: .count(5))]
        let auckland = TimeZoneReference(name: "Pacific/Auckland", ianaIdentifier: "Pacific/Auckland")
        series.exceptionDates = [.zoned(LocalDateTime(year: 2024, month: 3, day: 3), auckland)]
        let full = GraphEventWriter(style: .full).write([series])
        #expect(full.output.first?["cancelledOccurrences"] == ["OID.d3.2024-03-03"])
    }

    /// A master without DTSTART is left out; its overrides, which say when they happen, are written
    /// as single events, as those of a master that is missing are.
    @Test func theOverridesOfAMasterWithoutAStartAreKept() {
        var master = Event(uid: "n")
        master.recurrenceRules = [RecurrenceRule(frequency: .weekly, end: .count(3))]
        var moved = Event(uid: "n")
        moved.recurrenceID = RecurrenceIdentifier(time: utc(2024, 3, 8, 9))
        moved.start = utc(2024, 3, 8, 10)
        moved.end = .end(utc(2024, 3, 8, 11))
        let result = GraphEventWriter(style: .post).write([master, moved])
        #expect(result.diagnostics.map(\.code) == ["graph-missing-start", "graph-override-without-master"])
        #expect(result.output.map { $0["start"]?["dateTime"] } == ["2024-03-08T10:00:00"])
    }

    /// An EXDATE without a time cancels the occurrence of that day (as Outlook reads one): a POST
    /// names that occurrence's start, 20:00 in Los Angeles on 6 March, 04:00 UTC on the 7th.
    @Test func aDateExdateCancelsThatDaysOccurrenceAtItsStart() {
        var series = daily("x3", at: .zoned(LocalDateTime(year: 2025, month: 3, day: 3, hour: 20), Self.losAngeles))
        series.exceptionDates = [.date(CalendarDate(year: 2025, month: 3, day: 6))]
        let post = GraphEventWriter(style: .post).write([series])
        #expect(
            post.output.filter { $0["isCancelled"] == true }.map { $0["originalStart"] } == ["2025-03-07T04:00:00Z"])
        #expect(
            GraphEventWriter(style: .full).write([series]).output.first?["cancelledOccurrences"] == [
                "OID.x3.2025-03-06"
            ])
    }

    /// RANGE=THISANDFUTURE changes an occurrence and every later one (RFC 5545 §3.8.4.4); a Graph
    /// exception changes one, so the loss is said.
    @Test func anOverrideOfTheOccurrencesAfterItIsReported() {
        let series = daily("x4", at: inBerlin(3, 10), count: 5)
        var moved = Event(uid: "x4")
        moved.recurrenceID = RecurrenceIdentifier(time: inBerlin(5, 10), thisAndFuture: true)
        moved.start = inBerlin(5, 15)
        moved.end = .end(inBerlin(5, 16))
        let result = GraphEventWriter(style: .post).write([series, moved])
        #expect(result.diagnostics.map(\.code) == ["graph-this-and-future-lost"])
        #expect(result.output.count == 2, "the master and the one exception Graph can hold")
    }

    /// Graph requires a start: an event without one is refused and left out, not written without.
    @Test func anEventWithoutAStartIsLeftOut() {
        var event = Event(uid: "n1")
        event.summary = "no dtstart"
        for style in [GraphOutputStyle.full, .post] {
            let result = GraphEventWriter(style: style).write([event])
            #expect(result.output.isEmpty)
            #expect(result.diagnostics.map(\.code) == ["graph-missing-start"])
            #expect(result.diagnostics.first?.severity == .error)
        }
    }

    /// RFC 5545 §3.8.2.2: DTEND is later than DTSTART. An event ending before it starts is written
    /// ending when it starts; an all-day one ending the day it starts lasts that day (§3.6.1).
    @Test func anEndBeforeTheStartIsTheEndOfAnEventWithoutOne() {
        var timed = Event(uid: "e1")
        timed.start = utc(2025, 3, 10, 9)
        timed.end = .end(utc(2025, 3, 10, 8))
        var negative = Event(uid: "e2")
        negative.start = utc(2025, 3, 10, 9)
        negative.end = .duration(EventDuration(minutes: -60))
        var allDay = Event(uid: "e3")
        allDay.start = .date(CalendarDate(year: 2025, month: 3, day: 10))
        allDay.end = .end(.date(CalendarDate(year: 2025, month: 3, day: 10)))
        let result = GraphEventWriter(style: .post).write([timed, negative, allDay])
        #expect(result.diagnostics.map(\.code) == Array(repeating: "graph-end-before-start", count: 3))
        #expect(
            result.output.map { $0["end"]?["dateTime"] } == [
                "2025-03-10T09:00:00", "2025-03-10T09:00:00", "2025-03-11T00:00:00",
            ])
        var zero = Event(uid: "e4")
        zero.start = utc(2025, 3, 10, 9)
        zero.end = .end(utc(2025, 3, 10, 9))
        #expect(GraphEventWriter(style: .post).write([zero]).diagnostics.isEmpty, "ending as it starts is allowed")
    }

    /// RFC 5545 §3.8.5.3 counts DTSTART as the first of COUNT's occurrences even when the rule does
    /// not give it: COUNT=10 from Wednesday 15 January with BYDAY=2TU is 15 January and the second
    /// Tuesdays from 11 February to 14 October. Graph never repeats the start, so its pattern has
    /// the nine second Tuesdays, not ten (which would run to 11 November).
    @Test func countWithAStartTheRuleDoesNotGiveCountsTheStart() {
        var series = Event(uid: "c1")
        series.start = inBerlin(3, 9).withLocalDateTime(LocalDateTime(year: 2025, month: 1, day: 15, hour: 9))
        series.end = .duration(EventDuration(minutes: 30))
        series.recurrenceRules = [
            RecurrenceRule(frequency: .monthly, end: .count(10), byDay: [WeekdayNumber(.tuesday, ordinal: 2)])
        ]
        let result = GraphEventWriter(style: .post).write([series])
        #expect(result.output.first?["recurrence"]?["range"]?["numberOfOccurrences"] == 9)
        #expect(result.diagnostics.map(\.code) == ["graph-start-not-occurrence"])
    }

    /// A warning names the rule as RFC 5545 §3.3.10 writes it: each part NAME=VALUE, `;` between,
    /// list values comma-separated, a BYDAY ordinal before its two-letter day, UNTIL in UTC with `Z`.
    @Test func aRuleIsNamedAsRFC5545WritesIt() {
        let rule = RecurrenceRule(
            frequency: .yearly, interval: 2,
            end: .until(.utc(LocalDateTime(year: 2030, month: 12, day: 31, hour: 23, minute: 59, second: 59))),
            byHour: [9, 17], byDay: [WeekdayNumber(.friday, ordinal: -1), WeekdayNumber(.monday)], byMonthDay: [1],
            byMonth: [3, 9], bySetPosition: [-1], weekStart: .sunday)
        #expect(
            rule.rruleText
                == "FREQ=YEARLY;UNTIL=20301231T235959Z;INTERVAL=2;BYHOUR=9,17;BYDAY=-1FR,MO;BYMONTHDAY=1;BYMONTH=3,9;"
                + "BYSETPOS=-1;WKST=SU")
        #expect(
            RecurrenceRule(frequency: .monthly, end: .count(10), byDay: [WeekdayNumber(.tuesday, ordinal: 2)]).rruleText
                == "FREQ=MONTHLY;COUNT=10;BYDAY=2TU")
        #expect(
            RecurrenceRule(frequency: .daily, end: .until(.date(CalendarDate(year: 2026, month: 1, day: 5)))).rruleText
                == "FREQ=DAILY;UNTIL=20260105")
    }
}
