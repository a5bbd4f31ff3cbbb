import ArgumentParsing
import CalendarModel
import GraphEvents
import ICalendar

/// A column of `calport expand`'s table and CSV, or a member of its NDJSON, named as the NDJSON
/// schema names it (docs/recurrence.md); `--fields` picks them and their order.
enum OccurrenceField: String, CaseIterable, Sendable {
    case uid, recurrenceId, start, end, isAllDay, isOverride, summary, location, status, timeZone

    /// What a field holds, for completion and help.
    var summary: String {
        switch self {
        case .uid: return "UID of the event"
        case .recurrenceId: return "the occurrence's RECURRENCE-ID, empty for a single event"
        case .start: return "start, in --tz (a date when all-day)"
        case .end: return "end, in --tz"
        case .isAllDay: return "true for an all-day occurrence"
        case .isOverride: return "true when an override moved or changed it"
        case .summary: return "SUMMARY"
        case .location: return "the first LOCATION"
        case .status: return "STATUS in lower case"
        case .timeZone: return "the zone of its start"
        }
    }

    /// What a table shows without `--fields`.
    static let tableDefault: [OccurrenceField] = [.start, .end, .summary]

    /// `--fields uid,start,summary`: names separated by commas.
    static func list(_ text: String) throws(UsageError) -> [OccurrenceField] {
        var fields: [OccurrenceField] = []
        for name in text.split(separator: ",", omittingEmptySubsequences: false) {
            let trimmed = name.trimmingCharacters(in: .whitespaces)
            guard let field = OccurrenceField(rawValue: trimmed) else {
                throw UsageError(
                    message:
                        "--fields expects names from \(allCases.map(\.rawValue).joined(separator: ", ")), found '\(trimmed)'"
                )
            }
            fields.append(field)
        }
        return fields
    }

    /// The field's value for one occurrence: text, a truth value, or nothing.
    enum Value {
        case text(String)
        case truth(Bool)
        case absent
    }

    /// `separator` goes between a time's date and time of day: `T` as in NDJSON, a space in tables.
    func value(of occurrence: Occurrence, clock: ZoneClock, separator: Character = "T") -> Value {
        let event = occurrence.source.event
        func text(_ string: String?) -> Value { string.map(Value.text) ?? .absent }
        func time(_ time: CalendarTime, _ instant: Int) -> Value {
            .text(OccurrenceFormat.display(time, instant: instant, clock: clock, separator: separator))
        }
        switch self {
        case .uid: return .text(occurrence.uid)
        case .recurrenceId:
            return occurrence.isInstance
                ? time(occurrence.recurrenceID, occurrence.recurrenceInstant) : .absent
        case .start: return time(occurrence.start, occurrence.startInstant)
        case .end: return time(occurrence.end, occurrence.endInstant)
        case .isAllDay: return .truth(occurrence.isAllDay)
        case .isOverride: return .truth(occurrence.isOverride)
        case .summary: return text(event.summary)
        case .location: return text(event.locations.first?.name)
        case .status: return text(event.status?.text)
        case .timeZone: return text(occurrence.start.timeZone.map { $0.ianaIdentifier ?? $0.name })
        }
    }

    /// The value as a table cell or CSV field: times as in NDJSON, truths as `true`/`false`.
    func cell(of occurrence: Occurrence, clock: ZoneClock, separator: Character = "T") -> String {
        switch value(of: occurrence, clock: clock, separator: separator) {
        case .text(let text): return text
        case .truth(let truth): return truth ? "true" : "false"
        case .absent: return ""
        }
    }

    /// The value as a JSON member's value.
    func json(of occurrence: Occurrence, clock: ZoneClock) -> JSONValue {
        switch value(of: occurrence, clock: clock) {
        case .text(let text): return .string(text)
        case .truth(let truth): return .bool(truth)
        case .absent: return .null
        }
    }
}

/// RFC 4180 CSV: a field with a comma, a quote or a line break is quoted, its quotes doubled;
/// records end with CRLF.
enum CSV {
    static func record(_ fields: [String]) -> String {
        fields.map { field in
            guard field.contains(where: { $0 == "," || $0 == "\"" || $0.isNewline }) else { return field }
            return "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\""
        }.joined(separator: ",") + "\r\n"
    }
}
