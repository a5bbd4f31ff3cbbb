import CalendarModel

/// Parses one unfolded line into name, parameters and value (RFC 5545 §3.1, RFC 6868).
enum ContentLineParser {
    /// A content line that does not follow the grammar, with the column where it went wrong.
    struct SyntaxError: Error {
        var column: Int
        var message: String
    }

    /// Parses a line; `recovered` receives problems that were skipped over (a parameter without a
    /// value), which lose data and so must be reported.
    static func parse(_ text: String, line: Int, recovered: inout [SyntaxError]) throws(SyntaxError) -> ContentLine {
        let scalars = Array(text.unicodeScalars)
        var index = 0
        let name = readName(scalars, &index)
        guard !name.isEmpty else {
            throw SyntaxError(column: index + 1, message: "expected a property name, found '\(prefix(scalars, index))'")
        }
        var parameters: [Parameter] = []
        while index < scalars.count, scalars[index] == ";" {
            index += 1
            let parameterName = readName(scalars, &index)
            guard !parameterName.isEmpty else {
                throw SyntaxError(column: index + 1, message: "expected a parameter name after ';' in \(name)")
            }
            guard index < scalars.count, scalars[index] == "=" else {
                let error = SyntaxError(
                    column: index + 1,
                    message: "parameter \(parameterName) of \(name) has no '=' and value; it was dropped")
                guard index < scalars.count, scalars[index] == ";" || scalars[index] == ":" else { throw error }
                recovered.append(error)
                continue
            }
            index += 1
            var values: [String] = []
            repeat {
                if index < scalars.count, scalars[index] == "," { index += 1 }
                values.append(try readParameterValue(scalars, &index, parameter: parameterName))
            } while index < scalars.count && scalars[index] == ","
            parameters.append(Parameter(name: parameterName, values: values))
        }
        guard index < scalars.count, scalars[index] == ":" else {
            throw SyntaxError(
                column: index + 1,
                message:
                    "expected ':' before the value of \(name), found \(index < scalars.count ? "'\(scalars[index])'" : "end of line")"
            )
        }
        var value = String.UnicodeScalarView()
        value.append(contentsOf: scalars[(index + 1)...])
        return ContentLine(name: name.uppercased(), parameters: parameters, value: String(value), line: line)
    }

    private static func readName(_ scalars: [Unicode.Scalar], _ index: inout Int) -> String {
        var name = String.UnicodeScalarView()
        while index < scalars.count, isNameCharacter(scalars[index]) {
            name.append(scalars[index])
            index += 1
        }
        return String(name)
    }

    private static func isNameCharacter(_ scalar: Unicode.Scalar) -> Bool {
        ("A"..."Z").contains(scalar) || ("a"..."z").contains(scalar) || ("0"..."9").contains(scalar) || scalar == "-"
    }

    private static func readParameterValue(
        _ scalars: [Unicode.Scalar], _ index: inout Int, parameter: String
    ) throws(SyntaxError) -> String {
        var raw = String.UnicodeScalarView()
        if index < scalars.count, scalars[index] == "\"" {
            let open = index
            index += 1
            while index < scalars.count, scalars[index] != "\"" {
                raw.append(scalars[index])
                index += 1
            }
            guard index < scalars.count else {
                throw SyntaxError(column: open + 1, message: "unterminated quoted value of parameter \(parameter)")
            }
            index += 1
        } else {
            while index < scalars.count, !";:,\"".unicodeScalars.contains(scalars[index]) {
                raw.append(scalars[index])
                index += 1
            }
        }
        return ParameterCodec.decode(String(raw))
    }

    private static func prefix(_ scalars: [Unicode.Scalar], _ index: Int) -> String {
        var text = String.UnicodeScalarView()
        text.append(contentsOf: scalars.prefix(20))
        return String(text)
    }
}
