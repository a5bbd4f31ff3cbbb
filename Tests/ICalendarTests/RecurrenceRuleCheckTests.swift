import CalendarModel
import Testing

@testable import ICalendar

/// RFC 5545 §3.3.10's MUSTs and MUST NOTs (RecurrenceRuleCheck), and the expansion classes of issue
/// #19 and #25. Every expected list is worked out by hand from the RFC text and a calendar.
struct RecurrenceRuleCheckTests {
    /// The starts of one event's occurrences (`YYYYMMDD` or `YYYYMMDDTHHMMSS`), and the diagnostics of
    /// reading and expanding it.
    private func expand(
        _ lines: [String], from start: Int = utc(1900, 1, 1), to end: Int = utc(2100, 1, 1)
    ) -> (starts: [String], diagnostics: [Diagnostic]) {
        let bytes = calendar(events: [["UID:x", "DTSTAMP:20240101T000000Z"] + lines])
        let parsed = ICalendarParser().parse(bytes, file: "t.ics")
        var occurrences = DocumentOccurrences(
            document: parsed.document, window: ExpansionWindow(start: start, end: end))
        var starts: [String] = []
        while let occurrence = occurrences.next() { starts.append(text(occurrence.start)) }
        return (starts, parsed.diagnostics + occurrences.diagnostics)
    }

    /// The `invalid-rrule` errors `validate` gives for one RRULE on a DATE-TIME DTSTART.
    private func validationErrors(_ rule: String, start: String = "DTSTART:20240101T090000Z") -> [String] {
        let bytes = calendar(events: [["UID:x", "DTSTAMP:20240101T000000Z", start, "RRULE:\(rule)"]])
        return ICalendarValidator().validate(bytes).filter { $0.code == "invalid-rrule" && $0.severity == .error }
            .map(\.message)
    }

    /// Each MUST NOT of §3.3.10, and the part `validate` must name.
    static let forbidden: [(rule: String, part: String)] = [
        ("FREQ=MONTHLY;BYDAY=0MO", "BYDAY"),
        ("FREQ=DAILY;BYDAY=1MO", "BYDAY"),
        ("FREQ=WEEKLY;BYDAY=-1FR", "BYDAY"),
        ("FREQ=HOURLY;BYDAY=2TU", "BYDAY"),
        ("FREQ=YEARLY;BYWEEKNO=20;BYDAY=1MO", "BYDAY"),
        ("FREQ=MONTHLY;BYWEEKNO=20", "BYWEEKNO"),
        ("FREQ=DAILY;BYYEARDAY=100", "BYYEARDAY"),
        ("FREQ=WEEKLY;BYYEARDAY=100", "BYYEARDAY"),
        ("FREQ=MONTHLY;BYYEARDAY=100", "BYYEARDAY"),
        ("FREQ=WEEKLY;BYMONTHDAY=3", "BYMONTHDAY"),
        ("FREQ=DAILY;BYSETPOS=1", "BYSETPOS"),
        ("FREQ=MONTHLY;BYMONTHDAY=32,1", "BYMONTHDAY"),
        ("FREQ=YEARLY;BYMONTH=13,1", "BYMONTH"),
    ]

    @Test(arguments: forbidden)
    func validateNamesThePartAndTheRFC(rule: String, part: String) {
        let errors = validationErrors(rule)
        #expect(errors.count == 1, "\(errors)")
        #expect(errors.first?.contains("part \(part)") == true, "\(errors)")
        #expect(errors.first?.contains("RFC 5545 §3.3.10") == true)
    }

    @Test func validRulesHaveNoFindings() {
        for rule in [
            "FREQ=MONTHLY;BYDAY=-1MO", "FREQ=YEARLY;BYWEEKNO=20;BYDAY=MO", "FREQ=YEARLY;BYYEARDAY=100",
            "FREQ=MONTHLY;BYMONTHDAY=-31", "FREQ=WEEKLY;BYDAY=MO;BYSETPOS=1", "FREQ=YEARLY;BYDAY=53FR",
        ] {
            #expect(validationErrors(rule).isEmpty, "\(rule)")
        }
    }

    @Test func byHourOnADateStartIsAnErrorInValidate() {
        let errors = validationErrors("FREQ=DAILY;BYHOUR=9", start: "DTSTART;VALUE=DATE:20240101")
        #expect(errors.count == 1)
        #expect(errors.first?.contains("part BYHOUR:") == true)
    }

    /// §3.3.10: with a DATE DTSTART, BYHOUR, BYMINUTE and BYSECOND "MUST be ignored": three days, each once.
    @Test func dateStartIgnoresTimeParts() {
        let (starts, diagnostics) = expand([
            "DTSTART;VALUE=DATE:20240101", "RRULE:FREQ=DAILY;COUNT=3;BYHOUR=9,10;BYMINUTE=0,30;BYSECOND=5",
        ])
        #expect(starts == ["20240101", "20240102", "20240103"])
        let notes = diagnostics.filter { $0.code == "invalid-rrule" }
        #expect(notes.count == 3 && notes.allSatisfy { $0.severity == .note })
    }

    /// A forbidden part is left out: WEEKLY without BYMONTHDAY from Monday 2024-01-01 is every Monday.
    @Test func forbiddenPartIsDroppedWithAWarning() {
        let (starts, diagnostics) = expand(["DTSTART:20240101T090000Z", "RRULE:FREQ=WEEKLY;BYMONTHDAY=3;COUNT=3"])
        #expect(starts == ["20240101T090000", "20240108T090000", "20240115T090000"])
        #expect(
            diagnostics.contains {
                $0.code == "invalid-rrule" && $0.severity == .warning && $0.message.contains("part BYMONTHDAY")
            })
    }

    /// DAILY with 1MO: the ordinal is left out, the weekday kept (as dateutil reads it): every Monday.
    /// The warning says so: the numbers are left out, not BYDAY.
    @Test func numberedWeekdayInDailyKeepsTheWeekday() {
        let (starts, diagnostics) = expand(["DTSTART:20240101T090000Z", "RRULE:FREQ=DAILY;BYDAY=1MO;COUNT=3"])
        #expect(starts == ["20240101T090000", "20240108T090000", "20240115T090000"])
        let messages = diagnostics.filter { $0.code == "invalid-rrule" }.map(\.message)
        #expect(messages.count == 1)
        #expect(messages.first?.hasSuffix("the numbers in BYDAY are left out of expansion, its weekdays kept") == true)
    }

    /// `0MO` is no ordinal (ordwk is 1 to 53): with nothing else in BYDAY the rule means nothing, and
    /// the event is kept with DTSTART as its only instance, not expanded as every Monday.
    @Test func zeroOrdinalLeavesDTSTARTAlone() {
        let (starts, diagnostics) = expand(["DTSTART:20240101T090000Z", "RRULE:FREQ=MONTHLY;BYDAY=0MO;COUNT=3"])
        #expect(starts == ["20240101T090000"])
        #expect(diagnostics.contains { $0.code == "invalid-rrule" && $0.message.contains("part BYDAY") })
        // With a valid element beside it, that element stays: the first Tuesday of each month.
        let (kept, _) = expand(["DTSTART:20240102T090000Z", "RRULE:FREQ=MONTHLY;BYDAY=0MO,1TU;COUNT=3"])
        #expect(kept == ["20240102T090000", "20240206T090000", "20240305T090000"])
    }

    /// §3.8.5.1: DTSTART is the first instance, so an EXRULE removes it only when it is one of the
    /// EXRULE's own instances. Weekly Mondays minus Tuesdays keeps every Monday; minus the first of
    /// each month removes 1 January.
    @Test func exruleRemovesDTSTARTOnlyWhenItMatches() {
        let (tuesdays, _) = expand([
            "DTSTART:20240101T090000Z", "RRULE:FREQ=WEEKLY;COUNT=3", "EXRULE:FREQ=WEEKLY;BYDAY=TU;COUNT=1",
        ])
        #expect(tuesdays == ["20240101T090000", "20240108T090000", "20240115T090000"])
        let (firsts, _) = expand([
            "DTSTART:20240101T090000Z", "RRULE:FREQ=WEEKLY;COUNT=3", "EXRULE:FREQ=MONTHLY;COUNT=2",
        ])
        #expect(firsts == ["20240108T090000", "20240115T090000"])
    }

    /// UNTIL before DTSTART: DTSTART is still the first instance (as validate says).
    @Test func untilBeforeStartKeepsDTSTART() {
        let (starts, _) = expand(["DTSTART:20240101T090000Z", "RRULE:FREQ=DAILY;UNTIL=20231201T000000Z"])
        #expect(starts == ["20240101T090000"])
    }

    /// 9999-12-31 as a DATE ends on 10000-01-01, which iCalendar cannot write: it is cut, and said so.
    @Test func occurrencesEndingAfter9999AreCut() {
        let (starts, diagnostics) = expand(
            ["DTSTART;VALUE=DATE:99991230", "RRULE:FREQ=DAILY;COUNT=5"], from: utc(9999, 1, 1),
            to: utc(9999, 12, 31, 23, 59))
        #expect(starts == ["99991230"])
        #expect(diagnostics.contains { $0.code == "beyond-year-9999" })
    }

    /// COUNT=5 from 30 December 9999: two instances exist; the rule says it stopped short.
    @Test func countBeyond9999SaysSo() {
        let (starts, diagnostics) = expand(
            ["DTSTART:99991230T090000Z", "RRULE:FREQ=DAILY;COUNT=5"], from: utc(9999, 1, 1),
            to: utc(9999, 12, 31, 23, 59))
        #expect(starts == ["99991230T090000", "99991231T090000"])
        #expect(diagnostics.contains { $0.code == "beyond-year-9999" && $0.message.contains("2 of its COUNT=5") })
    }

    /// FREQ=SECONDLY;BYSECOND=1;BYSETPOS=2 has one candidate a minute and never a second one: the
    /// iterator gives up after `emptyPeriodLimit` empty periods instead of running to 9999 (counted,
    /// not timed).
    @Test func ruleThatProducesNothingStops() {
        var iterator = RecurrenceRuleIterator(
            rule: RecurrenceRule(frequency: .secondly, bySecond: [1], bySetPosition: [2]),
            start: LocalDateTime(year: 2024, month: 1, day: 1))
        #expect(iterator.next() == LocalDateTime(year: 2024, month: 1, day: 1))
        #expect(iterator.next() == nil)
        #expect(iterator.stop == .emptyPeriods)
        let (_, diagnostics) = expand([
            "DTSTART:20240101T000000Z", "RRULE:FREQ=SECONDLY;BYSECOND=1;BYSETPOS=2",
        ])
        #expect(diagnostics.contains { $0.code == "rule-produces-nothing" })
    }

    /// 30 February never comes: the iterator reaches 9999 (8,000 empty years) and says COUNT was not met.
    @Test func februaryThirtiethReachesTheEndOfTheCalendar() {
        var iterator = RecurrenceRuleIterator(
            rule: RecurrenceRule(frequency: .yearly, end: .count(2), byMonthDay: [30], byMonth: [2]),
            start: LocalDateTime(year: 2024, month: 1, day: 1))
        #expect(iterator.next() == LocalDateTime(year: 2024, month: 1, day: 1))
        #expect(iterator.next() == nil)
        #expect(iterator.stop == .endOfCalendar)
    }

    /// Sparse rules that do produce are not cut: 29 February on a Monday comes every 28 years
    /// (1988, 2016, 2044, 2072); MINUTELY on 29 February at midnight every four years.
    @Test func sparseRulesAreNotTakenForEmptyOnes() {
        let (mondays, _) = expand([
            "DTSTART:20160229T090000Z", "RRULE:FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=29;BYDAY=MO;COUNT=3",
        ])
        #expect(mondays == ["20160229T090000", "20440229T090000", "20720229T090000"])
        let (midnights, diagnostics) = expand([
            "DTSTART:20240229T000000Z", "RRULE:FREQ=MINUTELY;BYMONTH=2;BYMONTHDAY=29;BYHOUR=0;BYMINUTE=0;COUNT=3",
        ])
        #expect(midnights == ["20240229T000000", "20280229T000000", "20320229T000000"])
        #expect(!diagnostics.contains { $0.code == "rule-produces-nothing" })
    }

    /// The cases RFC 5545 leaves to "information derived from DTSTART" (docs/recurrence.md's table).
    @Test func ambiguousCasesAsDecided() {
        // BYWEEKNO and no day: DTSTART's weekday (Monday) of week 20; 2025's week 1 starts 30 December 2024.
        #expect(
            expand(["DTSTART:20240101T090000Z", "RRULE:FREQ=YEARLY;BYWEEKNO=20;COUNT=3"]).starts == [
                "20240101T090000", "20240513T090000", "20250512T090000",
            ])
        // YEARLY;BYMONTHDAY=15 without BYMONTH expands to every month (the table's "Expand").
        #expect(
            expand(["DTSTART:20240101T090000Z", "RRULE:FREQ=YEARLY;BYMONTHDAY=15;COUNT=3"]).starts == [
                "20240101T090000", "20240115T090000", "20240215T090000",
            ])
        // INTERVAL=2 counts calendar years from DTSTART's (2024, 2026, …); week 1's Monday may lie in
        // the December before: 2024-12-30 (of 2025's week 1), none in 2026, 2028-01-03, 2030-12-30.
        #expect(
            expand(["DTSTART:20241230T090000Z", "RRULE:FREQ=YEARLY;INTERVAL=2;BYWEEKNO=1;BYDAY=MO;COUNT=4"]).starts
                == ["20241230T090000", "20280103T090000", "20301230T090000", "20340102T090000"])
    }
}

/// libical reads `0MO` as plain Monday; the reader puts the written zero back, element by element, in
/// any case.
@Test(arguments: ["FREQ=MONTHLY;BYDAY=0MO,TU,+00FR,-1SA", "freq=monthly;byday=0mo,tu,+00fr,-1sa"])
func explicitZeroOrdinalsAreKeptAsWritten(_ text: String) throws {
    let rule = try #require(Libical.parseRecurrence(text))
    #expect(rule.byDay.map(\.ordinal) == [0, nil, 0, -1])
    #expect(rule.byDay.map(\.weekday) == [.monday, .tuesday, .friday, .saturday])
}

/// The premise of reading BYDAY's zeros as ASCII bytes: libical refuses rule text that is not ASCII.
@Test(arguments: ["FREQ=MONTHLY;X-NOTE=é;BYDAY=0MO", "FREQ=MONTHLY;BYDAY=0MO,TU\u{A0}", "FREQ=WEEKLY;BYDAY=０MO"])
func libicalRefusesRuleTextThatIsNotASCII(_ text: String) {
    #expect(Libical.parseRecurrence(text) == nil)
}

/// libical fills in Monday when WKST is absent; the model keeps a WKST only where the text says one,
/// in any case.
@Test(arguments: [
    ("FREQ=WEEKLY;BYDAY=TU", nil), ("FREQ=WEEKLY;WKST=SU;BYDAY=TU", Weekday.sunday),
    ("freq=weekly;wkst=su;byday=tu", Weekday.sunday), ("FREQ=WEEKLY;BYDAY=TU;WkSt=MO", Weekday.monday),
])
func aWeekStartIsKeptOnlyWhereWritten(_ text: String, _ expected: Weekday?) throws {
    let rule = try #require(Libical.parseRecurrence(text))
    #expect(rule.weekStart == expected)
}
