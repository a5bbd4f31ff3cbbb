import CalendarModel
import Testing

@testable import TimeZones

@Suite struct WallClockTests {
    /// Start + (days, exact seconds) → wall time: days on the wall clock, seconds on the timeline.
    /// Made with (arith.txt holds "zone start days seconds" lines):
    /// python3 -c "from datetime import datetime as D, timedelta as T; from zoneinfo import ZoneInfo as Z
    /// [print(z, t, d, s, D.fromtimestamp(int((D.fromisoformat(t) + T(days=int(d))).replace(tzinfo=Z(z))
    ///   .timestamp()) + int(s), Z(z)).replace(tzinfo=None).isoformat(timespec='minutes'))
    ///  for z, t, d, s in map(str.split, open('arith.txt'))]"
    static let sums: [(zone: String, start: String, days: Int, seconds: Int, result: String)] = [
        ("Europe/Berlin", "2024-03-30T09:00", 1, 0, "2024-03-31T09:00"),
        ("Europe/Berlin", "2024-03-30T09:00", 0, 86400, "2024-03-31T10:00"),
        ("Europe/Berlin", "2024-03-30T02:30", 1, 0, "2024-03-31T03:30"),
        ("Europe/Berlin", "2024-10-26T09:00", 7, 0, "2024-11-02T09:00"),
        ("Europe/Berlin", "2024-10-26T09:00", 0, 604800, "2024-11-02T08:00"),
        ("America/New_York", "2024-03-09T12:00", 1, 0, "2024-03-10T12:00"),
        ("America/New_York", "2024-03-09T12:00", 0, 86400, "2024-03-10T13:00"),
        ("America/New_York", "2024-11-02T01:30", 1, 0, "2024-11-03T01:30"),
        ("America/New_York", "2024-11-02T01:30", 1, 3600, "2024-11-03T01:30"),
        ("Australia/Sydney", "2024-10-05T10:00", 1, 0, "2024-10-06T10:00"),
        ("Australia/Sydney", "2024-10-05T10:00", 0, 86400, "2024-10-06T11:00"),
        ("America/Santiago", "2024-09-07T00:30", 1, 0, "2024-09-08T01:30"),
        ("America/Santiago", "2024-09-07T12:00", 0, 86400, "2024-09-08T13:00"),
        ("Australia/Adelaide", "2024-04-06T08:00", 14, 0, "2024-04-20T08:00"),
        ("Australia/Adelaide", "2024-04-06T08:00", 0, 1_209_600, "2024-04-20T07:00"),
        ("Australia/Lord_Howe", "2024-10-05T02:15", 1, 0, "2024-10-06T02:45"),
        ("Australia/Lord_Howe", "2024-10-05T12:00", 0, 86400, "2024-10-06T12:30"),
        ("Asia/Kolkata", "2024-10-05T12:00", 1, 3600, "2024-10-06T13:00"),
        ("Europe/Moscow", "2011-03-26T12:00", 1, 0, "2011-03-27T12:00"),
        ("Europe/Moscow", "2011-03-26T12:00", 0, 86400, "2011-03-27T13:00"),
        ("Europe/Moscow", "2014-10-25T12:00", 0, 86400, "2014-10-26T11:00"),
        ("America/Sao_Paulo", "2019-11-02T12:00", 1, 0, "2019-11-03T12:00"),
        ("America/Sao_Paulo", "2018-11-03T12:00", 0, 86400, "2018-11-04T13:00"),
        ("Europe/London", "2024-10-26T12:00", 0, 86400, "2024-10-27T11:00"),
        ("Pacific/Chatham", "2024-09-28T12:00", 0, 86400, "2024-09-29T13:00"),
    ]

    @Test(arguments: sums)
    func addingFollowsTheWallClockForDaysOnly(zone: String, start: String, days: Int, seconds: Int, result: String)
        throws
    {
        let rules = try #require(ZoneRules(ianaIdentifier: zone))
        let reference = TimeZoneReference(name: zone, ianaIdentifier: zone)
        let duration = EventDuration(days: days, seconds: seconds)
        let sum = WallClock.adding(duration, to: .zoned(LocalDateTime(start), reference), rules: rules)
        #expect(sum == .zoned(LocalDateTime(result), reference))
    }

    /// The same sums subtracted: a negative duration goes back on the wall clock and the timeline alike.
    @Test func negativeDurationGoesBack() throws {
        let rules = try #require(ZoneRules(ianaIdentifier: "Europe/Berlin"))
        let reference = TimeZoneReference(name: "Europe/Berlin")
        let start = CalendarTime.zoned(LocalDateTime("2024-03-31T10:00"), reference)
        let dayBack = WallClock.adding(EventDuration(isNegative: true, days: 1), to: start, rules: rules)
        #expect(dayBack == .zoned(LocalDateTime("2024-03-30T10:00"), reference))
        let hoursBack = WallClock.adding(EventDuration(isNegative: true, hours: 24), to: start, rules: rules)
        #expect(hoursBack == .zoned(LocalDateTime("2024-03-30T09:00"), reference))
    }

    @Test func datesFloatingAndUTC() {
        let date = CalendarTime.date(CalendarDate(year: 2024, month: 2, day: 28))
        #expect(
            WallClock.adding(EventDuration(days: 2), to: date, rules: nil)
                == .date(CalendarDate(year: 2024, month: 3, day: 1)))
        let floating = CalendarTime.floating(LocalDateTime("2024-03-30T09:00"))
        let movedFloating = WallClock.adding(EventDuration(days: 1, hours: 1), to: floating, rules: nil)
        #expect(movedFloating == .floating(LocalDateTime("2024-03-31T10:00")))
        let utc = CalendarTime.utc(LocalDateTime("2024-12-31T23:30"))
        #expect(
            WallClock.adding(EventDuration(minutes: 45), to: utc, rules: nil) == .utc(LocalDateTime("2025-01-01T00:15"))
        )
    }
}
