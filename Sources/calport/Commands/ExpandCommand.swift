import ArgumentParsing
import CalendarModel
import ICalendar

/// `calport expand`: lists every occurrence of the input events in a window, as Graph's calendarView does.
enum ExpandCommand {
    static let start = OptionSpec(
        names: ["--start"], valueName: "DATE", help: "Window start: YYYY-MM-DD or YYYY-MM-DDTHH:MM[:SS][Z|±HH:MM]")
    static let end = OptionSpec(names: ["--end"], valueName: "DATE", help: "Window end (exclusive), same forms")
    static let zone = OptionSpec(
        names: ["--tz"], valueName: "ZONE",
        help: "Zone to show times in and to read floating times, dates and the window in (default UTC)")
    static let format = OptionSpec(
        names: ["--format"], valueName: "FORMAT", help: "Output format (default ndjson)",
        choices: OccurrenceFormat.allCases.map(\.rawValue))
    static let cap = OptionSpec(
        names: ["--max-occurrences"], valueName: "N",
        help: "At most N occurrences per series, reported when reached; 0 for no limit (default 100000)")

    static let spec = CommandSpec(
        name: "expand", abstract: "List every occurrence of recurring events in a window.",
        options: [
            start, end, zone, format, cap, CommonOptions.strict, CommonOptions.quiet, CommonOptions.verbose,
            CommonOptions.help,
        ],
        positionals: "[FILE…|-]")

    static func run(_ arguments: ParsedArguments, terminal: Terminal) -> ExitStatus {
        let window: ExpandWindow
        let limit: Int?
        do throws(UsageError) {
            guard let from = arguments.value(start), let to = arguments.value(end) else {
                throw UsageError(message: "--start and --end are required")
            }
            window = try ExpandWindow(start: from, end: to, zone: arguments.value(zone))
            limit = try maximumOccurrences(arguments.value(cap))
        } catch {
            terminal.writeError("calport expand: error: \(error.message)\nUsage: \(spec.synopsis)\n")
            return .usage
        }
        var reporter = DiagnosticReporter(arguments, terminal: terminal)
        guard let inputs = InputFile.openReporting(arguments.positionals, terminal: terminal) else { return .ioError }
        var documents: [(name: String, document: CalendarDocument)] = []
        var dropped = 0
        for input in inputs {
            guard input.detectedFormat == .iCalendar else {
                terminal.writeError("\(input.name):1: error: expected iCalendar data starting with BEGIN:VCALENDAR\n")
                dropped += 1
                continue
            }
            let read = CalendarInput.read(input, as: .iCalendar, limits: InputLimits())
            if reporter.stops(read.diagnostics) { return .dataProblem }
            dropped += read.dropped
            documents.append((input.name, read.document))
        }
        let outputFormat = OccurrenceFormat(rawValue: arguments.value(format) ?? "ndjson") ?? .ndjson
        var output = BufferedOutput(terminal: terminal)
        var zones: [TimeZoneDefinition] = []
        for (_, document) in documents {
            zones += document.timeZones.filter { zone in !zones.contains { $0.identifier == zone.identifier } }
        }
        output.append(outputFormat.header(timeZones: zones))
        for (name, document) in documents {
            var occurrences = DocumentOccurrences(
                document: document, window: window.window, floating: window.clock,
                options: ExpansionOptions(maximumOccurrencesPerSeries: limit))
            while let occurrence = occurrences.next() {
                output.append { outputFormat.write(occurrence, clock: window.clock, into: &$0) }
            }
            let located = occurrences.diagnostics.map { diagnostic in
                var diagnostic = diagnostic
                diagnostic.location.file = diagnostic.location.file ?? name
                return diagnostic
            }
            output.flush()
            // Occurrences before this point are already out: there is nothing to say about the rest.
            if reporter.stops(located, consequence: nil) { return .dataProblem }
        }
        output.append(outputFormat.footer)
        output.flush()
        return dropped > 0 || reporter.errorCount > 0 ? .dataProblem : .success
    }

    /// `--max-occurrences`: a positive cap, 0 for none, 100000 when not given.
    private static func maximumOccurrences(_ text: String?) throws(UsageError) -> Int? {
        guard let text else { return 100_000 }
        guard let value = Int(text), value >= 0 else {
            throw UsageError(message: "--max-occurrences expects a whole number, found '\(text)'")
        }
        return value == 0 ? nil : value
    }
}
