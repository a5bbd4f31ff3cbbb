import ArgumentParsing
import CalendarModel
import Foundation
import GraphEvents
import ICalendar

/// `calport validate`: reports every RFC 5545 problem in each file, file:line first.
enum ValidateCommand {
    static let spec = CommandSpec(
        name: "validate",
        abstract: "Check calendars against RFC 5545, Outlook and Graph, and report each problem with its line.",
        options: [CommonOptions.strict, CommonOptions.quiet, CommonOptions.help], positionals: "FILE…")

    static func run(_ arguments: ParsedArguments, terminal: Terminal) -> ExitStatus {
        guard let inputs = InputFile.openReporting(arguments.positionals, terminal: terminal) else { return .ioError }
        let strict = arguments.isSet(CommonOptions.strict)
        let quiet = arguments.isSet(CommonOptions.quiet)
        var failed = 0
        let limits = InputLimits()
        for input in inputs {
            // `bytes` is only the first chunk of a large file; validation needs all of it.
            let diagnostics: [Diagnostic]
            if let bytes = input.completeBytes(limit: limits.maximumInputSize) {
                let report = ICalendarValidator().check(bytes, file: input.name)
                diagnostics = report.diagnostics + compatibility(report.document, file: input.name)
            } else {
                diagnostics = [limits.inputTooLarge(input.name)]
            }
            let errors = diagnostics.filter { $0.severity == .error || (strict && $0.severity == .warning) }
            for diagnostic in diagnostics where !quiet || errors.contains(diagnostic) {
                terminal.writeError(diagnostic.description + "\n")
            }
            let warnings = diagnostics.count - errors.count
            if !errors.isEmpty { failed += 1 }
            if !quiet {
                let verdict = errors.isEmpty ? "valid" : "invalid"
                terminal.write(
                    Array("\(input.name): \(verdict) (\(errors.count) errors, \(warnings) warnings)\n".utf8))
            }
        }
        return failed > 0 ? .dataProblem : .success
    }

    /// What Outlook and Graph would not take as it is: a TZID with no VTIMEZONE (Outlook ignores the
    /// zone; `convert` adds one) and a recurrence Graph cannot hold (`convert --to graph-post` refuses it).
    static func compatibility(_ document: CalendarDocument, file: String) -> [Diagnostic] {
        let defined = Set(document.timeZones.map(\.identifier))
        var reported: Set<String> = []
        var diagnostics: [Diagnostic] = []
        for event in document.events {
            for case .zoned(_, let zone) in [event.start, event.recurrenceID?.time].compactMap({ $0 })
            where !defined.contains(zone.name) && reported.insert(zone.name).inserted {
                diagnostics.append(
                    Diagnostic(
                        .warning, code: "outlook-missing-vtimezone",
                        message:
                            "TZID '\(zone.name)' has no VTIMEZONE; Outlook reads such times in its own zone (calport convert adds one)",
                        location: SourceLocation(file: file), uid: event.uid))
            }
            if event.recurrenceID == nil, var refusal = event.graphRecurrenceRefusal {
                refusal.severity = .warning
                refusal.location = SourceLocation(file: file)
                refusal.message = refusal.message.replacingOccurrences(
                    of: "; the series is left out", with: " (convert --to graph-post refuses it)")
                diagnostics.append(refusal)
            }
        }
        return diagnostics
    }
}
