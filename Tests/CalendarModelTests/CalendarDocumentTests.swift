import CalendarModel
import Testing

@Test func seriesGroupsOverridesWithTheirMasterInFirstSeenOrder() {
    var master = Event(uid: "a")
    master.recurrenceRules = [RecurrenceRule(frequency: .daily)]
    var moved = Event(uid: "a")
    moved.recurrenceID = RecurrenceIdentifier(time: .utc(LocalDateTime(year: 2026, month: 12, day: 2, hour: 9)))
    let single = Event(uid: "b")
    // The override comes first in the file: grouping must not depend on order.
    let document = CalendarDocument(events: [moved, single, master])
    let series = document.series
    #expect(series.map(\.uid) == ["a", "b"])
    #expect(series[0].master == master)
    #expect(series[0].overrides == [moved])
    #expect(series[1].master == single)
    #expect(series[1].overrides.isEmpty)
}

@Test func eventsWithoutUIDAndSecondMastersAreSeriesOfTheirOwn() {
    let day = LocalDateTime(year: 2026, month: 12, day: 7, hour: 9)
    func event(_ uid: String, _ summary: String, recurrenceID: CalendarTime? = nil) -> Event {
        var event = Event(uid: uid)
        event.summary = summary
        event.start = .floating(day)
        event.recurrenceID = recurrenceID.map { RecurrenceIdentifier(time: $0) }
        return event
    }
    let noUID = [event("", "one"), event("", "two"), event("", "loose override", recurrenceID: .floating(day))]
    let first = event("d", "first")
    let second = event("d", "second")
    let moved = event("d", "moved", recurrenceID: .floating(day))
    let series = CalendarDocument(events: noUID + [first, second, moved]).series
    // Worked out by hand: each UID-less event alone (the override without a master), then d's first
    // master with the override that came after the second master, then the second master alone.
    #expect(series.map { $0.master?.summary ?? "-" } == ["one", "two", "-", "first", "second"])
    #expect(series.map { $0.overrides.map(\.summary) } == [[], [], ["loose override"], ["moved"], []])
}

@Test func diagnosticsPrintLikeACompiler() {
    let diagnostic = Diagnostic(
        .error, code: "invalid-value", message: "DTSTART '20241332T250000' is not a valid DATE-TIME",
        location: SourceLocation(file: "cal.ics", line: 12, column: 9), uid: "x@example.com")
    #expect(
        diagnostic.description
            == "cal.ics:12:9: error: DTSTART '20241332T250000' is not a valid DATE-TIME [invalid-value] (UID x@example.com)"
    )
    #expect(Severity.note < Severity.warning && Severity.warning < Severity.error)
}

@Test func calendarTimeKeepsTheZoneNameApartFromItsIANAId() {
    let zone = TimeZoneReference(name: "Pacific Standard Time", ianaIdentifier: "America/Los_Angeles")
    let time = CalendarTime.zoned(LocalDateTime(year: 2026, month: 3, day: 8, hour: 9), zone)
    #expect(time.timeZone?.name == "Pacific Standard Time")
    #expect(time.timeZone?.ianaIdentifier == "America/Los_Angeles")
    #expect(!time.isDate)
    #expect(CalendarTime.date(CalendarDate(year: 2026, month: 3, day: 8)).isDate)
    #expect(time.withLocalDateTime(LocalDateTime(year: 2026, month: 3, day: 9, hour: 9)).timeZone == zone)
}
