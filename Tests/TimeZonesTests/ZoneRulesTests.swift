import CalendarModel
import Testing

@testable import TimeZones

@Suite struct ZoneRulesTests {
    /// Wall time → UTC seconds (RFC 5545: a gap time is read with the offset before the gap, a fold time is
    /// its first occurrence), and the UTC offset then. Python's fold=0 rule is the same as RFC 5545's.
    /// Made with (cases.txt holds "zone wall-time…" lines):
    /// python3 -c "from datetime import datetime as D; from zoneinfo import ZoneInfo as Z
    /// [print(z, t, int(D.fromisoformat(t).replace(tzinfo=Z(z)).timestamp()),
    ///   int(D.fromtimestamp(int(D.fromisoformat(t).replace(tzinfo=Z(z)).timestamp()), Z(z)).utcoffset().total_seconds()))
    ///  for z, *ts in map(str.split, open('cases.txt')) for t in ts]"
    static let wallTimes: [(zone: String, wall: String, utc: Int, offset: Int)] = [
        ("Europe/Berlin", "2024-03-31T02:30", 1_711_848_600, 7200),
        ("Europe/Berlin", "2024-10-27T02:30", 1_729_989_000, 7200),
        ("Europe/Berlin", "2024-07-01T12:00", 1_719_828_000, 7200),
        ("America/New_York", "2024-03-10T02:30", 1_710_055_800, -14400),
        ("America/New_York", "2024-11-03T01:30", 1_730_611_800, -14400),
        ("America/New_York", "2024-01-15T09:00", 1_705_327_200, -18000),
        ("Australia/Sydney", "2024-10-06T02:30", 1_728_145_800, 39600),
        ("Australia/Sydney", "2024-04-07T02:30", 1_712_417_400, 39600),
        ("Australia/Sydney", "2024-01-15T09:00", 1_705_269_600, 39600),
        ("America/Santiago", "2024-09-08T00:30", 1_725_769_800, -10800),
        ("America/Santiago", "2024-04-06T23:30", 1_712_457_000, -10800),
        ("America/Santiago", "2024-07-01T12:00", 1_719_849_600, -14400),
        ("Asia/Kolkata", "2024-06-01T12:00", 1_717_223_400, 19800),
        ("Asia/Kolkata", "1944-06-01T12:00", -807_388_200, 23400),
        ("Australia/Adelaide", "2024-10-06T02:30", 1_728_147_600, 37800),
        ("Australia/Adelaide", "2024-04-07T02:30", 1_712_419_200, 37800),
        ("Australia/Adelaide", "2024-07-01T12:00", 1_719_801_000, 34200),
        ("Australia/Lord_Howe", "2024-10-06T02:15", 1_728_143_100, 39600),
        ("Australia/Lord_Howe", "2024-04-07T01:45", 1_712_414_700, 39600),
        ("Australia/Lord_Howe", "2024-07-01T12:00", 1_719_797_400, 37800),
        ("Australia/Lord_Howe", "2024-01-15T12:00", 1_705_280_400, 39600),
        ("Europe/Moscow", "2010-03-28T02:30", 1_269_732_600, 14400),
        ("Europe/Moscow", "2010-10-31T02:30", 1_288_477_800, 14400),
        ("Europe/Moscow", "2012-01-15T12:00", 1_326_614_400, 14400),
        ("Europe/Moscow", "2014-10-26T01:30", 1_414_272_600, 14400),
        ("Europe/Moscow", "2015-01-15T12:00", 1_421_312_400, 10800),
        ("America/Sao_Paulo", "2018-11-04T00:30", 1_541_302_200, -7200),
        ("America/Sao_Paulo", "2019-02-16T23:30", 1_550_367_000, -7200),
        ("America/Sao_Paulo", "2019-11-03T00:30", 1_572_751_800, -10800),
        ("America/Sao_Paulo", "2020-01-15T12:00", 1_579_100_400, -10800),
        ("Europe/London", "2024-03-31T01:30", 1_711_848_600, 3600),
        ("Europe/London", "2024-10-27T01:30", 1_729_989_000, 3600),
        ("Asia/Tokyo", "2024-03-31T02:30", 1_711_819_800, 32400),
        ("America/St_Johns", "2024-03-10T02:30", 1_710_050_400, -9000),
        ("America/St_Johns", "2024-11-03T01:30", 1_730_606_400, -9000),
        ("Asia/Kathmandu", "2024-06-01T12:00", 1_717_222_500, 20700),
        ("Pacific/Chatham", "2024-09-29T02:50", 1_727_532_300, 49500),
        ("Pacific/Chatham", "2024-04-07T03:30", 1_712_411_100, 49500),
    ]

    @Test(arguments: wallTimes)
    func wallTimeToUTC(zone: String, wall: String, utc: Int, offset: Int) throws {
        let rules = try #require(ZoneRules(ianaIdentifier: zone))
        #expect(rules.utcSeconds(for: LocalDateTime(wall)) == utc)
        #expect(rules.offset(atUTCSeconds: utc) == offset)
    }

    /// RFC 5545 §3.3.5's own example: 02:30 in a 02:00→03:00 gap is 03:30 after the change.
    @Test func gapTimeMovesForwardByTheGap() throws {
        let rules = try #require(ZoneRules(ianaIdentifier: "Europe/Berlin"))
        let instant = rules.utcSeconds(for: LocalDateTime("2024-03-31T02:30"))
        #expect(rules.localDateTime(atUTCSeconds: instant) == LocalDateTime("2024-03-31T03:30"))
    }

    /// Offsets outside the precomputed window come from the source and agree with those inside it.
    @Test func windowEdgesAgreeWithTheSource() throws {
        let narrow = try #require(ZoneRules(ianaIdentifier: "Europe/Berlin", years: 2024...2024))
        let wide = try #require(ZoneRules(ianaIdentifier: "Europe/Berlin"))
        for hour in stride(from: 1_672_531_200, to: 1_767_225_600, by: 3600 * 7) {
            #expect(narrow.offset(atUTCSeconds: hour) == wide.offset(atUTCSeconds: hour))
        }
    }

    @Test func unknownZoneHasNoRules() {
        #expect(ZoneRules(ianaIdentifier: "Mars/Olympus_Mons") == nil)
    }
}
