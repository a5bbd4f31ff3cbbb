/// One option of a command, declared once: parsing, `--help`, completion scripts and the man page
/// check all read this declaration.
public struct OptionSpec: Sendable {
    /// Spellings, long form last: `["-o", "--output"]`.
    public var names: [String]
    /// The value's placeholder (`FILE`); nil for a flag.
    public var valueName: String?
    public var help: String
    /// Allowed values, when the option takes one of a fixed set.
    public var choices: [String] = []

    public init(names: [String], valueName: String? = nil, help: String, choices: [String] = []) {
        self.names = names
        self.valueName = valueName
        self.help = help
        self.choices = choices
    }

    /// The canonical spelling (the long one).
    public var key: String { names.last ?? "" }
}

/// A command: its name, what it does, its options and its positional arguments.
public struct CommandSpec: Sendable {
    public var name: String
    public var abstract: String
    public var options: [OptionSpec]
    /// How the positional arguments read in the synopsis (`[FILE…|-]`), empty when none.
    public var positionals: String = ""
    /// Sub-actions such as `tz windows-to-iana`, shown in help; empty when none.
    public var actions: [(name: String, synopsis: String)] = []

    public init(
        name: String, abstract: String, options: [OptionSpec], positionals: String = "",
        actions: [(name: String, synopsis: String)] = []
    ) {
        self.name = name
        self.abstract = abstract
        self.options = options
        self.positionals = positionals
        self.actions = actions
    }

    /// The one-line usage, generated from the options.
    public var synopsis: String {
        var parts = ["calport", name]
        if !actions.isEmpty { parts.append("ACTION") }
        for option in options {
            let spelling = option.names.last ?? ""
            parts.append(option.valueName.map { "[\(spelling) \($0)]" } ?? "[\(spelling)]")
        }
        if !positionals.isEmpty { parts.append(positionals) }
        return parts.joined(separator: " ")
    }

    /// `calport CMD --help` text.
    public var helpText: String {
        var text = "\(abstract)\n\nUsage: \(synopsis)\n"
        if !actions.isEmpty {
            text += "\nActions:\n"
            for action in actions { text += "  \(action.synopsis)\n" }
        }
        if !options.isEmpty {
            text += "\nOptions:\n"
            for option in options {
                var spelling = option.names.joined(separator: ", ")
                if let value = option.valueName { spelling += " \(value)" }
                var help = option.help
                if !option.choices.isEmpty { help += " (\(option.choices.joined(separator: "|")))" }
                text += "  " + spelling + String(repeating: " ", count: max(1, 27 - spelling.count)) + help + "\n"
            }
        }
        return text
    }
}

/// Options every command accepts.
public enum CommonOptions {
    public static let quiet = OptionSpec(names: ["-q", "--quiet"], help: "Print no warnings, only errors")
    public static let verbose = OptionSpec(
        names: ["-v", "--verbose"], help: "Also print notes: what was adjusted without loss")
    public static let strict = OptionSpec(
        names: ["--strict"], help: "Fail on the first warning or error, writing nothing")
    public static let help = OptionSpec(names: ["-h", "--help"], help: "Show this help")
}
