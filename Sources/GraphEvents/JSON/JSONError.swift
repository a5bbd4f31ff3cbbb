import CalendarModel

/// Why JSON text could not be read, and where: a 1-based line and column and a byte offset.
public struct JSONError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What was expected or found.
    public var message: String
    /// 1-based line of the problem.
    public var line: Int
    /// 1-based column of the problem, in bytes.
    public var column: Int
    /// Bytes from the start of the input.
    public var offset: Int

    /// An error with its position.
    public init(message: String, line: Int, column: Int, offset: Int) {
        self.message = message
        self.line = line
        self.column = column
        self.offset = offset
    }

    /// `line:column: message`.
    public var description: String { "\(line):\(column): \(message)" }
}

/// Bounds that keep hostile input from exhausting the stack or memory.
public struct JSONLimits: Hashable, Sendable {
    /// Deepest nesting of arrays and objects accepted.
    public var maximumDepth: Int
    /// Longest string accepted, in UTF-8 bytes.
    public var maximumStringLength: Int

    /// Limits; the defaults are far above what calendar data needs.
    public init(maximumDepth: Int = 256, maximumStringLength: Int = 64 << 20) {
        self.maximumDepth = maximumDepth
        self.maximumStringLength = maximumStringLength
    }
}

/// Turns byte offsets into line and column numbers, scanning forward only, so that positions are
/// computed when something needs reporting instead of on every byte parsed.
struct LineCounter {
    private var offset = 0
    private var line = 1
    private var lineStart = 0

    /// Forgets the first `count` bytes of the input, which a chunked reader has dropped.
    mutating func dropFirst(_ count: Int) {
        offset -= count
        lineStart -= count
    }

    /// The 1-based line and column of `target`; cheapest when targets do not decrease between calls.
    mutating func position(of target: Int, in bytes: UnsafeBufferPointer<UInt8>) -> (line: Int, column: Int) {
        let end = min(target, bytes.count)
        if end < offset {
            // Step back (a duplicate key is reported after its value is read), then find the line start.
            while offset > end {
                offset -= 1
                if bytes[offset] == UInt8(ascii: "\n") { line -= 1 }
            }
            lineStart = offset
            while lineStart > 0 && bytes[lineStart - 1] != UInt8(ascii: "\n") { lineStart -= 1 }
        }
        // memchr skips to each newline, which matters for NDJSON's long lines.
        while offset < end, let found = bytes.firstIndex(of: UInt8(ascii: "\n"), in: offset..<end) {
            offset = found + 1
            line += 1
            lineStart = offset
        }
        offset = max(offset, end)
        return (line, target - lineStart + 1)
    }
}

/// Something a JSON text holds that is read anyway, located: a repeated member name (the last
/// value is kept) or a string with bytes that are not UTF-8 (replaced with U+FFFD).
public struct JSONWarning: Hashable, Sendable {
    /// The diagnostic code readers report it under: `json-duplicate-key` or `invalid-utf8`.
    public var code: String
    /// What was found, e.g. the repeated name.
    public var message: String
    /// 1-based line where it was found.
    public var line: Int
    /// 1-based column where it was found, in bytes.
    public var column: Int
    /// Bytes from the start of the input.
    public var offset: Int

    init(code: String, _ error: JSONError) {
        self.code = code
        message = error.message
        line = error.line
        column = error.column
        offset = error.offset
    }

    /// The warning as a diagnostic located in `file`.
    public func diagnostic(file: String?) -> Diagnostic {
        Diagnostic(
            .warning, code: code, message: message, location: SourceLocation(file: file, line: line, column: column))
    }
}
