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
        func daylight(_ start: LocalDateTime, _ rule: RecurrenceRule?, dates: [LocalDateTime] = [])
            -> TimeZoneObservance
        {
            TimeZoneObservance(
                kind: .daylight, start: start, offsetFrom: -18000, offsetTo: -14400, rule: rule, dates: dates)
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
            RecurrenceRule(
                frequency: .yearly, byDay: [WeekdayNumber(.sunday)], byMonthDay: Array(2...8), byMonth: [month])
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
        let rule = RecurrenceRule(
            frequency: .yearly, end: .count(3), byDay: [WeekdayNumber(.sunday, ordinal: -1)], byMonth: [3])
        let evaluator = YearlyRuleEvaluator(rule: rule, start: LocalDateTime("2020-03-29T02:00"), offsetFrom: 3600)
        // Last Sundays of March 2021 and 2022 (the third occurrence is 2022's), none in 2023.
        #expect(
            evaluator.occurrences(in: 2021...2023) == [
                LocalDateTime("2021-03-28T02:00"), LocalDateTime("2022-03-27T02:00"),
            ])
    }

    static let newYorkChanges: [[Int]] = [
        [9_961_200, -14400],
        [25_682_400, -18000],
        [41_410_800, -14400],
        [57_736_800, -18000],
        [73_465_200, -14400],
        [89_186_400, -18000],
        [104_914_800, -14400],
        [120_636_000, -18000],
        [126_687_600, -14400],
        [152_085_600, -18000],
        [162_370_800, -14400],
        [183_535_200, -18000],
        [199_263_600, -14400],
        [215_589_600, -18000],
        [230_713_200, -14400],
        [247_039_200, -18000],
        [262_767_600, -14400],
        [278_488_800, -18000],
        [294_217_200, -14400],
        [309_938_400, -18000],
        [325_666_800, -14400],
        [341_388_000, -18000],
        [357_116_400, -14400],
        [372_837_600, -18000],
        [388_566_000, -14400],
        [404_892_000, -18000],
        [420_015_600, -14400],
        [436_341_600, -18000],
        [452_070_000, -14400],
        [467_791_200, -18000],
        [483_519_600, -14400],
        [499_240_800, -18000],
        [514_969_200, -14400],
        [530_690_400, -18000],
        [544_604_400, -14400],
        [562_140_000, -18000],
        [576_054_000, -14400],
        [594_194_400, -18000],
        [607_503_600, -14400],
        [625_644_000, -18000],
        [638_953_200, -14400],
        [657_093_600, -18000],
        [671_007_600, -14400],
        [688_543_200, -18000],
        [702_457_200, -14400],
        [719_992_800, -18000],
        [733_906_800, -14400],
        [752_047_200, -18000],
        [765_356_400, -14400],
        [783_496_800, -18000],
        [796_806_000, -14400],
        [814_946_400, -18000],
        [828_860_400, -14400],
        [846_396_000, -18000],
        [860_310_000, -14400],
        [877_845_600, -18000],
        [891_759_600, -14400],
        [909_295_200, -18000],
        [923_209_200, -14400],
        [941_349_600, -18000],
        [954_658_800, -14400],
        [972_799_200, -18000],
        [986_108_400, -14400],
        [1_004_248_800, -18000],
        [1_018_162_800, -14400],
        [1_035_698_400, -18000],
        [1_049_612_400, -14400],
        [1_067_148_000, -18000],
        [1_081_062_000, -14400],
        [1_099_202_400, -18000],
        [1_112_511_600, -14400],
        [1_130_652_000, -18000],
        [1_143_961_200, -14400],
        [1_162_101_600, -18000],
        [1_173_596_400, -14400],
        [1_194_156_000, -18000],
        [1_205_046_000, -14400],
        [1_225_605_600, -18000],
        [1_236_495_600, -14400],
        [1_257_055_200, -18000],
        [1_268_550_000, -14400],
        [1_289_109_600, -18000],
        [1_299_999_600, -14400],
        [1_320_559_200, -18000],
        [1_331_449_200, -14400],
        [1_352_008_800, -18000],
        [1_362_898_800, -14400],
        [1_383_458_400, -18000],
        [1_394_348_400, -14400],
        [1_414_908_000, -18000],
        [1_425_798_000, -14400],
        [1_446_357_600, -18000],
        [1_457_852_400, -14400],
        [1_478_412_000, -18000],
        [1_489_302_000, -14400],
        [1_509_861_600, -18000],
        [1_520_751_600, -14400],
        [1_541_311_200, -18000],
        [1_552_201_200, -14400],
        [1_572_760_800, -18000],
        [1_583_650_800, -14400],
        [1_604_210_400, -18000],
        [1_615_705_200, -14400],
        [1_636_264_800, -18000],
        [1_647_154_800, -14400],
        [1_667_714_400, -18000],
        [1_678_604_400, -14400],
        [1_699_164_000, -18000],
        [1_710_054_000, -14400],
        [1_730_613_600, -18000],
        [1_741_503_600, -14400],
        [1_762_063_200, -18000],
        [1_772_953_200, -14400],
        [1_793_512_800, -18000],
        [1_805_007_600, -14400],
        [1_825_567_200, -18000],
        [1_836_457_200, -14400],
        [1_857_016_800, -18000],
        [1_867_906_800, -14400],
        [1_888_466_400, -18000],
        [1_899_356_400, -14400],
        [1_919_916_000, -18000],
    ]

    static let santiagoChanges: [[Int]] = [
        [1_680_404_400, -14400],
        [1_693_713_600, -10800],
        [1_712_458_800, -14400],
        [1_725_768_000, -10800],
        [1_743_908_400, -14400],
        [1_757_217_600, -10800],
        [1_775_358_000, -14400],
        [1_788_667_200, -10800],
        [1_806_807_600, -14400],
        [1_820_116_800, -10800],
        [1_838_257_200, -14400],
        [1_851_566_400, -10800],
        [1_870_311_600, -14400],
        [1_883_016_000, -10800],
        [1_901_761_200, -14400],
        [1_915_070_400, -10800],
    ]
}
