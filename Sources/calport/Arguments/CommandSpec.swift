/// One option of a command, declared once: parsing, `--help`, completion scripts and the man page
/// check all read this declaration.
struct OptionSpec: Sendable {
    /// Spellings, long form last: `["-o", "--output"]`.
    var names: [String]
    /// The value's placeholder (`FILE`); nil for a flag.
    var valueName: String?
    var help: String
    /// Allowed values, when the option takes one of a fixed set.
    var choices: [String] = []

    /// The canonical spelling (the long one).
    var key: String { names.last ?? "" }
}

/// A command: its name, what it does, its options and its positional arguments.
struct CommandSpec: Sendable {
    var name: String
    var abstract: String
    var options: [OptionSpec]
    /// How the positional arguments read in the synopsis (`[FILE…|-]`), empty when none.
    var positionals: String = ""
    /// Sub-actions such as `tz windows-to-iana`, shown in help; empty when none.
    var actions: [(name: String, synopsis: String)] = []

    /// The one-line usage, generated from the options.
    var synopsis: String {
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
    var helpText: String {
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
                text += "  " + spelling.padding(toLength: 26, withPad: " ", startingAt: 0) + " " + help + "\n"
            }
        }
        return text
    }
}

/// Options every command accepts.
enum CommonOptions {
    static let quiet = OptionSpec(names: ["-q", "--quiet"], help: "Print no warnings, only errors")
    static let strict = OptionSpec(names: ["--strict"], help: "Fail on the first warning or error, writing nothing")
    static let help = OptionSpec(names: ["-h", "--help"], help: "Show this help")
}
