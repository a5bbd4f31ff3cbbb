import CalendarModel
import Testing

@testable import ICalendar

/// The VEVENT and VTIMEZONE lines of a calendar's output, unfolded.
private func writtenLines(_ bytes: [UInt8]) -> [String] {
    unfoldedLines(serialize(parse(bytes).document))
}

/// Lines from `begin` to the matching END, inclusive.
private func block(_ name: String, in lines: [String]) -> [String] {
    guard let start = lines.firstIndex(of: "BEGIN:\(name)"), let end = lines[start...].firstIndex(of: "END:\(name)")
    else { return [] }
    return Array(lines[start...end])
}

@Test func allDayEventWithoutEndGetsTheNextDayAsExclusiveDTEND() throws {
    // RFC 5545 §3.6.1: a DATE DTSTART alone lasts one day; Outlook and Google want it stated.
    let input = calendar(event: ["UID:new-year", "DTSTAMP:20261201T000000Z", "DTSTART;VALUE=DATE:20261231"])
    let lines = writtenLines(input)
    #expect(lines.contains("DTSTART;VALUE=DATE:20261231"))
    #expect(lines.contains("DTEND;VALUE=DATE:20270101"))
    let first = parse(input).document
    let again = parse(ICalendarSerializer().serialize(first)).document
    #expect(first == again)
}

@Test func categoriesAreWrittenOnOneLineWithCommasEscaped() throws {
    var event = Event(uid: "c")
    event.start = .utc(LocalDateTime(year: 2026, month: 12, day: 1, hour: 9))
    event.categories = ["Meetings", "Q1, Q2"]
    let text = serialize(CalendarDocument(events: [event]))
    // RFC 5545 §3.8.1.2: one property, values separated by commas; a comma inside a value is `\,`.
    #expect(unfoldedLines(text).filter { $0.hasPrefix("CATEGORIES") } == ["CATEGORIES:Meetings,Q1\\, Q2"])
    #expect(parse(Array(text.utf8)).document.events.first?.categories == ["Meetings", "Q1, Q2"])
}

@Test func categoriesFromSeveralLinesSurviveAsOneList() throws {
    let input = calendar(event: [
        "UID:c", "DTSTAMP:20261201T000000Z", "DTSTART:20261201T090000Z", "CATEGORIES:A,B", "CATEGORIES:C",
    ])
    let first = parse(input).document
    #expect(first.events.first?.categories == ["A", "B", "C"])
    #expect(parse(ICalendarSerializer().serialize(first)).document == first)
}

@Test func outlookGetsOneVTimeZonePairWithYearlyRulesForAnUndefinedTZID() throws {
    let lines = writtenLines(
        calendar(event: [
            "UID:z", "DTSTAMP:20261120T090000Z", "DTSTART;TZID=Europe/Berlin:20261130T093000",
            "DTEND;TZID=Europe/Berlin:20261130T100000",
        ]))
    let zone = block("VTIMEZONE", in: lines)
    #expect(zone.contains("TZID:Europe/Berlin"))
    #expect(zone.filter { $0 == "BEGIN:STANDARD" }.count == 1)
    #expect(zone.filter { $0 == "BEGIN:DAYLIGHT" }.count == 1)
    // EU summer time (Directive 2000/84/EC): last Sunday of March and of October at 01:00 UTC,
    // 02:00 CET and 03:00 CEST local.
    let daylight = block("DAYLIGHT", in: zone)
    #expect(daylight.contains("DTSTART:20260329T020000"))
    #expect(daylight.contains("TZOFFSETTO:+0200"))
    #expect(
        daylight.contains { $0.hasPrefix("RRULE:FREQ=YEARLY") && $0.contains("BYDAY=-1SU") && $0.contains("BYMONTH=3") }
    )
    let standard = block("STANDARD", in: zone)
    #expect(standard.contains("DTSTART:20261025T030000"))
    #expect(standard.contains("TZOFFSETTO:+0100"))
    #expect(standard.contains { $0.hasPrefix("RRULE:FREQ=YEARLY") && $0.contains("BYMONTH=10") })
}

@Test func reminderFromGraphIsADisplayAlarmWithTheDescriptionRFC5545Requires() throws {
    var event = Event(uid: "r")
    event.start = .utc(LocalDateTime(year: 2026, month: 12, day: 1, hour: 9))
    event.alarms = [.minutesBeforeStart(15)]
    let alarm = block("VALARM", in: unfoldedLines(serialize(CalendarDocument(events: [event]))))
    // RFC 5545 §3.6.6: action = DISPLAY requires DESCRIPTION; TRIGGER is a DURATION before the start.
    #expect(alarm.contains("ACTION:DISPLAY"))
    #expect(alarm.contains("TRIGGER:-PT15M"))
    #expect(alarm.contains("DESCRIPTION:Reminder"))
}

@Test func vtimezoneWithoutValidObservancesIsReplacedFromTzdata() throws {
    // TZOFFSETFROM/TO must be ±hhmm with mm < 60 (RFC 5545 §3.3.14), so this STANDARD is invalid
    // and the VTIMEZONE would be written with none, which RFC 5545 §3.6.5 forbids.
    let input = ics([
        "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//test//EN", "BEGIN:VTIMEZONE", "TZID:Europe/Prague",
        "BEGIN:STANDARD", "DTSTART:18500101T000000", "TZOFFSETFROM:+5744", "TZOFFSETTO:+5744", "END:STANDARD",
        "END:VTIMEZONE", "BEGIN:VEVENT", "UID:p", "DTSTAMP:20260101T000000Z",
        "DTSTART;TZID=Europe/Prague:20260701T100000", "END:VEVENT", "END:VCALENDAR",
    ])
    let result = parse(input)
    #expect(result.document.timeZones.isEmpty)
    #expect(result.diagnostics.contains { $0.code == "invalid-vtimezone" })
    let zone = block("VTIMEZONE", in: unfoldedLines(serialize(result.document)))
    #expect(zone.contains("TZID:Europe/Prague"))
    // Central European Summer Time in July: UTC+2.
    #expect(block("DAYLIGHT", in: zone).contains("TZOFFSETTO:+0200"))
}

@Test func outlooksPairIsTheRuleInForceInTheLatestYear() throws {
    // MS-OXCICAL §2.1.3.1.1.19.2: Outlook parses only the STANDARD (and DAYLIGHT) with the largest
    // DTSTART. US DST since 2007 (Energy Policy Act of 2005): second Sunday of March to first Sunday of November.
    let lines = writtenLines(
        ics([
            "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//test//EN",
            "BEGIN:VEVENT", "UID:old", "DTSTAMP:20260101T000000Z", "DTSTART;TZID=America/New_York:20060601T090000",
            "END:VEVENT", "BEGIN:VEVENT", "UID:new", "DTSTAMP:20260101T000000Z",
            "DTSTART;TZID=America/New_York:20080601T090000", "END:VEVENT", "END:VCALENDAR",
        ]))
    let zone = block("VTIMEZONE", in: lines)
    // Each DAYLIGHT block, as (DTSTART line, RRULE line).
    var daylights: [(start: String, rule: String?)] = []
    var rest = zone[...]
    while let begin = rest.firstIndex(of: "BEGIN:DAYLIGHT"), let end = rest[begin...].firstIndex(of: "END:DAYLIGHT") {
        let body = rest[begin...end]
        daylights.append((body.first { $0.hasPrefix("DTSTART:") } ?? "", body.first { $0.hasPrefix("RRULE:") }))
        rest = rest[(end + 1)...]
    }
    let latest = try #require(daylights.max { $0.start < $1.start })
    #expect(latest.start == "DTSTART:20070311T020000")
    let rule = try #require(latest.rule)
    #expect(rule.contains("FREQ=YEARLY") && rule.contains("BYDAY=2SU") && rule.contains("BYMONTH=3"))
    #expect(!rule.contains("UNTIL"))
}
