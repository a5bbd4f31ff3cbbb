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
    static func ndjsonRecord(
        _ occurrence: Occurrence, clock: ZoneClock, days: inout DayCache, into output: inout [UInt8]
    ) {
        ndjsonHead(uid: occurrence.uid, into: &output)
        ndjsonTimes(occurrence, clock: clock, days: &days, into: &output)
        ndjsonTail(occurrence.source, zone: ndjsonZone(of: occurrence), into: &output)
    }

    /// The record's members up to the times: `{"uid":…,"recurrenceId":`.
    static func ndjsonHead(uid: String, into output: inout [UInt8]) {
        literal(#"{"uid":"#, into: &output)
        JSONWriter.writeString(uid, into: &output)
        literal(#","recurrenceId":"#, into: &output)
    }

    /// The members an occurrence has of its own: its recurrence id, start and end, and the two flags, put
    /// together on the stack from the occurrence's seconds (no `CalendarTime` is made) and appended at once.
    static func ndjsonTimes(
        _ occurrence: Occurrence, clock: ZoneClock, days: inout DayCache, into output: inout [UInt8]
    ) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 256) { buffer in
            var text = StackText(buffer, days: days)
            defer { days = text.days }
            let start = DisplayTime(
                isDate: occurrence.startIsDate, wall: occurrence.startWall, instant: occurrence.startInstant)
            // An occurrence no override moved starts at its RECURRENCE-ID: the same text, made once.
            let unmoved =
                occurrence.recurrenceInstant == occurrence.startInstant
                && occurrence.recurrenceIDIsDate == occurrence.startIsDate
            let recurrenceFrom = text.count
            if !occurrence.isInstance {
                text.put("null")
            } else if unmoved {
                text.put(start, clock: clock, separator: UInt8(ascii: "T"), quoted: true)
            } else {
                let recurrenceID = DisplayTime(
                    isDate: occurrence.recurrenceIDIsDate, wall: occurrence.recurrenceWall,
                    instant: occurrence.recurrenceInstant)
                text.put(recurrenceID, clock: clock, separator: UInt8(ascii: "T"), quoted: true)
            }
            let recurrenceText = recurrenceFrom..<text.count
            text.put(#","start":"#)
            if occurrence.isInstance && unmoved {
                text.repeat(recurrenceText)
            } else {
                text.put(start, clock: clock, separator: UInt8(ascii: "T"), quoted: true)
            }
            text.put(#","end":"#)
            let end = DisplayTime(
                isDate: occurrence.endIsDate, wall: occurrence.endWall, instant: occurrence.endInstant)
            text.put(end, clock: clock, separator: UInt8(ascii: "T"), quoted: true)
            text.put(occurrence.isAllDay ? #","isAllDay":true"# : #","isAllDay":false"#)
            text.put(occurrence.isOverride ? #","isOverride":true"# : #","isOverride":false"#)
            output.append(contentsOf: text.written)
        }
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
        occurrence.startZoneName
    }

    private static func literal(_ text: StaticString, into output: inout [UInt8]) {
        text.withUTF8Buffer { output.append(contentsOf: $0) }
    }

    /// A time to show: a whole day, or an instant shown on the display clock.
    enum DisplayTime {
        case date(CalendarDate)
        /// A whole day, as days since 1970.
        case day(Int)
        case instant(Int)

        /// A date whose midnight is `wall` (wall-clock seconds since 1970), or `instant`.
        init(isDate: Bool, wall: Int, instant: Int) {
            self = isDate ? .day(LocalDateTime.days(beforeSecondsSinceEpoch: wall)) : .instant(instant)
        }
    }

    /// Text put together in a buffer on the stack, byte by byte; the buffer is large enough for what the
    /// caller puts: a time is at most 42 bytes (a year of 19 digits and a sign, quotes, offset), so an
    /// NDJSON record's times and their member names are under 200.
    struct StackText {
        private let buffer: UnsafeMutableBufferPointer<UInt8>
        private(set) var count = 0
        /// A record's times are mostly on one day, and on the day of the record before.
        private(set) var days: DayCache

        init(_ buffer: UnsafeMutableBufferPointer<UInt8>, days: DayCache = DayCache()) {
            self.buffer = buffer
            self.days = days
        }

        var written: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(rebasing: buffer[..<count]) }

        @inline(__always)
        mutating func put(_ byte: UInt8) {
            buffer[count] = byte
            count += 1
        }

        /// Writes again what `range` of the text holds.
        mutating func `repeat`(_ range: Range<Int>) {
            for index in range { put(buffer[index]) }
        }

        mutating func put(_ literal: StaticString) {
            literal.withUTF8Buffer { bytes in
                _ = UnsafeMutableBufferPointer(rebasing: buffer[count...]).initialize(fromContentsOf: bytes)
                count += bytes.count
            }
        }

        @inline(__always)
        private mutating func two(_ value: Int) {
            put(UInt8(ascii: "0") + UInt8(value / 10 % 10))
            put(UInt8(ascii: "0") + UInt8(value % 10))
        }

        /// The year in at least four digits, zeros in front, then month and day.
        private mutating func put(_ date: CalendarDate) {
            if (1_000...9_999).contains(date.year) {
                two(date.year / 100)
                two(date.year % 100)
            } else {
                putYear(date.year)
            }
            put(UInt8(ascii: "-"))
            two(date.month)
            put(UInt8(ascii: "-"))
            two(date.day)
        }

        private mutating func putYear(_ signedYear: Int) {
            let year = signedYear.magnitude
            var digits = 1
            var power: UInt = 10
            while power <= year && digits < 19 {
                digits += 1
                power *= 10
            }
            let sign = signedYear < 0 ? 1 : 0
            for _ in 0..<max(0, 4 - digits - sign) { put(UInt8(ascii: "0")) }
            if sign == 1 { put(UInt8(ascii: "-")) }
            var divisor = power / 10
            while divisor > 0 {
                put(UInt8(ascii: "0") + UInt8(year / divisor % 10))
                divisor /= 10
            }
        }

        /// `time` as `display` writes it, with `separator` between date and time of day, in JSON quotes
        /// when `quoted`.
        mutating func put(_ time: DisplayTime, clock: ZoneClock, separator: UInt8, quoted: Bool) {
            if quoted { put(UInt8(ascii: "\"")) }
            switch time {
            case .date(let date):
                put(date)
            case .day(let day):
                put(days.date(ofDay: day))
            case .instant(let instant):
                let offset = clock.offset(at: instant)
                let wall = days.localDateTime(atWall: instant + offset)
                if (1_000...9_999).contains(wall.date.year) {
                    putFourDigitYear(wall, offset: offset, separator: separator)
                } else {
                    put(wall.date)
                    put(separator)
                    two(wall.hour)
                    put(UInt8(ascii: ":"))
                    two(wall.minute)
                    put(UInt8(ascii: ":"))
                    two(wall.second)
                    putOffset(offset)
                }
            }
            if quoted { put(UInt8(ascii: "\"")) }
        }

        private mutating func putOffset(_ offset: Int) {
            put(UInt8(ascii: offset < 0 ? "-" : "+"))
            two(abs(offset) / 3_600)
            put(UInt8(ascii: ":"))
            two(abs(offset) % 3_600 / 60)
        }

        /// "00" to "99".
        private static let digitPairs: StaticString = """
            0001020304050607080910111213141516171819202122232425262728293031323334353637383940414243444546474849\
            5051525354555657585960616263646566676869707172737475767778798081828384858687888990919293949596979899
            """

        /// `YYYY-MM-DDThh:mm:ss+hh:mm`, 25 bytes, written through one pointer: byte by byte through
        /// `put`, each byte stored the count and loaded it again (1,040 instructions a record's two
        /// times, a tenth of expanding it).
        private mutating func putFourDigitYear(_ wall: LocalDateTime, offset: Int, separator: UInt8) {
            let text = buffer.baseAddress! + count
            // Each pair of digits copied from a table, not worked out with a division and a remainder:
            // 155 instructions a time before, a fortieth of expanding an occurrence.
            @inline(__always) func two(_ value: Int, at index: Int) {
                precondition(UInt(bitPattern: value) < 100)
                Self.digitPairs.withUTF8Buffer { pairs in
                    UnsafeMutableRawPointer(text + index).copyMemory(from: pairs.baseAddress! + 2 * value, byteCount: 2)
                }
            }
            two(wall.date.year / 100, at: 0)
            two(wall.date.year % 100, at: 2)
            text[4] = UInt8(ascii: "-")
            two(wall.date.month, at: 5)
            text[7] = UInt8(ascii: "-")
            two(wall.date.day, at: 8)
            text[10] = separator
            two(wall.hour, at: 11)
            text[13] = UInt8(ascii: ":")
            two(wall.minute, at: 14)
            text[16] = UInt8(ascii: ":")
            two(wall.second, at: 17)
            text[19] = UInt8(ascii: offset < 0 ? "-" : "+")
            two(abs(offset) / 3_600 % 100, at: 20)
            text[22] = UInt8(ascii: ":")
            two(abs(offset) % 3_600 / 60, at: 23)
            count += 25
        }
    }

    /// A date as written for an all-day occurrence; otherwise the instant as ISO 8601 with the clock's offset.
    static func display(_ time: CalendarTime, instant: Int, clock: ZoneClock, separator: Character = " ") -> String {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 64) { buffer in
            var text = StackText(buffer)
            let shown: DisplayTime = if case .date(let day) = time { .date(day) } else { .instant(instant) }
            text.put(shown, clock: clock, separator: separator.asciiValue ?? 0x20, quoted: false)
            return String(decoding: text.written, as: UTF8.self)
        }
    }

    static func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text + " " : text + String(repeating: " ", count: width - text.count)
    }
}

/// The date of the last day asked for, kept: the times an occurrence writes mostly fall on one day, and
/// working a date out of days since 1970 costs more than writing it.
struct DayCache {
    private var lastDay = Int.min
    private var lastDate = CalendarDate(year: 1970, month: 1, day: 1)

    /// The date of `day`, days since 1970.
    mutating func date(ofDay day: Int) -> CalendarDate {
        if day != lastDay {
            lastDay = day
            lastDate = CalendarDate(daysSinceEpoch: day)
        }
        return lastDate
    }

    /// `LocalDateTime(secondsSinceEpoch: wall)`, its date taken from here.
    mutating func localDateTime(atWall wall: Int) -> LocalDateTime {
        let day = LocalDateTime.days(beforeSecondsSinceEpoch: wall)
        return LocalDateTime(date: date(ofDay: day), secondOfDay: wall - day * 86_400)
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
