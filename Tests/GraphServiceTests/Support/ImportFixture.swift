import CalendarModel
import Foundation

/// A calendar of 500 VEVENTs worked out by hand: 460 single events (timed in three zones, in UTC,
/// and all-day) and 20 weekly or daily series of 8, each with its 3rd occurrence moved (an
/// override: a weekly one to the next day, a daily one to later the same day, since Outlook moves
/// no occurrence onto or past its neighbour's day) and its 5th cancelled (an EXDATE). January–February 2027 has no DST change in
/// these zones, so every UTC offset below is the zone's standard one.
struct ImportFixture {
    /// IANA zone, its Windows name (CLDR) and its January offset from UTC in hours.
    static let zones: [(iana: String, windows: String, offset: Int)] = [
        ("Europe/Berlin", "W. Europe Standard Time", 1), ("America/New_York", "Eastern Standard Time", -5),
        ("Asia/Tokyo", "Tokyo Standard Time", 9),
    ]

    /// A single event, as expected in Graph.
    struct Single {
        var summary: String
        /// Local start, local end (`yyyy-MM-ddTHH:mm:ss`) and the Windows zone; all-day events are midnight to midnight.
        var start: String
        var end: String
        var zone: String
        var allDay: Bool
        var location: String
    }

    /// A series, as expected in Graph: its master and the UTC original starts of its changed occurrences.
    struct Series {
        var summary: String
        var daily: Bool
        var start: String
        var zone: String
        var movedOriginalStartUTC: String
        var movedStart: String
        var cancelledOriginalStartUTC: String
    }

    var singles: [Single] = []
    var series: [Series] = []
    var text = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//calport tests//fixture//EN\r\n"

    init() {
        for index in 0..<460 {
            let day = CalendarDate(year: 2027, month: 1, day: 1).adding(days: index % 80)
            let hour = 8 + index % 9
            let summary = "Single \(index)"
            let location = "Room \(index % 7)"
            var lines = ["UID:single-\(index)@calport.test", "SUMMARY:\(summary)", "LOCATION:\(location)"]
            switch index % 4 {
            case 3:
                lines += [
                    "DTSTART;VALUE=DATE:\(Self.basic(day))", "DTEND;VALUE=DATE:\(Self.basic(day.adding(days: 1)))",
                ]
                singles.append(
                    Single(
                        summary: summary, start: Self.iso(day, 0, 0), end: Self.iso(day.adding(days: 1), 0, 0),
                        zone: "", allDay: true, location: location))
            case 2:
                lines += [
                    "DTSTART:\(Self.basic(day))T\(Self.two(hour))0000Z",
                    "DTEND:\(Self.basic(day))T\(Self.two(hour))4500Z",
                ]
                singles.append(
                    Single(
                        summary: summary, start: Self.iso(day, hour, 0), end: Self.iso(day, hour, 45), zone: "UTC",
                        allDay: false, location: location))
            default:
                let zone = Self.zones[index % 4]
                lines += [
                    "DTSTART;TZID=\(zone.iana):\(Self.basic(day))T\(Self.two(hour))0000",
                    "DTEND;TZID=\(zone.iana):\(Self.basic(day))T\(Self.two(hour))4500",
                ]
                singles.append(
                    Single(
                        summary: summary, start: Self.iso(day, hour, 0), end: Self.iso(day, hour, 45),
                        zone: zone.windows, allDay: false, location: location))
            }
            if index % 5 == 0 {
                lines.append("ATTENDEE;CN=Guest \(index);ROLE=REQ-PARTICIPANT:mailto:guest\(index)@calport.test")
            }
            append(lines)
        }
        for index in 0..<20 {
            let zone = Self.zones[index % 2]
            let first = CalendarDate(year: 2027, month: 1, day: 4).adding(days: index)
            let daily = index % 2 == 1
            let step = daily ? 1 : 7
            let moved = first.adding(days: 2 * step)
            let movedDay = daily ? moved : moved.adding(days: 1)
            let cancelled = first.adding(days: 4 * step)
            let summary = "Series \(index)"
            let uid = "series-\(index)@calport.test"
            let weekday = ["SU", "MO", "TU", "WE", "TH", "FR", "SA"][Weekday.allCases.firstIndex(of: first.weekday)!]
            append([
                "UID:\(uid)", "SUMMARY:\(summary)",
                "DTSTART;TZID=\(zone.iana):\(Self.basic(first))T093000",
                "DTEND;TZID=\(zone.iana):\(Self.basic(first))T103000",
                daily ? "RRULE:FREQ=DAILY;COUNT=8" : "RRULE:FREQ=WEEKLY;COUNT=8;BYDAY=\(weekday)",
                "EXDATE;TZID=\(zone.iana):\(Self.basic(cancelled))T093000",
            ])
            append([
                "UID:\(uid)", "SUMMARY:\(summary) (moved)",
                "RECURRENCE-ID;TZID=\(zone.iana):\(Self.basic(moved))T093000",
                "DTSTART;TZID=\(zone.iana):\(Self.basic(movedDay))T150000",
                "DTEND;TZID=\(zone.iana):\(Self.basic(movedDay))T160000",
            ])
            series.append(
                Series(
                    summary: summary, daily: daily, start: Self.iso(first, 9, 30), zone: zone.windows,
                    movedOriginalStartUTC: Self.utc(moved, 9, 30, offset: zone.offset),
                    movedStart: Self.iso(movedDay, 15, 0),
                    cancelledOriginalStartUTC: Self.utc(cancelled, 9, 30, offset: zone.offset)))
        }
        text += "END:VCALENDAR\r\n"
    }

    private mutating func append(_ lines: [String]) {
        text += "BEGIN:VEVENT\r\nDTSTAMP:20261201T000000Z\r\n" + lines.map { $0 + "\r\n" }.joined() + "END:VEVENT\r\n"
    }

    static func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
    static func basic(_ date: CalendarDate) -> String { "\(date.year)\(two(date.month))\(two(date.day))" }
    static func iso(_ date: CalendarDate, _ hour: Int, _ minute: Int) -> String {
        "\(date.year)-\(two(date.month))-\(two(date.day))T\(two(hour)):\(two(minute)):00"
    }
    /// A local time in a zone `offset` hours from UTC, as Graph writes `originalStart`.
    static func utc(_ date: CalendarDate, _ hour: Int, _ minute: Int, offset: Int) -> String {
        let local = LocalDateTime(date: date, hour: hour, minute: minute).adding(seconds: -offset * 3600)
        return iso(local.date, local.hour, local.minute) + "Z"
    }
}
