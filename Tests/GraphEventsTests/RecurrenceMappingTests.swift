import CalendarModel
import Testing

@testable import GraphEvents

/// A seriesMaster starting `start` (Pacific) with the given pattern and range members.
private func master(start: String = "2026-11-30T09:00:00", pattern: String, range: String) -> String {
    """
    {"id": "M", "type": "seriesMaster", "start": {"dateTime": "\(start)", "timeZone": "Pacific Standard Time"},
     "end": {"dateTime": "\(start.prefix(11))10:00:00", "timeZone": "Pacific Standard Time"},
     "recurrence": {"pattern": {\(pattern)}, "range": {\(range)}}}
    """
}

private func rule(_ json: String) throws -> (RecurrenceRule, Event) {
    let result = readGraph(json)
    let event = try #require(result.events.first)
    return (try #require(event.recurrenceRules.first), event)
}

/// Each Graph pattern and range type and the RRULE RFC 5545 needs for the same occurrences.
@Suite struct GraphToRuleTests {
    @Test func dailyNumbered() throws {
        let (rule, _) = try rule(
            master(
                pattern: #""type": "daily", "interval": 2"#,
                range: #""type": "numbered", "startDate": "2026-11-30", "numberOfOccurrences": 10"#))
        #expect(rule == RecurrenceRule(frequency: .daily, interval: 2, end: .count(10)))
    }

    @Test func weeklyNoEnd() throws {
        let (rule, _) = try rule(
            master(
                pattern:
                    #""type": "weekly", "interval": 2, "daysOfWeek": ["monday", "wednesday", "friday"], "firstDayOfWeek": "monday""#,
                range: #""type": "noEnd", "startDate": "2026-11-30""#))
        #expect(
            rule
                == RecurrenceRule(
                    frequency: .weekly, interval: 2,
                    byDay: [WeekdayNumber(.monday), WeekdayNumber(.wednesday), WeekdayNumber(.friday)],
                    weekStart: .monday))
    }

    @Test func absoluteMonthly() throws {
        let (rule, _) = try rule(
            master(
                start: "2026-12-15T09:00:00", pattern: #""type": "absoluteMonthly", "interval": 1, "dayOfMonth": 15"#,
                range: #""type": "noEnd", "startDate": "2026-12-15""#))
        #expect(rule == RecurrenceRule(frequency: .monthly, byMonthDay: [15]))
    }

    @Test func absoluteMonthlyOnThe31stFallsBackInShortMonths() throws {
        // Graph puts "day 31" on the last day of shorter months; BYMONTHDAY=31 alone would skip them.
        // From 2027-02-01 the first occurrence is then 28 February, which must become DTSTART.
        let (rule, event) = try rule(
            master(
                start: "2027-02-01T09:00:00", pattern: #""type": "absoluteMonthly", "interval": 1, "dayOfMonth": 31"#,
                range: #""type": "noEnd", "startDate": "2027-02-01""#))
        #expect(rule == RecurrenceRule(frequency: .monthly, byMonthDay: [28, 29, 30, 31], bySetPosition: [-1]))
        #expect(event.start == inPacific(2027, 2, 28, 9))
        #expect(event.end == .end(inPacific(2027, 2, 28, 10)))
    }

    @Test func relativeMonthlyWithSeveralDaysUsesASetPosition() throws {
        let (rule, _) = try rule(
            master(
                start: "2026-12-03T09:00:00",
                pattern:
                    #""type": "relativeMonthly", "interval": 1, "daysOfWeek": ["thursday", "friday"], "index": "first""#,
                range: #""type": "noEnd", "startDate": "2026-12-03""#))
        #expect(
            rule
                == RecurrenceRule(
                    frequency: .monthly, byDay: [WeekdayNumber(.thursday), WeekdayNumber(.friday)], bySetPosition: [1]))
    }

    @Test func relativeMonthlyOnTheLastTuesday() throws {
        let (rule, event) = try rule(
            master(
                start: "2026-11-30T09:00:00",
                pattern: #""type": "relativeMonthly", "interval": 3, "daysOfWeek": ["tuesday"], "index": "last""#,
                range: #""type": "noEnd", "startDate": "2026-11-30""#))
        #expect(rule == RecurrenceRule(frequency: .monthly, interval: 3, byDay: [WeekdayNumber(.tuesday, ordinal: -1)]))
        // The last Tuesday of November 2026 (the 24th) is past and the pattern repeats every third
        // month counted from November, so the first occurrence is the last Tuesday of February 2027.
        #expect(event.start == inPacific(2027, 2, 23, 9))
    }

    @Test func absoluteYearlyOn29February() throws {
        let (rule, _) = try rule(
            master(
                start: "2028-02-29T09:00:00",
                pattern: #""type": "absoluteYearly", "interval": 1, "month": 2, "dayOfMonth": 29"#,
                range: #""type": "noEnd", "startDate": "2028-02-29""#))
        #expect(rule == RecurrenceRule(frequency: .yearly, byMonthDay: [28, 29], byMonth: [2], bySetPosition: [-1]))
    }

    @Test func relativeYearlyWhoseStartDateIsNotAnOccurrence() throws {
        // US Thanksgiving: the fourth Thursday of November; range.startDate 1 November 2026 is a
        // Sunday, and RFC 5545 would count DTSTART as an occurrence, so DTSTART moves to 26 November.
        let result = readGraph(
            master(
                start: "2026-11-01T12:00:00",
                pattern:
                    #""type": "relativeYearly", "interval": 1, "month": 11, "daysOfWeek": ["thursday"], "index": "fourth""#,
                range: #""type": "noEnd", "startDate": "2026-11-01""#))
        let event = try #require(result.events.first)
        #expect(
            event.recurrenceRules == [
                RecurrenceRule(frequency: .yearly, byDay: [WeekdayNumber(.thursday, ordinal: 4)], byMonth: [11])
            ])
        #expect(event.start == inPacific(2026, 11, 26, 12))
        #expect(result.diagnostics.map(\.code) == ["graph-start-moved"])
    }

    @Test func endDateIsTheEndOfThatDayInTheRecurrenceZone() throws {
        // 2026-12-04 23:59:59 in Tokyo (UTC+9) is 14:59:59 UTC.
        let (rule, _) = try rule(
            master(
                pattern: #""type": "daily", "interval": 1"#,
                range:
                    #""type": "endDate", "startDate": "2026-11-30", "endDate": "2026-12-04", "recurrenceTimeZone": "Tokyo Standard Time""#
            ))
        #expect(rule.end == .until(utc(2026, 12, 4, 14, 59, 59)))
    }

    @Test func allDaySeriesEndsOnADate() throws {
        let json = """
            {"isAllDay": true, "start": {"dateTime": "2026-12-01T00:00:00.0000000", "timeZone": "Pacific Standard Time"},
             "end": {"dateTime": "2026-12-02T00:00:00.0000000", "timeZone": "Pacific Standard Time"},
             "recurrence": {"pattern": {"type": "daily", "interval": 1}, "range": {"type": "endDate", "startDate": "2026-12-01", "endDate": "2026-12-05"}}}
            """
        let event = try #require(readGraph(json).events.first)
        #expect(event.start == .date(date(2026, 12, 1)) && event.end == .end(.date(date(2026, 12, 2))))
        #expect(event.recurrenceRules == [RecurrenceRule(frequency: .daily, end: .until(.date(date(2026, 12, 5))))])
    }

    @Test func invalidPatternsKeepTheEventWithoutRecurrence() throws {
        let cases = [
            (#""type": "weekly", "interval": 1000000000000, "daysOfWeek": ["monday"]"#, "$.recurrence"),
            (#""type": "relativeMonthly", "interval": 1"#, "$.recurrence"),
            (#""type": "fortnightly""#, "$.recurrence.pattern.type"),
        ]
        for (pattern, path) in cases {
            let result = readGraph(master(pattern: pattern, range: #""type": "noEnd", "startDate": "2026-11-30""#))
            #expect(result.events.first?.recurrenceRules == [])
            #expect(result.diagnostics.first?.location.jsonPath == path, "\(pattern)")
        }
    }

    @Test func cancelledOccurrencesAndASeparateException() throws {
        // The exception's originalStart is UTC; the RECURRENCE-ID takes the master's Pacific form.
        let json = """
            [{"id": "M", "iCalUId": "U", "type": "seriesMaster", "subject": "Stand-up",
              "start": {"dateTime": "2026-11-30T08:00:00", "timeZone": "Pacific Standard Time"},
              "end": {"dateTime": "2026-11-30T08:15:00", "timeZone": "Pacific Standard Time"},
              "recurrence": {"pattern": {"type": "daily", "interval": 1}, "range": {"type": "noEnd", "startDate": "2026-11-30"}},
              "cancelledOccurrences": ["OID.M.2026-12-03"]},
             {"id": "X", "type": "exception", "seriesMasterId": "M", "subject": "Stand-up (moved)", "originalStart": "2026-12-02T16:00:00Z",
              "start": {"dateTime": "2026-12-02T10:00:00", "timeZone": "Pacific Standard Time"},
              "end": {"dateTime": "2026-12-02T10:15:00", "timeZone": "Pacific Standard Time"}},
             {"id": "O", "type": "occurrence", "seriesMasterId": "M", "start": {"dateTime": "2026-12-01T16:00:00"}, "end": {"dateTime": "2026-12-01T16:15:00"}}]
            """
        let result = readGraph(json)
        #expect(result.diagnostics == [])
        #expect(result.events.count == 2)  // the plain occurrence is the RRULE's
        #expect(result.events[0].exceptionDates == [inPacific(2026, 12, 3, 8)])
        let moved = result.events[1]
        #expect(moved.uid == "U" && moved.recurrenceID == RecurrenceIdentifier(time: inPacific(2026, 12, 2, 8)))
        #expect(moved.start == inPacific(2026, 12, 2, 10))
    }
}

/// Model → Graph: the `patternedRecurrence` each rule becomes, on a series starting Monday 2026-11-30 09:00 Pacific.
@Suite struct RuleToGraphTests {
    private func recurrence(_ rule: RecurrenceRule, start: CalendarTime = inPacific(2026, 11, 30, 9)) -> JSONValue? {
        var event = Event(uid: "u")
        event.start = start
        event.recurrenceRules = [rule]
        return GraphEventWriter(style: .post).write([event]).output.first?["recurrence"]
    }

    private let noEnd: JSONValue = [
        "type": "noEnd", "startDate": "2026-11-30", "recurrenceTimeZone": "Pacific Standard Time",
    ]

    @Test func daily() {
        #expect(
            recurrence(RecurrenceRule(frequency: .daily, interval: 3, end: .count(5))) == [
                "pattern": ["type": "daily", "interval": 3],
                "range": [
                    "type": "numbered", "startDate": "2026-11-30", "recurrenceTimeZone": "Pacific Standard Time",
                    "numberOfOccurrences": 5,
                ],
            ])
    }

    @Test func weeklyAndDailyOnWeekdays() {
        let expected: JSONValue = [
            "pattern": [
                "type": "weekly", "interval": 1, "daysOfWeek": ["monday", "tuesday"], "firstDayOfWeek": "monday",
            ], "range": noEnd,
        ]
        #expect(
            recurrence(RecurrenceRule(frequency: .weekly, byDay: [WeekdayNumber(.monday), WeekdayNumber(.tuesday)]))
                == expected)
        #expect(
            recurrence(RecurrenceRule(frequency: .daily, byDay: [WeekdayNumber(.monday), WeekdayNumber(.tuesday)]))
                == expected)
        // WEEKLY without BYDAY repeats on DTSTART's weekday.
        #expect(
            recurrence(RecurrenceRule(frequency: .weekly, weekStart: .sunday)) == [
                "pattern": ["type": "weekly", "interval": 1, "daysOfWeek": ["monday"], "firstDayOfWeek": "sunday"],
                "range": noEnd,
            ])
    }

    @Test func absoluteMonthly() {
        // Day 30 every month: Graph would put it on 28 February, a month the RRULE skips (#19).
        #expect(recurrence(RecurrenceRule(frequency: .monthly)) == nil)
        #expect(
            recurrence(RecurrenceRule(frequency: .monthly, byMonthDay: [28])) == [
                "pattern": ["type": "absoluteMonthly", "interval": 1, "dayOfMonth": 28], "range": noEnd,
            ])
        let last: JSONValue = [
            "pattern": ["type": "absoluteMonthly", "interval": 1, "dayOfMonth": 31], "range": noEnd,
        ]
        #expect(recurrence(RecurrenceRule(frequency: .monthly, byMonthDay: [-1])) == last)
        #expect(
            recurrence(RecurrenceRule(frequency: .monthly, byMonthDay: [28, 29, 30, 31], bySetPosition: [-1])) == last)
    }

    @Test func relativeMonthly() {
        #expect(
            recurrence(RecurrenceRule(frequency: .monthly, byDay: [WeekdayNumber(.monday, ordinal: -1)])) == [
                "pattern": ["type": "relativeMonthly", "interval": 1, "daysOfWeek": ["monday"], "index": "last"],
                "range": noEnd,
            ])
        #expect(
            recurrence(
                RecurrenceRule(
                    frequency: .monthly, byDay: [WeekdayNumber(.monday), WeekdayNumber(.friday)], bySetPosition: [2]))
                == [
                    "pattern": [
                        "type": "relativeMonthly", "interval": 1, "daysOfWeek": ["monday", "friday"], "index": "second",
                    ], "range": noEnd,
                ])
    }

    @Test func absoluteAndRelativeYearly() {
        #expect(
            recurrence(RecurrenceRule(frequency: .yearly, interval: 2)) == [
                "pattern": ["type": "absoluteYearly", "interval": 2, "month": 11, "dayOfMonth": 30], "range": noEnd,
            ])
        #expect(
            recurrence(RecurrenceRule(frequency: .yearly, byDay: [WeekdayNumber(.monday, ordinal: -1)], byMonth: [11]))
                == [
                    "pattern": [
                        "type": "relativeYearly", "interval": 1, "month": 11, "daysOfWeek": ["monday"], "index": "last",
                    ], "range": noEnd,
                ])
    }

    @Test func untilBecomesAnInclusiveLocalEndDate() {
        func endDate(_ until: CalendarTime) -> JSONValue? {
            recurrence(RecurrenceRule(frequency: .daily, end: .until(until)))?["range"]?["endDate"]
        }
        // 09:00 PST is 17:00 UTC: an UNTIL at or after it includes that day, one before it does not.
        #expect(endDate(utc(2026, 12, 4, 17)) == "2026-12-04")
        #expect(endDate(utc(2026, 12, 5, 7, 59, 59)) == "2026-12-04")
        #expect(endDate(utc(2026, 12, 4, 16, 59, 59)) == "2026-12-03")
        #expect(
            recurrence(RecurrenceRule(frequency: .daily, end: .until(utc(2026, 12, 4, 17))))?["range"]?["type"]
                == "endDate")
    }
}

/// Every kind of rule Graph cannot hold is refused with a message naming the rule and the reason.
@Suite struct RefusedRuleTests {
    private func refusal(_ configure: (inout Event) -> Void) -> (values: [JSONValue], diagnostic: Diagnostic?) {
        var event = Event(uid: "r")
        event.start = inPacific(2026, 11, 30, 9)
        configure(&event)
        var override = event
        override.recurrenceID = RecurrenceIdentifier(time: inPacific(2026, 12, 1, 9))
        let result = GraphEventWriter(style: .post).write([event, override])
        return (result.output, result.diagnostics.first { $0.severity == .error })
    }

    private func expectRefused(_ rule: RecurrenceRule, code: String, message: String) {
        let (values, diagnostic) = refusal { $0.recurrenceRules = [rule] }
        #expect(values.isEmpty, "the whole series, overrides included, is left out")
        #expect(diagnostic?.code == code)
        #expect(diagnostic?.message == message)
        #expect(diagnostic?.uid == "r")
    }

    @Test func subDailyFrequencies() {
        expectRefused(
            RecurrenceRule(frequency: .hourly, interval: 2), code: "graph-unsupported-frequency",
            message:
                "RRULE:FREQ=HOURLY;INTERVAL=2 cannot be written to Graph: Graph repeats daily at most often; the series is left out"
        )
        expectRefused(
            RecurrenceRule(frequency: .minutely), code: "graph-unsupported-frequency",
            message:
                "RRULE:FREQ=MINUTELY cannot be written to Graph: Graph repeats daily at most often; the series is left out"
        )
        expectRefused(
            RecurrenceRule(frequency: .secondly), code: "graph-unsupported-frequency",
            message:
                "RRULE:FREQ=SECONDLY cannot be written to Graph: Graph repeats daily at most often; the series is left out"
        )
    }

    @Test func weekNumbersAndYearDays() {
        expectRefused(
            RecurrenceRule(frequency: .yearly, byWeekNumber: [20]), code: "graph-unsupported-by-week-number",
            message:
                "RRULE:FREQ=YEARLY;BYWEEKNO=20 cannot be written to Graph: Graph has no week-number pattern (BYWEEKNO); the series is left out"
        )
        expectRefused(
            RecurrenceRule(frequency: .yearly, byYearDay: [100]), code: "graph-unsupported-by-year-day",
            message:
                "RRULE:FREQ=YEARLY;BYYEARDAY=100 cannot be written to Graph: Graph has no day-of-year pattern (BYYEARDAY); the series is left out"
        )
    }

    @Test func severalMonthDaysOrMonths() {
        expectRefused(
            RecurrenceRule(frequency: .monthly, byMonthDay: [1, 15]), code: "graph-unsupported-by-month-day",
            message:
                "RRULE:FREQ=MONTHLY;BYMONTHDAY=1,15 cannot be written to Graph: Graph repeats on one day of the month only; the series is left out"
        )
        expectRefused(
            RecurrenceRule(frequency: .yearly, byMonthDay: [1], byMonth: [1, 7]), code: "graph-unsupported-by-month",
            message:
                "RRULE:FREQ=YEARLY;BYMONTHDAY=1;BYMONTH=1,7 cannot be written to Graph: Graph repeats in one month of the year only; the series is left out"
        )
    }

    @Test func fifthWeekday() {
        expectRefused(
            RecurrenceRule(frequency: .monthly, byDay: [WeekdayNumber(.friday, ordinal: 5)]),
            code: "graph-unsupported-ordinal",
            message:
                "RRULE:FREQ=MONTHLY;BYDAY=5FR cannot be written to Graph: Graph picks the first to fourth or the last weekday, not position 5; the series is left out"
        )
    }

    /// Of several positions Graph has no pattern for, the first the rule gives is named, in every run:
    /// gathered into a `Set`, the one named followed the process's hash seed.
    @Test func theFirstOfSeveralPositionsIsNamed() {
        expectRefused(
            RecurrenceRule(
                frequency: .yearly,
                byDay: [WeekdayNumber(.monday, ordinal: 10), WeekdayNumber(.thursday, ordinal: -10)]),
            code: "graph-unsupported-ordinal",
            message:
                "RRULE:FREQ=YEARLY;BYDAY=10MO,-10TH cannot be written to Graph: Graph picks the first to fourth or the last weekday, not position 10; the series is left out"
        )
    }

    @Test func timesOfDayAndShapesGraphHasNoPatternFor() {
        expectRefused(
            RecurrenceRule(frequency: .daily, byHour: [9, 17]), code: "graph-unsupported-by-time",
            message:
                "RRULE:FREQ=DAILY;BYHOUR=9,17 cannot be written to Graph: Graph repeats at the start time only (BYHOUR, BYMINUTE, BYSECOND); the series is left out"
        )
        expectRefused(
            RecurrenceRule(
                frequency: .monthly, byDay: [WeekdayNumber(.monday, ordinal: 1), WeekdayNumber(.tuesday, ordinal: 2)]),
            code: "graph-unsupported-by-day",
            message:
                "RRULE:FREQ=MONTHLY;BYDAY=1MO,2TU cannot be written to Graph: Graph picks one position among the weekdays, e.g. BYDAY=TH,FR;BYSETPOS=1; the series is left out"
        )
        expectRefused(
            RecurrenceRule(frequency: .yearly, byDay: [WeekdayNumber(.monday, ordinal: 1)]),
            code: "graph-unsupported-combination",
            message:
                "RRULE:FREQ=YEARLY;BYDAY=1MO cannot be written to Graph: Graph picks weekdays within a month, not within a year; the series is left out"
        )
    }

    @Test func intervalBeyondGraphsLimits() {
        expectRefused(
            RecurrenceRule(frequency: .weekly, interval: 100), code: "graph-interval-out-of-range",
            message:
                "RRULE:FREQ=WEEKLY;INTERVAL=100 cannot be written to Graph: Graph accepts an interval of 1 to 99 for this frequency; the series is left out"
        )
    }

    @Test func extraDatesExceptionRulesAndSeveralRules() {
        let daily = RecurrenceRule(frequency: .daily)
        let rdate = refusal {
            $0.recurrenceRules = [daily]
            $0.recurrenceDates = [.time(inPacific(2026, 12, 24, 9))]
        }
        #expect(rdate.diagnostic?.code == "graph-unsupported-rdate")
        #expect(
            rdate.diagnostic?.message
                == "RRULE:FREQ=DAILY cannot be written to Graph: Graph has no extra dates (RDATE) in a series; the series is left out"
        )
        let exrule = refusal {
            $0.recurrenceRules = [daily]
            $0.exceptionRules = [RecurrenceRule(frequency: .weekly, byDay: [WeekdayNumber(.sunday)])]
        }
        #expect(
            exrule.diagnostic?.message
                == "RRULE:FREQ=DAILY cannot be written to Graph: Graph has no exception rules (EXRULE); the series is left out"
        )
        let several = refusal { $0.recurrenceRules = [daily, RecurrenceRule(frequency: .weekly)] }
        #expect(several.diagnostic?.code == "graph-multiple-rrules")
        #expect(
            several.diagnostic?.message
                == "RRULE:FREQ=DAILY cannot be written to Graph: Graph holds one recurrence pattern per series, not 2 RRULEs; the series is left out"
        )
        #expect(rdate.values.isEmpty && exrule.values.isEmpty && several.values.isEmpty)
    }
}
