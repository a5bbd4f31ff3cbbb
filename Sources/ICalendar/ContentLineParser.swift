import CalendarModel

/// Parses one unfolded line into name, parameters and value (RFC 5545 §3.1, RFC 6868).
///
/// Works on the line's UTF-8 bytes: every delimiter is ASCII, so slices between them are whole
/// characters, and a calendar of a million events is parsed without per-character work.
enum ContentLineParser {
    /// A content line that does not follow the grammar, with the (byte) column where it went wrong.
    struct SyntaxError: Error {
        var column: Int
        var message: String
        /// The diagnostic code of a problem skipped over.
        var code = "parameter-without-value"
    }

    private static let colon = UInt8(ascii: ":")
    private static let semicolon = UInt8(ascii: ";")
    private static let comma = UInt8(ascii: ",")
    private static let equals = UInt8(ascii: "=")
    private static let quote = UInt8(ascii: "\"")
    private static let caret = UInt8(ascii: "^")

    /// Parses a line of valid UTF-8 (as `LineReader` hands them on); `recovered` receives problems that
    /// were skipped over (a parameter without a value), which lose data and so must be reported.
    /// `unfoldedValue` is the rest of the value when the line reader kept it apart (a long ATTACH's,
    /// `LineReader.LogicalLine.value`); `isASCII` says every byte is known to be ASCII.
    static func parse(
        _ bytes: Span<UInt8>, unfoldedValue: String? = nil, isASCII: Bool = false, line: Int,
        names: inout ContentNames, recovered: inout [SyntaxError]
    ) throws(SyntaxError) -> ContentLine {
        var index = 0
        let name = readName(bytes, &index, &names)
        guard !name.isEmpty else {
            let found = bytes.withUnsafeBufferPointer { String(decoding: $0.prefix(20), as: UTF8.self) }
            throw SyntaxError(column: index + 1, message: "expected a property name, found '\(found)'")
        }
        var parameters: [Parameter] = []
        // Room for an ATTENDEE's usual four at once: grown one by one, the array was made three times.
        if index < bytes.count, bytes[index] == semicolon { parameters.reserveCapacity(4) }
        while index < bytes.count, bytes[index] == semicolon {
            index += 1
            let parameterName = readName(bytes, &index, &names)
            guard !parameterName.isEmpty else {
                // `DTSTART;;VALUE=DATE-TIME:…` (icalendar's broken_ical.ics): an empty parameter holds
                // nothing, so the line is read without it, as Radicale does, rather than lost whole.
                guard index < bytes.count, bytes[index] == semicolon || bytes[index] == colon else {
                    throw SyntaxError(column: index + 1, message: "expected a parameter name after ';' in \(name)")
                }
                recovered.append(
                    SyntaxError(
                        column: index, message: "empty parameter ';' in \(name) (RFC 5545 §3.1); it was skipped",
                        code: "empty-parameter"))
                continue
            }
            guard index < bytes.count, bytes[index] == equals else {
                let error = SyntaxError(
                    column: index + 1,
                    message: "parameter \(parameterName) of \(name) has no '=' and value; it was dropped")
                guard index < bytes.count, bytes[index] == semicolon || bytes[index] == colon else { throw error }
                recovered.append(error)
                continue
            }
            index += 1
            if index < bytes.count, bytes[index] == comma { index += 1 }
            // The first value apart: the others, which most parameters lack, make an array.
            let first = try readParameterValue(bytes, &index, parameter: parameterName, isASCII: isASCII)
            var others: [String] = []
            while index < bytes.count && bytes[index] == comma {
                index += 1
                others.append(try readParameterValue(bytes, &index, parameter: parameterName, isASCII: isASCII))
            }
            parameters.append(Parameter(name: parameterName, first: first, others: others))
        }
        guard index < bytes.count, bytes[index] == colon else {
            let found = index < bytes.count ? "'\(Character(Unicode.Scalar(bytes[index])))'" : "end of line"
            throw SyntaxError(column: index + 1, message: "expected ':' before the value of \(name), found \(found)")
        }
        var value = String(validUTF8: bytes.extracting((index + 1)...), isASCII: isASCII)
        if let unfoldedValue { value = value.isEmpty ? unfoldedValue : value + unfoldedValue }
        return ContentLine(name: name, parameters: parameters, value: value, line: line)
    }

    /// Where the value of a line whose name is its first `nameLength` bytes starts, when every
    /// parameter before it is plain, `;NAME=VALUE` with a value of none of `;:,"^` (a TZID, a VALUE):
    /// then `parse` reads the line without a problem and its value is the rest. Nil for any other
    /// line, which `parse` must read.
    static func plainValueStart(in bytes: Span<UInt8>, after nameLength: Int) -> Int? {
        var index = nameLength
        while index < bytes.count, bytes[index] == semicolon {
            index += 1
            let nameStart = index
            while index < bytes.count, isNameByte(bytes[index]) { index += 1 }
            guard index > nameStart, index < bytes.count, bytes[index] == equals else { return nil }
            index = bytes.withUnsafeBufferPointer { unquotedValueEnd(in: $0, from: index + 1) }
            // Ended by a `,`, `"` or `^` instead: a list, a quoted value or an escape, for `parse`.
            if index < bytes.count, bytes[index] != semicolon, bytes[index] != colon { return nil }
        }
        guard index < bytes.count, bytes[index] == colon else { return nil }
        return index + 1
    }

    /// A name (iana-token or x-name), upper-cased: names compare case-insensitively (RFC 5545 §2).
    private static func readName(_ bytes: Span<UInt8>, _ index: inout Int, _ names: inout ContentNames) -> String {
        let start = index
        while index < bytes.count, isNameByte(bytes[index]) { index += 1 }
        guard let key = ContentNames.Key(bytes, start..<index) else { return name(bytes, start..<index) }
        return names.name(for: key) { name(bytes, start..<index) }
    }

    /// Whether `byte` belongs to a name: an ASCII letter, digit or '-' (RFC 5545 §3.1). A name is
    /// the longest run of them at the start of a line (`ComponentReader`'s skimming reads it so too).
    @inline(__always)
    static func isNameByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"):
            true
        default: false
        }
    }

    /// The name in `range` of `bytes`, which holds only ASCII letters, digits and '-'.
    /// Whether it has a lower-case letter is asked here, of a name made, not of each name read: most
    /// are met again and found in `ContentNames` (550 instructions an event).
    private static func name(_ bytes: Span<UInt8>, _ range: Range<Int>) -> String {
        let hasLowercase = bytes.extracting(range).withUnsafeBufferPointer { name in
            name.contains { $0 >= UInt8(ascii: "a") }
        }
        guard hasLowercase else { return String(validUTF8: bytes.extracting(range), isASCII: true) }
        let upper = bytes.extracting(range).withUnsafeBufferPointer { name in
            name.map { (0x61...0x7A).contains($0) ? $0 - 0x20 : $0 }
        }
        return String(validUTF8: upper.span, isASCII: true)
    }

    private static func readParameterValue(
        _ bytes: Span<UInt8>, _ index: inout Int, parameter: String, isASCII: Bool
    ) throws(SyntaxError) -> String {
        let raw: Range<Int>
        // Looked for in the bytes as they are read: asking the string whether it holds a caret took
        // 150 instructions a parameter, fifteen parameters an event, and a second loop over the
        // value's bytes after it was read some 80.
        var hasCaret = false
        if index < bytes.count, bytes[index] == quote {
            let open = index
            index += 1
            let start = index
            while index < bytes.count, bytes[index] != quote {
                hasCaret = hasCaret || bytes[index] == caret
                index += 1
            }
            guard index < bytes.count else {
                throw SyntaxError(column: open + 1, message: "unterminated quoted value of parameter \(parameter)")
            }
            raw = start..<index
            index += 1
        } else {
            let start = index
            while true {
                index = bytes.withUnsafeBufferPointer { unquotedValueEnd(in: $0, from: index) }
                guard index < bytes.count, bytes[index] == caret else { break }
                hasCaret = true
                index += 1
            }
            raw = start..<index
        }
        let value = String(validUTF8: bytes.extracting(raw), isASCII: isASCII)
        return hasCaret ? ParameterCodec.decode(value) : value
    }
}

extension ContentLineParser {
    /// The index of the first `;`, `:`, `,`, `"` or `^` at or after `start` (or the end): where an
    /// unquoted parameter value ends, or holds a caret. Eight bytes at a time, the first such byte
    /// found by its bit in a mask (a mask's bits past the first are not to be trusted, so only the
    /// lowest is used); byte by byte, a parameter value cost 8.6 instructions a byte, 1,500 an event.
    static func unquotedValueEnd(in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        guard let base = bytes.baseAddress else { return start }
        var index = start
        while index + 8 <= bytes.count {
            let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
            let found =
                word.bytes(equalTo: semicolon) | word.bytes(equalTo: colon) | word.bytes(equalTo: comma)
                | word.bytes(equalTo: quote) | word.bytes(equalTo: caret)
            if found != 0 { return index + found.trailingZeroBitCount / 8 }
            index += 8
        }
        while index < bytes.count {
            switch bytes[index] {
            case semicolon, colon, comma, quote, caret: return index
            default: index += 1
            }
        }
        return index
    }
}

/// The property and parameter names a reader has met, so that a name met again is not made into a
/// string again: a calendar uses a few dozen names, each on every event, and making each a `String`
/// (checking it for ASCII, copying it) was some 200 instructions a name, 30 names an event.
///
/// A small table indexed by a hash of the name's bytes, one name a slot: a name whose slot holds
/// another replaces it. Names longer than sixteen bytes are not kept.
struct ContentNames {
    /// A name of at most sixteen bytes, upper-cased, as two little-endian words, zero past its end:
    /// name bytes are never zero, so names of different lengths differ.
    struct Key: Equatable {
        var low: UInt64
        var high: UInt64

        /// The key of the name in `range` of `bytes`, which holds only name bytes; nil when it is
        /// longer than sixteen. Read a word at a time where the line goes on for sixteen bytes.
        init?(_ bytes: Span<UInt8>, _ range: Range<Int>) {
            guard !range.isEmpty, range.count <= 16 else { return nil }
            let start = range.lowerBound
            (low, high) = bytes.withUnsafeBufferPointer { buffer in
                guard start + 16 <= buffer.count, let base = buffer.baseAddress else {
                    var words: (UInt64, UInt64) = (0, 0)
                    for offset in 0..<range.count {
                        let byte = UInt64(buffer[start + offset])
                        if offset < 8 {
                            words.0 |= byte &<< (offset * 8)
                        } else {
                            words.1 |= byte &<< (offset * 8 - 64)
                        }
                    }
                    return words
                }
                let words = UnsafeRawPointer(base + start)
                return (words.loadUnaligned(as: UInt64.self), words.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
            }
            low = Self.upperCased(low) & Self.mask(range.count)
            high = Self.upperCased(high) & Self.mask(range.count - 8)
        }

        /// No name: what the table's empty slots hold.
        static let none = Key(low: 0, high: 0)

        private init(low: UInt64, high: UInt64) {
            self.low = low
            self.high = high
        }

        /// The bytes of the first `count` (all for 8 or more, none for 0 or fewer).
        private static func mask(_ count: Int) -> UInt64 {
            count >= 8 ? ~0 : count <= 0 ? 0 : (1 &<< (count * 8)) &- 1
        }

        /// Name bytes upper-cased: of letters, digits and `-`, only lower-case letters have both
        /// 0x40 and 0x20 set, and lose 0x20.
        private static func upperCased(_ word: UInt64) -> UInt64 {
            word & ~((word >> 1) & word & 0x2020_2020_2020_2020)
        }

        /// A slot in a table of 64.
        var slot: Int { Int(truncatingIfNeeded: ((low ^ (high &* 31)) &* 0x9E37_79B9_7F4A_7C15) >> 58) }
    }

    /// Empty until a name is kept: an empty table is made for nothing (`ComponentReader` takes its
    /// table out of itself while it parses).
    private var keys: [Key] = []
    private var names: [String] = []

    /// The name `key` holds, from `make` when it is not in the table.
    @inline(__always)
    mutating func name(for key: Key, _ make: () -> String) -> String {
        let slot = key.slot
        if !keys.isEmpty, keys[slot] == key { return names[slot] }
        let name = make()
        if keys.isEmpty {
            keys = Array(repeating: .none, count: 64)
            names = Array(repeating: "", count: 64)
        }
        keys[slot] = key
        names[slot] = name
        return name
    }
}
