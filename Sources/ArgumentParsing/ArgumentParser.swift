/// What a command line said, checked against a `CommandSpec`.
public struct ParsedArguments: Sendable {
    public var values: [String: String] = [:]
    /// Every value given to each option, in order: for options that may be repeated (`-W`).
    public var allValues: [String: [String]] = [:]
    public var flags: Set<String> = []
    public var positionals: [String] = []

    /// The option's value; the last one when it was given more than once.
    public func value(_ option: OptionSpec) -> String? { values[option.key] }
    /// Every value the option was given, in order.
    public func values(_ option: OptionSpec) -> [String] { allValues[option.key] ?? [] }
    public func isSet(_ option: OptionSpec) -> Bool { flags.contains(option.key) }
}

/// A command line that does not fit its command, with what was expected.
public struct UsageError: Error, CustomStringConvertible {
    public var message: String

    public init(message: String) { self.message = message }

    public var description: String { message }
}

/// Parses arguments against a spec: `--opt VALUE`, `--opt=VALUE`, `-o VALUE`, flags, `--` and `-`.
public enum ArgumentParser {
    public static func parse(_ arguments: [String], spec: CommandSpec) throws(UsageError) -> ParsedArguments {
        var parsed = ParsedArguments()
        var index = 0
        var onlyPositionals = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if onlyPositionals || argument == "-" || !argument.hasPrefix("-") {
                parsed.positionals.append(argument)
                continue
            }
            if argument == "--" {
                onlyPositionals = true
                continue
            }
            var name = argument
            var inlineValue: String?
            if let equals = argument.firstIndex(of: "="), argument.hasPrefix("--") {
                name = String(argument[..<equals])
                inlineValue = String(argument[argument.index(after: equals)...])
            }
            guard let option = spec.options.first(where: { $0.names.contains(name) }) else {
                let known = spec.options.flatMap(\.names).filter { $0.hasPrefix("--") }.joined(separator: ", ")
                throw UsageError(
                    message: "unknown option '\(name)' for 'calport \(spec.name)'; expected one of: \(known)")
            }
            guard option.valueName != nil else {
                if inlineValue != nil { throw UsageError(message: "option '\(name)' takes no value") }
                parsed.flags.insert(option.key)
                continue
            }
            let value: String
            if let inlineValue {
                value = inlineValue
            } else if index < arguments.count {
                value = arguments[index]
                index += 1
            } else {
                throw UsageError(message: "option '\(name)' expects a value (\(option.valueName ?? ""))")
            }
            if !option.choices.isEmpty && !option.choices.contains(value) {
                throw UsageError(
                    message:
                        "option '\(name)' expects one of \(option.choices.joined(separator: ", ")), found '\(value)'")
            }
            parsed.values[option.key] = value
            parsed.allValues[option.key, default: []].append(value)
        }
        return parsed
    }
}
