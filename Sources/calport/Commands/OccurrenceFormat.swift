import ArgumentParsing
import CalendarModel
import GraphEvents
import ICalendar

/// The output formats of `calport expand`, each writing one record per occurrence.
enum OccurrenceFormat: String, CaseIterable {
    case ics, ndjson, table

    /// What comes before the first occurrence: the calendar header with the inputs' VTIMEZONEs, or the
    /// table's column titles.
    func header(timeZones: [TimeZoneDefinition]) -> [UInt8] {
        switch self {
        case .ics:
            let text = ICalendarSerializer().serialize(CalendarDocument(timeZones: timeZones))
            // The serialiser closes the calendar; occurrences go before that last line.
            return Array(text.dropLast("END:VCALENDAR\r\n".utf8.count))
        case .ndjson:
            return []
        case .table:
            return Array((OccurrenceFormat.pad("START", 26) + OccurrenceFormat.pad("END", 26) + "SUMMARY\n").utf8)
        }
    }

    /// What closes the output.
    var footer: [UInt8] {
        self == .ics ? Array("END:VCALENDAR\r\n".utf8) : []
    }

    /// One occurrence, with times shown on `clock`.
    func record(_ occurrence: Occurrence, clock: ZoneClock) -> [UInt8] {
        switch self {
        case .ics:
            return ICalendarSerializer().serialize(event: occurrence.standaloneEvent)
        case .ndjson:
            return ndjson(occurrence, clock: clock)
        case .table:
            let start = OccurrenceFormat.display(occurrence.start, instant: occurrence.startInstant, clock: clock)
            let end = OccurrenceFormat.display(occurrence.end, instant: occurrence.endInstant, clock: clock)
            let summary = occurrence.event.summary.map { $0.replacingNewlines } ?? "(no summary)"
            return Array((OccurrenceFormat.pad(start, 26) + OccurrenceFormat.pad(end, 26) + summary + "\n").utf8)
        }
    }

    /// The NDJSON schema of docs/recurrence.md, written by hand with JSON escaping.
    /// One line of the NDJSON schema in docs/recurrence.md, written by the JSON library's writer.
    private func ndjson(_ occurrence: Occurrence, clock: ZoneClock) -> [UInt8] {
        let event = occurrence.event
        func time(_ time: CalendarTime, _ instant: Int) -> JSONValue {
            .string(OccurrenceFormat.display(time, instant: instant, clock: clock, separator: "T"))
        }
        let members = [
            JSONMember("uid", .string(occurrence.uid)),
            JSONMember(
                "recurrenceId",
                occurrence.isInstance ? time(occurrence.recurrenceID, occurrence.recurrenceInstant) : .null),
            JSONMember("start", time(occurrence.start, occurrence.startInstant)),
            JSONMember("end", time(occurrence.end, occurrence.endInstant)),
            JSONMember("isAllDay", .bool(occurrence.isAllDay)),
            JSONMember("isOverride", .bool(occurrence.isOverride)),
            JSONMember("summary", event.summary.map(JSONValue.string) ?? .null),
            JSONMember("location", event.locations.first.map { .string($0.name) } ?? .null),
            JSONMember("status", event.status.map { .string($0.text) } ?? .null),
            JSONMember("timeZone", occurrence.start.timeZone.map { .string($0.ianaIdentifier ?? $0.name) } ?? .null),
        ]
        var bytes: [UInt8] = []
        bytes.reserveCapacity(256)
        JSONWriter().write(.object(JSONObject(members)), into: &bytes)
        bytes.append(0x0A)
        return bytes
    }

    /// A date as written for an all-day occurrence; otherwise the instant as ISO 8601 with the clock's offset.
    static func display(_ time: CalendarTime, instant: Int, clock: ZoneClock, separator: String = " ") -> String {
        var text: [UInt8] = []
        text.reserveCapacity(25)
        if case .date(let date) = time {
            appendDate(date, to: &text)
            return String(decoding: text, as: UTF8.self)
        }
        let wall = clock.wall(at: instant)
        let offset = clock.offset(at: instant)
        appendDate(wall.date, to: &text)
        text += separator.utf8
        appendTwo(wall.hour, to: &text, after: nil)
        appendTwo(wall.minute, to: &text, after: UInt8(ascii: ":"))
        appendTwo(wall.second, to: &text, after: UInt8(ascii: ":"))
        appendTwo(abs(offset) / 3_600, to: &text, after: UInt8(ascii: offset < 0 ? "-" : "+"))
        appendTwo(abs(offset) % 3_600 / 60, to: &text, after: UInt8(ascii: ":"))
        return String(decoding: text, as: UTF8.self)
    }

    private static func appendDate(_ date: CalendarDate, to text: inout [UInt8]) {
        let year = Array(String(date.year).utf8)
        text += Array(repeating: UInt8(ascii: "0"), count: max(0, 4 - year.count)) + year
        appendTwo(date.month, to: &text, after: UInt8(ascii: "-"))
        appendTwo(date.day, to: &text, after: UInt8(ascii: "-"))
    }

    private static func appendTwo(_ value: Int, to text: inout [UInt8], after separator: UInt8?) {
        if let separator { text.append(separator) }
        text.append(UInt8(ascii: "0") + UInt8(value / 10 % 10))
        text.append(UInt8(ascii: "0") + UInt8(value % 10))
    }

    private static func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text + " " : text + String(repeating: " ", count: width - text.count)
    }
}

extension EventStatus {
    /// The STATUS value in lower case, as the NDJSON schema writes it.
    var text: String {
        switch self {
        case .tentative: return "tentative"
        case .confirmed: return "confirmed"
        case .cancelled: return "cancelled"
        case .other(let value): return value.lowercased()
        }
    }
}

extension String {
    /// The text on one line, for the table.
    fileprivate var replacingNewlines: String {
        String(map { $0.isNewline ? " " : $0 })
    }
}
