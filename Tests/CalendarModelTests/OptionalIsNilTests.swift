import Testing

@testable import CalendarModel

/// `isNil` answers as `== nil` does, for the kinds of optionals it replaces `== nil` on: a struct
/// (`RecurrenceIdentifier`), an enum with payloads (`CalendarTime`) and a whole `Event`.
@Test func isNilAnswersAsComparingWithNilDoes() {
    let time = CalendarTime.utc(LocalDateTime(date: CalendarDate(year: 2026, month: 3, day: 29), secondOfDay: 3_600))
    let times: [CalendarTime?] = [nil, time, .floating(time.localDateTime)]
    #expect(times.map(\.isNil) == [true, false, false])
    let identifiers: [RecurrenceIdentifier?] = [RecurrenceIdentifier(time: time), nil]
    #expect(identifiers.map(\.isNil) == [false, true])
    let events: [Event?] = [nil, Event(uid: "a@example.com")]
    #expect(events.map(\.isNil) == [true, false])
}
