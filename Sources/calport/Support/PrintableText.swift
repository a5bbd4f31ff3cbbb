extension String {
    /// The text with every control character (C0, DEL and C1) written as an escape: `\n`, `\r`,
    /// `\t`, else `\u{1B}`. What calport prints about an input or a Graph answer is one line each,
    /// so a SUMMARY or an error message holding a newline or a terminal escape sequence can neither
    /// forge a line of the report (`created: 999`) nor drive the terminal.
    var escapingControlCharacters: String {
        guard unicodeScalars.contains(where: \.isControl) else { return self }
        var escaped = String.UnicodeScalarView()
        for scalar in unicodeScalars {
            guard scalar.isControl else {
                escaped.append(scalar)
                continue
            }
            let text: String
            switch scalar {
            case "\n": text = "\\n"
            case "\r": text = "\\r"
            case "\t": text = "\\t"
            default: text = "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            }
            escaped.append(contentsOf: text.unicodeScalars)
        }
        return String(escaped)
    }
}

extension Unicode.Scalar {
    /// C0 controls, DEL and C1 controls (Unicode general category Cc).
    fileprivate var isControl: Bool { value < 0x20 || (0x7F...0x9F).contains(value) }
}
