import CalendarModel

/// Splits iCalendar bytes into unfolded logical lines, remembering where each started.
///
/// Accepts CRLF, LF and lone CR line ends, a UTF-8 byte order mark and blank lines, because
/// real exporters produce all of them; RFC 5545 §3.1 unfolding removes a line end followed by
/// one space or tab. Input arrives in chunks, so only the current line is held in memory.
struct LineReader<Source: ByteSource> {
    struct LogicalLine {
        /// The unfolded line, valid UTF-8 (invalid sequences replaced and reported).
        var bytes: [UInt8]
        var line: Int
        /// The byte offset in the input where the line starts.
        var offset: Int
    }

    private var source: Source
    private var buffer: [UInt8] = []
    private var position = 0
    private var exhausted = false
    private var physicalLine = 0
    /// Bytes of input already dropped from the front of `buffer`.
    private var discarded = 0
    private let file: String?
    private let maximumLineLength: Int
    /// The limit for ATTACH lines, which carry whole files inline.
    private let maximumAttachmentLength: Int
    private(set) var diagnostics: [Diagnostic] = []

    /// `maximumAttachmentLength` is at least `maximumLineLength` (`ICalendarLimits` sees to it).
    init(source: Source, file: String?, maximumLineLength: Int, maximumAttachmentLength: Int) {
        self.source = source
        self.file = file
        self.maximumLineLength = maximumLineLength
        self.maximumAttachmentLength = maximumAttachmentLength
        if byte(at: 0) == 0xEF && byte(at: 1) == 0xBB && byte(at: 2) == 0xBF { position = 3 }
    }

    /// Forgets the diagnostics already handed on.
    mutating func clearDiagnostics() { diagnostics.removeAll() }

    /// The byte offset in the input just past the last line handed on (its line end included).
    var consumedOffset: Int { discarded + position }

    /// The next non-blank logical line, or nil at the end of input.
    mutating func next() -> LogicalLine? {
        compact()
        while let first = nextPhysicalLine() {
            if first.bytes.isEmpty && !first.tooLong { continue }
            var collected = first.bytes
            var tooLong = first.tooLong
            let lengthLimit = limit(ofLineStarting: first.bytes)
            while skipBlankLinesBeforeContinuation() {
                guard let continuation = nextPhysicalLine(limit: lengthLimit) else { break }
                tooLong = tooLong || continuation.tooLong || collected.count + continuation.bytes.count > lengthLimit
                if !tooLong { collected.append(contentsOf: continuation.bytes.dropFirst()) }
                // A long folded line (an inline attachment) would otherwise be held twice: folded in
                // the buffer and unfolded in `collected`.
                compact()
            }
            if tooLong {
                diagnostics.append(
                    Diagnostic(
                        .error, code: "line-too-long",
                        message: "content line is longer than the limit of \(lengthLimit) bytes; it was dropped",
                        location: SourceLocation(file: file, line: first.line)))
                continue
            }
            return LogicalLine(bytes: validated(collected, line: first.line), line: first.line, offset: first.offset)
        }
        return nil
    }

    /// Drops what was read once it is most of the buffer: amortised, so each byte moves at most
    /// once or twice.
    private mutating func compact() {
        guard position >= 1 << 16 && position * 2 >= buffer.count else { return }
        buffer.removeSubrange(..<position)
        discarded += position
        position = 0
    }

    /// The byte at an index of the buffer, reading more input when needed; nil past the end.
    private mutating func byte(at index: Int) -> UInt8? {
        while index >= buffer.count {
            guard !exhausted, let chunk = source.nextChunk() else {
                exhausted = true
                return nil
            }
            buffer.append(contentsOf: chunk)
        }
        return buffer[index]
    }

    /// The length limit of a line starting with `bytes`: ATTACH lines carry whole files.
    private func limit(ofLineStarting bytes: some Collection<UInt8>) -> Int {
        Self.isAttachment(bytes) ? maximumAttachmentLength : maximumLineLength
    }

    /// Whether a line starts with the name ATTACH (then `;` or `:`), matched case-insensitively.
    /// Read in place: it is asked of every logical line, and of physical lines past the general limit.
    private static func isAttachment(_ bytes: some Collection<UInt8>) -> Bool {
        var index = bytes.startIndex
        for letter in "ATTACH".utf8 {
            guard index != bytes.endIndex, bytes[index] & 0xDF == letter else { return false }
            bytes.formIndex(after: &index)
        }
        return index != bytes.endIndex && (bytes[index] == UInt8(ascii: ";") || bytes[index] == UInt8(ascii: ":"))
    }

    /// The next physical line; longer than `limit` (an ATTACH line's, or by default the general
    /// one; the first line of an ATTACH gets the larger limit once its name is seen) it is skipped.
    private mutating func nextPhysicalLine(limit given: Int? = nil) -> (
        bytes: [UInt8], line: Int, tooLong: Bool, offset: Int
    )? {
        guard byte(at: position) != nil else { return nil }
        physicalLine += 1
        let offset = discarded + position
        var start = position
        var tooLong = false
        while true {
            let end = buffer.count
            let found: Int? = buffer.withUnsafeBufferPointer { storage in
                var index = position
                while index < end {
                    let current = storage[index]
                    if current == 0x0A || current == 0x0D { return index }
                    index += 1
                }
                return nil
            }
            position = found ?? end
            // Every limit is at least the general one, so only a line past it asks whether it is an ATTACH.
            let length = position - start
            if length > maximumLineLength, length > (given ?? limit(ofLineStarting: buffer[start...])) {
                // Past the limit the line is skipped, not stored: a hostile file cannot exhaust memory.
                tooLong = true
                buffer.removeSubrange(..<position)
                discarded += position
                position = 0
                start = 0
            }
            if found != nil || byte(at: position) == nil { break }
        }
        let bytes = tooLong ? [] : Array(buffer[start..<position])
        if let end = byte(at: position) {
            position += end == 0x0D && byte(at: position + 1) == 0x0A ? 2 : 1
        }
        return (bytes, physicalLine, tooLong, offset)
    }

    /// Whether a continuation line follows; blank lines before one are skipped, because some
    /// exporters put a blank line inside a folded property.
    private mutating func skipBlankLinesBeforeContinuation() -> Bool {
        var lookahead = position
        var skipped = 0
        while let current = byte(at: lookahead), current == 0x0D || current == 0x0A {
            if current == 0x0A || byte(at: lookahead + 1) != 0x0A { skipped += 1 }
            lookahead += 1
        }
        guard let next = byte(at: lookahead), next == 0x20 || next == 0x09 else { return false }
        position = lookahead
        physicalLine += skipped
        return true
    }

    /// The bytes when they are valid UTF-8 without control characters; else with U+FFFD for invalid
    /// sequences and control characters removed, each with a warning.
    private mutating func validated(_ bytes: [UInt8], line: Int) -> [UInt8] {
        // Most lines are printable ASCII, which needs no closer look.
        guard bytes.contains(where: { $0 >= 0x7F || ($0 < 0x20 && $0 != 0x09) }) else { return bytes }
        var bytes = bytes
        // RFC 5545 §3.1 excludes CONTROL (all but HTAB) from content lines; a NUL would also end the
        // value early in every C-string API, libical's included.
        let isControl: (UInt8) -> Bool = { $0 == 0x7F || ($0 < 0x20 && $0 != 0x09) }
        if bytes.contains(where: isControl) {
            let count = bytes.count
            bytes.removeAll(where: isControl)
            diagnostics.append(
                Diagnostic(
                    .warning, code: "control-character",
                    message: "line contains \(count - bytes.count) control character(s) such as NUL; they were removed",
                    location: SourceLocation(file: file, line: line)))
        }
        if String(validating: bytes, as: UTF8.self) != nil { return bytes }
        diagnostics.append(
            Diagnostic(
                .warning, code: "invalid-utf8",
                message: "line is not valid UTF-8; invalid bytes were replaced with U+FFFD",
                location: SourceLocation(file: file, line: line)))
        return Array(String(decoding: bytes, as: UTF8.self).utf8)
    }
}
