/// JSON text written by hand (RFC 8259): strings quoted with every character that must be escaped escaped.
enum JSONText {
    /// `value` as a JSON string literal.
    static func string(_ value: String) -> String {
        // Most values need no escape: one pass over the bytes decides (0xE2 leads U+2028 and U+2029).
        let plain = value.utf8.allSatisfy {
            $0 >= 0x20 && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") && $0 != 0xE2
        }
        if plain { return "\"" + value + "\"" }
        var out = "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\u{08}": out += "\\b"
            case "\u{0C}": out += "\\f"
            case _ where scalar.value < 0x20 || scalar.value == 0x2028 || scalar.value == 0x2029:
                // U+2028/2029 are valid JSON but break JavaScript readers of NDJSON lines.
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
