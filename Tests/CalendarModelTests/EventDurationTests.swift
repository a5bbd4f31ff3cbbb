import CalendarModel
import Testing

@Test func nominalAndExactPartsAreKeptApart() {
    // RFC 5545 §3.3.6: "P15DT5H0M20S" is 15 days, 5 hours and 20 seconds.
    let duration = EventDuration(days: 15, hours: 5, seconds: 20)
    #expect(duration.nominalDays == 15)
    #expect(duration.exactSeconds == 5 * 3_600 + 20)
    // "P7W" is seven weeks: 49 nominal days, no exact part.
    let weeks = EventDuration(weeks: 7)
    #expect(weeks.nominalDays == 49)
    #expect(weeks.exactSeconds == 0)
}

@Test func negativeDurationsNegateBothParts() {
    let reminder = EventDuration(isNegative: true, days: 1, minutes: 15)
    #expect(reminder.nominalDays == -1)
    #expect(reminder.exactSeconds == -900)
}

@Test func exactSecondsSplitIntoHoursMinutesSeconds() {
    let duration = EventDuration(exactSeconds: -5_430)
    #expect(duration == EventDuration(isNegative: true, hours: 1, minutes: 30, seconds: 30))
}

@Test func wholeWeeksAreWrittenAsWeeks() {
    #expect(EventDuration(nominalDays: 14) == EventDuration(weeks: 2))
    #expect(EventDuration(nominalDays: 3) == EventDuration(days: 3))
    #expect(EventDuration(nominalDays: 0).isZero)
}
