/// Plain text from an HTML body, for DESCRIPTION: tags dropped, block ends as line breaks, entities
/// decoded, white space collapsed the way a browser shows it. It is a reading aid, not a renderer;
/// the HTML itself is kept beside it (X-ALT-DESC). It works on UTF-8 bytes, since every event with
/// an HTML body passes through it.
enum HTMLText {
    static func plainText(fromHTML html: String) -> String {
        var html = html
        return html.withUTF8(plainText(fromHTML:))
    }

    /// The text is collected in scratch space the size of the HTML, on the stack for a body of a
    /// kilobyte or so: it never needs more, since every tag, white space run and entity is at least as
    /// long as what it becomes (`<p>` is two line breaks at most, `&#65536;` four bytes of UTF-8).
    private static func plainText(fromHTML bytes: UnsafeBufferPointer<UInt8>) -> String {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: bytes.count) { scratch in
            var output = TextBuilder(scratch: scratch)
            collect(bytes, into: &output)
            return output.finish()
        }
    }

    private static func collect(_ bytes: UnsafeBufferPointer<UInt8>, into output: inout TextBuilder) {
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "<"):
                if let end = endOfComment(in: bytes, at: index) {
                    // A comment is nothing, Outlook's conditional ones (`<!--[if mso]><xml>…`) included.
                    index = end
                    continue
                }
                guard let close = bytes.firstIndex(of: UInt8(ascii: ">"), in: index..<bytes.count) else {
                    output.append(byte)
                    index += 1
                    continue
                }
                let tag = bytes[(index + 1)..<close]
                let name = packedName(in: bytes, from: index + 1)
                index = close + 1
                switch role(ofElement: name) {
                case .skipped where tag.first != UInt8(ascii: "/") && tag.last != UInt8(ascii: "/"):
                    index = end(ofElement: name, in: bytes, from: index)
                case .lineBreak: output.lineBreak(lines: 1, adding: true)
                case .paragraph: output.lineBreak(lines: 2)
                case .line: output.lineBreak(lines: 1)
                case .skipped, nil: break
                }
            case UInt8(ascii: "&"):
                let (decoded, length) = entity(bytes, at: index)
                output.append(decoded)
                index += length
            case 0x20, 0x09, 0x0A, 0x0D, 0x0C:
                output.space()
                index += 1
            default:
                // Up to the next tag, entity or white space at once: a byte at a time, each asked
                // whether a space or break was pending, was an eighth of an Outlook body's cost.
                var end = index + 1
                while end < bytes.count && !isSpecial(bytes[end]) { end += 1 }
                output.append(UnsafeBufferPointer(rebasing: bytes[index..<end]))
                index = end
            }
        }
    }

    /// Whether `collect` treats `byte` apart: a tag's or an entity's start, or white space.
    @inline(__always)
    private static func isSpecial(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "<"), UInt8(ascii: "&"), 0x20, 0x09, 0x0A, 0x0D, 0x0C: true
        default: false
        }
    }

    /// What an element does to the text.
    private enum Role {
        /// Dropped with its content (`<style>…</style>`).
        case skipped
        /// `<br>`: one more line break.
        case lineBreak
        /// Set off by an empty line.
        case paragraph
        /// Starts a new line.
        case line
    }

    // One list rather than a dictionary or a list per role: a score of integer compares cost less
    // than hashing one name, and each list read is a call that checks the list is made.
    private static let roles: [(name: UInt64, role: Role)] = [
        (Role.paragraph, ["p", "h1", "h2", "h3", "h4", "h5", "h6", "table", "ul", "ol", "blockquote", "hr"]),
        (.line, ["div", "tr", "li"]), (.lineBreak, ["br"]), (.skipped, ["head", "style", "script", "title"]),
    ].flatMap { role, names in names.map { (pack($0), role) } }

    private static func role(ofElement name: UInt64) -> Role? {
        roles.first { $0.name == name }?.role
    }

    /// The index after the comment (`<!-- … -->`) that starts at `start`, or nil when none does.
    /// An unterminated comment runs to the end, as browsers read it.
    private static func endOfComment(in bytes: UnsafeBufferPointer<UInt8>, at start: Int) -> Int? {
        guard bytes.count - start >= 4, bytes[start + 1] == UInt8(ascii: "!"), bytes[start + 2] == UInt8(ascii: "-"),
            bytes[start + 3] == UInt8(ascii: "-")
        else { return nil }
        var index = start + 4
        while let dash = bytes.firstIndex(of: UInt8(ascii: "-"), in: index..<bytes.count) {
            if dash + 2 < bytes.count, bytes[dash + 1] == UInt8(ascii: "-"), bytes[dash + 2] == UInt8(ascii: ">") {
                return dash + 3
            }
            index = dash + 1
        }
        return bytes.count
    }

    /// The name of the tag whose text starts at `start` (after `<`, leading slashes skipped): its
    /// letters and digits, lower-cased and packed into an integer so that it is compared without
    /// building a string: the first seven bytes and the length, which tells `blockquote` from any
    /// shorter name. The name ends at the first byte that is neither, such as the tag's `>`; no name
    /// at all (`<!DOCTYPE html>`, `<>`) is 0, which no element has.
    private static func packedName(in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> UInt64 {
        var index = start
        while index < bytes.count, bytes[index] == UInt8(ascii: "/") { index += 1 }
        var packed: UInt64 = 0
        var length = 0
        while index < bytes.count, isAlphanumeric(bytes[index]) {
            if length < 7 {
                packed = packed << 8 | UInt64(isLetter(bytes[index]) ? bytes[index] | 0x20 : bytes[index])
            }
            length += 1
            index += 1
        }
        return length == 0 ? 0 : packed | UInt64(min(length, 255)) << 56
    }

    private static func pack(_ name: String) -> UInt64 {
        Array(name.utf8).withUnsafeBufferPointer { packedName(in: $0, from: 0) }
    }

    /// The index after `</name…>`, or the end of the input.
    private static func end(ofElement name: UInt64, in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        var index = start
        while let open = bytes.firstIndex(of: UInt8(ascii: "<"), in: index..<bytes.count) {
            index = open + 1
            guard index < bytes.count, bytes[index] == UInt8(ascii: "/") else { continue }
            if packedName(in: bytes, from: index + 1) == name {
                return (bytes.firstIndex(of: UInt8(ascii: ">"), in: index..<bytes.count) ?? bytes.count - 1) + 1
            }
        }
        return bytes.count
    }

    /// The character an entity at `start` stands for and the bytes it spans; an unknown one is a
    /// literal `&`. It reads the bytes where it once made a string of the name and looked it up in a
    /// dictionary, which cost about 2,000 instructions an entity, and Outlook writes `&nbsp;` often.
    private static func entity(_ bytes: UnsafeBufferPointer<UInt8>, at start: Int) -> (Unicode.Scalar, Int) {
        let window = bytes[(start + 1)..<min(bytes.count, start + 12)]
        guard let semicolon = window.firstIndex(of: UInt8(ascii: ";")) else { return ("&", 1) }
        let name = bytes[(start + 1)..<semicolon]
        let scalar: Unicode.Scalar?
        let second = name.dropFirst().first
        if name.first == UInt8(ascii: "#"), second == UInt8(ascii: "x") || second == UInt8(ascii: "X") {
            scalar = number(name.dropFirst(2), radix: 16).flatMap(Unicode.Scalar.init)
        } else if name.first == UInt8(ascii: "#") {
            scalar = number(name.dropFirst(), radix: 10).flatMap(Unicode.Scalar.init)
        } else {
            scalar = entityKey(name).flatMap { key in namedEntities.first { $0.key == key }?.scalar }
        }
        guard let scalar else { return ("&", 1) }
        return (scalar, semicolon - start + 1)
    }

    /// The number `text` spells, read as `UInt32(_:radix:)` reads it, as entities were once read: a
    /// sign may lead, and a minus sign leaves only zeros, which are 0.
    private static func number(_ text: Slice<UnsafeBufferPointer<UInt8>>, radix: UInt32) -> UInt32? {
        var digits = text
        let sign = digits.first
        if sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") { digits = digits.dropFirst() }
        guard !digits.isEmpty else { return nil }
        if sign == UInt8(ascii: "-") { return digits.allSatisfy { $0 == UInt8(ascii: "0") } ? 0 : nil }
        var value: UInt32 = 0
        for byte in digits {
            guard let digit = digitValue(byte), digit < radix else { return nil }
            let (shifted, overflowed) = value.multipliedReportingOverflow(by: radix)
            let (sum, carried) = shifted.addingReportingOverflow(digit)
            guard !overflowed, !carried else { return nil }
            value = sum
        }
        return value
    }

    private static func digitValue(_ byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "z"): UInt32(byte - UInt8(ascii: "a")) + 10
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): UInt32(byte - UInt8(ascii: "A")) + 10
        default: nil
        }
    }

    // A list of numbers rather than a dictionary of strings, as for the elements: a name is compared
    // with a dozen numbers for less than hashing it costs.
    private static let namedEntities: [(key: UInt64, scalar: Unicode.Scalar)] = [
        ("amp", "&"), ("lt", "<"), ("gt", ">"), ("quot", "\""), ("apos", "'"), ("nbsp", "\u{00A0}"), ("ndash", "–"),
        ("mdash", "—"), ("hellip", "…"), ("rsquo", "’"), ("lsquo", "‘"), ("rdquo", "”"), ("ldquo", "“"), ("copy", "©"),
        ("reg", "®"), ("euro", "€"),
    ].map { name, scalar in (entityKey(name.utf8)!, scalar) }

    /// An entity name of up to seven bytes as a number, its bytes followed by its length (so that a
    /// name with NUL bytes is not another name); longer names, which no named entity has, are nil.
    private static func entityKey<Name: Collection<UInt8>>(_ name: Name) -> UInt64? {
        guard name.count <= 7 else { return nil }
        return name.reduce(0) { $0 << 8 | UInt64($1) } << 8 | UInt64(name.count)
    }

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
    private let bytes: UnsafeMutableBufferPointer<UInt8>
    private var count = 0
    private var pendingSpace = false
    private var pendingBreaks = 0

    /// A builder writing into `scratch`, which must hold as many bytes as the text collected.
    init(scratch: UnsafeMutableBufferPointer<UInt8>) {
        bytes = scratch
    }

    mutating func append(_ byte: UInt8) {
        flush()
        write(byte)
    }

    mutating func append(_ scalar: Unicode.Scalar) {
        flush()
        for byte in scalar.utf8 { write(byte) }
    }

    /// A run of the HTML's own bytes.
    mutating func append(_ run: UnsafeBufferPointer<UInt8>) {
        flush()
        precondition(count + run.count <= bytes.count, "HTML text outgrew its scratch space")
        guard let source = run.baseAddress, let target = bytes.baseAddress else { return }
        (target + count).update(from: source, count: run.count)
        count += run.count
    }

    mutating func space() { pendingSpace = true }

    /// Ends the line so that `lines` line breaks separate what follows (one empty line at most);
    /// `adding` (for `<br>`) adds a break to those already pending instead.
    mutating func lineBreak(lines: Int, adding: Bool = false) {
        while count > 0 && bytes[count - 1] == UInt8(ascii: " ") { count -= 1 }
        pendingSpace = false
        guard count > 0 else { return }
        let written =
            bytes[count - 1] == UInt8(ascii: "\n") ? (count > 1 && bytes[count - 2] == UInt8(ascii: "\n") ? 2 : 1) : 0
        let wanted = adding ? written + pendingBreaks + lines : max(written + pendingBreaks, lines)
        pendingBreaks = max(0, min(wanted, 2) - written)
    }

    /// The text with no-break spaces as plain spaces, lines trimmed at the end, and runs of empty
    /// lines (a row holding only `&nbsp;` is one) reduced to one.
    ///
    /// It is worked out in place, since it never runs ahead of the bytes it is made from: no-break
    /// spaces shrink, and a line break is written only for one or two collected ones. A text of up to
    /// 15 bytes then becomes a string without allocating.
    consuming func finish() -> String {
        let collected = count
        count = 0
        var emptyLines = 0
        var start = 0
        while start <= collected {
            let end = bytes[start..<collected].firstIndex(of: UInt8(ascii: "\n")) ?? collected
            let lineEnd = trimmedEnd(from: start, to: end)
            if lineEnd == start {
                emptyLines += 1
            } else {
                if count > 0 {
                    write(UInt8(ascii: "\n"))
                    if emptyLines > 0 { write(UInt8(ascii: "\n")) }
                }
                // Moved down a run at a time, up to each byte that may start a no-break space.
                var index = start
                while index < lineEnd {
                    var runEnd = index
                    while runEnd < lineEnd && bytes[runEnd] != 0xC2 { runEnd += 1 }
                    moveDown(index..<runEnd)
                    index = runEnd
                    guard index < lineEnd else { break }
                    let noBreakSpace = isNoBreakSpace(at: index, before: lineEnd)
                    write(noBreakSpace ? UInt8(ascii: " ") : bytes[index])
                    index += noBreakSpace ? 2 : 1
                }
                emptyLines = 0
            }
            start = end + 1
        }
        // UTF-8 by construction: the HTML's own bytes, cut only at ASCII ones, and whole scalars.
        return String(validUTF8: UnsafeBufferPointer(rebasing: bytes[..<count]).span)
    }

    /// Appends the collected bytes in `range`, which lies at or after `count` (the text is rewritten
    /// in place, never ahead of what it is made from).
    private mutating func moveDown(_ range: Range<Int>) {
        guard !range.isEmpty, let base = bytes.baseAddress else { return }
        UnsafeMutableRawPointer(base + count).copyMemory(from: base + range.lowerBound, byteCount: range.count)
        count += range.count
    }

    /// Where the line from `start` to `end` ends once trailing spaces and no-break spaces are dropped.
    private func trimmedEnd(from start: Int, to end: Int) -> Int {
        var end = end
        while end > start {
            if bytes[end - 1] == UInt8(ascii: " ") {
                end -= 1
            } else if end - 2 >= start, isNoBreakSpace(at: end - 2, before: end) {
                end -= 2
            } else {
                break
            }
        }
        return end
    }

    /// Whether U+00A0 (C2 A0 in UTF-8) starts at `index`, within a line ending at `end`.
    private func isNoBreakSpace(at index: Int, before end: Int) -> Bool {
        bytes[index] == 0xC2 && index + 1 < end && bytes[index + 1] == 0xA0
    }

    /// Writes one byte; the scratch space holds all, as `HTMLText` explains, and a longer text stops
    /// here rather than write past it.
    private mutating func write(_ byte: UInt8) {
        precondition(count < bytes.count, "HTML text outgrew its scratch space")
        bytes[count] = byte
        count += 1
    }

    private mutating func flush() {
        if pendingBreaks > 0 {
            for _ in 0..<pendingBreaks { write(UInt8(ascii: "\n")) }
        } else if pendingSpace && count > 0 {
            write(UInt8(ascii: " "))
        }
        pendingBreaks = 0
        pendingSpace = false
    }
}
