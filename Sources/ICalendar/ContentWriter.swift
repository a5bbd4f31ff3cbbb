import CalendarModel

/// Writes content lines as RFC 5545 text: CRLF line ends, lines folded at 75 octets without
/// splitting a UTF-8 sequence, parameter values RFC 6868-encoded and quoted where needed.
///
/// A line is written unfolded and folded once when it ends: most lines are short, so the bytes
/// go in without a length check each, and values (escaped text, times, durations) are encoded
/// straight into the output rather than into a `String` first. A long value as written (an inline
/// attachment's base64) is folded while it is copied instead, and with a `spill` sink handed on a
/// chunk at a time: a 100 MB file then costs no second and third copy in the output.
///
/// Not copyable: its bytes are memory it owns, written through a pointer without the uniqueness
/// check copy on write needs before each write, which profiling put at ~600 instructions an event.
struct ContentWriter: ~Copyable {
    private var output = OutputBytes()

    /// Where the line being written started, for folding.
    private var lineStart = 0

    /// Where the output goes once it passes `ICalendarStreamWriter.chunkSize` bytes, lent for the
    /// call only; nil: all of it is kept, for `bytes`.
    private let spill: ((UnsafeRawBufferPointer) -> Void)?

    /// A writer keeping what it writes, or handing it to `spill` a chunk at a time (`spillIfFull`,
    /// `spillAll`, and inside a long value).
    init(spill: ((UnsafeRawBufferPointer) -> Void)? = nil) {
        self.spill = spill
    }

    /// What has been written since the start or the last `removeAll`.
    var bytes: [UInt8] { output.array }

    /// Lends what has been written since the start or the last `removeAll`, without copying it.
    func withBytes(_ body: (UnsafeRawBufferPointer) -> Void) {
        output.withBytes(body)
    }

    /// How many bytes have been written since the start or the last `removeAll`.
    var count: Int { output.count }

    /// Octets per physical line, CRLF excluded (RFC 5545 §3.1).
    static let lineLimit = 75

    /// Forgets what was written, keeping the storage for the next chunk.
    mutating func removeAll() {
        output.removeAll()
    }

    /// Hands what was written to the spill sink once it is a chunk or more; between lines only.
    mutating func spillIfFull() {
        if output.count >= ICalendarStreamWriter.chunkSize { spillAll() }
    }

    /// Hands what was written to the spill sink (when there is one) and forgets it.
    mutating func spillAll() {
        guard let spill else { return }
        output.withBytes(spill)
        output.removeAll()
    }

    /// Values longer than this, as written, are folded while they are copied (`appendFolded`).
    static let longValue = 1 << 16

    /// `BEGIN:VCALENDAR` and the calendar's own properties.
    mutating func writeHeader(_ document: CalendarDocument) {
        begin(component: "VCALENDAR")
        for line in document.headerLines { write(line) }
    }

    mutating func write(_ component: ContentComponent) {
        begin(component: component.name)
        for line in component.properties { write(line) }
        for child in component.components { write(child) }
        end(component: component.name)
    }

    mutating func write(_ line: ContentLine) {
        line.name.withUTF8Bytes { startLine(named: $0) }
        parameters(line.parameters)
        finish(.raw(line.value))
    }

    /// `BEGIN:NAME`, opening a component whose lines follow.
    mutating func begin(component name: String) {
        begin(line: "BEGIN")
        finish(.raw(name))
    }

    /// `END:NAME`.
    mutating func end(component name: String) {
        begin(line: "END")
        finish(.raw(name))
    }

    /// A whole property: `parameters` writes those calport sets, then come those the input had on it
    /// (`kept[name]`, which most events leave empty), then the value.
    mutating func property(
        _ name: StaticString, _ value: ContentValue, kept: [String: [Parameter]],
        parameters: (inout ContentWriter) -> Void = { _ in }
    ) {
        begin(line: name)
        parameters(&self)
        if !kept.isEmpty, let list = kept[name.description] { self.parameters(list) }
        finish(value)
    }

    /// Starts a content line with its name; its parameters, then its value, follow. The names
    /// calport writes are literals: a `StaticString` gives its bytes without the call a `String` needs.
    mutating func begin(line name: StaticString) {
        name.withUTF8Buffer { startLine(named: $0) }
    }

    private mutating func startLine(named name: UnsafeBufferPointer<UInt8>) {
        lineStart = output.count
        output.append(contentsOf: name)
    }

    /// One parameter of the line begun, with one value.
    mutating func parameter(_ name: StaticString, _ value: String) {
        name.withUTF8Buffer { appendParameterName($0) }
        appendParameterValue(value)
    }

    /// One parameter of the line begun with a value calport writes as it is: a token or keyword that
    /// has nothing to quote or encode, so it is appended without the scan a value needs.
    mutating func parameter(_ name: StaticString, literal value: StaticString) {
        name.withUTF8Buffer { appendParameterName($0) }
        value.withUTF8Buffer { output.append(contentsOf: $0) }
    }

    /// One parameter of the line begun with a token of the model's: its literal, or the text an
    /// `other` case carries, quoted as any value.
    mutating func parameter(_ name: StaticString, token: some ICalendarToken) {
        if let known = token.knownToken {
            parameter(name, literal: known)
        } else {
            parameter(name, token.otherToken)
        }
    }

    /// Parameters of the line begun, each with its values.
    mutating func parameters(_ list: [Parameter]) {
        for parameter in list {
            parameter.name.withUTF8Bytes { appendParameterName($0) }
            guard let first = parameter.firstValue else { continue }
            appendParameterValue(first)
            for value in parameter.otherValues {
                output.append(UInt8(ascii: ","))
                appendParameterValue(value)
            }
        }
    }

    /// Ends the line begun with its value, folded where it passes 75 octets.
    mutating func finish(_ value: ContentValue) {
        output.append(UInt8(ascii: ":"))
        switch value {
        case .raw(let text) where text.utf8.count > ContentWriter.longValue:
            text.withUTF8Bytes { appendFolded($0) }
            output.appendLineEnd()
            return
        case .raw(let text): output.append(text)
        case .literal(let text): text.withUTF8Buffer { output.append(contentsOf: $0) }
        case .text(let text): text.withUTF8Bytes { TextCodec.escape($0, into: &output) }
        case .textList(let texts):
            for (position, text) in texts.enumerated() {
                if position > 0 { output.append(UInt8(ascii: ",")) }
                text.withUTF8Bytes { TextCodec.escape($0, into: &output) }
            }
        case .time(let time): DateTimeText.write(time, to: &output)
        case .duration(let duration): DurationText.write(duration, to: &output)
        case .integer(let number): output.appendDecimal(number)
        }
        if output.count - lineStart > ContentWriter.lineLimit { fold() }
        output.appendLineEnd()
    }

    /// Folds the line just written: CRLF and a space before each character that would pass 75
    /// octets, the space counting on the line it starts (RFC 5545 §3.1). A line breaks only before
    /// the first byte of a UTF-8 sequence, so a character is never split.
    private mutating func fold() {
        // The first line stays where it is; the rest is copied aside and written back a line at a time.
        let firstEnd = output.characterStart(atOrBefore: lineStart + ContentWriter.lineLimit)
        let rest = output.count - firstEnd
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: rest) { scratch in
            output.move(from: firstEnd, into: scratch)
            var position = 0
            while position < rest {
                output.appendLineEnd()
                output.append(0x20)
                var end = position + ContentWriter.lineLimit - 1
                if end < rest {
                    while scratch[end] & 0xC0 == 0x80 { end -= 1 }
                } else {
                    end = rest
                }
                output.append(contentsOf: UnsafeBufferPointer(rebasing: scratch[position..<end]))
                position = end
            }
        }
    }

    /// Appends the value of the line begun, folded as `fold` folds a whole line, but as it goes:
    /// every physical line holds the whole characters that fit in 75 octets, so the breaks inside the
    /// value follow from where its first physical line starts. Full chunks go to the spill sink.
    private mutating func appendFolded(_ value: UnsafeBufferPointer<UInt8>) {
        var column = output.count - lineStart
        if column > ContentWriter.lineLimit {
            fold()
            column = output.count - output.lastLineStart(after: lineStart)
        }
        var position = 0
        while true {
            var end = position + ContentWriter.lineLimit - column
            if end >= value.count {
                output.append(contentsOf: UnsafeBufferPointer(rebasing: value[position...]))
                return
            }
            while value[end] & 0xC0 == 0x80 { end -= 1 }
            output.append(contentsOf: UnsafeBufferPointer(rebasing: value[position..<end]))
            output.appendLineEnd()
            output.append(0x20)
            column = 1
            position = end
            if spill != nil && output.count >= ICalendarStreamWriter.chunkSize {
                // The line's start leaves the buffer; nothing after this looks back at it.
                spillAll()
            }
        }
    }

    /// `;NAME=`, before a parameter's values.
    private mutating func appendParameterName(_ name: UnsafeBufferPointer<UInt8>) {
        output.append(UInt8(ascii: ";"))
        output.append(contentsOf: name)
        output.append(UInt8(ascii: "="))
    }

    /// A parameter value, RFC 6868-encoded, and quoted when it holds `;`, `:` or `,`. A control
    /// character but tab is dropped: RFC 5545 §3.1's SAFE-CHAR and QSAFE-CHAR leave them out, and
    /// RFC 6868 encodes only line breaks. A Graph attendee's name can hold one (`\u0007`), and
    /// calport's own reader warned about the line it wrote.
    private mutating func appendParameterValue(_ value: String) {
        value.withUTF8Bytes { utf8 in
            let first = ByteScan.firstIndex(
                in: utf8, from: 0,
                candidates: {
                    // `| lowBits` makes `:` (0x3A) read as `;` (0x3B); bytes below 0x20 are the line
                    // breaks, the other control characters and tab, which needs nothing.
                    $0.bytes(below: 0x20) | ($0 | 0x0101_0101_0101_0101).bytes(equalTo: 0x3B)
                        | $0.bytes(equalTo: 0x2C) | $0.bytes(equalTo: 0x22) | $0.bytes(equalTo: 0x5E)
                        | $0.bytes(equalTo: 0x7F)
                },
                byte: { ContentWriter.parameterEncoding($0) != nil })
            guard first < utf8.count else { return output.append(contentsOf: utf8) }
            var needsEncoding = false
            var needsQuotes = false
            for byte in UnsafeBufferPointer(rebasing: utf8[first...]) {
                switch ContentWriter.parameterEncoding(byte) {
                case .encoded: needsEncoding = true
                case .quoted: needsQuotes = true
                case nil: continue
                }
            }
            if needsQuotes { output.append(0x22) }
            if needsEncoding {
                ParameterCodec.encode(utf8, into: &output)
            } else {
                output.append(contentsOf: utf8)
            }
            if needsQuotes { output.append(0x22) }
        }
    }

    private enum ParameterEncoding { case encoded, quoted }

    /// What a byte of a parameter value asks for: RFC 6868 encoding (`^`, `"`, line breaks, and
    /// control characters, which the encoding drops), or quotes around the value (`;`, `:`, `,`).
    private static func parameterEncoding(_ byte: UInt8) -> ParameterEncoding? {
        switch byte {
        case UInt8(ascii: "^"), 0x22, 0x0A, 0x0D: .encoded
        case 0x3B, 0x3A, 0x2C: .quoted
        case 0x09: nil
        case 0x00...0x1F, 0x7F: .encoded
        default: nil
        }
    }
}

/// A property value, in the form it is written in.
enum ContentValue {
    /// Already in its RFC 5545 form: a URI, a token, a value kept as it was read.
    case raw(String)
    /// A token or keyword of calport's own, in its RFC 5545 form.
    case literal(StaticString)
    /// TEXT, escaped as it is written (RFC 5545 §3.3.11).
    case text(String)
    /// TEXT values, each escaped as it is written, separated by commas (CATEGORIES).
    case textList([String])
    /// DATE or DATE-TIME, without the TZID a zoned time also needs.
    case time(CalendarTime)
    case duration(EventDuration)
    case integer(Int)
}

/// The writer's growing output: appending a few bytes is a bounds check and a copy, without the
/// uniqueness and capacity bookkeeping of `Array.append(contentsOf:)`, which profiling showed at
/// about 200 instructions a call on the ~80 short appends of each event.
///
/// A struct whose address, count and capacity live in the writer itself: appending touches no
/// class instance, so the writer's inlined code keeps them in registers across a line.
private struct OutputBytes: ByteSink, ~Copyable {
    private var base: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    private(set) var count = 0

    init(capacity: Int = 1 << 16) {
        base = .allocate(capacity: capacity)
        self.capacity = capacity
    }

    deinit { base.deallocate() }

    var array: [UInt8] { Array(UnsafeBufferPointer(start: base, count: count)) }

    func withBytes(_ body: (UnsafeRawBufferPointer) -> Void) {
        body(UnsafeRawBufferPointer(start: base, count: count))
    }

    mutating func removeAll() {
        count = 0
    }

    // Inlined: a call costs more than the append, which most lines make a dozen of.
    @inline(__always)
    mutating func append(_ byte: UInt8) {
        if count == capacity { grow(to: count + 1) }
        base[count] = byte
        count += 1
    }

    /// CRLF, which ends every line, in one two-byte store: the capacity check and count update of
    /// two appends cost about as much as the stores.
    @inline(__always)
    mutating func appendLineEnd() {
        if count + 2 > capacity { grow(to: count + 2) }
        UnsafeMutableRawPointer(base + count).storeBytes(of: (0x0A0D as UInt16).littleEndian, as: UInt16.self)
        count += 2
    }

    @inline(__always)
    mutating func append(contentsOf bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress else { return }
        let length = bytes.count
        if count + length > capacity { grow(to: count + length) }
        let from = UnsafeRawPointer(source)
        let to = UnsafeMutableRawPointer(base + count)
        // Most appends are names, tokens and short values: two overlapping word copies cost a
        // fraction of calling memcpy, which profiling put at 25 instructions for each of ~75 an event.
        switch length {
        case 8...16:
            let head = from.loadUnaligned(as: UInt64.self)
            let tail = from.loadUnaligned(fromByteOffset: length - 8, as: UInt64.self)
            to.storeBytes(of: head, as: UInt64.self)
            to.storeBytes(of: tail, toByteOffset: length - 8, as: UInt64.self)
        case 4..<8:
            let head = from.loadUnaligned(as: UInt32.self)
            let tail = from.loadUnaligned(fromByteOffset: length - 4, as: UInt32.self)
            to.storeBytes(of: head, as: UInt32.self)
            to.storeBytes(of: tail, toByteOffset: length - 4, as: UInt32.self)
        case 1..<4:
            to.storeBytes(of: source[0], as: UInt8.self)
            to.storeBytes(of: source[length / 2], toByteOffset: length / 2, as: UInt8.self)
            to.storeBytes(of: source[length - 1], toByteOffset: length - 1, as: UInt8.self)
        default: to.copyMemory(from: from, byteCount: length)
        }
        count += length
    }

    mutating func append(_ text: String) {
        text.withUTF8Bytes { append(contentsOf: $0) }
    }

    /// The start of the UTF-8 sequence the byte at `index` belongs to.
    func characterStart(atOrBefore index: Int) -> Int {
        var start = index
        while base[start] & 0xC0 == 0x80 { start -= 1 }
        return start
    }

    /// Where the last physical line written starts: after the last CRLF from `start` on, else `start`.
    func lastLineStart(after start: Int) -> Int {
        var index = count
        while index > start && base[index - 1] != 0x0A { index -= 1 }
        return index
    }

    /// Moves the bytes from `start` on into `destination`, which has room for them, and drops them.
    mutating func move(from start: Int, into destination: UnsafeMutableBufferPointer<UInt8>) {
        destination.baseAddress?.update(from: base + start, count: count - start)
        count = start
    }

    private mutating func grow(to needed: Int) {
        var newCapacity = capacity * 2
        while newCapacity < needed { newCapacity *= 2 }
        let larger = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        larger.update(from: base, count: count)
        base.deallocate()
        base = larger
        capacity = newCapacity
    }
}

extension String {
    /// Calls `body` with the string's UTF-8 bytes, without copying a native string's storage.
    /// `withContiguousStorageIfAvailable` reaches them in fewer instructions than `utf8.span`, whose
    /// `_underlyingSpans` profiling put at about 20 a call, on the ~50 strings an event writes.
    @inline(__always)
    func withUTF8Bytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        if let result = utf8.withContiguousStorageIfAvailable(body) { return result }
        // Only a foreign (bridged) string has no contiguous UTF-8; Linux has none, other platforms may.
        var copy = self
        return copy.withUTF8(body)
    }
}
