/// Parses one JSON text (RFC 8259) from UTF-8 bytes.
public enum JSONParser {
    /// The single value in `bytes`; anything but whitespace after it is an error.
    public static func parse(_ bytes: [UInt8], limits: JSONLimits = JSONLimits()) throws(JSONError) -> JSONValue {
        var reader = JSONStreamReader(bytes: bytes, limits: limits)
        guard let document = try reader.next() else {
            throw JSONError(message: "empty input, expected a value", line: 1, column: 1, offset: 0)
        }
        if let extra = try reader.next() {
            throw JSONError(
                message: "unexpected content after the value", line: extra.line, column: extra.column,
                offset: extra.offset)
        }
        return document.value
    }

    /// The single value in `text`.
    public static func parse(_ text: String, limits: JSONLimits = JSONLimits()) throws(JSONError) -> JSONValue {
        try parse(Array(text.utf8), limits: limits)
    }
}

/// One top-level value of a stream, with where it started and what was read in it with a warning.
public struct JSONDocument: Hashable, Sendable {
    /// The value.
    public var value: JSONValue
    /// 1-based line where it starts.
    public var line: Int
    /// 1-based column where it starts, in bytes.
    public var column: Int
    /// Bytes from the start of the stream to where it starts.
    public var offset: Int
    /// Each repeated member name (the last value was kept) and each string that was not UTF-8, located.
    public var warnings: [JSONWarning]
}

/// Reads top-level values one at a time from concatenated JSON texts, NDJSON or a single text,
/// given whole or fed in chunks (from a pipe, say) with `append(_:)` and `finish()`.
public struct JSONStreamReader: Sendable {
    private var bytes: [UInt8]
    private let limits: JSONLimits
    private var index = 0
    private var lines = LineCounter()
    /// Whether every byte has been given.
    private var isFinished: Bool
    /// Bytes dropped from the front once read, so that offsets stay those of the whole input.
    private var dropped = 0
    /// After an attempt that ran out of input: how many unread bytes it saw. The next attempt waits
    /// until there are twice as many, so a large value arriving in small chunks is not reparsed
    /// for every chunk.
    private var unreadAtLastAttempt = 0

    /// A reader over the whole input.
    public init(bytes: [UInt8], limits: JSONLimits = JSONLimits()) {
        self.bytes = bytes
        self.limits = limits
        isFinished = true
    }

    /// A reader to be fed with `append(_:)`, then `finish()`.
    public init(limits: JSONLimits = JSONLimits()) {
        bytes = []
        self.limits = limits
        isFinished = false
    }

    /// Adds the next chunk of input.
    public mutating func append(_ chunk: some Sequence<UInt8>) {
        precondition(!isFinished, "append(_:) after finish()")
        if index > 1 << 16 && index > bytes.count / 2 {
            // Count the lines of what is dropped first, so that later line numbers stay right.
            _ = bytes.withUnsafeBufferPointer { [index] buffer in lines.position(of: index, in: buffer) }
            bytes.removeFirst(index)
            lines.dropFirst(index)
            dropped += index
            index = 0
        }
        bytes.append(contentsOf: chunk)
    }

    /// Declares the input complete, so that what remains is read or reported as an error.
    public mutating func finish() {
        isFinished = true
        unreadAtLastAttempt = 0
    }

    /// The next top-level value; nil at the end of the input, or, before `finish()`, when the next
    /// value has not fully arrived.
    public mutating func next() throws(JSONError) -> JSONDocument? {
        let dropped = dropped
        let document: JSONDocument?? = try step { scanner throws(JSONError) in
            guard scanner.peekSignificant() != nil else { return .some(nil) }
            let start = scanner.index
            let value = try scanner.parseValue()
            let (line, column) = scanner.lines.position(of: start, in: scanner.bytes)
            return JSONDocument(
                value: value, line: line, column: column, offset: dropped + start,
                warnings: scanner.warnings.map { Self.shifted($0, by: dropped) })
        }
        return document ?? nil
    }

    /// Runs `body` on a scanner at the first unread byte and, when it returns a value, keeps what
    /// it read. Before `finish()`, it returns nil when `body` does (it wants more input) or runs out
    /// of input, and the same bytes are tried again once at least twice as many have arrived; a
    /// syntax error ends the stream, since without a grammar there is no safe place to resume.
    /// Before `finish()` the scanner `moreMayFollow`; offsets it sees are those of the buffer, which
    /// starts `droppedCount` bytes into the input.
    mutating func step<Value>(
        _ body: (inout JSONScanner) throws(JSONError) -> Value?
    ) throws(JSONError) -> Value? {
        guard isFinished || bytes.count - index >= 2 * unreadAtLastAttempt else { return nil }
        if dropped == 0 && index == 0 && !bytes.isEmpty && bytes.first == Self.byteOrderMark[0] {
            // RFC 8259 §8.1 lets a parser ignore a byte order mark before the text; Windows tools
            // (PowerShell's Out-File, Notepad) write one. Wait until it can be told from a stray byte.
            if bytes.starts(with: Self.byteOrderMark) {
                index = Self.byteOrderMark.count
            } else if !isFinished && Self.byteOrderMark.starts(with: bytes) {
                return nil
            }
        }
        let result: Result<Value?, JSONError> = bytes.withUnsafeBufferPointer { buffer in
            var scanner = JSONScanner(bytes: buffer, index: index, limits: limits)
            scanner.lines = lines
            scanner.moreMayFollow = !isFinished
            do throws(JSONError) {
                guard let value = try body(&scanner) else { return .success(waitForMore()) }
                index = scanner.index
                lines = scanner.lines
                unreadAtLastAttempt = 0
                return .success(value)
            } catch {
                if !isFinished && scanner.index >= buffer.count { return .success(waitForMore()) }
                index = buffer.count
                lines = scanner.lines
                return .failure(Self.shifted(error, by: dropped))
            }
        }
        return try result.get()
    }

    /// UTF-8's encoding of U+FEFF, skipped at the start of the input.
    static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]

    /// How many bytes of the input were dropped from the front of the buffer.
    var droppedCount: Int { dropped }

    private mutating func waitForMore<Value>() -> Value? {
        unreadAtLastAttempt = bytes.count - index
        return nil
    }

    static func shifted(_ error: JSONError, by dropped: Int) -> JSONError {
        var error = error
        error.offset += dropped
        return error
    }

    static func shifted(_ warning: JSONWarning, by dropped: Int) -> JSONWarning {
        var warning = warning
        warning.offset += dropped
        return warning
    }
}
