import CalendarModel

/// Writes content lines as RFC 5545 text: CRLF line ends, lines folded at 75 octets without
/// splitting a UTF-8 sequence, parameter values RFC 6868-encoded and quoted where needed.
struct ContentWriter {
    private(set) var bytes: [UInt8] = []

    /// Octets per physical line, CRLF excluded (RFC 5545 §3.1).
    static let lineLimit = 75

    /// Forgets what was written, keeping the storage for the next chunk.
    mutating func removeAll() { bytes.removeAll(keepingCapacity: true) }

    /// `BEGIN:VCALENDAR` and the calendar's own properties.
    mutating func writeHeader(_ document: CalendarDocument) {
        write(ContentLine(name: "BEGIN", value: "VCALENDAR"))
        for line in document.headerLines { write(line) }
    }

    mutating func write(_ component: ContentComponent) {
        write(ContentLine(name: "BEGIN", value: component.name))
        for line in component.properties { write(line) }
        for child in component.components { write(child) }
        write(ContentLine(name: "END", value: component.name))
    }

    mutating func write(_ line: ContentLine) {
        lineStart = bytes.count
        append(line.name)
        for parameter in line.parameters {
            append(";")
            append(parameter.name)
            append("=")
            for (index, value) in parameter.values.enumerated() {
                if index > 0 { append(",") }
                append(ContentWriter.parameterValue(value))
            }
        }
        append(":")
        append(line.value)
        bytes += [0x0D, 0x0A]
    }

    static func parameterValue(_ value: String) -> String {
        let encoded = ParameterCodec.encode(value)
        let needsQuotes = encoded.utf8.contains { $0 == 0x3B || $0 == 0x3A || $0 == 0x2C }
        return needsQuotes ? "\"\(encoded)\"" : encoded
    }

    /// Where the line being written started, for folding.
    private var lineStart = 0

    /// Appends text to the current line, folding before any character that would pass 75 octets.
    private mutating func append(_ text: String) {
        var length = bytes.count - lineStart
        let utf8 = text.utf8
        if length + utf8.count <= ContentWriter.lineLimit {
            bytes.append(contentsOf: utf8)
            return
        }
        for byte in utf8 {
            // Fold only before the first byte of a character, and before one that would not fit whole.
            if byte & 0xC0 != 0x80 && length + ContentWriter.sequenceLength(byte) > ContentWriter.lineLimit {
                bytes += [0x0D, 0x0A, 0x20]
                lineStart = bytes.count - 1
                length = 1
            }
            bytes.append(byte)
            length += 1
        }
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
