import ArgumentParsing
import CalendarConversion
import CalendarModel

/// `calport convert --out-dir`: `BatchConverter` (every input to its own output file, files in
/// parallel across cores, one bad file never stopping the rest), and a summary at the end.
struct BatchConversion {
    var arguments: ParsedArguments
    var directory: String
    /// What each input is read as; detected per file when nil.
    var requestedFormat: InputFile.Format?
    var target: OutputFormat
    var limits: InputLimits

    func run(terminal: Terminal) -> ExitStatus {
        let discovery = InputDiscovery.discover(arguments.positionals)
        if !arguments.isSet(CommonOptions.quiet) {
            for warning in discovery.warnings { terminal.writeErrorLine(warning) }
        }
        let inputs = discovery.inputs
        guard !inputs.isEmpty else {
            terminal.writeError("calport convert: error: --out-dir needs input files or directories\n")
            return .usage
        }
        var reporter = DiagnosticReporter(arguments, terminal: terminal)
        let progress = Progress.forTerminal(quiet: arguments.isSet(CommonOptions.quiet), terminal: terminal)
        let policy = reporter.policy
        var stopsOn: (@Sendable (Diagnostic) -> Bool)?
        if reporter.strict { stopsOn = { policy.isError($0, strict: true) } }
        let converter = BatchConverter(to: target, from: requestedFormat, limits: limits, stopsOn: stopsOn)
        let outcomes = converter.run(inputs, under: directory) { done in
            progress.update(filesDone: done.count, of: inputs.count, events: done.reduce(0) { $0 + $1.events })
        }
        progress.finish()
        var failed: [String] = []
        var events = 0
        for (input, outcome) in zip(inputs, outcomes) {
            _ = reporter.report(outcome.diagnostics)
            if let failure = outcome.failure {
                terminal.writeError("\(input.path): error: \(failure)\n")
            }
            events += outcome.events
            if outcome.failure != nil || outcome.dropped > 0 { failed.append(input.path) }
        }
        reporter.finish()
        terminal.writeError(
            "calport: \(inputs.count.grouped) files, \(events.grouped) events, \((reporter.warningCount + discovery.warnings.count).grouped) warnings, "
                + "\(failed.count.grouped) failed\(failed.namingTheFirst())\n")
        if outcomes.contains(where: {
            $0.failure?.hasPrefix("cannot write") == true || $0.failure?.hasPrefix("cannot read") == true
        }) {
            return .ioError
        }
        return failed.isEmpty ? .success : .dataProblem
    }
}
