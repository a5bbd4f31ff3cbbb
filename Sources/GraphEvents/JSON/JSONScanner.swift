/// The byte-level JSON grammar (RFC 8259) over a buffer, used by every reader in this module.
///
/// It is a pull parser: callers can take a whole value, or walk an array or object member by
/// member, which is how the Graph reader finds each event of a page and its line.
struct JSONScanner {
    let bytes: UnsafeBufferPointer<UInt8>
    var index: Int
    let limits: JSONLimits
    var lines = LineCounter()
    /// Duplicate keys (the last value wins) and strings that are not UTF-8 seen so far, reported
    /// rather than rejected.
    var warnings: [JSONWarning] = []

    init(bytes: UnsafeBufferPointer<UInt8>, index: Int = 0, limits: JSONLimits = JSONLimits()) {
        self.bytes = bytes
        self.index = index
        self.limits = limits
    }

    var isAtEnd: Bool { index >= bytes.count }

    /// An error at `offset` with its line and column.
    mutating func error(_ message: String, at offset: Int? = nil) -> JSONError {
        let at = offset ?? index
        let (line, column) = lines.position(of: at, in: bytes)
        return JSONError(message: message, line: line, column: column, offset: at)
    }

    /// The next byte that is not JSON whitespace, without consuming it; nil at the end.
    mutating func peekSignificant() -> UInt8? {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x0A, 0x0D, 0x09: index += 1
            default: return bytes[index]
            }
        }
        return nil
    }

    /// Consumes `byte` after optional whitespace, or throws naming what was expected.
    mutating func expect(_ byte: UInt8, _ what: String) throws(JSONError) {
        guard peekSignificant() == byte else { throw unexpected(what) }
        index += 1
    }

    /// Consumes `byte` after optional whitespace when it is next.
    mutating func consumeIf(_ byte: UInt8) -> Bool {
        guard peekSignificant() == byte else { return false }
        index += 1
        return true
    }

    mutating func unexpected(_ expected: String) -> JSONError {
        guard index < bytes.count else { return error("unexpected end of input, expected \(expected)") }
        let byte = bytes[index]
        let shown =
            byte >= 0x20 && byte < 0x7F ? "'\(Character(Unicode.Scalar(byte)))'" : "byte 0x\(String(byte, radix: 16))"
        return error("unexpected \(shown), expected \(expected)")
    }

    // MARK: Values

    /// Reads one complete value.
    mutating func parseValue(depth: Int = 0) throws(JSONError) -> JSONValue {
        guard let byte = peekSignificant() else { throw unexpected("a value") }
        switch byte {
        case UInt8(ascii: "{"):
            return .object(try parseObject(depth: depth + 1))
        case UInt8(ascii: "["):
            guard depth + 1 <= limits.maximumDepth else { throw error("nesting deeper than \(limits.maximumDepth)") }
            index += 1
            var elements: [JSONValue] = []
            if consumeIf(UInt8(ascii: "]")) { return .array(elements) }
            repeat {
                elements.append(try parseValue(depth: depth + 1))
            } while try continueList(closer: UInt8(ascii: "]"))
            return .array(elements)
        case UInt8(ascii: "\""):
            return .string(try parseString())
        case UInt8(ascii: "t"):
            try literal("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try literal("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try literal("null")
            return .null
        default:
            return .number(try parseNumber())
        }
    }

    /// After a list element: true when a comma follows, false at the closing bracket.
    mutating func continueList(closer: UInt8) throws(JSONError) -> Bool {
        if consumeIf(UInt8(ascii: ",")) { return true }
        if consumeIf(closer) { return false }
        throw unexpected(closer == UInt8(ascii: "]") ? "',' or ']'" : "',' or '}'")
    }

    mutating func parseObject(depth: Int) throws(JSONError) -> JSONObject {
        guard depth <= limits.maximumDepth else { throw error("nesting deeper than \(limits.maximumDepth)") }
        try expect(UInt8(ascii: "{"), "'{'")
        var builder = JSONObjectBuilder()
        if consumeIf(UInt8(ascii: "}")) { return builder.object }
        repeat {
            _ = peekSignificant()
            let keyOffset = index
            let key = try parseKey()
            if builder.add(key, try parseValue(depth: depth)) {
                warnings.append(duplicateKey(key, at: keyOffset))
            }
        } while try continueList(closer: UInt8(ascii: "}"))
        return builder.object
    }

    mutating func duplicateKey(_ key: String, at offset: Int) -> JSONWarning {
        JSONWarning(code: "json-duplicate-key", error("duplicate key \"\(key)\"; the last value is used", at: offset))
    }

    /// A member name and its colon.
    mutating func parseKey() throws(JSONError) -> String {
        guard peekSignificant() == UInt8(ascii: "\"") else { throw unexpected("a member name") }
        let key = try parseString()
        try expect(UInt8(ascii: ":"), "':'")
        return key
    }

    private mutating func literal(_ word: StaticString) throws(JSONError) {
        let count = word.utf8CodeUnitCount
        guard index + count <= bytes.count else {
            // Cut off by the end of the input: say so, so that a chunked reader waits for more.
            index = bytes.count
            throw error("unexpected end of input in a literal")
        }
        for offset in 0..<count where bytes[index + offset] != word.utf8Start[offset] {
            throw error("invalid literal", at: index + offset)
        }
        index += count
    }

    // MARK: Strings

    mutating func parseString() throws(JSONError) -> String {
        index += 1  // the opening quote
        let start = index
        while true {
            index = JSONStringBytes.plainRunEnd(in: bytes, from: index)
            guard index < bytes.count else { break }
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                if index - start > limits.maximumStringLength { throw stringTooLong(at: start - 1) }
                let text = decodeUTF8(UnsafeBufferPointer(rebasing: bytes[start..<index]), at: start - 1)
                index += 1
                return text
            }
            if byte == UInt8(ascii: "\\") { return try parseEscapedString(from: start) }
            if byte < 0x20 { throw error("control character in string") }
            index += 1
        }
        throw error("unterminated string", at: start - 1)
    }

    /// The string of these bytes; bytes that are not UTF-8 become U+FFFD and a warning located at
    /// the string's opening quote, since RFC 8259 §8.1 requires UTF-8 and the text changes.
    private mutating func decodeUTF8(_ utf8: UnsafeBufferPointer<UInt8>, at quote: Int) -> String {
        let text = String(decoding: utf8, as: UTF8.self)
        // Decoding replaced something exactly when the text's bytes differ from the input's.
        if JSONStringBytes.isASCII(utf8) || text.utf8.elementsEqual(utf8) { return text }
        warnings.append(
            JSONWarning(
                code: "invalid-utf8",
                error("string holds bytes that are not UTF-8; each is replaced with U+FFFD", at: quote)))
        return text
    }

    private mutating func stringTooLong(at offset: Int) -> JSONError {
        error("string longer than the limit of \(limits.maximumStringLength) bytes", at: offset)
    }

    /// The slow path, for strings with escapes: decode into a byte buffer.
    private mutating func parseEscapedString(from start: Int) throws(JSONError) -> String {
        var buffer = Array(UnsafeBufferPointer(rebasing: bytes[start..<index]))
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            switch byte {
            case UInt8(ascii: "\""):
                return buffer.withUnsafeBufferPointer { decodeUTF8($0, at: start - 1) }
            case UInt8(ascii: "\\"):
                try appendEscape(to: &buffer)
            case 0..<0x20:
                throw error("control character in string", at: index - 1)
            default:
                buffer.append(byte)
            }
            if buffer.count > limits.maximumStringLength { throw stringTooLong(at: start - 1) }
        }
        throw error("unterminated string", at: start - 1)
    }

    private mutating func appendEscape(to buffer: inout [UInt8]) throws(JSONError) {
        guard index < bytes.count else { throw error("unterminated escape") }
        let byte = bytes[index]
        index += 1
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): buffer.append(byte)
        case UInt8(ascii: "b"): buffer.append(0x08)
        case UInt8(ascii: "f"): buffer.append(0x0C)
        case UInt8(ascii: "n"): buffer.append(0x0A)
        case UInt8(ascii: "r"): buffer.append(0x0D)
        case UInt8(ascii: "t"): buffer.append(0x09)
        case UInt8(ascii: "u"):
            var scalar = try hexQuad()
            if (0xD800..<0xDC00).contains(scalar) {
                // A high surrogate must be followed by `\u` and a low one; otherwise it is replaced.
                if index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") {
                    index += 2
                    let low = try hexQuad()
                    scalar =
                        (0xDC00..<0xE000).contains(low) ? 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00) : 0xFFFD
                } else {
                    scalar = 0xFFFD
                }
            } else if (0xDC00..<0xE000).contains(scalar) {
                scalar = 0xFFFD
            }
            buffer.append(contentsOf: String(Character(Unicode.Scalar(scalar) ?? "\u{FFFD}")).utf8)
        default:
            throw error("invalid escape", at: index - 2)
        }
    }

    private mutating func hexQuad() throws(JSONError) -> UInt32 {
        guard index + 4 <= bytes.count else {
            index = bytes.count
            throw error("truncated \\u escape")
        }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw error("invalid hex digit in \\u escape")
            }
            value = value << 4 | UInt32(digit)
            index += 1
        }
        return value
    }

    // MARK: Numbers

    /// A number by the RFC 8259 grammar; integers of up to 15 digits take a fast path.
    private mutating func parseNumber() throws(JSONError) -> Double {
        let start = index
        let negative = bytes[index] == UInt8(ascii: "-")
        if negative { index += 1 }
        let digitsStart = index
        var integer = 0
        while index < bytes.count, case let digit = bytes[index] &- UInt8(ascii: "0"), digit < 10 {
            integer = integer &* 10 &+ Int(digit)
            index += 1
        }
        let digitCount = index - digitsStart
        guard digitCount > 0 else {
            if index < bytes.count { index = start }
            throw unexpected("a value")
        }
        if digitCount > 1 && bytes[digitsStart] == UInt8(ascii: "0") {
            throw error("leading zero in number", at: digitsStart)
        }
        let isIntegral =
            index >= bytes.count || !(bytes[index] == UInt8(ascii: ".") || bytes[index] | 0x20 == UInt8(ascii: "e"))
        if isIntegral && digitCount <= 15 { return Double(negative ? -integer : integer) }
        if index < bytes.count && bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard skipDigits() > 0 else { throw error("digit expected after '.'") }
        }
        if index < bytes.count && bytes[index] | 0x20 == UInt8(ascii: "e") {
            index += 1
            if index < bytes.count && (bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-")) {
                index += 1
            }
            guard skipDigits() > 0 else { throw error("digit expected in exponent") }
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        guard let value = Double(text) else { throw error("invalid number", at: start) }
        // A Double cannot hold it, and JSON has no infinity to write it back as.
        guard value.isFinite else { throw error("number out of range", at: start) }
        return value
    }

    private mutating func skipDigits() -> Int {
        let start = index
        while index < bytes.count && bytes[index] &- UInt8(ascii: "0") < 10 { index += 1 }
        return index - start
    }
}
