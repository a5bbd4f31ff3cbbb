import ArgumentParsing
import CalendarConversion
import CalendarModel
import Foundation
import GraphEvents
import ICalendar

/// `calport validate`: reports every problem in each file once, file:line first: RFC 5545 for
/// iCalendar, what reading finds for Graph JSON and NDJSON, and for all what Outlook and Graph refuse.
enum ValidateCommand {
    static let spec = CommandSpec(
        name: "validate",
        abstract: "Check calendars against RFC 5545, Outlook and Graph, and report each problem with its line.",
        options: [ConvertCommand.from] + CommonOptions.reporting + [CommonOptions.help],
        positionals: "[FILE…|DIR…|-]")

    static func run(_ arguments: ParsedArguments, terminal: Terminal) -> ExitStatus {
        var reporter = DiagnosticReporter(arguments, terminal: terminal)
        defer { reporter.finish() }
        guard let inputs = InputFile.openReporting(arguments.positionals, terminal: terminal) else { return .ioError }
        let requested = arguments.value(ConvertCommand.from).flatMap(InputFile.Format.init(rawValue:))
        var failed: [String] = []
        let limits = InputLimits()
        for input in inputs {
            let diagnostics = check(input, as: requested ?? input.detectedFormat, limits: limits)
            let rated = diagnostics.compactMap(reporter.policy.apply)
            let errors = rated.count { reporter.policy.isError($0, strict: reporter.strict) }
            // Under --strict a warning is an error (and stops the run below).
            let warnings = reporter.strict ? 0 : rated.count { $0.severity == .warning }
            if reporter.stops(diagnostics, consequence: inputs.count > 1 ? "the files after it were not checked" : nil)
            {
                return .dataProblem
            }
            if errors > 0 { failed.append(input.name) }
            if !reporter.quiet {
                let verdict = errors == 0 ? "valid" : "invalid"
                terminal.write(Array("\(input.name): \(verdict) (\(errors) errors, \(warnings) warnings)\n".utf8))
            }
        }
        reporter.finish()
        if inputs.count > 1 {
            terminal.writeError(
                "calport: \(inputs.count.grouped) files, \(failed.count.grouped) invalid\(failed.namingTheFirst())\n")
        }
        return failed.isEmpty ? .success : .dataProblem
    }

    /// Everything found in one input, in line order.
    private static func check(_ input: InputFile, as format: InputFile.Format?, limits: InputLimits) -> [Diagnostic] {
        guard let format else {
            return [
                Diagnostic(
                    .error, code: "unknown-format",
                    message: InputFile.unrecognisedFormat,
                    location: SourceLocation(file: input.name, line: 1))
            ]
        }
        guard format == .iCalendar else {
            let read = CalendarInput.read(input, as: format, limits: limits)
            return read.diagnostics + graphCompatibility(read.document, file: input.name)
        }
        // `bytes` is only the first chunk of a large file; validation needs all of it.
        guard let bytes = input.completeBytes(limit: limits.maximumInputSize) else {
            return [limits.inputTooLarge(input.name)]
        }
        let report = ICalendarValidator().check(bytes, file: input.name)
        return report.diagnostics + outlookCompatibility(report.document, file: input.name)
            + graphCompatibility(report.document, file: input.name)
    }

    /// What Outlook would not take as it is: a TZID with no VTIMEZONE (Outlook ignores the zone;
    /// `convert` adds one). Graph JSON and NDJSON name zones without VTIMEZONEs, so only for .ics.
    static func outlookCompatibility(_ document: CalendarDocument, file: String) -> [Diagnostic] {
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
        }
        return diagnostics
    }

    /// A recurrence Graph cannot hold (`convert --to graph-post` refuses it).
    static func graphCompatibility(_ document: CalendarDocument, file: String) -> [Diagnostic] {
        document.events.compactMap { event in
            guard event.recurrenceID == nil, var refusal = event.graphRecurrenceRefusal else { return nil }
            refusal.severity = .warning
            refusal.location = SourceLocation(file: file)
            refusal.message = refusal.message.replacingOccurrences(
                of: "; the series is left out", with: " (convert --to graph-post refuses it)")
            return refusal
        }
    }
}
