import ArgumentParsing
import CalendarModel
import ICalendar

/// `calport validate`: reports every RFC 5545 problem in each file, file:line first.
enum ValidateCommand {
    static let spec = CommandSpec(
        name: "validate", abstract: "Check calendars against RFC 5545 and report each problem with its line.",
        options: [CommonOptions.strict, CommonOptions.quiet, CommonOptions.help], positionals: "FILE…")

    static func run(_ arguments: ParsedArguments, terminal: Terminal) -> ExitStatus {
        let inputs: [InputFile]
        do {
            inputs = try InputFile.open(arguments.positionals, terminal: terminal)
        } catch {
            terminal.writeError(error.message + "\n")
            return .ioError
        }
        let strict = arguments.isSet(CommonOptions.strict)
        let quiet = arguments.isSet(CommonOptions.quiet)
        var failed = 0
        let limits = InputLimits()
        for input in inputs {
            // `bytes` is only the first chunk of a large file; validation needs all of it.
            let whole = input.completeBytes(limit: limits.maximumInputSize)
            let diagnostics =
                whole.map { ICalendarValidator().validate($0, file: input.name) } ?? [limits.inputTooLarge(input.name)]
            let errors = diagnostics.filter { $0.severity == .error || (strict && $0.severity == .warning) }
            for diagnostic in diagnostics where !quiet || errors.contains(diagnostic) {
                terminal.writeError(diagnostic.description + "\n")
            }
            let warnings = diagnostics.count - errors.count
            if !errors.isEmpty { failed += 1 }
            if !quiet {
                let verdict = errors.isEmpty ? "valid" : "invalid"
                terminal.writeOutput(
                    Array("\(input.name): \(verdict) (\(errors.count) errors, \(warnings) warnings)\n".utf8))
            }
        }
        return failed > 0 ? .dataProblem : .success
    }
}
