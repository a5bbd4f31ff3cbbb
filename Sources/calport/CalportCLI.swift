import ArgumentParsing
import CalendarModel
import Foundation

/// The `calport` command line: dispatches to a command and turns its outcome into an exit status.
enum CalportCLI {
    static let version = CalportVersion.current

    /// Every command, in the order help lists them.
    static var commands: [CommandSpec] { table.map { $0.spec() } }

    /// A command: its spec, made the first time it is asked for, and what runs it.
    private struct Command: Sendable {
        let spec: @Sendable () -> CommandSpec
        let run: @Sendable (ParsedArguments, Terminal) -> ExitStatus
    }

    /// The commands in help's order. A run makes the spec of the one it runs and of those listed
    /// before it, not all ten (`expand`'s, with its list of fields, was 340,000 instructions, a
    /// fortieth of converting one event).
    private static let table: [Command] = [
        Command(spec: { ConvertCommand.spec }, run: { ConvertCommand.run($0, terminal: $1) }),
        Command(spec: { ExpandCommand.spec }, run: { ExpandCommand.run($0, terminal: $1) }),
        Command(spec: { ValidateCommand.spec }, run: { ValidateCommand.run($0, terminal: $1) }),
        Command(spec: { TZCommand.spec }, run: { TZCommand.run($0, terminal: $1, currentYear: currentYear) }),
        Command(spec: { ExportCommand.spec }, run: { ExportCommand.run($0, terminal: $1) }),
        Command(spec: { ImportCommand.spec }, run: { ImportCommand.run($0, terminal: $1) }),
        Command(spec: { CalendarsCommand.spec }, run: { CalendarsCommand.run($0, terminal: $1) }),
        Command(spec: { LoginCommand.spec }, run: { LoginCommand.run($0, terminal: $1) }),
        Command(spec: { LogoutCommand.spec }, run: { LogoutCommand.run($0, terminal: $1) }),
        Command(spec: { CompletionCommand.spec }, run: { CompletionCommand.run($0, terminal: $1, commands: commands) }),
    ]

    /// The command `name` names, with its spec made.
    private static func command(named name: String) -> (spec: CommandSpec, command: Command)? {
        for command in table {
            let spec = command.spec()
            if spec.name == name { return (spec, command) }
        }
        return nil
    }

    static var helpText: String {
        var text = "calport \(version): move calendar events between Microsoft Graph JSON and iCalendar.\n\n"
        text += "Usage: calport COMMAND [OPTIONS] [FILE…]\n\nCommands:\n"
        // Names and abstracts two spaces apart at least, in one column.
        let rows = commands.map { ($0.name, $0.abstract) } + [("help CMD", "Show the help of a command")]
        let width = (rows.map(\.0.count).max() ?? 0) + 2
        for (name, abstract) in rows {
            text += "  " + name.padding(toLength: width, withPad: " ", startingAt: 0) + abstract + "\n"
        }
        text += "\nSee calport(1) for exit statuses, environment and examples.\n"
        return text
    }

    /// The current year in UTC, the default for year ranges.
    static var currentYear: Int {
        LocalDateTime(secondsSinceEpoch: Int(Date().timeIntervalSince1970)).date.year
    }

    static func run(_ arguments: [String], terminal: Terminal = Terminal()) -> ExitStatus {
        guard let first = arguments.first else {
            terminal.writeError(helpText)
            return .usage
        }
        switch first {
        case "--help", "-h":
            terminal.write(Array(helpText.utf8))
            return .success
        case "--version":
            terminal.write(Array("calport \(version)\n".utf8))
            return .success
        case "help":
            guard let name = arguments.dropFirst().first else {
                terminal.write(Array(helpText.utf8))
                return .success
            }
            guard let command = command(named: name) else {
                terminal.writeError("calport: error: unknown command '\(name)'\n")
                return .usage
            }
            terminal.write(Array(command.spec.helpText.utf8))
            return .success
        default:
            break
        }
        guard let (spec, command) = command(named: first) else {
            terminal.writeError(
                "calport: error: unknown command '\(first)'; expected one of: \(commands.map(\.name).joined(separator: ", "))\n"
            )
            return .usage
        }
        let parsed: ParsedArguments
        do {
            parsed = try ArgumentParser.parse(Array(arguments.dropFirst()), spec: spec)
        } catch {
            terminal.writeError("calport \(spec.name): error: \(error.message)\nUsage: \(spec.synopsis)\n")
            return .usage
        }
        if parsed.isSet(CommonOptions.help) {
            terminal.write(Array(spec.helpText.utf8))
            return .success
        }
        if spec.options.contains(where: { $0.key == CommonOptions.diagnosticLevel.key }) {
            // Checked here once, so that a command's reporter can take the policy as given.
            do {
                _ = try DiagnosticPolicy(parsed, environment: terminal.environment)
            } catch {
                terminal.writeError("calport \(spec.name): error: \(error.message)\n")
                return .usage
            }
        }
        return command.run(parsed, terminal)
    }
}
