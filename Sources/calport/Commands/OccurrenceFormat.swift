import ArgumentParsing
import CalendarModel
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
            return Array(ndjson(occurrence, clock: clock).utf8)
        case .table:
            let start = OccurrenceFormat.display(occurrence.start, instant: occurrence.startInstant, clock: clock)
            let end = OccurrenceFormat.display(occurrence.end, instant: occurrence.endInstant, clock: clock)
            let summary = occurrence.event.summary.map { $0.replacingNewlines } ?? "(no summary)"
            return Array((OccurrenceFormat.pad(start, 26) + OccurrenceFormat.pad(end, 26) + summary + "\n").utf8)
        }
    }

    /// The NDJSON schema of docs/recurrence.md, written by hand with JSON escaping.
    private func ndjson(_ occurrence: Occurrence, clock: ZoneClock) -> String {
        let event = occurrence.event
        var fields: [(String, String)] = [
            ("uid", JSONText.string(occurrence.uid)),
            (
                "recurrenceId",
                occurrence.isInstance
                    ? JSONText.string(
                        OccurrenceFormat.display(
                            occurrence.recurrenceID, instant: occurrence.recurrenceInstant, clock: clock, separator: "T"
                        ))
                    : "null"
            ),
            (
                "start",
                JSONText.string(
                    OccurrenceFormat.display(
                        occurrence.start, instant: occurrence.startInstant, clock: clock, separator: "T"))
            ),
            (
                "end",
                JSONText.string(
                    OccurrenceFormat.display(
                        occurrence.end, instant: occurrence.endInstant, clock: clock, separator: "T"))
            ),
            ("isAllDay", occurrence.isAllDay ? "true" : "false"),
            ("isOverride", occurrence.isOverride ? "true" : "false"),
        ]
        fields.append(("summary", event.summary.map(JSONText.string) ?? "null"))
        fields.append(("location", event.locations.first.map { JSONText.string($0.name) } ?? "null"))
        fields.append(("status", event.status.map { JSONText.string($0.text) } ?? "null"))
        fields.append(
            ("timeZone", occurrence.start.timeZone.map { JSONText.string($0.ianaIdentifier ?? $0.name) } ?? "null"))
        return "{" + fields.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}\n"
    }

    /// A date as written for an all-day occurrence; otherwise the instant as ISO 8601 with the clock's offset.
    static func display(_ time: CalendarTime, instant: Int, clock: ZoneClock, separator: String = " ") -> String {
        if case .date(let date) = time { return isoDate(date) }
        let wall = clock.wall(at: instant)
        let offset = clock.offset(at: instant)
        let sign = offset < 0 ? "-" : "+"
        return isoDate(wall.date) + separator + two(wall.hour) + ":" + two(wall.minute) + ":" + two(wall.second) + sign
            + two(abs(offset) / 3_600) + ":" + two(abs(offset) % 3_600 / 60)
    }

    private static func isoDate(_ date: CalendarDate) -> String {
        let year = String(date.year)
        return String(repeating: "0", count: max(0, 4 - year.count)) + year + "-" + two(date.month) + "-"
            + two(date.day)
    }

    private static func two(_ value: Int) -> String {
        value < 10 ? "0\(value)" : String(value)
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
