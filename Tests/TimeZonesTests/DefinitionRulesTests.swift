import CalendarModel
import Testing

@testable import TimeZones

/// VTIMEZONE definitions written by hand (RFC 5545's own example, a tzdata-style "Sun>=2" rule), evaluated
/// by ZoneRules(definition:) and compared with tzdata.
///
/// The expected [UTC seconds, offset after] changes were made with (all changes fall on whole UTC hours):
/// python3 -c "from datetime import datetime as D, timezone as U; from zoneinfo import ZoneInfo as Z
/// for z, a, b in (('America/New_York', 1970, 2031), ('America/Santiago', 2023, 2031)):
///   s, e = (int(D(y, 1, 1, tzinfo=U.utc).timestamp()) for y in (a, b))
///   o = [int(D.fromtimestamp(t, Z(z)).utcoffset().total_seconds()) for t in range(s, e, 3600)]
///   print(z, o[0], [(s + i * 3600, o[i]) for i in range(1, len(o)) if o[i] != o[i - 1]])"
/// which also printed the offsets at the start: -18000 for New York in 1970, -10800 for Santiago in 2023.
@Suite struct DefinitionRulesTests {
    /// RFC 5545 §3.6.5, "Example: ... New York City ... from 1967 until 2007 and after" (the full history
    /// example: yearly rules with UNTIL, a dated DAYLIGHT with an RDATE, and the 2007 rules).
    static let rfcNewYork: TimeZoneDefinition = {
        func yearly(_ month: Int, _ ordinal: Int, until: LocalDateTime? = nil) -> RecurrenceRule {
            RecurrenceRule(
                frequency: .yearly, end: until.map { .until(.utc($0)) } ?? .never,
                byDay: [WeekdayNumber(.sunday, ordinal: ordinal)], byMonth: [month])
        }
        func daylight(_ start: LocalDateTime, _ rule: RecurrenceRule?, dates: [LocalDateTime] = []) -> TimeZoneObservance {
            TimeZoneObservance(kind: .daylight, start: start, offsetFrom: -18000, offsetTo: -14400, rule: rule, dates: dates)
        }
        func standard(_ start: LocalDateTime, _ rule: RecurrenceRule) -> TimeZoneObservance {
            TimeZoneObservance(kind: .standard, start: start, offsetFrom: -14400, offsetTo: -18000, rule: rule)
        }
        return TimeZoneDefinition(
            identifier: "America/New_York",
            observances: [
                daylight(LocalDateTime("1967-04-30T02:00"), yearly(4, -1, until: LocalDateTime("1973-04-29T07:00"))),
                standard(LocalDateTime("1967-10-29T02:00"), yearly(10, -1, until: LocalDateTime("2006-10-29T06:00"))),
                daylight(LocalDateTime("1974-01-06T02:00"), nil, dates: [LocalDateTime("1975-02-23T02:00")]),
                daylight(LocalDateTime("1976-04-25T02:00"), yearly(4, -1, until: LocalDateTime("1986-04-27T07:00"))),
                daylight(LocalDateTime("1987-04-05T02:00"), yearly(4, 1, until: LocalDateTime("2006-04-02T07:00"))),
                daylight(LocalDateTime("2007-03-11T02:00"), yearly(3, 2)),
                standard(LocalDateTime("2007-11-04T02:00"), yearly(11, 1)),
            ])
    }()

    /// Chile's rules as tzdata states them ("Apr Sun>=2", "Sep Sun>=2", both at local midnight), written as
    /// BYMONTHDAY=2,…,8 with BYDAY=SU.
    static let santiago: TimeZoneDefinition = {
        func sundayOnOrAfterSecond(_ month: Int) -> RecurrenceRule {
            RecurrenceRule(frequency: .yearly, byDay: [WeekdayNumber(.sunday)], byMonthDay: Array(2...8), byMonth: [month])
        }
        return TimeZoneDefinition(
            identifier: "Chile",
            observances: [
                TimeZoneObservance(
                    kind: .standard, start: LocalDateTime("2023-04-02T00:00"), offsetFrom: -10800, offsetTo: -14400,
                    rule: sundayOnOrAfterSecond(4)),
                TimeZoneObservance(
                    kind: .daylight, start: LocalDateTime("2023-09-03T00:00"), offsetFrom: -14400, offsetTo: -10800,
                    rule: sundayOnOrAfterSecond(9)),
            ])
    }()

    @Test func rfcExampleGivesTzdataNewYork() {
        let rules = ZoneRules(definition: Self.rfcNewYork, years: 1970...2030)
        #expect(rules.offset(atUTCSeconds: YearBounds.start(of: 1970)) == -18000)
        #expect(rules.transitions(in: 1970...2030).map { [$0.utcSeconds, $0.offsetAfter] } == Self.newYorkChanges)
    }

    /// The same rules evaluated without a precomputed window, year by year from the definition itself.
    @Test func evaluationOutsideTheWindowAgrees() {
        let rules = ZoneRules(definition: Self.rfcNewYork, years: 2030...2030)
        for change in Self.newYorkChanges {
            #expect(rules.offset(atUTCSeconds: change[0]) == change[1])
            #expect(rules.offset(atUTCSeconds: change[0] - 1) != change[1])
        }
    }

    @Test func monthDayListRuleGivesTzdataSantiago() {
        let rules = ZoneRules(definition: Self.santiago, years: 2023...2030)
        #expect(rules.offset(atUTCSeconds: YearBounds.start(of: 2023)) == -10800)
        #expect(rules.transitions(in: 2023...2030).map { [$0.utcSeconds, $0.offsetAfter] } == Self.santiagoChanges)
    }

    /// COUNT counts from DTSTART, even when the years asked for start later.
    @Test func countEndsTheRule() {
        let rule = RecurrenceRule(frequency: .yearly, end: .count(3), byDay: [WeekdayNumber(.sunday, ordinal: -1)], byMonth: [3])
        let evaluator = YearlyRuleEvaluator(rule: rule, start: LocalDateTime("2020-03-29T02:00"), offsetFrom: 3600)
        // Last Sundays of March 2021 and 2022 (the third occurrence is 2022's), none in 2023.
        #expect(
            evaluator.occurrences(in: 2021...2023) == [LocalDateTime("2021-03-28T02:00"), LocalDateTime("2022-03-27T02:00")])
    }

    static let newYorkChanges: [[Int]] = [
        [9961200, -14400],
        [25682400, -18000],
        [41410800, -14400],
        [57736800, -18000],
        [73465200, -14400],
        [89186400, -18000],
        [104914800, -14400],
        [120636000, -18000],
        [126687600, -14400],
        [152085600, -18000],
        [162370800, -14400],
        [183535200, -18000],
        [199263600, -14400],
        [215589600, -18000],
        [230713200, -14400],
        [247039200, -18000],
        [262767600, -14400],
        [278488800, -18000],
        [294217200, -14400],
        [309938400, -18000],
        [325666800, -14400],
        [341388000, -18000],
        [357116400, -14400],
        [372837600, -18000],
        [388566000, -14400],
        [404892000, -18000],
        [420015600, -14400],
        [436341600, -18000],
        [452070000, -14400],
        [467791200, -18000],
        [483519600, -14400],
        [499240800, -18000],
        [514969200, -14400],
        [530690400, -18000],
        [544604400, -14400],
        [562140000, -18000],
        [576054000, -14400],
        [594194400, -18000],
        [607503600, -14400],
        [625644000, -18000],
        [638953200, -14400],
        [657093600, -18000],
        [671007600, -14400],
        [688543200, -18000],
        [702457200, -14400],
        [719992800, -18000],
        [733906800, -14400],
        [752047200, -18000],
        [765356400, -14400],
        [783496800, -18000],
        [796806000, -14400],
        [814946400, -18000],
        [828860400, -14400],
        [846396000, -18000],
        [860310000, -14400],
        [877845600, -18000],
        [891759600, -14400],
        [909295200, -18000],
        [923209200, -14400],
        [941349600, -18000],
        [954658800, -14400],
        [972799200, -18000],
        [986108400, -14400],
        [1004248800, -18000],
        [1018162800, -14400],
        [1035698400, -18000],
        [1049612400, -14400],
        [1067148000, -18000],
        [1081062000, -14400],
        [1099202400, -18000],
        [1112511600, -14400],
        [1130652000, -18000],
        [1143961200, -14400],
        [1162101600, -18000],
        [1173596400, -14400],
        [1194156000, -18000],
        [1205046000, -14400],
        [1225605600, -18000],
        [1236495600, -14400],
        [1257055200, -18000],
        [1268550000, -14400],
        [1289109600, -18000],
        [1299999600, -14400],
        [1320559200, -18000],
        [1331449200, -14400],
        [1352008800, -18000],
        [1362898800, -14400],
        [1383458400, -18000],
        [1394348400, -14400],
        [1414908000, -18000],
        [1425798000, -14400],
        [1446357600, -18000],
        [1457852400, -14400],
        [1478412000, -18000],
        [1489302000, -14400],
        [1509861600, -18000],
        [1520751600, -14400],
        [1541311200, -18000],
        [1552201200, -14400],
        [1572760800, -18000],
        [1583650800, -14400],
        [1604210400, -18000],
        [1615705200, -14400],
        [1636264800, -18000],
        [1647154800, -14400],
        [1667714400, -18000],
        [1678604400, -14400],
        [1699164000, -18000],
        [1710054000, -14400],
        [1730613600, -18000],
        [1741503600, -14400],
        [1762063200, -18000],
        [1772953200, -14400],
        [1793512800, -18000],
        [1805007600, -14400],
        [1825567200, -18000],
        [1836457200, -14400],
        [1857016800, -18000],
        [1867906800, -14400],
        [1888466400, -18000],
        [1899356400, -14400],
        [1919916000, -18000],
    ]

    static let santiagoChanges: [[Int]] = [
        [1680404400, -14400],
        [1693713600, -10800],
        [1712458800, -14400],
        [1725768000, -10800],
        [1743908400, -14400],
        [1757217600, -10800],
        [1775358000, -14400],
        [1788667200, -10800],
        [1806807600, -14400],
        [1820116800, -10800],
        [1838257200, -14400],
        [1851566400, -10800],
        [1870311600, -14400],
        [1883016000, -10800],
        [1901761200, -14400],
        [1915070400, -10800],
    ]
}
