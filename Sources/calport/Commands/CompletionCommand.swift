import ArgumentParsing

/// `calport completion bash|zsh|fish`: shell completion generated from the command declarations,
/// so that it always offers exactly the options the parser accepts.
enum CompletionCommand {
    static let spec = CommandSpec(
        name: "completion", abstract: "Print a shell completion script (bash, zsh or fish).",
        options: [CommonOptions.help], positionals: "bash|zsh|fish",
        positionalCompletion: .choices([("bash", ""), ("zsh", ""), ("fish", "")]))

    static func run(_ arguments: ParsedArguments, terminal: Terminal, commands: [CommandSpec]) -> ExitStatus {
        guard arguments.positionals.count == 1, let shell = arguments.positionals.first else {
            terminal.writeError("calport completion: error: expected one shell: bash, zsh or fish\n")
            return .usage
        }
        let scripts = CompletionScripts(commands: commands)
        let script: String
        switch shell {
        case "bash": script = scripts.bash
        case "zsh": script = scripts.zsh
        case "fish": script = scripts.fish
        default:
            terminal.writeError("calport completion: error: unknown shell '\(shell)'; expected bash, zsh or fish\n")
            return .usage
        }
        terminal.write(Array(script.utf8))
        return .success
    }
}
