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
