/// RFC 5545 §3.3.11 TEXT escaping: backslash, semicolon, comma and newline.
///
/// Both directions scan UTF-8 bytes and return the input unchanged when there is nothing to do,
/// which is the common case.
enum TextCodec {
    private static let backslash = UInt8(ascii: "\\")

    /// Writes text the way a TEXT value must appear in a content line.
    static func escape(_ text: String) -> String {
        var text = text
        let escaped = text.withUTF8 { utf8 -> String? in
            let first = firstSpecial(in: utf8, from: 0)
            guard first < utf8.count else { return nil }
            var out: [UInt8] = []
            out.reserveCapacity(utf8.count + 8)
            // The plain start is known plain: copied, and not scanned again.
            out.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[..<first]))
            escape(UnsafeBufferPointer(rebasing: utf8[first...]), into: &out)
            return String(decoding: out, as: UTF8.self)
        }
        return escaped ?? text
    }

    /// Appends `utf8` escaped: the plain runs between the bytes that need escaping are copied whole.
    static func escape(_ utf8: UnsafeBufferPointer<UInt8>, into out: inout some ByteSink & ~Copyable) {
        var runStart = 0
        while true {
            let index = firstSpecial(in: utf8, from: runStart)
            out.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<index]))
            guard index < utf8.count else { return }
            let byte = utf8[index]
            switch byte {
            case 0x5C, 0x3B, 0x2C:
                out.append(backslash)
                out.append(byte)
            case 0x0A where index > 0 && utf8[index - 1] == 0x0D: break
            case 0x0A, 0x0D:
                out.append(backslash)
                out.append(UInt8(ascii: "n"))
            case 0x09: out.append(byte)
            // TEXT (RFC 5545 §3.3.11) has no way to write other control characters, which Graph
            // JSON can hold (`\u0000`); a NUL would also cut the value short in C readers.
            default: break
            }
            runStart = index + 1
        }
    }

    /// The first byte at or after `start` that escaping changes or drops (tab, a control
    /// character that is kept, is found too).
    private static func firstSpecial(in utf8: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        ByteScan.firstIndex(
            in: utf8, from: start,
            candidates: {
                $0.bytes(below: 0x20) | $0.bytes(equalTo: 0x5C) | $0.bytes(equalTo: 0x3B) | $0.bytes(equalTo: 0x2C)
                    | $0.bytes(equalTo: 0x7F)
            },
            byte: { $0 == 0x5C || $0 == 0x3B || $0 == 0x2C || $0 < 0x20 || $0 == 0x7F })
    }

    /// Reads an escaped TEXT value. Unknown escapes keep the escaped character, as most parsers do.
    static func unescape(_ text: String) -> String {
        var text = text
        let unescaped = text.withUTF8 { utf8 -> String? in
            let first = firstBackslash(in: utf8, from: 0)
            guard first < utf8.count else { return nil }
            // Unescaping only shortens a text, so it is written where the text's length fits: on the
            // stack, for all but long texts, and copied once into the string. Through an array it
            // was an allocation and an append for each run, some 400 instructions a text.
            return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: utf8.count) { out in
                var count = 0
                func copy(_ run: Range<Int>) {
                    _ = UnsafeMutableBufferPointer(rebasing: out[count..<(count + run.count)])
                        .initialize(fromContentsOf: UnsafeBufferPointer(rebasing: utf8[run]))
                    count += run.count
                }
                // The runs between escapes are copied whole.
                var runStart = 0
                var escape = first
                while escape < utf8.count {
                    copy(runStart..<escape)
                    guard escape + 1 < utf8.count else {
                        // A backslash that ends the text escapes nothing, and is kept.
                        out[count] = backslash
                        count += 1
                        runStart = utf8.count
                        break
                    }
                    let escaped = utf8[escape + 1]
                    out[count] = escaped == UInt8(ascii: "n") || escaped == UInt8(ascii: "N") ? 0x0A : escaped
                    count += 1
                    runStart = escape + 2
                    escape = firstBackslash(in: utf8, from: runStart)
                }
                copy(runStart..<utf8.count)
                // Only ASCII backslashes were removed and an ASCII `n` replaced, so what a backslash
                // escaped (a whole character) and the runs are as valid as the string they came from.
                return String(validUTF8: UnsafeBufferPointer(rebasing: out[..<count]).span)
            }
        }
        return unescaped ?? text
    }

    private static func firstBackslash(in utf8: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        ByteScan.firstIndex(
            in: utf8, from: start, candidates: { $0.bytes(equalTo: 0x5C) }, byte: { $0 == 0x5C })
    }

    /// Whether `text` holds `byte`, searched in its UTF-8 storage.
    static func contains(_ byte: UInt8, in text: String) -> Bool {
        var text = text
        return text.withUTF8 { $0.contains(byte) }
    }

    /// Splits a multi-valued TEXT (CATEGORIES) at unescaped commas, unescaping each part.
    static func splitList(_ text: String) -> [String] {
        var parts: [String] = []
        var current: [UInt8] = []
        var escaping = false
        for byte in text.utf8 {
            if escaping {
                current += [backslash, byte]
                escaping = false
            } else if byte == backslash {
                escaping = true
            } else if byte == UInt8(ascii: ",") {
                parts.append(unescape(String(decoding: current, as: UTF8.self)))
                current.removeAll()
            } else {
                current.append(byte)
            }
        }
        if escaping { current.append(backslash) }
        parts.append(unescape(String(decoding: current, as: UTF8.self)))
        return parts
    }
}

/// RFC 6868 parameter value encoding: `^n` newline, `^'` double quote, `^^` caret.
enum ParameterCodec {
    private static let caret = UInt8(ascii: "^")

    static func decode(_ raw: String) -> String {
        guard TextCodec.contains(caret, in: raw) else { return raw }
        var out: [UInt8] = []
        var pending = false
        for byte in raw.utf8 {
            if pending {
                switch byte {
                case UInt8(ascii: "n"): out.append(0x0A)
                case UInt8(ascii: "'"): out.append(UInt8(ascii: "\""))
                case caret: out.append(caret)
                default: out += [caret, byte]
                }
                pending = false
            } else if byte == caret {
                pending = true
            } else {
                out.append(byte)
            }
        }
        if pending { out.append(caret) }
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends a parameter value with `^`, `"` and line breaks encoded (RFC 6868 §3), and the control
    /// characters a parameter value cannot hold (all but tab, RFC 5545 §3.1) dropped.
    static func encode(_ utf8: UnsafeBufferPointer<UInt8>, into out: inout some ByteSink & ~Copyable) {
        var previous: UInt8 = 0
        for byte in utf8 {
            switch byte {
            case caret:
                out.append(caret)
                out.append(caret)
            case 0x22:
                out.append(caret)
                out.append(UInt8(ascii: "'"))
            case 0x0A where previous == 0x0D: break
            case 0x0A, 0x0D:
                out.append(caret)
                out.append(UInt8(ascii: "n"))
            case 0x09: out.append(byte)
            case 0x00...0x1F, 0x7F: break
            default: out.append(byte)
            }
            previous = byte
        }
    }
}
