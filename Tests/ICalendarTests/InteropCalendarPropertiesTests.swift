import CalendarModel
import Testing

@testable import ICalendar

private func calendarWith(_ properties: [String], events: [[String]] = []) -> [UInt8] {
    let body = events.flatMap { ["BEGIN:VEVENT"] + $0 + ["END:VEVENT"] }
    return ics(["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//test//EN"] + properties + body + ["END:VCALENDAR"])
}

private func roundTrips(_ input: [UInt8]) -> Bool {
    let first = parse(input).document
    return parse(ICalendarSerializer().serialize(first)).document == first
}

@Test func rfc7986CalendarPropertiesAreReadAndWrittenInBothForms() throws {
    // Values from RFC 7986 §5.1–5.9's examples.
    let input = calendarWith([
        "NAME:Company Vacation Days", "DESCRIPTION:The calendar of company holidays",
        "REFRESH-INTERVAL;VALUE=DURATION:P1W", "SOURCE;VALUE=URI:https://example.com/holidays.ics", "COLOR:turquoise",
    ])
    let document = parse(input).document
    #expect(document.name == "Company Vacation Days")
    #expect(document.description == "The calendar of company holidays")
    #expect(document.refreshInterval == EventDuration(weeks: 1))
    #expect(document.sourceURL == "https://example.com/holidays.ics")
    #expect(document.colour == "turquoise")
    #expect(document.extraProperties.isEmpty)
    let lines = unfoldedLines(serialize(document))
    for line in [
        "NAME:Company Vacation Days", "X-WR-CALNAME:Company Vacation Days",
        "DESCRIPTION:The calendar of company holidays", "X-WR-CALDESC:The calendar of company holidays",
        "REFRESH-INTERVAL;VALUE=DURATION:P1W", "X-PUBLISHED-TTL:P1W",
        "SOURCE;VALUE=URI:https://example.com/holidays.ics",
        "COLOR:turquoise",
    ] {
        #expect(lines.contains(line), "\(line) missing")
    }
    #expect(roundTrips(input))
}

@Test func googleAndOutlookPropertiesFillTheSameFields() throws {
    let input = calendarWith(["X-WR-CALNAME:Team", "X-WR-CALDESC:Team events\\, all of them", "X-PUBLISHED-TTL:PT1H"])
    let document = parse(input).document
    #expect(document.name == "Team")
    #expect(document.description == "Team events, all of them")
    #expect(document.refreshInterval == EventDuration(exactSeconds: 3_600))
    #expect(unfoldedLines(serialize(document)).contains("REFRESH-INTERVAL;VALUE=DURATION:PT1H"))
    #expect(roundTrips(input))
}

@Test func aSecondFormSayingSomethingElseIsKept() throws {
    let input = calendarWith(["NAME:Work", "X-WR-CALNAME:Work (old)"])
    let document = parse(input).document
    #expect(document.name == "Work")
    #expect(document.extraProperties == [ExtraProperty(name: "X-WR-CALNAME", parameters: [], value: "Work (old)")])
    #expect(roundTrips(input))
}

@Test func noTimeZoneHintIsInventedForACalendarInOneZone() throws {
    // Google reads X-WR-TIMEZONE as the zone of floating times: adding one would move them.
    let event = ["UID:z", "DTSTAMP:20261120T090000Z", "DTSTART;TZID=Europe/Berlin:20261130T093000"]
    let floating = ["UID:f", "DTSTAMP:20261120T090000Z", "DTSTART:20261130T120000"]
    let lines = unfoldedLines(serialize(parse(calendarWith([], events: [event, floating])).document))
    #expect(!lines.contains { $0.hasPrefix("X-WR-TIMEZONE") })
}
