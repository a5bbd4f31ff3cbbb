import ArgumentParsing
import CalendarModel
import Foundation

/// How loud each diagnostic code is: calport's own defaults for routine losses, then the config
/// file's `[diagnostics]` section, then `-W CODE=LEVEL` on the command line, the later winning.
struct DiagnosticPolicy: Sendable {
    /// What a code is shown as; `off` hides it and leaves it out of every count.
    enum Level: String, CaseIterable, Sendable {
        case off, note, warning, error
    }

    /// Losses every conversion to Graph has and nobody can act on, notes unless `--strict`
    /// (docs/mapping.md, "What is a warning").
    static let routineLosses: [String: Level] = ["graph-sequence-lost": .note]

    private var levels: [String: Level] = [:]

    /// No levels changed: every diagnostic as its producer rated it.
    init() {}

    /// Whether some code is raised to an error, which any line of the input may produce.
    var raisesAnyToError: Bool { levels.values.contains(.error) }

    /// The levels in force: routine losses demoted (unless `strict`), then `configured`, then `commandLine`.
    init(strict: Bool, configured: [String: Level], commandLine: [String: Level]) {
        if !strict { levels = Self.routineLosses }
        levels.merge(configured) { $1 }
        levels.merge(commandLine) { $1 }
    }

    /// The policy for a run: the config file in `environment`'s XDG config directory and the
    /// command's `-W` options; a malformed file or option is a usage error naming it.
    init(_ arguments: ParsedArguments, environment: [String: String]) throws(UsageError) {
        var commandLine: [String: Level] = [:]
        for setting in arguments.values(CommonOptions.diagnosticLevel) {
            let (code, level) = try Self.setting(setting, source: "-W")
            commandLine[code] = level
        }
        self.init(
            strict: arguments.isSet(CommonOptions.strict),
            configured: try Self.configured(at: Self.configPath(environment)), commandLine: commandLine)
    }

    /// The diagnostic as this policy shows it; nil when its code is off.
    func apply(_ diagnostic: Diagnostic) -> Diagnostic? {
        guard let level = levels[diagnostic.code] else { return diagnostic }
        var shown = diagnostic
        switch level {
        case .off: return nil
        case .note: shown.severity = .note
        case .warning: shown.severity = .warning
        case .error: shown.severity = .error
        }
        return shown
    }

    /// Whether the diagnostic stops a `--strict` run (or counts as an error) once rated by this policy.
    func isError(_ diagnostic: Diagnostic, strict: Bool) -> Bool {
        guard let rated = apply(diagnostic) else { return false }
        return rated.severity == .error || (strict && rated.severity == .warning)
    }

    /// `$XDG_CONFIG_HOME/calport/config`, or `~/.config/calport/config`, beside the token cache.
    static func configPath(_ environment: [String: String]) -> String {
        let base =
            environment["XDG_CONFIG_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? (environment["HOME"] ?? NSHomeDirectory()) + "/.config"
        return base + "/calport/config"
    }

    /// The `[diagnostics]` section of the config file (`code = level` lines, `#` comments); none
    /// when there is no file.
    static func configured(at path: String) throws(UsageError) -> [String: Level] {
        guard let data = FileManager.default.contents(atPath: path) else { return [:] }
        var levels: [String: Level] = [:]
        var section = ""
        for (index, rawLine) in String(decoding: data, as: UTF8.self).split(
            separator: "\n", omittingEmptySubsequences: false
        ).enumerated() {
            let line = rawLine.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)[0]
                .trimmingCharacters(in: .whitespaces)
            if line.isEmpty { continue }
            if line.hasPrefix("[") && line.hasSuffix("]") {
                section = String(line.dropFirst().dropLast()).trimmingCharacters(in: .whitespaces)
                guard section == "diagnostics" else {
                    throw UsageError(
                        message: "\(path):\(index + 1): unknown section [\(section)]; expected [diagnostics]")
                }
                continue
            }
            guard section == "diagnostics" else {
                throw UsageError(message: "\(path):\(index + 1): expected [diagnostics] before '\(line)'")
            }
            let (code, level) = try setting(
                line.replacingOccurrences(of: " ", with: ""), source: "\(path):\(index + 1)")
            levels[code] = level
        }
        return levels
    }

    /// `CODE=LEVEL`, as `-W` and the config file spell it.
    private static func setting(_ text: String, source: String) throws(UsageError) -> (String, Level) {
        let parts = text.split(separator: "=", maxSplits: 1).map(String.init)
        let expected = Level.allCases.map(\.rawValue).joined(separator: "|")
        guard parts.count == 2, !parts[0].isEmpty, let level = Level(rawValue: parts[1].lowercased()) else {
            throw UsageError(message: "\(source): expected CODE=\(expected), found '\(text)'")
        }
        return (parts[0], level)
    }
}
