import CalendarModel
import ICalendar

/// `expand --format ics` writes each occurrence as its event's whole VEVENT. The occurrences of one
/// event differ only in DTSTART, DTEND and RECURRENCE-ID (`Occurrence.standaloneEvent`), so the
/// event is serialised once and each occurrence is that text with those lines' values written anew:
/// the long folded DESCRIPTION, the attendees and the alarms are escaped and folded once per event,
/// not once per occurrence (issue 24: --format ics took 1.9× the time of NDJSON).
final class OccurrenceTemplate: EventTemplate {
    /// The lines an occurrence rewrites, by name.
    enum Slot: Equatable {
        case start, end, recurrenceID
    }

    /// One line an occurrence rewrites.
    private struct Line {
        var slot: Slot
        /// The whole line in the template's bytes, folds and CRLF included.
        var range: Range<Int>
        /// Where its value starts, when the line is not folded: a DATE or DATE-TIME value holds no
        /// colon, so it follows the line's last one.
        var valueStart: Int?
        /// The time the template's line holds: another time of the same form (a date, UTC, floating,
        /// or in the same zone) is written with the same name and parameters, only its value differs.
        var time: CalendarTime?
    }

    /// The serialised VEVENT of the event's first occurrence met.
    private let bytes: [UInt8]
    /// The lines an occurrence rewrites, in the order they come.
    private let lines: [Line]
    /// Whether those are the lines the writer writes for the times alone: not so when the event
    /// keeps a second DTSTART among its unknown properties (a malformed input kept as it was) or a
    /// component holding one; such an event is written whole for each occurrence.
    private let rewritable: Bool
    /// The forms of the first occurrence's times: an occurrence that shares them (another instance of
    /// the series' rules) has times that differ from the template's only in their wall-clock seconds.
    private let forms: AnyObject?
    /// Their identity, which occurrences are compared by (`Occurrence.formsIdentity`: the same object
    /// has the same forms, not exact); `forms` is held so that no other object takes it.
    private let formsIdentity: ObjectIdentifier?
    /// The lines' values as `writeWallClockValues` replaces them; nil when a line is folded.
    private let values: [Value]?

    /// Where a line's value is in the template, and its form.
    private struct Value {
        var slot: Slot
        var range: Range<Int>
        var isDate: Bool
        var isUTC: Bool
    }

    /// The bytes it holds.
    var size: Int { bytes.count }
    /// Some eight thousand events of a kilobyte: more than a calendar interleaves at once.
    static var budget: Int { 8 << 20 }

    /// The template of `occurrence`'s event.
    init(_ occurrence: Occurrence) {
        bytes = ICalendarSerializer().serialize(event: occurrence.standaloneEvent)
        lines = Self.lines(in: bytes).map { line in
            var line = line
            line.time = Self.time(of: line.slot, occurrence)
            return line
        }
        rewritable = Self.lines(in: Self.timesOnly(occurrence)).map(\.slot) == lines.map(\.slot)
        forms = occurrence.timeForms
        formsIdentity = forms.map(ObjectIdentifier.init)
        let values = lines.compactMap { line -> Value? in
            guard let start = line.valueStart, let time = line.time else { return nil }
            let isUTC = if case .utc = time { true } else { false }
            return Value(slot: line.slot, range: start..<(line.range.upperBound - 2), isDate: time.isDate, isUTC: isUTC)
        }
        self.values = values.count == lines.count ? values : nil
    }

    /// `occurrence` (of the template's event) as `Occurrence.standaloneEvent` serialised, appended to
    /// `output`.
    func write(_ occurrence: Occurrence, days: inout DayCache, into output: inout [UInt8]) {
        guard rewritable else { return output += ICalendarSerializer().serialize(event: occurrence.standaloneEvent) }
        if let formsIdentity, occurrence.formsIdentity == formsIdentity,
            writeWallClockValues(occurrence, days: &days, into: &output)
        {
            return
        }
        if !writeValues(occurrence, into: &output) { writeLines(occurrence, into: &output) }
    }

    /// `writeValues` for an occurrence whose times have the template's forms: each value is written
    /// from the occurrence's wall-clock seconds, no `CalendarTime` made, and has the length of the
    /// template's (a four-digit year), so the line stays as long; false (and nothing written) otherwise.
    private func writeWallClockValues(_ occurrence: Occurrence, days: inout DayCache, into output: inout [UInt8])
        -> Bool
    {
        guard let values else { return false }
        let mark = output.count
        var copied = 0
        for index in values.indices {
            let value = values[index]
            Self.append(bytes, copied..<value.range.lowerBound, to: &output)
            let valueOffset = output.count
            let wall =
                switch value.slot {
                case .start: occurrence.startWall
                case .end: occurrence.endWall
                case .recurrenceID: occurrence.recurrenceWall
                }
            CalendarTime.appendICalendarText(
                of: days.localDateTime(atWall: wall), isDate: value.isDate, isUTC: value.isUTC, to: &output)
            guard output.count - valueOffset == value.range.count else {
                output.removeLast(output.count - mark)
                return false
            }
            copied = value.range.upperBound
        }
        Self.append(bytes, copied..<bytes.count, to: &output)
        return true
    }

    /// Writes the template with each time's value replaced, when every time has its template line's
    /// form and the lines stay within 75 octets unfolded; false (and nothing written) otherwise.
    /// The values go straight into `output` (taken back on a false): as strings gathered first they
    /// were a fifth of writing an occurrence.
    private func writeValues(_ occurrence: Occurrence, into output: inout [UInt8]) -> Bool {
        let mark = output.count
        var copied = 0
        for index in lines.indices {
            guard let valueStart = lines[index].valueStart, let time = Self.time(of: lines[index].slot, occurrence),
                lines[index].time.map({ Self.sameForm(time, $0) }) == true
            else {
                output.removeLast(output.count - mark)
                return false
            }
            output += bytes[copied..<valueStart]
            let valueOffset = output.count
            time.appendICalendarText(to: &output)
            guard valueStart - lines[index].range.lowerBound + (output.count - valueOffset) <= 75 else {
                output.removeLast(output.count - mark)
                return false
            }
            copied = lines[index].range.upperBound - 2  // the CRLF
        }
        output += bytes[copied...]
        return true
    }

    /// The occurrence's times as the writer writes them: in a VEVENT of nothing else, with the
    /// event's kept parameters, the same lines the whole event would have.
    private static func timesOnly(_ occurrence: Occurrence) -> [UInt8] {
        var times = Event(uid: occurrence.source.event.uid)
        times.propertyParameters = occurrence.source.event.propertyParameters
        times.start = occurrence.start
        times.end = .end(occurrence.end)
        times.recurrenceID = occurrence.isInstance ? RecurrenceIdentifier(time: occurrence.recurrenceID) : nil
        return ICalendarSerializer().serialize(event: times)
    }

    /// Writes the template with the time lines of `timesOnly`, for times whose value alone cannot
    /// be replaced (a folded line, another form).
    private func writeLines(_ occurrence: Occurrence, into output: inout [UInt8]) {
        let written = Self.timesOnly(occurrence)
        let rewritten = Self.lines(in: written)
        guard rewritten.map(\.slot) == lines.map(\.slot) else {
            return output += ICalendarSerializer().serialize(event: occurrence.standaloneEvent)
        }
        var copied = 0
        for (new, old) in zip(rewritten, lines) {
            output += bytes[copied..<old.range.lowerBound]
            output += written[new.range]
            copied = old.range.upperBound
        }
        output += bytes[copied...]
    }

    private static func time(of slot: Slot, _ occurrence: Occurrence) -> CalendarTime? {
        switch slot {
        case .start: return occurrence.start
        case .end: return occurrence.end
        case .recurrenceID: return occurrence.isInstance ? occurrence.recurrenceID : nil
        }
    }

    private static func sameForm(_ one: CalendarTime, _ other: CalendarTime) -> Bool {
        switch (one, other) {
        case (.date, .date), (.utc, .utc), (.floating, .floating): return true
        case (.zoned(_, let zone), .zoned(_, let otherZone)): return zone == otherZone
        default: return false
        }
    }

    /// The DTSTART, DTEND and RECURRENCE-ID lines of serialised content lines.
    private static func lines(in bytes: [UInt8]) -> [Line] {
        var found: [Line] = []
        bytes.withUnsafeBufferPointer { bytes in
            var start = 0
            while start < bytes.count {
                // A content line ends at a CRLF not followed by the space or tab of a fold.
                var end = start
                var folded = false
                var lastColon: Int?
                while end < bytes.count {
                    end += 1
                    if bytes[end - 1] == UInt8(ascii: ":") { lastColon = end - 1 }
                    guard bytes[end - 1] == 0x0A else { continue }
                    if end == bytes.count || (bytes[end] != 0x20 && bytes[end] != 0x09) { break }
                    folded = true
                }
                if let slot = slot(of: UnsafeBufferPointer(rebasing: bytes[start..<end])) {
                    let valueStart = folded ? nil : lastColon.map { $0 + 1 }
                    found.append(Line(slot: slot, range: start..<end, valueStart: valueStart))
                }
                start = end
            }
        }
        return found
    }

    private static func slot(of line: UnsafeBufferPointer<UInt8>) -> Slot? {
        func named(_ name: StaticString) -> Bool {
            let length = name.utf8CodeUnitCount
            guard line.count > length, line[length] == UInt8(ascii: ":") || line[length] == UInt8(ascii: ";") else {
                return false
            }
            return name.withUTF8Buffer { name in name.indices.allSatisfy { line[$0] == name[$0] } }
        }
        if named("DTSTART") { return .start }
        if named("DTEND") { return .end }
        if named("RECURRENCE-ID") { return .recurrenceID }
        return nil
    }
}
