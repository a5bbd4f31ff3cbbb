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
        options: [ConvertCommand.from, streaming] + CommonOptions.reporting + [CommonOptions.help],
        positionals: "[FILE…|DIR…|-]")

    static let streaming = OptionSpec(
        names: ["--stream"], help: "Check in flat memory even a small input, as inputs over 8 MiB are")

    static func run(_ arguments: ParsedArguments, terminal: Terminal) -> ExitStatus {
        var reporter = DiagnosticReporter(arguments, terminal: terminal)
        defer { reporter.finish() }
        guard let inputs = InputFile.openReporting(arguments.positionals, terminal: terminal) else { return .ioError }
        let requested = arguments.value(ConvertCommand.from).flatMap(InputFile.Format.init(rawValue:))
        var failed: [String] = []
        let limits = InputLimits()
        for input in inputs {
            let diagnostics: [Diagnostic]
            do {
                diagnostics = try check(
                    input, as: requested ?? input.detectedFormat, limits: limits,
                    scratch: ScratchSpace(under: terminal.temporaryDirectory()), streaming: arguments.isSet(streaming))
            } catch {
                terminal.writeError("\(error)\n")
                return .ioError
            }
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
    private static func check(
        _ input: InputFile, as format: InputFile.Format?, limits: InputLimits, scratch: ScratchSpace, streaming: Bool
    ) throws -> [Diagnostic] {
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
            return read.diagnostics + graphCompatibility(read.document.events, file: input.name)
        }
        if streaming || !input.isComplete { return try checkStreaming(input, limits: limits, scratch: scratch) }
        let report = ICalendarValidator().check(input.bytes, file: input.name)
        var outlook = OutlookCompatibility(defining: report.document.timeZones, file: input.name)
        outlook.check(report.document.events)
        return report.diagnostics + outlook.diagnostics + graphCompatibility(report.document.events, file: input.name)
    }

    /// An input over the streaming threshold, checked in flat memory whatever its size: read as
    /// streamed `convert` reads it (`SeriesIndex`, then `SeriesReader`, which report what reading
    /// the whole file reports), then checked component by component. Holding the document made
    /// `validate` of 1M events take 1.4 GB, and refused inputs over `--max-input-size`.
    private static func checkStreaming(_ input: InputFile, limits: InputLimits, scratch: ScratchSpace) throws
        -> [Diagnostic]
    {
        let file = try input.readable(spoolingIn: scratch)
        let index = try SeriesIndex(
            [(input.name, file)], scope: .withinFile, limits: limits.iCalendar, scratch: scratch)
        var reader = SeriesReader(index, limits: limits.iCalendar)
        var read: [Diagnostic] = []
        var outlook = OutlookCompatibility(defining: index.timeZones, file: input.name)
        var graph: [Diagnostic] = []
        while let component = reader.nextComponent() {
            read += reader.takeDiagnostics()
            guard case .event(let item) = component else { continue }
            outlook.check([item.event])
            graph += graphCompatibility([item.event], file: input.name)
        }
        read += reader.takeDiagnostics()
        let checks = ICalendarValidator().structuralChecks(
            of: file.reader(), file: input.name, limits: limits.iCalendar)
        try index.checkReads()
        return ICalendarValidator.combine(read: read, checks: checks) + outlook.diagnostics + graph
    }

    /// What Outlook would not take as it is: a TZID with no VTIMEZONE (Outlook ignores the zone;
    /// `convert` adds one), once for each zone. Graph JSON and NDJSON name zones without
    /// VTIMEZONEs, so only for .ics.
    struct OutlookCompatibility {
        private let defined: Set<String>
        private let file: String
        private var reported: Set<String> = []
        private(set) var diagnostics: [Diagnostic] = []

        init(defining zones: [TimeZoneDefinition], file: String) {
            defined = Set(zones.map(\.identifier))
            self.file = file
        }

        mutating func check(_ events: [Event]) {
            for event in events {
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
        }
    }

    /// A recurrence Graph cannot hold (`convert --to graph-post` refuses it).
    static func graphCompatibility(_ events: [Event], file: String) -> [Diagnostic] {
        events.compactMap { event in
            guard event.recurrenceID.isNil, var refusal = event.graphRecurrenceRefusal else { return nil }
            refusal.severity = .warning
            refusal.location = SourceLocation(file: file)
            refusal.message = refusal.message.replacingOccurrences(
                of: "; the series is left out", with: " (convert --to graph-post refuses it)")
            return refusal
        }
    }
}
