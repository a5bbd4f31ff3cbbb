import ArgumentParsing
import CalendarModel
import GraphEvents
import ICalendar

/// The output formats of `calport expand`, each writing one record per occurrence.
enum OccurrenceFormat: String, CaseIterable {
    case ics, ndjson, table, csv, agenda

    /// What the format is, for completion.
    var summary: String {
        switch self {
        case .ics: return "a VEVENT per occurrence"
        case .ndjson: return "an occurrence a line"
        case .table: return "columns (start, end and summary unless --fields)"
        case .csv: return "RFC 4180, a header and an occurrence a record"
        case .agenda: return "by day, for people: time, summary, location"
        }
    }

    /// The extension of files written in this format (`expand --out-dir`).
    var fileExtension: String {
        switch self {
        case .table, .agenda: return "txt"
        case .ics, .ndjson, .csv: return rawValue
        }
    }

    /// One line of the NDJSON schema in docs/recurrence.md, encoded straight into `output`: the members
    /// in schema order, strings through the JSON library's escaping, times from integers.
    static func ndjsonRecord(_ occurrence: Occurrence, clock: ZoneClock, into output: inout [UInt8]) {
        ndjsonHead(uid: occurrence.uid, into: &output)
        ndjsonTimes(occurrence, clock: clock, into: &output)
        ndjsonTail(occurrence.source, zone: ndjsonZone(of: occurrence), into: &output)
    }

    /// The record's members up to the times: `{"uid":…,"recurrenceId":`.
    static func ndjsonHead(uid: String, into output: inout [UInt8]) {
        literal(#"{"uid":"#, into: &output)
        JSONWriter.writeString(uid, into: &output)
        literal(#","recurrenceId":"#, into: &output)
    }

    /// The members an occurrence has of its own: its recurrence id, start and end, and the two flags.
    static func ndjsonTimes(_ occurrence: Occurrence, clock: ZoneClock, into output: inout [UInt8]) {
        // An occurrence no override moved starts at its RECURRENCE-ID: the text is made once.
        let start = occurrence.start
        let unmoved =
            occurrence.recurrenceInstant == occurrence.startInstant && occurrence.recurrenceID.isDate == start.isDate
        withDisplay(start, instant: occurrence.startInstant, clock: clock, separator: UInt8(ascii: "T"), quoted: true) {
            startText in
            if !occurrence.isInstance {
                literal("null", into: &output)
            } else if unmoved {
                output.append(contentsOf: startText)
            } else {
                withDisplay(
                    occurrence.recurrenceID, instant: occurrence.recurrenceInstant, clock: clock,
                    separator: UInt8(ascii: "T"), quoted: true
                ) { output.append(contentsOf: $0) }
            }
            literal(#","start":"#, into: &output)
            output.append(contentsOf: startText)
        }
        literal(#","end":"#, into: &output)
        withDisplay(
            occurrence.end, instant: occurrence.endInstant, clock: clock, separator: UInt8(ascii: "T"), quoted: true
        ) { output.append(contentsOf: $0) }
        literal(occurrence.isAllDay ? #","isAllDay":true"# : #","isAllDay":false"#, into: &output)
        literal(occurrence.isOverride ? #","isOverride":true"# : #","isOverride":false"#, into: &output)
    }

    /// The members the event decides, after the times: `,"summary":…,"timeZone":…}` and the line end.
    /// Read through the shared reference: an `Event` argument would be a copy of the whole VEVENT.
    static func ndjsonTail(_ source: SharedEvent, zone: String?, into output: inout [UInt8]) {
        func string(_ text: String?) {
            if let text { JSONWriter.writeString(text, into: &output) } else { literal("null", into: &output) }
        }
        literal(#","summary":"#, into: &output)
        string(source.event.summary)
        literal(#","location":"#, into: &output)
        string(source.event.locations.first?.name)
        literal(#","status":"#, into: &output)
        string(source.event.status?.text)
        literal(#","timeZone":"#, into: &output)
        string(zone)
        literal("}\n", into: &output)
    }

    /// The record's `timeZone`: the zone of the occurrence's start, by its IANA name where known.
    static func ndjsonZone(of occurrence: Occurrence) -> String? {
        occurrence.start.timeZone.map { $0.ianaIdentifier ?? $0.name }
    }

    private static func literal(_ text: StaticString, into output: inout [UInt8]) {
        text.withUTF8Buffer { output.append(contentsOf: $0) }
    }

    /// A date as written for an all-day occurrence; otherwise the instant as ISO 8601 with the clock's offset.
    static func display(_ time: CalendarTime, instant: Int, clock: ZoneClock, separator: Character = " ") -> String {
        withDisplay(time, instant: instant, clock: clock, separator: separator.asciiValue ?? 0x20, quoted: false) {
            String(decoding: $0, as: UTF8.self)
        }
    }

    /// `display`'s text, with `separator` between date and time of day and in JSON quotes when `quoted`,
    /// put together on the stack from integers and handed to `body`.
    private static func withDisplay<Result>(
        _ time: CalendarTime, instant: Int, clock: ZoneClock, separator: UInt8, quoted: Bool,
        _ body: (UnsafeBufferPointer<UInt8>) -> Result
    ) -> Result {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 48) { buffer in
            var count = 0
            func put(_ byte: UInt8) {
                buffer[count] = byte
                count += 1
            }
            func two(_ value: Int) {
                put(UInt8(ascii: "0") + UInt8(value / 10 % 10))
                put(UInt8(ascii: "0") + UInt8(value % 10))
            }
            func date(_ date: CalendarDate) {
                // The year in at least four digits, zeros in front.
                let year = date.year.magnitude
                var digits = 1
                var power: UInt = 10
                while power <= year && digits < 19 {
                    digits += 1
                    power *= 10
                }
                let sign = date.year < 0 ? 1 : 0
                for _ in 0..<max(0, 4 - digits - sign) { put(UInt8(ascii: "0")) }
                if sign == 1 { put(UInt8(ascii: "-")) }
                var divisor = power / 10
                while divisor > 0 {
                    put(UInt8(ascii: "0") + UInt8(year / divisor % 10))
                    divisor /= 10
                }
                put(UInt8(ascii: "-"))
                two(date.month)
                put(UInt8(ascii: "-"))
                two(date.day)
            }
            if quoted { put(UInt8(ascii: "\"")) }
            if case .date(let day) = time {
                date(day)
            } else {
                let offset = clock.offset(at: instant)
                let wall = LocalDateTime(secondsSinceEpoch: instant + offset)
                date(wall.date)
                put(separator)
                two(wall.hour)
                put(UInt8(ascii: ":"))
                two(wall.minute)
                put(UInt8(ascii: ":"))
                two(wall.second)
                put(UInt8(ascii: offset < 0 ? "-" : "+"))
                two(abs(offset) / 3_600)
                put(UInt8(ascii: ":"))
                two(abs(offset) % 3_600 / 60)
            }
            if quoted { put(UInt8(ascii: "\"")) }
            return body(UnsafeBufferPointer(rebasing: buffer[..<count]))
        }
    }

    static func pad(_ text: String, _ width: Int) -> String {
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
