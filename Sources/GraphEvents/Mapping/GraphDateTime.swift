import CalendarModel

/// The date and time texts Graph uses: `dateTime` wall times (`2017-04-21T10:00:00.0000000`),
/// `Edm.DateTimeOffset` instants (`2017-04-15T03:00:50.7579581Z`) and `Edm.Date` (`2017-09-04`).
enum GraphDateTime {
    /// A wall time, and the UTC offset in seconds when the text carries one (`Z`, `+02:00`).
    /// Fractions of a second are dropped: iCalendar has none.
    static func parse(_ text: String) -> (local: LocalDateTime, offset: Int?)? {
        var text = text
        return text.withUTF8(parse)
    }

    /// The wall time and offset of a JSON string, read from its bytes when it has no escapes.
    static func parse(_ node: JSONNode) -> (local: LocalDateTime, offset: Int?)? {
        if let bytes = node.rawStringBytes { return parse(bytes) }
        return node.stringValue.flatMap(parse)
    }

    private static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> (local: LocalDateTime, offset: Int?)? {
        guard bytes.count >= 16, bytes[10] == UInt8(ascii: "T") || bytes[10] == UInt8(ascii: " "),
            let date = parseDate(bytes),
            let hour = number(bytes, 11, 2), bytes[13] == UInt8(ascii: ":"), let minute = number(bytes, 14, 2)
        else { return nil }
        var index = 16
        var second = 0
        if index < bytes.count, bytes[index] == UInt8(ascii: ":") {
            guard let value = number(bytes, index + 1, 2) else { return nil }
            second = value
            index += 3
            if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
                index += 1
                while index < bytes.count, bytes[index] &- UInt8(ascii: "0") < 10 { index += 1 }
            }
        }
        let local = LocalDateTime(date: date, hour: hour, minute: minute, second: second)
        guard local.isValid else { return nil }
        if index == bytes.count { return (local, nil) }
        if bytes[index] | 0x20 == UInt8(ascii: "z"), index + 1 == bytes.count { return (local, 0) }
        guard index + 6 == bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-"),
            let hours = number(bytes, index + 1, 2), bytes[index + 3] == UInt8(ascii: ":"),
            let minutes = number(bytes, index + 4, 2)
        else { return nil }
        let sign = bytes[index] == UInt8(ascii: "-") ? -1 : 1
        return (local, sign * (hours * 3_600 + minutes * 60))
    }

    /// An instant as a UTC wall time: an offset-less text is read as UTC, the way Graph writes them.
    static func parseInstant(_ text: String) -> LocalDateTime? { utc(parse(text)) }

    /// Whether iCalendar can write `utc`: its DATE-TIME has a four-digit year (RFC 5545 §3.3.4), and
    /// an offset can carry a time just past 9999-12-31 into a fifth digit.
    static func isWritable(_ utc: LocalDateTime) -> Bool { (0...9999).contains(utc.date.year) }

    /// The instant a JSON string holds, as `parseInstant(_:)` reads it.
    static func parseInstant(_ node: JSONNode) -> LocalDateTime? { utc(parse(node)) }

    private static func utc(_ parsed: (local: LocalDateTime, offset: Int?)?) -> LocalDateTime? {
        parsed.map { $0.local.adding(seconds: -($0.offset ?? 0)) }
    }

    /// A `yyyy-MM-dd` date.
    static func parseDate(_ text: String) -> CalendarDate? {
        var text = text
        return text.withUTF8 { $0.count == 10 ? parseDate($0) : nil }
    }

    /// The date in the first ten bytes.
    private static func parseDate(_ bytes: UnsafeBufferPointer<UInt8>) -> CalendarDate? {
        guard bytes.count >= 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
            let year = number(bytes, 0, 4), let month = number(bytes, 5, 2), let day = number(bytes, 8, 2)
        else { return nil }
        let date = CalendarDate(year: year, month: month, day: day)
        return date.isValid ? date : nil
    }

    @inline(__always)
    private static func number(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ count: Int) -> Int? {
        DecimalDigits.value(of: bytes, from: start, count: count)
    }

    /// `2017-04-21`.
    static func format(_ date: CalendarDate) -> String {
        text { appendDate(date, to: &$0) }
    }

    /// `2017-04-21T10:00:00`, with Graph's seven fraction digits when `fraction` is set.
    static func format(_ local: LocalDateTime, fraction: Bool) -> String {
        text { appendDateTime(local, fraction: fraction, to: &$0) }
    }

    /// `format(_:fraction:)`'s text lent to `body` from the stack, for a writer that copies it
    /// (a `String` made and freed for it was some 500 instructions; an event has two).
    static func withFormatted<Result>(
        _ local: LocalDateTime, fraction: Bool, _ body: (UnsafeBufferPointer<UInt8>) -> Result
    ) -> Result {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: FixedText.capacity) { buffer in
            var text = FixedText(buffer)
            appendDateTime(local, fraction: fraction, to: &text)
            return body(UnsafeBufferPointer(rebasing: buffer[..<text.count]))
        }
    }

    /// `2017-04-15T03:00:50Z`, in one string (the time and then the `Z` added were two).
    static func formatInstant(_ utc: LocalDateTime) -> String {
        text { text in
            appendDateTime(utc, to: &text)
            text.append(UInt8(ascii: "Z"))
        }
    }

    /// The text `write` puts together, written where the string keeps it: gathered in an array
    /// first, it was an allocation more a time (1,500 instructions of each event written to Graph,
    /// whose start and end are two).
    private static func text(_ write: (inout FixedText) -> Void) -> String {
        String(unsafeUninitializedCapacity: FixedText.capacity) { buffer in
            var text = FixedText(buffer)
            write(&text)
            return text.count
        }
    }

    private static func appendDateTime(_ local: LocalDateTime, fraction: Bool, to text: inout FixedText) {
        appendDateTime(local, to: &text)
        if fraction { text.append(".0000000") }
    }

    private static func appendDateTime(_ local: LocalDateTime, to text: inout FixedText) {
        appendDate(local.date, to: &text)
        text.append(UInt8(ascii: "T"))
        appendPadded(local.hour, 2, to: &text)
        text.append(UInt8(ascii: ":"))
        appendPadded(local.minute, 2, to: &text)
        text.append(UInt8(ascii: ":"))
        appendPadded(local.second, 2, to: &text)
    }

    private static func appendDate(_ date: CalendarDate, to text: inout FixedText) {
        appendPadded(date.year, 4, to: &text)
        text.append(UInt8(ascii: "-"))
        appendPadded(date.month, 2, to: &text)
        text.append(UInt8(ascii: "-"))
        appendPadded(date.day, 2, to: &text)
    }

    /// Decimal digits of a value, zero-padded to `width` (2 or 4); values that do not fit (or
    /// negative years) are written as they are. Two digits at a time, divided by constants, which
    /// compile to multiplications: dividing by a power of ten computed for the width was some 60
    /// instructions a digit, a thousand of each event written to Graph.
    private static func appendPadded(_ value: Int, _ width: Int, to text: inout FixedText) {
        assert(width == 2 || width == 4, "only two- and four-digit fields are written")
        guard value >= 0, value < (width == 2 ? 100 : 10_000) else {
            for byte in String(value).utf8 { text.append(byte) }
            return
        }
        if width == 4 { appendTwoDigits(value / 100, to: &text) }
        appendTwoDigits(value % 100, to: &text)
    }

    @inline(__always)
    private static func appendTwoDigits(_ value: Int, to text: inout FixedText) {
        text.append(UInt8(ascii: "0") + UInt8(value / 10))
        text.append(UInt8(ascii: "0") + UInt8(value % 10))
    }
}

/// Bytes put together in a string's storage, which holds the longest time `GraphDateTime` writes:
/// six numbers of at most 20 characters (`Int.min`), their separators and a fraction (or a `Z`).
private struct FixedText {
    static let capacity = 6 * 20 + 5 + 8
    private let buffer: UnsafeMutableBufferPointer<UInt8>
    private(set) var count = 0

    init(_ buffer: UnsafeMutableBufferPointer<UInt8>) {
        self.buffer = buffer
    }

    mutating func append(_ byte: UInt8) {
        buffer[count] = byte
        count += 1
    }

    mutating func append(_ literal: StaticString) {
        for index in 0..<literal.utf8CodeUnitCount { append(literal.utf8Start[index]) }
    }
}
