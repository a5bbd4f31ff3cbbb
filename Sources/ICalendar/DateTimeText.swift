import CalendarModel

/// DATE and DATE-TIME values as RFC 5545 text (§3.3.4, §3.3.5): `19970714`, `19970714T133000`,
/// `19980119T070000Z`.
///
/// Written here rather than by libical's `icaltime_as_ical_string_r`: that costs a `snprintf`, a
/// `malloc` and a copy per value, which profiling of graph→ics put at about 4 % of the run for a
/// format that is only fixed-width digits. Fields are written as `%04d`/`%02d` would write them.
enum DateTimeText {
    static func format(_ local: LocalDateTime, isDate: Bool, isUTC: Bool) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(16)
        appendDigits(local.date.year, width: 4, to: &bytes)
        appendDigits(local.date.month, width: 2, to: &bytes)
        appendDigits(local.date.day, width: 2, to: &bytes)
        if !isDate {
            bytes.append(UInt8(ascii: "T"))
            appendDigits(local.hour, width: 2, to: &bytes)
            appendDigits(local.minute, width: 2, to: &bytes)
            appendDigits(local.second, width: 2, to: &bytes)
            if isUTC { bytes.append(UInt8(ascii: "Z")) }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `value` in decimal, zero-padded to `width` characters, a minus sign counting as one.
    private static func appendDigits(_ value: Int, width: Int, to bytes: inout [UInt8]) {
        var divisor = 1
        for _ in 1..<width { divisor *= 10 }
        guard value >= 0, value < divisor * 10 else {
            // Years past 9999 or before 0, which no calendar should hold but a model can.
            let digits = String(value.magnitude).utf8
            if value < 0 { bytes.append(UInt8(ascii: "-")) }
            let padding = width - digits.count - (value < 0 ? 1 : 0)
            if padding > 0 { bytes.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: padding)) }
            bytes.append(contentsOf: digits)
            return
        }
        while divisor > 0 {
            bytes.append(UInt8(ascii: "0") + UInt8(value / divisor % 10))
            divisor /= 10
        }
    }
}
