/// RFC 5545 §3.3.11 TEXT escaping: backslash, semicolon, comma and newline.
enum TextCodec {
    /// Writes text the way a TEXT value must appear in a content line.
    static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "\\": out += "\\\\"
            case ";": out += "\\;"
            case ",": out += "\\,"
            case "\n", "\r\n": out += "\\n"
            default: out.append(character)
            }
        }
        return out
    }

    /// Reads an escaped TEXT value. Unknown escapes keep the escaped character, as most parsers do.
    static func unescape(_ text: String) -> String {
        guard text.contains("\\") else { return text }
        var out = ""
        var escaping = false
        for character in text {
            if escaping {
                out.append(character == "n" || character == "N" ? "\n" : character)
                escaping = false
            } else if character == "\\" {
                escaping = true
            } else {
                out.append(character)
            }
        }
        if escaping { out.append("\\") }
        return out
    }

    /// Splits a multi-valued TEXT (CATEGORIES) at unescaped commas, unescaping each part.
    static func splitList(_ text: String) -> [String] {
        var parts: [String] = []
        var current = ""
        var escaping = false
        for character in text {
            if escaping {
                current.append("\\")
                current.append(character)
                escaping = false
            } else if character == "\\" {
                escaping = true
            } else if character == "," {
                parts.append(unescape(current))
                current = ""
            } else {
                current.append(character)
            }
        }
        parts.append(unescape(current))
        return parts
    }
}

/// RFC 6868 parameter value encoding: `^n` newline, `^'` double quote, `^^` caret.
enum ParameterCodec {
    static func decode(_ raw: String) -> String {
        guard raw.contains("^") else { return raw }
        var out = ""
        var pending = false
        for character in raw {
            if pending {
                switch character {
                case "n": out.append("\n")
                case "'": out.append("\"")
                case "^": out.append("^")
                default:
                    out.append("^")
                    out.append(character)
                }
                pending = false
            } else if character == "^" {
                pending = true
            } else {
                out.append(character)
            }
        }
        if pending { out.append("^") }
        return out
    }

    static func encode(_ value: String) -> String {
        guard value.contains(where: { $0 == "^" || $0 == "\"" || $0 == "\n" || $0 == "\r\n" }) else { return value }
        var out = ""
        for character in value {
            switch character {
            case "^": out += "^^"
            case "\"": out += "^'"
            case "\n", "\r\n": out += "^n"
            default: out.append(character)
            }
        }
        return out
    }
}
