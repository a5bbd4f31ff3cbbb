/// Plain text from an HTML body, for DESCRIPTION: tags dropped, block ends as line breaks, entities
/// decoded, white space collapsed the way a browser shows it. It is a reading aid, not a renderer;
/// the HTML itself is kept beside it (X-ALT-DESC). It works on UTF-8 bytes, since every event with
/// an HTML body passes through it.
enum HTMLText {
    static func plainText(fromHTML html: String) -> String {
        var html = html
        return html.withUTF8(plainText(fromHTML:))
    }

    private static func plainText(fromHTML bytes: UnsafeBufferPointer<UInt8>) -> String {
        var output = TextBuilder()
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "<"):
                guard let close = bytes[index...].firstIndex(of: UInt8(ascii: ">")) else {
                    output.append(byte)
                    index += 1
                    continue
                }
                let tag = bytes[(index + 1)..<close]
                index = close + 1
                let name = packedName(tag)
                if skippedElements.contains(name), tag.first != UInt8(ascii: "/"), tag.last != UInt8(ascii: "/") {
                    index = end(ofElement: name, in: bytes, from: index)
                } else if name == Self.pack("br") {
                    output.lineBreak(lines: 1, adding: true)
                } else if paragraphElements.contains(name) {
                    output.lineBreak(lines: 2)
                } else if lineElements.contains(name) {
                    output.lineBreak(lines: 1)
                }
            case UInt8(ascii: "&"):
                let (decoded, length) = entity(bytes, at: index)
                output.append(contentsOf: decoded)
                index += length
            case 0x20, 0x09, 0x0A, 0x0D, 0x0C:
                output.space()
                index += 1
            default:
                output.append(byte)
                index += 1
            }
        }
        return output.text
    }

    // Lists rather than sets: a dozen integer compares cost less than hashing one name.
    private static let skippedElements: [UInt64] = ["head", "style", "script", "title"].map(pack)
    /// Elements set off by an empty line, and elements that only start a new line.
    private static let paragraphElements: [UInt64] =
        ["p", "h1", "h2", "h3", "h4", "h5", "h6", "table", "ul", "ol", "blockquote", "hr"].map(pack)
    private static let lineElements: [UInt64] = ["div", "tr", "li"].map(pack)

    /// A tag name of up to eight letters and digits, lower-cased and packed into an integer so that
    /// it is compared without building a string; longer names are 0, which no set holds.
    private static func packedName<Bytes: Collection<UInt8>>(_ tag: Bytes) -> UInt64 {
        var packed: UInt64 = 0
        var length = 0
        for byte in tag.drop(while: { $0 == UInt8(ascii: "/") }) {
            guard isAlphanumeric(byte) else { break }
            length += 1
            guard length <= 8 else { return 0 }
            packed = packed << 8 | UInt64(isLetter(byte) ? byte | 0x20 : byte)
        }
        return packed
    }

    private static func pack(_ name: String) -> UInt64 { packedName(Array(name.utf8)) }

    /// The index after `</name…>`, or the end of the input.
    private static func end(ofElement name: UInt64, in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        var index = start
        while let open = bytes[index...].firstIndex(of: UInt8(ascii: "<")) {
            index = open + 1
            guard index < bytes.count, bytes[index] == UInt8(ascii: "/") else { continue }
            if packedName(bytes[(index + 1)...]) == name {
                return (bytes[index...].firstIndex(of: UInt8(ascii: ">")) ?? bytes.count - 1) + 1
            }
        }
        return bytes.count
    }

    /// The UTF-8 an entity at `start` stands for and the bytes it spans; an unknown one is a literal `&`.
    private static func entity(_ bytes: UnsafeBufferPointer<UInt8>, at start: Int) -> ([UInt8], Int) {
        let window = bytes[(start + 1)..<min(bytes.count, start + 12)]
        guard let semicolon = window.firstIndex(of: UInt8(ascii: ";")) else { return ([UInt8(ascii: "&")], 1) }
        let name = String(decoding: bytes[(start + 1)..<semicolon], as: UTF8.self)
        var scalar: Unicode.Scalar?
        if name.hasPrefix("#x") || name.hasPrefix("#X") {
            scalar = UInt32(name.dropFirst(2), radix: 16).flatMap(Unicode.Scalar.init)
        } else if name.hasPrefix("#") {
            scalar = UInt32(name.dropFirst()).flatMap(Unicode.Scalar.init)
        } else {
            scalar = namedEntities[name]
        }
        guard let scalar else { return ([UInt8(ascii: "&")], 1) }
        return (Array(String(Character(scalar)).utf8), semicolon - start + 1)
    }

    private static let namedEntities: [String: Unicode.Scalar] = [
        "amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'", "nbsp": "\u{00A0}", "ndash": "–", "mdash": "—",
        "hellip": "…", "rsquo": "’", "lsquo": "‘", "rdquo": "”", "ldquo": "“", "copy": "©", "reg": "®", "euro": "€",
    ]

    private static func isLetter(_ byte: UInt8) -> Bool {
        (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z")
    }

    private static func isAlphanumeric(_ byte: UInt8) -> Bool {
        isLetter(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }
}

/// Collects plain text lines: collapsible white space becomes one space between words, no line
/// ends in spaces, and at most one empty line separates paragraphs.
private struct TextBuilder {
    private var bytes: [UInt8] = []
    private var pendingSpace = false
    private var pendingBreaks = 0

    mutating func append(_ byte: UInt8) {
        flush()
        bytes.append(byte)
    }

    mutating func append(contentsOf text: [UInt8]) {
        flush()
        bytes.append(contentsOf: text)
    }

    mutating func space() { pendingSpace = true }

    /// Ends the line so that `lines` line breaks separate what follows (one empty line at most);
    /// `adding` (for `<br>`) adds a break to those already pending instead.
    mutating func lineBreak(lines: Int, adding: Bool = false) {
        while bytes.last == UInt8(ascii: " ") { bytes.removeLast() }
        pendingSpace = false
        guard !bytes.isEmpty else { return }
        let written = bytes.last == UInt8(ascii: "\n") ? (bytes.dropLast().last == UInt8(ascii: "\n") ? 2 : 1) : 0
        let wanted = adding ? written + pendingBreaks + lines : max(written + pendingBreaks, lines)
        pendingBreaks = max(0, min(wanted, 2) - written)
    }

    /// The text with no-break spaces as plain spaces, lines trimmed at the end, and runs of empty
    /// lines (a row holding only `&nbsp;` is one) reduced to one.
    var text: String {
        var result: [UInt8] = []
        var line: [UInt8] = []
        var emptyLines = 0
        var index = 0
        while index <= bytes.count {
            if index == bytes.count || bytes[index] == UInt8(ascii: "\n") {
                while line.last == UInt8(ascii: " ") { line.removeLast() }
                if line.isEmpty {
                    emptyLines += 1
                } else {
                    if !result.isEmpty { result += emptyLines > 0 ? [0x0A, 0x0A] : [0x0A] }
                    result += line
                    emptyLines = 0
                }
                line.removeAll(keepingCapacity: true)
            } else if bytes[index] == 0xC2, index + 1 < bytes.count, bytes[index + 1] == 0xA0 {
                line.append(UInt8(ascii: " "))
                index += 1
            } else {
                line.append(bytes[index])
            }
            index += 1
        }
        return String(decoding: result, as: UTF8.self)
    }

    private mutating func flush() {
        if pendingBreaks > 0 {
            bytes.append(contentsOf: repeatElement(UInt8(ascii: "\n"), count: pendingBreaks))
        } else if pendingSpace && !bytes.isEmpty {
            bytes.append(UInt8(ascii: " "))
        }
        pendingBreaks = 0
        pendingSpace = false
    }
}
