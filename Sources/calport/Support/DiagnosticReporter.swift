import ArgumentParsing
import CalendarConversion
import CalendarModel

/// Prints diagnostics the way compilers do, the first few of each code and then only a count, and
/// decides what they mean for the exit status.
struct DiagnosticReporter {
    var quiet: Bool
    var strict: Bool
    /// Whether notes (facts that lose nothing, such as a DTSTART moved to the first occurrence) are
    /// shown, and every diagnostic of a code rather than the first few.
    var verbose: Bool
    var policy: DiagnosticPolicy
    let terminal: Terminal
    private(set) var errorCount = 0
    private(set) var warningCount = 0
    /// How many of one code are printed before the rest are only counted (all of them with `--verbose`).
    static let shownPerCode = 5
    private var printed: [String: Int] = [:]
    /// For each code shown, how many of each severity, and the files they were found in.
    private var tally: [String: (severities: [Severity: Int], files: Set<String>)] = [:]
    /// The codes with diagnostics counted but not printed, in the order they first were.
    private var withheld: [String] = []

    init(
        quiet: Bool, strict: Bool, verbose: Bool = false, policy: DiagnosticPolicy = DiagnosticPolicy(),
        terminal: Terminal
    ) {
        self.quiet = quiet
        self.strict = strict
        self.verbose = verbose
        self.policy = policy
        self.terminal = terminal
    }

    /// A reporter set by the common options `--quiet`, `--strict`, `--verbose` and `-W`, and by the
    /// config file (which `CalportCLI` has checked before the command runs).
    init(_ arguments: ParsedArguments, terminal: Terminal) {
        self.init(
            quiet: arguments.isSet(CommonOptions.quiet), strict: arguments.isSet(CommonOptions.strict),
            verbose: arguments.isSet(CommonOptions.verbose),
            policy: (try? DiagnosticPolicy(arguments, environment: terminal.environment)) ?? DiagnosticPolicy(),
            terminal: terminal)
    }

    /// Whether every defect of the input counts: `--strict`, or a code raised to an error. A command
    /// that could leave part of its input unread then reads it all.
    var needsEveryDefect: Bool { strict || policy.raisesAnyToError }

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
        for original in diagnostics {
            guard var diagnostic = policy.apply(original) else { continue }
            if strict && diagnostic.severity == .warning { diagnostic.severity = .error }
            switch diagnostic.severity {
            case .error: errorCount += 1
            case .warning: warningCount += 1
            case .note: break
            }
            if diagnostic.severity == .error || (!quiet && (diagnostic.severity == .warning || verbose)) {
                show(diagnostic)
            }
            if strict && diagnostic.severity == .error { return diagnostic }
        }
        return nil
    }

    private mutating func show(_ diagnostic: Diagnostic) {
        let code = diagnostic.code
        tally[code, default: ([:], [])].severities[diagnostic.severity, default: 0] += 1
        if let file = diagnostic.location.file { tally[code]?.files.insert(file) }
        guard !verbose && printed[code, default: 0] >= Self.shownPerCode else {
            printed[code, default: 0] += 1
            terminal.writeError(diagnostic.description.escapingControlCharacters + "\n")
            return
        }
        if printed[code] == Self.shownPerCode && !withheld.contains(code) { withheld.append(code) }
    }

    /// One line for each code of which more were found than printed, with the count, when the run
    /// has reported everything; said once, however often called.
    mutating func finish() {
        defer { withheld.removeAll() }
        for code in withheld {
            guard let (severities, files) = tally[code] else { continue }
            let total = severities.values.reduce(0, +)
            let kinds = [Severity.error, .warning, .note].compactMap { severity in
                severities[severity].map { "\($0.grouped) \(severity)\($0 == 1 ? "" : "s")" }
            }
            let place = files.count > 1 ? " in \(files.count.grouped) files" : ""
            terminal.writeError(
                "calport: \(total.grouped) × \(code) (\(kinds.joined(separator: ", ")))\(place), "
                    + "the first \(printed[code, default: 0]) shown; --verbose lists each\n")
        }
    }
}

/// Which input each event came from, so that what writing finds (which knows only the event's UID)
/// names its file.
struct EventOrigins {
    /// Each file's name and its events' UIDs, in the order noted. The table from UID to file is made
    /// when there are diagnostics to place and more than one file: made for every event read, it
    /// was 1,700 instructions an event, and one file is every event's.
    private var files: [(name: String, uids: [String])] = []

    /// Notes the events read from `file`; a UID read from several files is said to be the first's.
    mutating func note(_ events: [Event], from file: String) {
        files.append((file, events.map(\.uid)))
    }

    /// The diagnostics, each without a file given the file of its UID (or the only input).
    func locate(_ diagnostics: [Diagnostic]) -> [Diagnostic] {
        guard !diagnostics.isEmpty else { return diagnostics }
        let onlyFile = files.count == 1 ? files[0].name : nil
        var fileOfUID: [String: String] = [:]
        if onlyFile == nil {
            for file in files {
                for uid in file.uids where fileOfUID[uid] == nil { fileOfUID[uid] = file.name }
            }
        }
        return diagnostics.map { diagnostic in
            var diagnostic = diagnostic
            diagnostic.location.file = diagnostic.location.file ?? diagnostic.uid.flatMap { fileOfUID[$0] } ?? onlyFile
            return diagnostic
        }
    }
}

extension Array where Element == String {
    /// The files, the first few by name, for a summary: `: a.ics, b.json and 3 more`; empty for none.
    func namingTheFirst(_ shown: Int = 5) -> String {
        guard !isEmpty else { return "" }
        return ": " + prefix(shown).joined(separator: ", ")
            + (count > shown ? " and \((count - shown).grouped) more" : "")
    }
}
