import CalendarModel

/// DATE and DATE-TIME values as RFC 5545 text (§3.3.4, §3.3.5): `19970714`, `19970714T133000`,
/// `19980119T070000Z`.
///
/// Written here rather than by libical's `icaltime_as_ical_string_r`: that costs a `snprintf`, a
/// `malloc` and a copy per value, which profiling of graph→ics put at about 4 % of the run for a
/// format that is only fixed-width digits. Fields are written as `%04d`/`%02d` would write them.
enum DateTimeText {
    static func format(_ time: CalendarTime) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(16)
        write(time, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    static func format(_ local: LocalDateTime, isDate: Bool, isUTC: Bool) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(16)
        write(local, isDate: isDate, isUTC: isUTC, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The time's value, without the TZID a zoned time also needs.
    static func write(_ time: CalendarTime, to sink: inout some ByteSink & ~Copyable) {
        switch time {
        case .date(let date): write(LocalDateTime(date: date), isDate: true, isUTC: false, to: &sink)
        case .utc(let local): write(local, isDate: false, isUTC: true, to: &sink)
        case .floating(let local), .zoned(let local, _): write(local, isDate: false, isUTC: false, to: &sink)
        }
    }

    static func write(_ local: LocalDateTime, isDate: Bool, isUTC: Bool, to sink: inout some ByteSink & ~Copyable) {
        let date = local.date
        guard (0...9999).contains(date.year), (0...99).contains(date.month), (0...99).contains(date.day),
            (0...99).contains(local.hour), (0...99).contains(local.minute), (0...99).contains(local.second)
        else { return writeAnyFields(local, isDate: isDate, isUTC: isUTC, to: &sink) }
        // Every field fits its width: the digits are set in place on the stack and appended at once,
        // which profiling put at a tenth of the instructions of appending them one by one.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 16) { text in
            func setTwoDigits(_ value: Int, at index: Int) {
                text[index] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: value / 10)
                text[index + 1] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: value % 10)
            }
            setTwoDigits(date.year / 100, at: 0)
            setTwoDigits(date.year % 100, at: 2)
            setTwoDigits(date.month, at: 4)
            setTwoDigits(date.day, at: 6)
            var count = 8
            if !isDate {
                text[8] = UInt8(ascii: "T")
                setTwoDigits(local.hour, at: 9)
                setTwoDigits(local.minute, at: 11)
                setTwoDigits(local.second, at: 13)
                count = 15
                if isUTC {
                    text[15] = UInt8(ascii: "Z")
                    count = 16
                }
            }
            sink.append(contentsOf: UnsafeBufferPointer(rebasing: text[..<count]))
        }
    }

    /// Fields past their width (years after 9999 or before 0, which no calendar should hold but a
    /// model can) are written whole.
    private static func writeAnyFields(
        _ local: LocalDateTime, isDate: Bool, isUTC: Bool, to sink: inout some ByteSink & ~Copyable
    ) {
        sink.appendDecimal(local.date.year, width: 4)
        sink.appendDecimal(local.date.month, width: 2)
        sink.appendDecimal(local.date.day, width: 2)
        guard !isDate else { return }
        sink.append(UInt8(ascii: "T"))
        sink.appendDecimal(local.hour, width: 2)
        sink.appendDecimal(local.minute, width: 2)
        sink.appendDecimal(local.second, width: 2)
        if isUTC { sink.append(UInt8(ascii: "Z")) }
    }
}

/// DURATION values (RFC 5545 §3.3.6) as libical writes them: `-PT15M`, `P1DT2H`, `PT0S`.
///
/// libical's `icaldurationtype_as_ical_string_r` costs a `malloc` and an `snprintf` per field,
/// which profiling put at about 2,000 instructions for each alarm's TRIGGER; durations whose
/// fields and total fit libical's 32-bit fields are written here, with a test holding both to the
/// same text, and only larger ones (where libical's own arithmetic wraps) are left to it.
enum DurationText {
    static func format(_ duration: EventDuration) -> String {
        var bytes: [UInt8] = []
        write(duration, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    static func write(_ duration: EventDuration, to sink: inout some ByteSink & ~Copyable) {
        var weeks = duration.weeks
        var days = duration.days
        if weeks != 0 && (days != 0 || duration.exactSeconds != 0) {
            // RFC 5545 has no "weeks and days" form: the weeks are written as days.
            days += weeks * 7
            weeks = 0
        }
        let limit = Int(Int32.max)
        let (hours, minutes, seconds) = (duration.hours, duration.minutes, duration.seconds)
        guard (0...limit).contains(weeks), (0...limit).contains(days), (0...limit).contains(hours),
            (0...limit).contains(minutes), (0...limit).contains(seconds),
            weeks * 604_800 + days * 86_400 + hours * 3_600 + minutes * 60 + seconds <= limit
        else {
            var text = Libical.formatDuration(duration)
            text.withUTF8 { sink.append(contentsOf: $0) }
            return
        }
        guard weeks != 0 || days != 0 || hours != 0 || minutes != 0 || seconds != 0 else {
            for byte in "PT0S".utf8 { sink.append(byte) }
            return
        }
        if duration.isNegative { sink.append(UInt8(ascii: "-")) }
        sink.append(UInt8(ascii: "P"))
        func field(_ value: Int, _ unit: Unicode.Scalar) {
            guard value != 0 else { return }
            sink.appendDecimal(value)
            sink.append(UInt8(ascii: unit))
        }
        field(weeks, "W")
        field(days, "D")
        guard hours != 0 || minutes != 0 || seconds != 0 else { return }
        sink.append(UInt8(ascii: "T"))
        field(hours, "H")
        field(minutes, "M")
        field(seconds, "S")
    }
}

extension DurationText {
    /// The last day an iCalendar DATE can name (RFC 5545 §3.3.4: four-digit years).
    static let lastWritableDate = CalendarDate(year: 9999, month: 12, day: 31)

    /// The span of the years iCalendar dates can name, 0000 to 9999, in seconds: no event lasts longer.
    static let longestWritable = 10_000 * 366 * 86_400

    /// `text` read by RFC 5545 §3.3.6's grammar, written in upper case with numbers of one to six
    /// digits (so no sum can overflow libical's 32-bit fields); nil for any other text, which
    /// `Libical.parseDuration` leaves to libical. libical reads even `-PT15M` through `sscanf`, about
    /// 1,300 instructions of each alarm's TRIGGER; a test holds both readings to the same durations.
    static func strict(_ text: String) -> EventDuration? {
        var text = text
        return text.withUTF8 { bytes -> EventDuration? in
            var index = 0
            func number() -> Int? {
                let start = index
                var value = 0
                while index < bytes.count, index - start < 7, bytes[index] &- UInt8(ascii: "0") < 10 {
                    value = value * 10 + Int(bytes[index] &- UInt8(ascii: "0"))
                    index += 1
                }
                return (1...6).contains(index - start) ? value : nil
            }
            // Each field's unit, read after its number: nil at the end or for another byte.
            func unit() -> UInt8? {
                guard index < bytes.count else { return nil }
                defer { index += 1 }
                return bytes[index]
            }
            var duration = EventDuration()
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                duration.isNegative = bytes[index] == UInt8(ascii: "-")
                index += 1
            }
            guard unit() == UInt8(ascii: "P"), index < bytes.count else { return nil }
            // dur-week, or dur-date (dur-day, then an optional dur-time), or dur-time.
            if bytes[index] != UInt8(ascii: "T") {
                guard let value = number() else { return nil }
                switch unit() {
                case UInt8(ascii: "W")?:
                    duration.weeks = value
                    return index == bytes.count ? duration : nil
                case UInt8(ascii: "D")?:
                    duration.days = value
                    if index == bytes.count { return duration }
                default: return nil
                }
            }
            guard unit() == UInt8(ascii: "T"), index < bytes.count else { return nil }
            // dur-hour, dur-minute or dur-second, each followed only by the next smaller one.
            var last: UInt8 = 0
            while index < bytes.count {
                guard let value = number() else { return nil }
                let field = unit()
                switch (last, field) {
                case (0, UInt8(ascii: "H")?): duration.hours = value
                case (0, UInt8(ascii: "M")?), (UInt8(ascii: "H"), UInt8(ascii: "M")?): duration.minutes = value
                case (0, UInt8(ascii: "S")?), (UInt8(ascii: "M"), UInt8(ascii: "S")?): duration.seconds = value
                default: return nil
                }
                last = field!
            }
            return duration
        }
    }

    /// Whether a DURATION value's text adds up to more than `limit` seconds, counted without
    /// overflow, whatever else is wrong with it (libical decides that).
    static func isLonger(_ text: String, thanSeconds limit: Int) -> Bool {
        // Over the bytes in place: a `String`'s UTF-8 view taken a byte at a time cost some 50
        // instructions a byte, 300 for each alarm's `-PT15M`.
        text.utf8.withContiguousStorageIfAvailable { isLonger($0, thanSeconds: limit) }
            ?? isLonger(Array(text.utf8), thanSeconds: limit)
    }

    private static func isLonger(_ text: some Collection<UInt8>, thanSeconds limit: Int) -> Bool {
        var number = 0
        var total = 0
        for byte in text {
            if (0x30...0x39).contains(byte) {
                let (times, overflowed) = number.multipliedReportingOverflow(by: 10)
                number = times + Int(byte - 0x30)
                if overflowed || number > limit { return true }
                continue
            }
            let seconds: Int
            switch byte {
            case UInt8(ascii: "W"): seconds = 604_800
            case UInt8(ascii: "D"): seconds = 86_400
            case UInt8(ascii: "H"): seconds = 3_600
            case UInt8(ascii: "M"): seconds = 60
            case UInt8(ascii: "S"): seconds = 1
            default: continue
            }
            total += number * seconds
            number = 0
            if total > limit { return true }
        }
        return false
    }
}
