import CalendarModel
// memchr, for finding line ends.
import Foundation

/// Splits iCalendar bytes into unfolded logical lines, remembering where each started.
///
/// Accepts CRLF, LF and lone CR line ends, a UTF-8 byte order mark and blank lines, because
/// real exporters produce all of them; RFC 5545 §3.1 unfolding removes a line end followed by
/// one space or tab. Input arrives in chunks, so only the current line is held in memory.
///
/// Not generic over its source: a generic reader used from another module (the streaming readers'
/// file regions) ran unspecialised, asking for its type metadata on every line; a chunk is asked
/// for once per 64 KiB, where an existential's dynamic call costs nothing.
struct LineReader {
    /// Where a logical line was put, and where it came from.
    struct LogicalLine {
        /// Where the unfolded line is in the storage it was appended to: valid UTF-8 (invalid
        /// sequences replaced and reported); for a long ATTACH, the line up to and including the colon
        /// before its value.
        var bytes: Range<Int>
        /// The value of a long ATTACH line (an inline file), unfolded straight into the string it is
        /// kept as (`unfoldedValue`); nil for other lines, whose value is in `bytes`.
        var value: String? = nil
        var line: Int
        /// The byte offset in the input where the line starts.
        var offset: Int
        /// Whether every byte of `bytes` is known to be ASCII (false when it was not looked at).
        var isASCII = false
        /// Whether `bytes` is where the line is in the reader's own buffer (`withLentBytes`), lent
        /// until the next line is read, rather than in the storage it was appended to.
        var isLent = false
    }

    private var source: any ByteSource
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

    /// `maximumAttachmentLength` is at least `maximumLineLength` (`ICalendarLimits` sees to it). The
    /// source's first byte is at `offset` of the input, on line `line`.
    init(
        source: any ByteSource, file: String?, maximumLineLength: Int, maximumAttachmentLength: Int,
        offset: Int = 0, line: Int = 1
    ) {
        self.source = source
        self.file = file
        self.maximumLineLength = maximumLineLength
        self.maximumAttachmentLength = maximumAttachmentLength
        discarded = offset
        physicalLine = line - 1
        if offset == 0 && byte(at: 0) == 0xEF && byte(at: 1) == 0xBB && byte(at: 2) == 0xBF { position = 3 }
    }

    /// The physical lines read so far, blank ones included.
    var physicalLinesRead: Int { physicalLine }

    /// Forgets the diagnostics already handed on.
    mutating func clearDiagnostics() { diagnostics.removeAll() }

    /// The bytes of a line lent in the buffer (`LogicalLine.isLent`), the last one `next` handed on.
    /// Mutating, so that the buffer is not retained for the call.
    mutating func withLentBytes<Result>(_ bytes: Range<Int>, _ body: (Span<UInt8>) -> Result) -> Result {
        body(buffer.span.extracting(bytes))
    }

    /// The byte offset in the input just past the last line handed on (its line end included).
    var consumedOffset: Int { discarded + position }

    /// The next non-blank logical line appended to `storage`, or nil at the end of input. Appended to
    /// storage the caller keeps, a line costs no allocation of its own: an array per line was a
    /// tenth of reading an event (issue 24).
    ///
    /// A line whose name `passesOver` says yes to is read past instead: not copied, unfolded or
    /// checked, nor its defects reported (a first pass that needs a few names of each event spent
    /// most of its time on the others). Only a line whose first physical line holds its whole name,
    /// letters, digits and hyphens up to a `:` or `;`, is passed over: checking changes no such name.
    ///
    /// A reader that `lends` is handed a line that is one plain physical line of printable ASCII
    /// where it lies in the buffer (`LogicalLine.isLent`), not appended: copying each line was some
    /// 1,300 instructions an event.
    mutating func next(
        appendingTo storage: inout [UInt8], lends: Bool = false,
        passingOver passesOver: ((UnsafeBufferPointer<UInt8>) -> Bool)? = nil
    ) -> LogicalLine? {
        compact()
        while true {
            if let passesOver {
                passOverPlainLines(passesOver)
            } else if let line = nextPlainLine(appendingTo: &storage, lends: lends) {
                return line
            }
            guard let first = nextPhysicalLine() else { return nil }
            if first.bytes.isEmpty && !first.tooLong { continue }
            if let passesOver, !first.tooLong, passable(first.bytes, passesOver) {
                passOverContinuations()
                continue
            }
            // Copied out of the buffer once; continuations are appended to it from the buffer.
            let start = storage.count
            storage.append(contentsOf: buffer[first.bytes])
            var tooLong = first.tooLong
            let lengthLimit = limit(ofLineStarting: storage[start...])
            var value: String?
            var mayUnfoldIntoValue = Self.isAttachment(storage[start...])
            while skipBlankLinesBeforeContinuation() {
                if mayUnfoldIntoValue && !tooLong && storage.count - start >= Self.longAttachment {
                    mayUnfoldIntoValue = false
                    if let valueStart = Self.valueStart(in: storage[start...]) {
                        (value, tooLong) = unfoldedValue(
                            of: &storage, lineStart: start, valueStart: valueStart, limit: lengthLimit)
                        break
                    }
                }
                guard let continuation = nextPhysicalLine(limit: lengthLimit) else { break }
                // The continuation's first byte (its space or tab) is not part of the unfolded line.
                tooLong =
                    tooLong || continuation.tooLong
                    || storage.count - start + max(continuation.bytes.count - 1, 0) > lengthLimit
                if !tooLong { storage.append(contentsOf: buffer[continuation.bytes.dropFirst()]) }
                // A long folded line (an inline attachment) would otherwise be held twice: folded in
                // the buffer and unfolded in `storage`.
                compact()
            }
            if tooLong {
                storage.removeSubrange(start...)
                diagnostics.append(
                    Diagnostic(
                        .error, code: "line-too-long",
                        message: "content line is longer than the limit of \(lengthLimit) bytes; it was dropped",
                        location: SourceLocation(file: file, line: first.line)))
                continue
            }
            let isASCII = validate(&storage, from: start, line: first.line)
            return LogicalLine(
                bytes: start..<storage.count, value: value, line: first.line, offset: first.offset, isASCII: isASCII)
        }
    }

    /// The next line when it is plain and whole: held in the buffer with the line after it, each of
    /// its physical lines under 512 bytes and ended by LF or CRLF, the first not a continuation, no
    /// blank line before a continuation, and unfolded shorter than the line limit and than a long
    /// attachment; nil, having read nothing, for any other, which the rest of `next` reads. Most
    /// lines are plain, and reading them so passes over the questions the rest asks of each line
    /// (where it ends, byte by byte; whether it is an attachment's; whether blank lines and a
    /// continuation follow): some 150 instructions a line, and 700 a folded one (a description,
    /// an attendee: a quarter of an event's lines).
    @inline(__always)
    private mutating func nextPlainLine(appendingTo storage: inout [UInt8], lends: Bool) -> LogicalLine? {
        guard maximumLineLength >= Self.plainLineLength else { return nil }
        let unfoldedLimit = min(maximumLineLength, Self.longAttachment - 1)
        let start = storage.count
        var lent: Range<Int>?
        // Each physical line is appended as it is found, a continuation without its first byte; a
        // line found not plain on the way is taken back out.
        let found = buffer.withUnsafeBufferPointer { buffer -> (next: Int, lines: Int)? in
            guard let (end, next) = LineBytes.plainLineEnd(in: buffer, from: position, within: Self.plainLineLength),
                end > position, !LineBytes.startsContinuation(buffer[position])
            else { return nil }
            // One physical line (the next is held, and neither blank nor a continuation) that checking
            // leaves as it is: lent in place.
            if lends, next < buffer.count, buffer[next] != 0x0D, buffer[next] != 0x0A,
                !LineBytes.startsContinuation(buffer[next]),
                !LineBytes.needsValidation(UnsafeBufferPointer(rebasing: buffer[position..<end]))
            {
                lent = position..<end
                return (next, 1)
            }
            storage.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[position..<end]))
            var read = (next: next, lines: 1)
            while true {
                // A line end next is a blank line, before a continuation or not: read line by line.
                guard read.next < buffer.count, buffer[read.next] != 0x0D, buffer[read.next] != 0x0A else {
                    return nil
                }
                guard LineBytes.startsContinuation(buffer[read.next]) else { return read }
                guard
                    let (end, next) = LineBytes.plainLineEnd(
                        in: buffer, from: read.next, within: Self.plainLineLength),
                    storage.count - start + (end - read.next - 1) <= unfoldedLimit
                else { return nil }
                storage.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[(read.next + 1)..<end]))
                read = (next, read.lines + 1)
            }
        }
        guard let found else {
            storage.removeSubrange(start...)
            return nil
        }
        let offset = discarded + position
        let line = physicalLine + 1
        physicalLine += found.lines
        position = found.next
        if let lent { return LogicalLine(bytes: lent, line: line, offset: offset, isASCII: true, isLent: true) }
        let isASCII = validate(&storage, from: start, line: line)
        return LogicalLine(bytes: start..<storage.count, line: line, offset: offset, isASCII: isASCII)
    }

    /// Reads past the lines `passesOver` passes over, with their continuation lines, while each is a
    /// plain one: held whole in the buffer, shorter than `plainLineLength`, ended by LF or CRLF, no
    /// blank line before a continuation. It stops at the start of any other line, for `next` to
    /// read as before; the lines it reads past, it reads past as `next` would (a first pass spent
    /// some 700 instructions on each line it passed over, 17 lines an event, in calls made for each).
    private mutating func passOverPlainLines(_ passesOver: (UnsafeBufferPointer<UInt8>) -> Bool) {
        guard maximumLineLength >= Self.plainLineLength else { return }
        var passed = 0
        // Whether the last line read past may go on in lines not read yet: after a blank line, or
        // past the buffer. Not when the next line is held whole and starts with a name.
        var mayContinue = false
        buffer.withUnsafeBufferPointer { buffer in
            while true {
                guard let (end, next) = LineBytes.plainLineEnd(in: buffer, from: position, within: Self.plainLineLength)
                else {
                    mayContinue = passed > 0
                    break
                }
                let line = UnsafeBufferPointer(rebasing: buffer[position..<end])
                guard let first = line.first else {
                    mayContinue = passed > 0
                    break
                }
                // A continuation line goes on the line before, which was passed over, or is read by `next`.
                if !LineBytes.startsContinuation(first) {
                    guard Self.passable(line, passesOver) else { break }
                } else if passed == 0 {
                    break
                }
                position = next
                passed += 1
            }
        }
        guard passed > 0 else { return }
        physicalLine += passed
        if mayContinue { passOverContinuations() }
        compact()
    }

    /// A top-level VEVENT that `nextPlainEvent` read at once.
    struct PlainEvent {
        /// The line and byte offset of its BEGIN.
        var line: Int
        var offset: Int
        /// Its UID and DTSTART lines, in `storage`; nil where it has none.
        var uid: LogicalLine?
        var start: LogicalLine?
    }

    /// Reads at once the VEVENT whose `BEGIN:VEVENT` line is next, for a first pass that parses only
    /// the lines of a few names (`parses`: UID, DTSTART, BEGIN and END; `parsesInAlarm`: BEGIN and
    /// END), when all of it is plain:
    /// held in the buffer, every physical line plain as `passOverPlainLines` reads them, no blank
    /// line and no continuation but of a line read past, its UID and DTSTART lines written so and
    /// once each with no byte that checking could change, and inside it nothing but VALARMs, their
    /// BEGIN and END written so, not nested. The lines of other names, and all of an alarm's, are
    /// read past; the UID and DTSTART lines are appended to `storage`. Any other event (or line)
    /// gives nil with nothing read, for `next` to read line by line. Line by line, a first pass
    /// spent some 17,000 instructions an event on what this reads in a few thousand.
    ///
    /// `initials` has a bit for each upper-case letter the names `parses` and `parsesInAlarm` say yes
    /// to start with (`1 << (letter - "A")`): a line starting with any other byte is read past
    /// without looking for its name (a first pass asking each line's name spent 1,000 instructions
    /// an event on SUMMARY, ATTENDEE, LOCATION and the like).
    mutating func nextPlainEvent(
        appendingTo storage: inout [UInt8], parses: (UnsafeBufferPointer<UInt8>) -> Bool,
        parsesInAlarm: (UnsafeBufferPointer<UInt8>) -> Bool, initials: UInt32
    ) -> PlainEvent? {
        guard maximumLineLength >= Self.plainLineLength else { return nil }
        // An event a chunk ends inside is read line by line: the next chunk is read now if it is near.
        _ = byte(at: position + Self.plainEventLookahead)
        let firstLine = physicalLine + 1
        let found = buffer.withUnsafeBufferPointer { buffer -> PlainEventLines? in
            var read = PlainEventLines(end: position)
            var inAlarm = false
            // Whether a continuation line may come next: after a line read past, or one of its own.
            var continues = false
            while let (end, next) = LineBytes.plainLineEnd(in: buffer, from: read.end, within: Self.plainLineLength) {
                let line = UnsafeBufferPointer(rebasing: buffer[read.end..<end])
                let number = firstLine + read.lines
                let start = read.end
                read.end = next
                read.lines += 1
                guard let first = line.first else { return nil }
                if LineBytes.startsContinuation(first) {
                    guard continues else { return nil }
                    continue
                }
                continues = false
                // Any case: a lower-case letter loses 0x20, and no other byte lands on a letter. Not a
                // control character: checking removes it, and the name after it may be one parsed
                // (`\u{01}UID:…` is a UID line read line by line).
                let initial = first & ~0x20
                if read.lines > 1, first >= 0x20, first != 0x7F,
                    initial < UInt8(ascii: "A") || initial > UInt8(ascii: "Z")
                        || initials & (1 << (initial - UInt8(ascii: "A"))) == 0
                {
                    continues = true
                    continue
                }
                if let boundary = BoundaryLine.of(UnsafeRawBufferPointer(line)) {
                    if read.lines == 1 {
                        guard boundary.isBegin && boundary.isEvent else { return nil }
                        continue
                    }
                    switch (boundary.isBegin, boundary.isEvent, inAlarm) {
                    case (true, false, false), (false, false, true): break
                    case (false, true, false):
                        // Ended, unless the line after goes on this one, or the buffer does not tell.
                        return LineBytes.mayContinue(buffer, at: next) ? nil : read
                    default: return nil
                    }
                    inAlarm = boundary.isBegin
                    continue
                }
                guard read.lines > 1, let nameLength = Self.wholeNameLength(line) else { return nil }
                let name = UnsafeBufferPointer(rebasing: line[..<nameLength])
                if inAlarm ? !parsesInAlarm(name) : !parses(name) {
                    continues = true
                    continue
                }
                // Parsed: a UID or DTSTART written so, else (BEGIN and END of other components,
                // names in other cases, an alarm's structure) the event is read line by line.
                guard !inAlarm, name.spells("UID") || name.spells("DTSTART"),
                    !LineBytes.needsValidation(line), !LineBytes.mayContinue(buffer, at: next),
                    read.add(start..<end, line: number, isUID: name.count == 3)
                else { return nil }
            }
            return nil
        }
        guard let found else { return nil }
        func appended(_ key: (bytes: Range<Int>, line: Int)?) -> LogicalLine? {
            guard let key else { return nil }
            let start = storage.count
            storage.append(contentsOf: buffer[key.bytes])
            // Its bytes were checked to need no validation: ASCII, without control characters.
            return LogicalLine(
                bytes: start..<storage.count, line: key.line, offset: discarded + key.bytes.lowerBound, isASCII: true)
        }
        let event = PlainEvent(
            line: firstLine, offset: discarded + position, uid: appended(found.uid), start: appended(found.start))
        position = found.end
        physicalLine += found.lines
        compact()
        return event
    }

    /// What `nextPlainEvent` found reading an event: where it ends, its physical lines, and where
    /// its UID and DTSTART lines are in the buffer, in the order read.
    private struct PlainEventLines {
        var end: Int
        var lines = 0
        var uid: (bytes: Range<Int>, line: Int)?
        var start: (bytes: Range<Int>, line: Int)?

        /// Adds a UID or DTSTART line; false when the event has one already.
        mutating func add(_ bytes: Range<Int>, line: Int, isUID: Bool) -> Bool {
            if isUID {
                guard uid == nil else { return false }
                uid = (bytes, line)
            } else {
                guard start == nil else { return false }
                start = (bytes, line)
            }
            return true
        }
    }

    /// How far past the next line `nextPlainEvent` makes sure the buffer reaches: an event longer
    /// than this, or than what is left of the buffer's chunks, is read line by line.
    private static var plainEventLookahead: Int { 1 << 16 }

    /// The length of the name `line` starts with when it is whole, letters, digits and hyphens up to
    /// a `:` or `;`; nil when it is not.
    @inline(__always)
    private static func wholeNameLength(_ line: UnsafeBufferPointer<UInt8>) -> Int? {
        var length = 0
        while length < line.count && ContentLineParser.isNameByte(line[length]) { length += 1 }
        guard length > 0, length < line.count,
            line[length] == UInt8(ascii: ":") || line[length] == UInt8(ascii: ";")
        else { return nil }
        return length
    }

    /// The longest physical line `passOverPlainLines` reads past (and the window it looks for the
    /// line's end in); longer ones are read by `nextPhysicalLine`, which has the limits.
    private static var plainLineLength: Int { 512 }

    /// Whether the line in `bytes` of the buffer names itself whole and `passesOver` passes it over.
    private func passable(_ bytes: Range<Int>, _ passesOver: (UnsafeBufferPointer<UInt8>) -> Bool) -> Bool {
        buffer.withUnsafeBufferPointer { Self.passable(UnsafeBufferPointer(rebasing: $0[bytes]), passesOver) }
    }

    /// Whether `line` names itself whole, letters, digits and hyphens up to a `:` or `;`, and
    /// `passesOver` passes it over.
    @inline(__always)
    private static func passable(
        _ line: UnsafeBufferPointer<UInt8>, _ passesOver: (UnsafeBufferPointer<UInt8>) -> Bool
    ) -> Bool {
        guard let length = wholeNameLength(line) else { return false }
        return passesOver(UnsafeBufferPointer(rebasing: line[..<length]))
    }

    /// Reads past the continuation lines of a line passed over; each is dropped as it is read, a long
    /// one in pieces (`nextPhysicalLine`), so that memory stays flat.
    private mutating func passOverContinuations() {
        compact()
        while skipBlankLinesBeforeContinuation() {
            guard nextPhysicalLine(limit: maximumLineLength) != nil else { break }
            compact()
        }
    }

    /// How long an ATTACH line gets, unfolded, before the rest of its value goes into a string.
    private static var longAttachment: Int { 1 << 16 }

    /// Reads the rest of a long ATTACH line, which starts at `lineStart` of `line`, has its value from
    /// `valueStart` on and continues on the physical line next: into a string, because a `String`
    /// cannot take over an array's storage, and unfolding into an array would hold the file twice
    /// (three times while the array grows). The string is given room for the longest value the input
    /// can still hold, of which only the pages written become memory. `line` keeps the text before the
    /// value; when the value holds bytes that `validate` must look at, it gets all of it back instead,
    /// and the value is nil.
    private mutating func unfoldedValue(of line: inout [UInt8], lineStart: Int, valueStart start: Int, limit: Int)
        -> (value: String?, tooLong: Bool)
    {
        let capacity =
            min(limit, line.count - lineStart + (buffer.count - position) + (source.remainingByteCount ?? limit))
            - (start - lineStart)
        var tooLong = false
        var plain = true
        let value = String(unsafeUninitializedCapacity: capacity) { storage in
            var count = line.count - start
            _ = UnsafeMutableBufferPointer(rebasing: storage[..<count]).initialize(from: line[start...])
            line.removeSubrange(start...)
            repeat {
                guard let continuation = nextPhysicalLine(limit: limit) else { break }
                // Its first byte, a space or tab, is not written (nor counted against the limit).
                tooLong = tooLong || continuation.tooLong || count + max(continuation.bytes.count - 1, 0) > capacity
                if !tooLong {
                    let piece = buffer[continuation.bytes.dropFirst()]
                    _ = UnsafeMutableBufferPointer(rebasing: storage[count..<(count + piece.count)]).initialize(
                        from: piece)
                    count += piece.count
                }
                compact()
            } while skipBlankLinesBeforeContinuation()
            guard !tooLong else { return 0 }
            let written = UnsafeBufferPointer(rebasing: storage[..<count])
            plain = !LineBytes.needsValidation(written)
            if !plain { line.append(contentsOf: written) }
            return plain ? count : 0
        }
        return (plain && !tooLong ? value : nil, tooLong)
    }

    /// Where the value of a content line starts: after its first colon outside a quoted parameter
    /// value (RFC 5545 §3.1), as an index of `line`; nil when there is none.
    private static func valueStart(in line: ArraySlice<UInt8>) -> Int? {
        var quoted = false
        for index in line.indices {
            if line[index] == UInt8(ascii: "\"") {
                quoted.toggle()
            } else if line[index] == UInt8(ascii: ":") && !quoted {
                return index + 1
            }
        }
        return nil
    }

    /// Drops what was read once what is left to read is an eighth of it or less: the bytes left move
    /// to the buffer's start, so at most one byte in nine moves, and as the next chunk is read when
    /// less than `plainEventLookahead` is left, this comes first once 512 KiB were read. (Dropped once
    /// it was half the buffer, each byte of a megabyte chunk moved about once: 1,000 instructions of
    /// each event read.)
    private mutating func compact() {
        guard position >= 1 << 17 && (buffer.count - position) * 8 <= position else { return }
        buffer.removeSubrange(..<position)
        discarded += position
        position = 0
    }

    /// The byte at an index of the buffer, reading more input when needed; nil past the end. Inlined,
    /// with the reading out of line: it is asked some hundred times an event, nearly always of a byte
    /// the buffer holds.
    @inline(__always)
    private mutating func byte(at index: Int) -> UInt8? {
        if index < buffer.count { return buffer[index] }
        return byteAfterReading(at: index)
    }

    @inline(never)
    private mutating func byteAfterReading(at index: Int) -> UInt8? {
        while index >= buffer.count {
            guard !exhausted, source.readChunk(appendingTo: &buffer) else {
                exhausted = true
                return nil
            }
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
    /// `bytes` is where the line is in `buffer` (empty when it was skipped), until the buffer is next
    /// compacted: a physical line is copied only into the logical line it is part of.
    private mutating func nextPhysicalLine(limit given: Int? = nil) -> (
        bytes: Range<Int>, line: Int, tooLong: Bool, offset: Int
    )? {
        guard byte(at: position) != nil else { return nil }
        physicalLine += 1
        let offset = discarded + position
        var start = position
        var tooLong = false
        while true {
            let end = buffer.count
            let found: Int? = buffer.withUnsafeBufferPointer { storage in
                let index = LineBytes.firstLineBreak(in: storage, from: position)
                return index < end ? index : nil
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
        let bytes = tooLong ? position..<position : start..<position
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
        guard let next = byte(at: lookahead), LineBytes.startsContinuation(next) else { return false }
        position = lookahead
        physicalLine += skipped
        return true
    }

    /// Leaves the line from `start` of `storage` as it is when it is valid UTF-8 without control
    /// characters; else puts U+FFFD for invalid sequences and removes control characters, each with a
    /// warning. Returns whether the line is ASCII, which it finds out on the way for most lines.
    private mutating func validate(_ storage: inout [UInt8], from start: Int, line: Int) -> Bool {
        // Most lines are printable ASCII, which needs no closer look; it is found eight bytes at a time.
        let first = storage.withUnsafeBufferPointer {
            LineBytes.firstNonASCIIOrControl(in: UnsafeBufferPointer(rebasing: $0[start...]))
        }
        guard start + first < storage.count else { return true }
        // Checked in place, in one pass: a `String` made only to be thrown away would be an
        // allocation per line, and a pass for control characters before the one for UTF-8 read the
        // line twice.
        if LineBytes.isPrintableUTF8(storage.span.extracting((start + first)...)) { return false }
        let hasControl = storage.withUnsafeBufferPointer {
            let line = UnsafeBufferPointer(rebasing: $0[start...])
            return LineBytes.firstControl(in: line, from: first) < line.count
        }
        var bytes = Array(storage[start...])
        // RFC 5545 §3.1 excludes CONTROL (all but HTAB) from content lines; a NUL would also end the
        // value early in every C-string API, libical's included.
        if hasControl {
            let count = bytes.count
            bytes.removeAll(where: LineBytes.isControl)
            diagnostics.append(
                Diagnostic(
                    .warning, code: "control-character",
                    message: "line contains \(count - bytes.count) control character(s) such as NUL; they were removed",
                    location: SourceLocation(file: file, line: line)))
        }
        if (try? UTF8Span(validating: bytes.span)) == nil {
            diagnostics.append(
                Diagnostic(
                    .warning, code: "invalid-utf8",
                    message: "line is not valid UTF-8; invalid bytes were replaced with U+FFFD",
                    location: SourceLocation(file: file, line: line)))
            bytes = Array(String(decoding: bytes, as: UTF8.self).utf8)
        }
        storage.replaceSubrange(start..., with: bytes)
        return false
    }
}

/// What `LineReader` looks for in a line, eight bytes at a time where it can.
private enum LineBytes {
    /// Whether `line` is UTF-8 as RFC 3629 defines it (no overlong forms, no surrogates, nothing past
    /// U+10FFFF) without control characters but tab. Between sequences, the printable ASCII bytes a
    /// word of eight starts with are passed over together (the lowest byte the word tests flag is
    /// always one they are looking for); from a byte that is not, sixteen bytes at a time go through
    /// `PrintableUTF8`'s automaton, a table lookup and a shift each, with no branch on what they are.
    /// Checking a text-heavy event's lines (454 non-ASCII bytes of Cyrillic and Japanese words between
    /// ASCII spaces and punctuation) took 14,500 instructions with the standard library's check and a
    /// pass of its own for control characters, 8,800 with each sequence's lead masked against the word
    /// it starts and one sequence checked a step, 6,500 with the automaton (four instructions a byte:
    /// x86's shift uses the low six bits of its count, so the mask is free).
    static func isPrintableUTF8(_ line: Span<UInt8>) -> Bool {
        line.withUnsafeBufferPointer { bytes in
            PrintableUTF8.rows.withUnsafeBufferPointer { rows in
                guard let base = bytes.baseAddress, let rows = rows.baseAddress else { return true }
                let count = bytes.count
                var index = 0
                var state = PrintableUTF8.accepted
                // Indices stay within `count`, so they are added without overflow checks.
                while count &- index >= 16 {
                    if state == PrintableUTF8.accepted {
                        let word = UInt64(littleEndian: UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self))
                        let plain = nonASCIIOrControlBytes(word).trailingZeroBitCount >> 3
                        if plain > 0 {
                            index &+= plain
                            continue
                        }
                    }
                    for offset in 0..<16 { state = PrintableUTF8.next(state, base[index &+ offset], rows) }
                    if state == PrintableUTF8.refused { return false }
                    index &+= 16
                }
                while index < count {
                    state = PrintableUTF8.next(state, base[index], rows)
                    index &+= 1
                }
                return state == PrintableUTF8.accepted
            }
        }
    }

    static func isControl(_ byte: UInt8) -> Bool { byte == 0x7F || (byte < 0x20 && byte != 0x09) }

    /// The high bit of each of the eight bytes of `word` that is below 0x20 or 0x7F (tab too, which
    /// `isControl` then lets pass), and possibly of some after the first: only the lowest is exact.
    @inline(__always)
    static func controlBytes(_ word: UInt64) -> UInt64 { word.bytes(below: 0x20) | word.bytes(equalTo: 0x7F) }

    /// `controlBytes`, and the high bit of every byte that is not ASCII.
    @inline(__always)
    static func nonASCIIOrControlBytes(_ word: UInt64) -> UInt64 { word & 0x8080_8080_8080_8080 | controlBytes(word) }

    /// Whether `bytes` hold one that `validate` must look at closer: one that may be part of an
    /// invalid UTF-8 sequence, or a control character. Eight bytes at a time: asked a byte at a time
    /// of a first pass's UID and DTSTART lines, it was 1,000 instructions an event.
    static func needsValidation(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        firstNonASCIIOrControl(in: bytes) < bytes.count
    }

    static func firstNonASCIIOrControl(in bytes: UnsafeBufferPointer<UInt8>) -> Int {
        ByteScan.firstIndex(
            in: bytes, from: 0,
            candidates: nonASCIIOrControlBytes,
            byte: { $0 >= 0x7F || isControl($0) })
    }

    /// The first CR or LF at or after `start`: in a window of the next bytes, the first LF, then the
    /// first CR before it. C's `memchr` reads 32 bytes at a time where a word at a time took 160
    /// instructions a physical line; a CRLF line is read twice, and that is still less. The window
    /// keeps a file whose lines end in CR alone from having each line's search for an LF run to the
    /// end of the buffer (a 4 MB file took 3.7 s instead of 0.07).
    static func firstLineBreak(in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        guard let base = bytes.baseAddress else { return bytes.count }
        var from = start
        while from < bytes.count {
            let windowEnd = min(bytes.count, from + 512)
            var end = windowEnd
            let lineFeed = memchr(base + from, 0x0A, windowEnd - from)
            if let lineFeed { end = UnsafeRawPointer(lineFeed) - UnsafeRawPointer(base) }
            if let carriageReturn = memchr(base + from, 0x0D, end - from) {
                return UnsafeRawPointer(carriageReturn) - UnsafeRawPointer(base)
            }
            if lineFeed != nil { return end }
            from = windowEnd
        }
        return bytes.count
    }

    /// Where the physical line starting at `start` ends and the next begins, when it is plain: its LF
    /// within `window` bytes of `start`, in the bytes held, and no CR in it but one right before the LF.
    /// Nil for any other line (a lone CR ends a line, and `firstLineBreak` tells where).
    static func plainLineEnd(in bytes: UnsafeBufferPointer<UInt8>, from start: Int, within window: Int) -> (
        end: Int, next: Int
    )? {
        guard let base = bytes.baseAddress, start < bytes.count,
            let lineFeed = memchr(base + start, 0x0A, min(window, bytes.count - start))
        else { return nil }
        let lineFeedIndex = UnsafeRawPointer(lineFeed) - UnsafeRawPointer(base)
        guard let carriageReturn = memchr(base + start, 0x0D, lineFeedIndex - start) else {
            return (lineFeedIndex, lineFeedIndex + 1)
        }
        let carriageReturnIndex = UnsafeRawPointer(carriageReturn) - UnsafeRawPointer(base)
        return carriageReturnIndex == lineFeedIndex - 1 ? (carriageReturnIndex, lineFeedIndex + 1) : nil
    }

    /// Whether the line starting at `index` may go on the line before it (a space or tab, or blank
    /// lines before one), or the buffer does not hold it to tell.
    static func mayContinue(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> Bool {
        guard index < bytes.count else { return true }
        let byte = bytes[index]
        return startsContinuation(byte) || byte == 0x0D || byte == 0x0A
    }

    /// Whether a physical line starting with `byte` continues the line before it: a space or a tab
    /// (RFC 5545 §3.1).
    @inline(__always)
    static func startsContinuation(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 }

    static func firstControl(in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        ByteScan.firstIndex(
            in: bytes, from: start, candidates: controlBytes, byte: isControl)
    }
}

/// A deterministic automaton that accepts the lines `LineBytes.isPrintableUTF8` passes: RFC 3629 §4's
/// syntax of UTF-8, with tab and no other control character (RFC 5545 §3.1). Shift-based: each state
/// is a bit offset into a byte's row, and the six bits there are the next state, so that a step is
/// one lookup, one shift and one mask. The refusing state is offset 0, whose bits are 0 in every row:
/// once refused, a line stays refused.
private enum PrintableUTF8 {
    static let refused: UInt64 = 0
    static let accepted: UInt64 = 6
    /// Continuation bytes still to come, any of 80–BF.
    private static let oneMore: UInt64 = 12, twoMore: UInt64 = 18, threeMore: UInt64 = 24
    /// After the leads whose second byte has a narrower range than 80–BF.
    private static let afterE0: UInt64 = 30, afterED: UInt64 = 36, afterF0: UInt64 = 42, afterF4: UInt64 = 48

    /// The state after `byte` in `state`.
    @inline(__always)
    static func next(_ state: UInt64, _ byte: UInt8, _ rows: UnsafePointer<UInt64>) -> UInt64 {
        (rows[Int(byte)] &>> state) & 63
    }

    /// The states after `byte` from each state, in the bits at that state's offset.
    static let rows: [UInt64] = (0...255).map { value in
        let byte = UInt8(value)
        var row: UInt64 = 0
        func go(from state: UInt64, to next: UInt64) { row |= next << state }
        switch byte {
        case 0x09, 0x20...0x7E: go(from: accepted, to: accepted)
        case 0xC2...0xDF: go(from: accepted, to: oneMore)
        case 0xE0: go(from: accepted, to: afterE0)
        case 0xE1...0xEC, 0xEE...0xEF: go(from: accepted, to: twoMore)
        case 0xED: go(from: accepted, to: afterED)
        case 0xF0: go(from: accepted, to: afterF0)
        case 0xF1...0xF3: go(from: accepted, to: threeMore)
        case 0xF4: go(from: accepted, to: afterF4)
        default: break  // control characters, continuation bytes, C0, C1 and F5–FF: refused
        }
        if (0x80...0xBF).contains(byte) {
            go(from: oneMore, to: accepted)
            go(from: twoMore, to: oneMore)
            go(from: threeMore, to: twoMore)
        }
        if (0xA0...0xBF).contains(byte) { go(from: afterE0, to: oneMore) }  // not an overlong form
        if (0x80...0x9F).contains(byte) { go(from: afterED, to: oneMore) }  // not a surrogate
        if (0x90...0xBF).contains(byte) { go(from: afterF0, to: twoMore) }  // not an overlong form
        if (0x80...0x8F).contains(byte) { go(from: afterF4, to: twoMore) }  // not past U+10FFFF
        return row
    }
}
