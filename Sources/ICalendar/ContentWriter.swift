import CalendarModel

/// Writes content lines as RFC 5545 text: CRLF line ends, lines folded at 75 octets without
/// splitting a UTF-8 sequence, parameter values RFC 6868-encoded and quoted where needed.
struct ContentWriter {
    private var output = OutputBytes()

    /// What has been written since the start or the last `removeAll`.
    var bytes: [UInt8] { output.array }

    /// How many bytes have been written since the start or the last `removeAll`.
    var count: Int { output.count }

    /// Copy on write: a copied writer writes on into its own bytes.
    private mutating func makeOutputUnique() {
        if !isKnownUniquelyReferenced(&output) { output = output.copy() }
    }

    /// Octets per physical line, CRLF excluded (RFC 5545 §3.1).
    static let lineLimit = 75

    /// Forgets what was written, keeping the storage for the next chunk.
    mutating func removeAll() {
        // A shared buffer is left to its other owner rather than copied only to be emptied.
        if isKnownUniquelyReferenced(&output) { output.removeAll() } else { output = OutputBytes() }
    }

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
        begin(line: line.name)
        parameters(line.parameters)
        finish(value: line.value)
    }

    /// `BEGIN:NAME`, opening a component whose lines follow.
    mutating func begin(component name: String) {
        begin(line: "BEGIN")
        finish(value: name)
    }

    /// `END:NAME`.
    mutating func end(component name: String) {
        begin(line: "END")
        finish(value: name)
    }

    /// A whole property: `parameters` writes those calport sets, then come those the input had on it
    /// (`kept[name]`, which most events leave empty), then the value.
    mutating func property(
        _ name: String, _ value: String, kept: [String: [Parameter]],
        parameters: (inout ContentWriter) -> Void = { _ in }
    ) {
        begin(line: name)
        parameters(&self)
        if !kept.isEmpty, let list = kept[name] { self.parameters(list) }
        finish(value: value)
    }

    /// Starts a content line with its name; its parameters, then its value, follow.
    mutating func begin(line name: String) {
        makeOutputUnique()
        lineStart = output.count
        append(name)
    }

    /// One parameter of the line begun, with one value.
    mutating func parameter(_ name: String, _ value: String) {
        makeOutputUnique()
        appendParameterName(name)
        appendParameterValue(value)
    }

    /// Parameters of the line begun, each with its values.
    mutating func parameters(_ list: [Parameter]) {
        makeOutputUnique()
        for parameter in list {
            appendParameterName(parameter.name)
            for (index, value) in parameter.values.enumerated() {
                if index > 0 { append(byte: UInt8(ascii: ",")) }
                appendParameterValue(value)
            }
        }
    }

    /// Ends the line begun with its value (already in its RFC 5545 form).
    mutating func finish(value: String) {
        makeOutputUnique()
        append(byte: UInt8(ascii: ":"))
        append(value)
        output.append(0x0D)
        output.append(0x0A)
    }

    /// `;NAME=`, before a parameter's values.
    private mutating func appendParameterName(_ name: String) {
        append(byte: UInt8(ascii: ";"))
        append(name)
        append(byte: UInt8(ascii: "="))
    }

    /// A parameter value, RFC 6868-encoded, and quoted when it holds `;`, `:` or `,`.
    private mutating func appendParameterValue(_ value: String) {
        var value = value
        value.withUTF8 { utf8 in
            var needsEncoding = false
            var needsQuotes = false
            for byte in utf8 {
                switch byte {
                case UInt8(ascii: "^"), 0x22, 0x0A, 0x0D: needsEncoding = true
                case 0x3B, 0x3A, 0x2C: needsQuotes = true
                default: continue
                }
            }
            if needsQuotes { append(byte: 0x22) }
            if needsEncoding {
                append(ParameterCodec.encode(String(decoding: utf8, as: UTF8.self)))
            } else {
                append(utf8: utf8)
            }
            if needsQuotes { append(byte: 0x22) }
        }
    }

    /// Where the line being written started, for folding.
    private var lineStart = 0

    /// Appends text to the current line, folding before any character that would pass 75 octets.
    private mutating func append(_ text: String) {
        var text = text
        text.withUTF8 { append(utf8: $0) }
    }

    private mutating func append(utf8: UnsafeBufferPointer<UInt8>) {
        var length = output.count - lineStart
        if length + utf8.count <= ContentWriter.lineLimit {
            output.append(contentsOf: utf8)
            return
        }
        for byte in utf8 {
            // Fold only before the first byte of a character, and before one that would not fit whole.
            if byte & 0xC0 != 0x80 && length + ContentWriter.sequenceLength(byte) > ContentWriter.lineLimit {
                output.append(0x0D)
                output.append(0x0A)
                output.append(0x20)
                lineStart = output.count - 1
                length = 1
            }
            output.append(byte)
            length += 1
        }
    }

    /// Appends one ASCII byte to the current line, folding first when the line is full.
    private mutating func append(byte: UInt8) {
        if output.count - lineStart >= ContentWriter.lineLimit {
            output.append(0x0D)
            output.append(0x0A)
            output.append(0x20)
            lineStart = output.count - 1
        }
        output.append(byte)
    }

    /// The length of the UTF-8 sequence a lead byte starts.
    private static func sequenceLength(_ lead: UInt8) -> Int {
        switch lead {
        case 0xF0...: return 4
        case 0xE0...: return 3
        case 0xC0...: return 2
        default: return 1
        }
    }
}

/// The writer's growing output: appending a few bytes is a bounds check and a copy, without the
/// uniqueness and capacity bookkeeping of `Array.append(contentsOf:)`, which profiling showed at
/// about 200 instructions a call on the ~80 short appends of each event.
private final class OutputBytes {
    private var storage: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    private(set) var count = 0

    init() {
        capacity = 1 << 16
        storage = .allocate(capacity: capacity)
    }

    deinit { storage.deallocate() }

    var array: [UInt8] { Array(UnsafeBufferPointer(start: storage, count: count)) }

    func removeAll() { count = 0 }

    func copy() -> OutputBytes {
        let copy = OutputBytes()
        copy.append(contentsOf: UnsafeBufferPointer(start: storage, count: count))
        return copy
    }

    func append(_ byte: UInt8) {
        if count == capacity { grow(to: count + 1) }
        storage[count] = byte
        count += 1
    }

    func append(contentsOf bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress else { return }
        if count + bytes.count > capacity { grow(to: count + bytes.count) }
        (storage + count).update(from: source, count: bytes.count)
        count += bytes.count
    }

    private func grow(to needed: Int) {
        var newCapacity = capacity * 2
        while newCapacity < needed { newCapacity *= 2 }
        let larger = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        larger.update(from: storage, count: count)
        storage.deallocate()
        storage = larger
        capacity = newCapacity
    }
}
