import CalendarModel
import Testing

// Expected day counts and weekdays worked out with Python:
// (date(y,m,d) - date(1970,1,1)).days and date(y,m,d).strftime('%A').
@Test(arguments: [
    (CalendarDate(year: 1970, month: 1, day: 1), 0, Weekday.thursday),
    (CalendarDate(year: 2000, month: 3, day: 1), 11017, .wednesday),
    (CalendarDate(year: 1969, month: 12, day: 31), -1, .wednesday),
    (CalendarDate(year: 2024, month: 2, day: 29), 19782, .thursday),
    (CalendarDate(year: 1600, month: 1, day: 1), -135140, .saturday),
    (CalendarDate(year: 2400, month: 12, day: 31), 157419, .sunday),
])
func daysSinceEpochAndWeekday(date: CalendarDate, days: Int, weekday: Weekday) {
    #expect(date.daysSinceEpoch == days)
    #expect(CalendarDate(daysSinceEpoch: days) == date)
    #expect(date.weekday == weekday)
}

@Test func rfc5545ExamplesStartOnTheirStatedWeekdays() {
    // RFC 5545 §3.8.5.3 examples start "Tuesday, September 2, 1997".
    #expect(CalendarDate(year: 1997, month: 9, day: 2).weekday == .tuesday)
}

@Test func leapYearsFollowTheGregorianRule() {
    #expect(CalendarDate(year: 2024, month: 2, day: 29).isValid)
    #expect(CalendarDate(year: 2000, month: 2, day: 29).isValid)
    #expect(!CalendarDate(year: 1900, month: 2, day: 29).isValid)
    #expect(!CalendarDate(year: 2023, month: 2, day: 29).isValid)
    #expect(!CalendarDate(year: 2024, month: 13, day: 32).isValid)
    #expect(!CalendarDate(year: 2024, month: 4, day: 31).isValid)
}

@Test func addingDaysCrossesMonthAndYearEnds() {
    #expect(CalendarDate(year: 2026, month: 12, day: 31).adding(days: 1) == CalendarDate(year: 2027, month: 1, day: 1))
    #expect(CalendarDate(year: 2024, month: 3, day: 1).adding(days: -1) == CalendarDate(year: 2024, month: 2, day: 29))
}

@Test func localDateTimeSecondsRoundTripBeforeTheEpoch() {
    // Python: int(datetime(1965,7,4,13,5,9,tzinfo=timezone.utc).timestamp()) == -141821691
    let time = LocalDateTime(year: 1965, month: 7, day: 4, hour: 13, minute: 5, second: 9)
    #expect(time.secondsSinceEpoch == -141_821_691)
    #expect(LocalDateTime(secondsSinceEpoch: -141_821_691) == time)
}

@Test func localDateTimeValidityAllowsALeapSecondOnly() {
    #expect(LocalDateTime(year: 2016, month: 12, day: 31, hour: 23, minute: 59, second: 60).isValid)
    #expect(!LocalDateTime(year: 2024, month: 1, day: 1, hour: 25).isValid)
    #expect(!LocalDateTime(year: 2024, month: 1, day: 1, hour: 10, minute: 60).isValid)
}
