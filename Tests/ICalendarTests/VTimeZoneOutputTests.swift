import CalendarModel
import Foundation
import Testing
import TimeZones

@testable import ICalendar

/// Twenty zones people schedule in, across both hemispheres, half-hour offsets and zones without DST.
private let commonZones = [
    "America/New_York", "America/Chicago", "America/Denver", "America/Los_Angeles", "America/Sao_Paulo",
    "America/Santiago", "America/Mexico_City", "America/Toronto", "Europe/London", "Europe/Berlin", "Europe/Paris",
    "Europe/Moscow", "Africa/Johannesburg", "Asia/Kolkata", "Asia/Shanghai", "Asia/Tokyo", "Asia/Dubai",
    "Australia/Sydney", "Australia/Adelaide", "Pacific/Auckland",
]

@Test(arguments: commonZones)
func emittedVTimeZoneMeansToLibicalWhatTzdataMeans(zone identifier: String) throws {
    let years = 2024...2027
    let definition = try #require(VTimeZoneBuilder.definition(forIANA: identifier, years: years))
    let text = String(decoding: ICalendarSerializer().serialize(definition), as: UTF8.self)
    #expect(!text.contains("freeassociation"))
    let reference = try #require(TimeZone(identifier: identifier))
    let start = LocalDateTime(year: years.lowerBound, month: 1, day: 2).secondsSinceEpoch
    let end = LocalDateTime(year: years.upperBound, month: 12, day: 30).secondsSinceEpoch
    let hours = Array(stride(from: start, to: end, by: 3_600))
    let offsets = try #require(Libical.utcOffsets(vtimezone: text, atUTCSeconds: hours))
    var mismatches: [String] = []
    for (instant, offset) in zip(hours, offsets) {
        // Foundation's tzdata (ICU's copy) is the independent reference.
        let expected = reference.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(instant)))
        if offset != expected {
            mismatches.append("\(LocalDateTime(secondsSinceEpoch: instant)): \(offset) ≠ \(expected)")
        }
    }
    #expect(mismatches.isEmpty, "\(identifier): \(mismatches.prefix(3))")
}

@Test func zonesUsedWithoutADefinitionGetOneAndOnlyThoseYears() throws {
    let result = parse(
        calendar(event: [
            "UID:1", "DTSTART;TZID=Pacific Standard Time:20260308T093000", "DTEND;TZID=Europe/Berlin:20260308T183000",
        ]))
    let output = serialize(result.document)
    let lines = unfoldedLines(output)
    #expect(lines.contains("TZID:America/Los_Angeles"))  // the Windows name's IANA zone (ZoneNaming)
    #expect(lines.contains("TZID:Europe/Berlin"))
    // US rules in force since 2007: second Sunday of March, first Sunday of November, at 02:00.
    #expect(lines.contains("RRULE:FREQ=YEARLY;BYDAY=2SU;BYMONTH=3"))
    #expect(lines.contains("RRULE:FREQ=YEARLY;BYDAY=1SU;BYMONTH=11"))
    #expect(
        !lines.contains { $0.hasPrefix("DTSTART:18") || $0.hasPrefix("DTSTART:19") },
        "no history before the events' years")
    let vtimezones = lines.firstIndex(of: "BEGIN:VTIMEZONE")!
    #expect(vtimezones < lines.firstIndex(of: "BEGIN:VEVENT")!)
}

/// Events in several Windows zones, in turn and back again, each written under its own zone's IANA
/// id (CLDR's windowsZones: W. Europe → Europe/Berlin, Eastern → America/New_York, Pacific →
/// America/Los_Angeles), however the zones alternate: the naming remembers the last two it was
/// asked about, and the order below asks again for each of them and for one it has let go.
@Test func alternatingWindowsZonesAreEachWrittenUnderTheirOwnName() throws {
    let zones = [
        ("W. Europe Standard Time", "Europe/Berlin"), ("Eastern Standard Time", "America/New_York"),
        ("W. Europe Standard Time", "Europe/Berlin"), ("Pacific Standard Time", "America/Los_Angeles"),
        ("Eastern Standard Time", "America/New_York"), ("W. Europe Standard Time", "Europe/Berlin"),
        ("Europe/Paris", "Europe/Paris"), ("Pacific Standard Time", "America/Los_Angeles"),
    ]
    let events = zones.enumerated().map { index, zone in
        [
            "UID:\(index)", "DTSTART;TZID=\(zone.0):2026030\(index + 1)T093000",
            "DTEND;TZID=\(zone.0):2026030\(index + 1)T100000",
        ]
    }
    let lines = unfoldedLines(serialize(parse(calendar(events: events)).document))
    let starts = lines.filter { $0.hasPrefix("DTSTART;TZID=") }
    #expect(starts == zones.enumerated().map { index, zone in "DTSTART;TZID=\(zone.1):2026030\(index + 1)T093000" })
    let ends = lines.filter { $0.hasPrefix("DTEND;TZID=") }
    #expect(ends == zones.enumerated().map { index, zone in "DTEND;TZID=\(zone.1):2026030\(index + 1)T100000" })
}

/// Written as it is read, a calendar whose VTIMEZONE for a Windows name comes after events in that
/// zone: the events before it are written under the IANA id (the calendar defines no such zone yet),
/// the events after it under the TZID it defines, even when the naming had that zone among the two
/// it remembers (it forgets both when the calendar defines a zone).
@Test func aZoneDefinedPartWayThroughAStreamNamesTheEventsAfterIt() throws {
    func event(_ uid: Int, _ zone: String) -> [String] {
        [
            "BEGIN:VEVENT", "UID:\(uid)", "DTSTAMP:20260101T000000Z", "DTSTART;TZID=\(zone):2026030\(uid)T093000",
            "END:VEVENT",
        ]
    }
    let pacific = "Pacific Standard Time"
    let bytes = ics(
        ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//test//EN"] + event(1, pacific)
            + event(2, "W. Europe Standard Time")
            + [
                "BEGIN:VTIMEZONE", "TZID:\(pacific)", "BEGIN:STANDARD", "DTSTART:16011104T020000",
                "RRULE:FREQ=YEARLY;BYDAY=1SU;BYMONTH=11", "TZOFFSETFROM:-0700", "TZOFFSETTO:-0800", "END:STANDARD",
                "BEGIN:DAYLIGHT", "DTSTART:16010311T020000", "RRULE:FREQ=YEARLY;BYDAY=2SU;BYMONTH=3",
                "TZOFFSETFROM:-0800", "TZOFFSETTO:-0700", "END:DAYLIGHT", "END:VTIMEZONE",
            ] + event(3, pacific) + ["END:VCALENDAR"])
    var reader = ICalendarReader(source: InMemoryByteSource(bytes), file: "t.ics")
    var output: [UInt8] = []
    var writer = ICalendarStreamWriter { output += $0 }
    let header = CalendarDocument()
    while let item = reader.next() { writer.write(item, header: header) }
    writer.finish(header: header)
    let starts = unfoldedLines(String(decoding: output, as: UTF8.self)).filter { $0.hasPrefix("DTSTART;TZID=") }
    #expect(
        starts == [
            "DTSTART;TZID=America/Los_Angeles:20260301T093000", "DTSTART;TZID=Europe/Berlin:20260302T093000",
            "DTSTART;TZID=\(pacific):20260303T093000",
        ])
}
