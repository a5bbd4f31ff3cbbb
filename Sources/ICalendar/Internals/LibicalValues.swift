import CLibical
import CalendarModel

/// Every libical call calport makes goes through here: libical parses and writes the typed values
/// of RFC 5545 (DATE-TIME, DURATION, RECUR, UTC-OFFSET, PERIOD, GEO), except that DATE-TIME is
/// written by `DateTimeText` and DURATION, up to 32-bit totals, by `DurationText`; outside this
/// folder code sees Swift types only.
enum Libical {
    /// A DATE or DATE-TIME as libical read it; fields are not range-checked (libical keeps month 13).
    struct Time: Hashable {
        var local: LocalDateTime
        var isDate: Bool
        var isUTC: Bool
    }

    static func parseTime(_ text: String) -> Time? {
        // icaltime_from_string accepts trailing garbage after a valid prefix; insist on the exact forms.
        let utf8 = text.utf8
        guard utf8.count == 8 || utf8.count == 15 || utf8.count == 16 else { return nil }
        if let time = utf8.withContiguousStorageIfAvailable(digitTime) ?? nil { return time }
        return libicalTime(text)
    }

    /// libical's reading of a time, for `parseTime` and the tests that hold `digitTime` to it.
    static func libicalTime(_ text: String) -> Time? {
        let time = icaltime_from_string(text)
        guard icaltime_is_null_time(time) == 0 || text == "00000000" else { return nil }
        return Time(local: LocalDateTime(time), isDate: time.is_date != 0, isUTC: icaltime_is_utc(time) != 0)
    }

    /// The all-digit forms, `YYYYMMDD` and `YYYYMMDDTHHMMSS` with or without `Z`, read field by
    /// field as libical's sscanf reads them (no range check; `libicalTime` is the oracle for it in
    /// the tests): the sscanf cost 2,600 instructions a value, a tenth of reading an event. Nil for
    /// anything else, and for the all-zero time libical calls null, which are left to libical.
    private static func digitTime(_ bytes: UnsafeBufferPointer<UInt8>) -> Time? {
        func digits(_ start: Int, _ count: Int) -> Int? { DecimalDigits.value(of: bytes, from: start, count: count) }
        guard let year = digits(0, 4), let month = digits(4, 2), let day = digits(6, 2) else { return nil }
        var local = LocalDateTime(year: year, month: month, day: day)
        var isUTC = false
        if bytes.count > 8 {
            guard bytes[8] == UInt8(ascii: "T"), let hour = digits(9, 2), let minute = digits(11, 2),
                let second = digits(13, 2)
            else { return nil }
            if bytes.count == 16 {
                guard bytes[15] == UInt8(ascii: "Z") else { return nil }
                isUTC = true
            }
            local = LocalDateTime(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
        }
        guard year + month + day + local.hour + local.minute + local.second != 0 else { return nil }
        return Time(local: local, isDate: bytes.count == 8, isUTC: isUTC)
    }

    /// A zone-less libical time with the wall time's fields.
    static func icalTime(_ local: LocalDateTime, isDate: Bool) -> icaltimetype {
        var time = icaltime_null_time()
        time.year = Int32(local.date.year)
        time.month = Int32(local.date.month)
        time.day = Int32(local.date.day)
        time.hour = Int32(local.hour)
        time.minute = Int32(local.minute)
        time.second = Int32(local.second)
        time.is_date = isDate ? 1 : 0
        return time
    }

    /// A DURATION value: RFC 5545's strict grammar read by `DurationText.strict`, anything else by
    /// libical, which reads some of it leniently.
    static func parseDuration(_ text: String) -> EventDuration? {
        DurationText.strict(text) ?? libicalDuration(text)
    }

    /// libical's reading of a DURATION, for `parseDuration` and the tests that hold
    /// `DurationText.strict` to it.
    static func libicalDuration(_ text: String) -> EventDuration? {
        let value = icaldurationtype_from_string(text)
        guard icaldurationtype_is_bad_duration(value) == 0 else { return nil }
        return EventDuration(
            isNegative: value.is_neg != 0, weeks: Int(value.weeks), days: Int(value.days), hours: Int(value.hours),
            minutes: Int(value.minutes), seconds: Int(value.seconds))
    }

    static func formatDuration(_ duration: EventDuration) -> String {
        var value = icaldurationtype_null_duration()
        value.is_neg = duration.isNegative ? 1 : 0
        value.weeks = UInt32(duration.weeks)
        value.days = UInt32(duration.days)
        value.hours = UInt32(duration.hours)
        value.minutes = UInt32(duration.minutes)
        value.seconds = UInt32(duration.seconds)
        if duration.weeks != 0 && (duration.days != 0 || duration.exactSeconds != 0) {
            // RFC 5545 has no "weeks and days" form; libical would drop the days.
            value.days += value.weeks * 7
            value.weeks = 0
        }
        return takeString(icaldurationtype_as_ical_string_r(value))
    }

    static func parseUTCOffset(_ text: String) -> Int? {
        // libical wraps out-of-range hours ("+5744" reads as +23:44); RFC 5545 §3.3.14 allows 00-23.
        let digits = Array(text.utf8.dropFirst())
        guard let sign = text.first, sign == "+" || sign == "-", digits.count == 4 || digits.count == 6,
            digits.allSatisfy({ (0x30...0x39).contains($0) }),
            Int(digits[0] - 0x30) * 10 + Int(digits[1] - 0x30) < 24, digits[2] < 0x36,
            digits.count == 4 || digits[4] < 0x36
        else { return nil }
        guard let value = icalvalue_new_from_string(ICAL_UTCOFFSET_VALUE, text) else { return nil }
        defer { icalvalue_free(value) }
        return Int(icalvalue_get_utcoffset(value))
    }

    static func formatUTCOffset(_ seconds: Int) -> String {
        guard let value = icalvalue_new_utcoffset(Int32(seconds)) else { return "" }
        defer { icalvalue_free(value) }
        return takeString(icalvalue_as_ical_string_r(value))
    }

    static func parseGeo(_ text: String) -> GeoCoordinate? {
        let parts = text.split(separator: ";", omittingEmptySubsequences: false)
        guard parts.count == 2, Double(parts[0]) != nil, Double(parts[1]) != nil,
            let value = icalvalue_new_from_string(ICAL_GEO_VALUE, text)
        else { return nil }
        defer { icalvalue_free(value) }
        let geo = icalvalue_get_geo(value)
        return GeoCoordinate(latitude: geo.lat, longitude: geo.lon)
    }

    /// Reads `start/end` or `start/duration`.
    static func parsePeriod(_ text: String) -> (start: Time, end: Time?, duration: EventDuration?)? {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let start = parseTime(String(parts[0])) else { return nil }
        if parts[1].hasPrefix("P") || parts[1].hasPrefix("+P") || parts[1].hasPrefix("-P") {
            guard let duration = parseDuration(String(parts[1])) else { return nil }
            return (start, nil, duration)
        }
        guard let end = parseTime(String(parts[1])) else { return nil }
        return (start, end, nil)
    }

    private static func takeString(_ pointer: UnsafeMutablePointer<CChar>?) -> String {
        guard let pointer else { return "" }
        defer { icalmemory_free_buffer(pointer) }
        return String(cString: pointer)
    }
}

extension LocalDateTime {
    /// The wall time of a libical time, its zone aside.
    init(_ time: icaltimetype) {
        self.init(
            year: Int(time.year), month: Int(time.month), day: Int(time.day), hour: Int(time.hour),
            minute: Int(time.minute), second: Int(time.second))
    }
}
