import ArgumentParsing
import CalendarModel

/// Prints diagnostics the way compilers do and decides what they mean for the exit status.
struct DiagnosticReporter {
    var quiet: Bool
    var strict: Bool
    /// Whether notes (facts that lose nothing, such as a DTSTART moved to the first occurrence) are shown.
    var verbose: Bool
    let terminal: Terminal
    private(set) var errorCount = 0
    private(set) var warningCount = 0

    init(quiet: Bool, strict: Bool, verbose: Bool = false, terminal: Terminal) {
        self.quiet = quiet
        self.strict = strict
        self.verbose = verbose
        self.terminal = terminal
    }

    /// A reporter set by the common options `--quiet`, `--strict` and `--verbose`.
    init(_ arguments: ParsedArguments, terminal: Terminal) {
        self.init(
            quiet: arguments.isSet(CommonOptions.quiet), strict: arguments.isSet(CommonOptions.strict),
            verbose: arguments.isSet(CommonOptions.verbose), terminal: terminal)
    }

    /// Reports diagnostics and whether `--strict` stops the run there, saying where and, when given,
    /// what that means (`nothing was written`).
    mutating func stops(_ diagnostics: [Diagnostic], consequence: String? = "nothing was written") -> Bool {
        guard let stop = report(diagnostics) else { return false }
        terminal.writeError(
            "calport: stopped by --strict at \(stop.location)" + (consequence.map { "; \($0)" } ?? "") + "\n")
        return true
    }

    /// Reports diagnostics; in strict mode returns the first one that must stop the run.
    mutating func report(_ diagnostics: [Diagnostic]) -> Diagnostic? {
        for var diagnostic in diagnostics {
            if strict && diagnostic.severity == .warning { diagnostic.severity = .error }
            switch diagnostic.severity {
            case .error: errorCount += 1
            case .warning: warningCount += 1
            case .note: break
            }
            if diagnostic.severity == .error || (!quiet && (diagnostic.severity == .warning || verbose)) {
                terminal.writeError(diagnostic.description + "\n")
            }
            if strict && diagnostic.severity == .error { return diagnostic }
        }
        return nil
    }
}
