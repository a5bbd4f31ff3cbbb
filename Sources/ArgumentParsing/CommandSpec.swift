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
    /// What a shell offers for the value; by default the choices, files for a `FILE`, directories
    /// for a `DIR`, else nothing.
    public var completion: ValueCompletion
    /// Whether the option may be given more than once, each value kept (`-W A=off -W B=error`).
    public var repeatable: Bool

    /// `descriptions` says what choices mean, for shells that show it (zsh, fish).
    public init(
        names: [String], valueName: String? = nil, help: String, choices: [String] = [],
        descriptions: [String: String] = [:], completion: ValueCompletion? = nil, repeatable: Bool = false
    ) {
        self.names = names
        self.valueName = valueName
        self.help = help
        self.choices = choices
        self.completion =
            completion
            ?? (!choices.isEmpty
                ? .choices(choices.map { ($0, descriptions[$0] ?? "") })
                : valueName == "FILE" ? .files : valueName == "DIR" ? .directories : .none)
        self.repeatable = repeatable
    }

    /// The canonical spelling (the long one).
    public var key: String { names.last ?? "" }
}

/// What a shell completes an option's value (or a command's positional arguments) with.
public enum ValueCompletion: Sendable {
    case files
    case directories
    /// Nothing to offer: a number, a date, free text.
    case none
    /// Fixed words, each with a description (empty when the word says it all).
    case choices([(word: String, description: String)])
    /// A long list of words the completion script defines once under `name` (zone names), made
    /// only when a script is generated.
    case wordList(name: String, words: @Sendable () -> [String])
    /// The lines the program itself prints, run with these arguments when the user presses Tab
    /// (calendar names, which only Graph knows); nothing when it fails.
    case command([String])

    /// The words offered, without their descriptions.
    public var words: [String] {
        if case .choices(let choices) = self { return choices.map(\.word) }
        return []
    }
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
    /// What a shell completes positional arguments with (after the action, if any).
    public var positionalCompletion: ValueCompletion

    public init(
        name: String, abstract: String, options: [OptionSpec], positionals: String = "",
        actions: [(name: String, synopsis: String)] = [], positionalCompletion: ValueCompletion = .files
    ) {
        self.name = name
        self.abstract = abstract
        self.options = options
        self.positionals = positionals
        self.actions = actions
        self.positionalCompletion = positionalCompletion
    }

    /// The one-line usage, generated from the options.
    public var synopsis: String {
        var parts = ["calport", name]
        if !actions.isEmpty { parts.append("ACTION") }
        for option in options {
            let spelling = option.names.last ?? ""
            let repeats = option.repeatable ? "…" : ""
            parts.append(option.valueName.map { "[\(spelling) \($0)\(repeats)]" } ?? "[\(spelling)]")
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
                // A spelling too long for its column puts the description on a line of its own,
                // so that the two never run together.
                let column = 28
                let separator =
                    spelling.count + 2 < column
                    ? String(repeating: " ", count: column - spelling.count)
                    : "\n" + String(repeating: " ", count: column + 2)
                text += "  " + spelling + separator + help + "\n"
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
    public static let diagnosticLevel = OptionSpec(
        names: ["-W", "--diagnostic"], valueName: "CODE=LEVEL",
        help: "Show diagnostics of CODE as LEVEL: off, note, warning or error (repeatable; over the config file)",
        completion: ValueCompletion.none, repeatable: true)
    public static let help = OptionSpec(names: ["-h", "--help"], help: "Show this help")
    /// The options that set what is reported and what stops a run, in the order help lists them.
    public static let reporting = [strict, quiet, verbose, diagnosticLevel]
}
