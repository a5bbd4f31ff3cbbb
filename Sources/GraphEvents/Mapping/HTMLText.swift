/// Plain text from an HTML body, for DESCRIPTION: tags dropped, block ends as line breaks, entities
/// decoded, white space collapsed the way a browser shows it. It is a reading aid, not a renderer;
/// the HTML itself is kept beside it (X-ALT-DESC).
enum HTMLText {
    static func plainText(fromHTML html: String) -> String {
        var output = ""
        var pendingSpace = false
        var scalars = Array(html.unicodeScalars)[...]
        while let scalar = scalars.popFirst() {
            switch scalar {
            case "<":
                guard let close = scalars.firstIndex(of: ">") else {
                    output.unicodeScalars.append(scalar)
                    continue
                }
                let tag = String(String.UnicodeScalarView(scalars[..<close]))
                scalars = scalars[(close + 1)...]
                let name = tagName(tag)
                if skippedElements.contains(name), !tag.hasPrefix("/"), !tag.hasSuffix("/") {
                    skip(through: "</\(name)", in: &scalars)
                } else if lineBreakElements.contains(name) {
                    output = output.trimmingTrailingSpaces() + "\n"
                    pendingSpace = false
                }
            case "&":
                output += pendingSpace && !output.isEmpty && !output.hasSuffix("\n") ? " " : ""
                pendingSpace = false
                output += entity(&scalars)
            case " ", "\t", "\r", "\n", "\u{0C}":
                pendingSpace = true
            default:
                if pendingSpace && !output.isEmpty && !output.hasSuffix("\n") { output += " " }
                pendingSpace = false
                output.unicodeScalars.append(scalar)
            }
        }
        return collapseBlankLines(output.replacingNonBreakingSpaces())
    }

    private static let skippedElements: Set<String> = ["head", "style", "script", "title"]
    private static let lineBreakElements: Set<String> = [
        "br", "p", "div", "tr", "li", "h1", "h2", "h3", "h4", "h5", "h6", "table", "ul", "ol", "blockquote", "hr",
    ]

    /// `p` from `p class="x"`, `/P` or `br/`.
    private static func tagName(_ tag: String) -> String {
        let trimmed = tag.drop { $0 == "/" }
        return String(trimmed.prefix { $0.isLetter || $0.isNumber }).lowercased()
    }

    private static func skip(through closing: String, in scalars: inout ArraySlice<Unicode.Scalar>) {
        let lowered = Array(closing.unicodeScalars)
        while !scalars.isEmpty {
            if scalars.starts(with: lowered, by: { String($0).lowercased() == String($1) }) {
                if let end = scalars.firstIndex(of: ">") { scalars = scalars[(end + 1)...] } else { scalars = [] }
                return
            }
            scalars = scalars.dropFirst()
        }
    }

    /// The character an entity after `&` stands for; an unknown one stays as written.
    private static func entity(_ scalars: inout ArraySlice<Unicode.Scalar>) -> String {
        guard let semicolon = scalars.prefix(10).firstIndex(of: ";") else { return "&" }
        let name = String(String.UnicodeScalarView(scalars[..<semicolon]))
        let decoded: String?
        if name.hasPrefix("#x") || name.hasPrefix("#X") {
            decoded = UInt32(name.dropFirst(2), radix: 16).flatMap(Unicode.Scalar.init).map { String(Character($0)) }
        } else if name.hasPrefix("#") {
            decoded = UInt32(name.dropFirst()).flatMap(Unicode.Scalar.init).map { String(Character($0)) }
        } else {
            decoded = namedEntities[name]
        }
        guard let decoded else { return "&" }
        scalars = scalars[(semicolon + 1)...]
        return decoded
    }

    private static let namedEntities = [
        "amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'", "nbsp": "\u{00A0}", "ndash": "–", "mdash": "—",
        "hellip": "…", "rsquo": "’", "lsquo": "‘", "rdquo": "”", "ldquo": "“", "copy": "©", "reg": "®", "euro": "€",
    ]

    /// At most one empty line in a row, and no spaces at line ends or around the text.
    private static func collapseBlankLines(_ text: String) -> String {
        var lines: [Substring] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let trimmed = line.trimmingTrailingSpaces()
            if trimmed.isEmpty && (lines.last?.isEmpty ?? true) { continue }
            lines.append(trimmed)
        }
        while lines.last?.isEmpty == true { lines.removeLast() }
        return lines.joined(separator: "\n")
    }
}

extension StringProtocol {
    fileprivate func trimmingTrailingSpaces() -> SubSequence {
        var end = endIndex
        while end > startIndex, self[index(before: end)] == " " { end = index(before: end) }
        return self[startIndex..<end]
    }
}

extension String {
    fileprivate func trimmingTrailingSpaces() -> String { String(self[...].trimmingTrailingSpaces()) }

    fileprivate func replacingNonBreakingSpaces() -> String {
        String(String.UnicodeScalarView(unicodeScalars.map { $0 == "\u{00A0}" ? " " : $0 }))
    }
}
