import CalendarModel

/// Splits iCalendar bytes into unfolded logical lines, remembering where each started.
///
/// Accepts CRLF, LF and lone CR line ends, a UTF-8 byte order mark and blank lines, because
/// real exporters produce all of them; RFC 5545 §3.1 unfolding removes a line end followed by
/// one space or tab.
struct LineReader {
    struct LogicalLine {
        var text: String
        var line: Int
    }

    private let bytes: [UInt8]
    private var position = 0
    private var physicalLine = 0
    private let file: String?
    private(set) var diagnostics: [Diagnostic] = []

    init(bytes: [UInt8], file: String?) {
        self.bytes = bytes
        self.file = file
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { position = 3 }
    }

    /// Forgets the diagnostics already handed on.
    mutating func clearDiagnostics() { diagnostics.removeAll() }

    /// The next non-blank logical line, or nil at the end of input.
    mutating func next() -> LogicalLine? {
        while position < bytes.count {
            guard let first = nextPhysicalLine() else { return nil }
            if first.bytes.isEmpty { continue }
            var collected = first.bytes
            while skipBlankLinesBeforeContinuation() {
                guard let continuation = nextPhysicalLine() else { break }
                collected.append(contentsOf: continuation.bytes.dropFirst())
            }
            return LogicalLine(text: decode(collected, line: first.line), line: first.line)
        }
        return nil
    }

    /// Whether a continuation line follows; blank lines before one are skipped, because some
    /// exporters put a blank line inside a folded property.
    private mutating func skipBlankLinesBeforeContinuation() -> Bool {
        var lookahead = position
        var skipped = 0
        while lookahead < bytes.count, bytes[lookahead] == 0x0D || bytes[lookahead] == 0x0A {
            if bytes[lookahead] == 0x0A || lookahead + 1 >= bytes.count || bytes[lookahead + 1] != 0x0A { skipped += 1 }
            lookahead += 1
        }
        guard lookahead < bytes.count, bytes[lookahead] == 0x20 || bytes[lookahead] == 0x09 else { return false }
        position = lookahead
        physicalLine += skipped
        return true
    }

    private mutating func nextPhysicalLine() -> (bytes: ArraySlice<UInt8>, line: Int)? {
        guard position < bytes.count else { return nil }
        physicalLine += 1
        let start = position
        while position < bytes.count, bytes[position] != 0x0A, bytes[position] != 0x0D {
            position += 1
        }
        let slice = bytes[start..<position]
        if position < bytes.count {
            if bytes[position] == 0x0D, position + 1 < bytes.count, bytes[position + 1] == 0x0A {
                position += 2
            } else {
                position += 1
            }
        }
        return (slice, physicalLine)
    }

    private mutating func decode(_ bytes: ArraySlice<UInt8>, line: Int) -> String {
        if let text = String(validating: bytes, as: UTF8.self) { return text }
        diagnostics.append(
            Diagnostic(
                .warning, code: "invalid-utf8",
                message: "line is not valid UTF-8; invalid bytes were replaced with U+FFFD",
                location: SourceLocation(file: file, line: line)))
        return String(decoding: bytes, as: UTF8.self)
    }
}
