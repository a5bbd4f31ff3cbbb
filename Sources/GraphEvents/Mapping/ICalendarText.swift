/// RFC 5545 §3.3.11 TEXT escaping, since `ExtraProperty.value` holds the value as iCalendar writes it.
enum ICalendarText {
    /// `\` `;` `,` and newlines escaped.
    static func escape(_ text: String) -> String {
        var plain = text
        let needsEscape = plain.withUTF8 { bytes in
            bytes.contains { $0 == 0x5C || $0 == 0x3B || $0 == 0x2C || $0 == 0x0A || $0 == 0x0D }
        }
        guard needsEscape else { return text }
        var result = ""
        for character in text {
            switch character {
            case "\\": result += "\\\\"
            case ";": result += "\\;"
            case ",": result += "\\,"
            case "\n", "\r\n": result += "\\n"
            case "\r": break
            default: result.append(character)
            }
        }
        return result
    }

    /// The inverse of `escape`; `\N` is a newline too.
    static func unescape(_ text: String) -> String {
        guard text.utf8.contains(UInt8(ascii: "\\")) else { return text }
        var result = ""
        var escaping = false
        for character in text {
            if escaping {
                result.append(character == "n" || character == "N" ? "\n" : character)
                escaping = false
            } else if character == "\\" {
                escaping = true
            } else {
                result.append(character)
            }
        }
        return result
    }
}
