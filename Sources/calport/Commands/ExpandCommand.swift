import ArgumentParsing
import CalendarConversion
import CalendarModel
import Foundation
import ICalendar

/// `calport expand`: lists every occurrence of the input events in a window, as Graph's calendarView does.
enum ExpandCommand {
    static let start = OptionSpec(
        names: ["--start"], valueName: "DATE", help: "Window start: \(ExpandWindow.forms)",
        completion: .choices([("today", ""), ("tomorrow", ""), ("yesterday", ""), ("+7d", "a week from today")]))
    static let end = OptionSpec(
        names: ["--end"], valueName: "DATE", help: "Window end (exclusive), same forms",
        completion: .choices([("tomorrow", ""), ("+7d", "a week from today"), ("+4w", "four weeks from today")]))
    static let zone = OptionSpec(
        names: ["--tz"], valueName: "ZONE",
        help: "Zone to show times in and to read floating times, dates and the window in (default UTC)",
        completion: ZoneNameCompletion.all)
    static let format = OptionSpec(
        names: ["--format"], valueName: "FORMAT", help: "Output format (default ndjson)",
        choices: OccurrenceFormat.allCases.map(\.rawValue),
        descriptions: Dictionary(uniqueKeysWithValues: OccurrenceFormat.allCases.map { ($0.rawValue, $0.summary) }))
    static let cap = OptionSpec(
        names: ["--max-occurrences"], valueName: "N",
        help: "At most N occurrences per series, reported when reached; 0 for no limit (default 100000)")

    static let streaming = OptionSpec(
        names: ["--stream"],
        help: "Expand with flat memory (through sorted runs in $TMPDIR) even for small inputs, as for large ones")

    static let fields = OptionSpec(
        names: ["--fields"], valueName: "LIST",
        help: "Fields for table, csv and ndjson, comma-separated: "
            + OccurrenceField.allCases.map(\.rawValue).joined(separator: ","),
        completion: .choices(OccurrenceField.allCases.map { ($0.rawValue, $0.summary) }))
    static let outputDirectory = OptionSpec(
        names: ["--out-dir"], valueName: "DIR",
        help: "Expand each input to its own file under DIR, keeping relative paths", completion: .directories)

    static let spec = CommandSpec(
        name: "expand", abstract: "List every occurrence of recurring events in a window.",
        options: [
            start, end, zone, format, fields, cap, ConvertCommand.from, ConvertCommand.output, outputDirectory,
            streaming,
        ] + CommonOptions.reporting + [CommonOptions.help],
        positionals: "[FILE…|DIR…|-]")

    /// What one expansion run is asked for, whatever its inputs and output.
    private struct Request {
        var window: ExpandWindow
        var options: ExpansionOptions
        var layout: OccurrenceLayout
        /// What inputs are read as; detected per input when nil.
        var inputFormat: InputFile.Format?
        var streams: Bool
        /// How much of each VEVENT is read: all of it for `--format ics`, whose occurrences are the
        /// whole event, and when every defect counts (`--strict`, a code raised to an error).
        var reading: EventReading
    }

    static func run(_ arguments: ParsedArguments, terminal: Terminal) -> ExitStatus {
        let window: ExpandWindow
        let limit: Int?
        let chosen: [OccurrenceField]?
        let outputFormat = OccurrenceFormat(rawValue: arguments.value(format) ?? "ndjson") ?? .ndjson
        do throws(UsageError) {
            guard let from = arguments.value(start), let to = arguments.value(end) else {
                throw UsageError(message: "--start and --end are required")
            }
            window = try ExpandWindow(start: from, end: to, zone: arguments.value(zone))
            limit = try maximumOccurrences(arguments.value(cap))
            chosen = try arguments.value(fields).map(OccurrenceField.list)
            if chosen != nil && [.ics, .agenda].contains(outputFormat) {
                throw UsageError(message: "--fields applies to --format table, csv and ndjson")
            }
        } catch {
            terminal.writeError("calport expand: error: \(error.message)\nUsage: \(spec.synopsis)\n")
            return .usage
        }
        var reporter = DiagnosticReporter(arguments, terminal: terminal)
        defer { reporter.finish() }
        let request = Request(
            window: window, options: ExpansionOptions(maximumOccurrencesPerSeries: limit),
            layout: OccurrenceLayout(format: outputFormat, fields: chosen, zoneName: arguments.value(zone) ?? "UTC"),
            inputFormat: arguments.value(ConvertCommand.from).flatMap(InputFile.Format.init(rawValue:)),
            streams: arguments.isSet(streaming),
            reading: outputFormat == .ics || reporter.needsEveryDefect ? .whole : .listing)
        guard let directory = arguments.value(outputDirectory) else {
            return expand(
                arguments.positionals, to: arguments.value(ConvertCommand.output), named: true, request, &reporter)
        }
        guard arguments.value(ConvertCommand.output) == nil else {
            terminal.writeError("calport expand: error: use either -o FILE or --out-dir DIR, not both\n")
            return .usage
        }
        let discovery = InputDiscovery.discover(arguments.positionals)
        for warning in discovery.warnings { terminal.writeErrorLine(warning) }
        let inputs = discovery.inputs
        guard !inputs.isEmpty else {
            terminal.writeError("calport expand: error: --out-dir needs input files or directories\n")
            return .usage
        }
        var status = ExitStatus.success
        let plan = OutputPlan(inputs, under: directory, extension: request.layout.format.fileExtension)
        for (input, entry) in zip(inputs, plan.entries) {
            guard case .write(let path) = entry else {
                if case .refused(let reason) = entry { terminal.writeError("\(input.path): error: \(reason)\n") }
                if status == .success { status = .dataProblem }
                if reporter.strict { break }
                continue
            }
            do {
                try FileManager.default.createDirectory(
                    atPath: path.parentDirectory, withIntermediateDirectories: true)
            } catch {
                terminal.writeError("\(path): error: cannot write: \(error.localizedDescription)\n")
                return .ioError
            }
            let outcome = expand([input.path], to: path, named: false, request, &reporter)
            if outcome.rawValue > status.rawValue { status = outcome }
            if reporter.strict && outcome != .success { break }
        }
        return status
    }

    /// Expands the inputs into one output (a file written atomically, or standard output); `named`
    /// says the user named the output, which may then be a device or a FIFO.
    private static func expand(
        _ paths: [String], to path: String?, named: Bool, _ request: Request, _ reporter: inout DiagnosticReporter
    ) -> ExitStatus {
        let terminal = reporter.terminal
        guard let inputs = InputFile.openReporting(paths, terminal: terminal) else { return .ioError }
        var formats: [InputFile.Format] = []
        var readable: [InputFile] = []
        for input in inputs {
            guard let format = request.inputFormat ?? input.detectedFormat else {
                terminal.writeError(
                    "\(input.name):1: error: \(InputFile.unrecognisedFormat)\n"
                )
                continue
            }
            formats.append(format)
            readable.append(input)
        }
        let destination: OutputDestination
        do {
            destination = try OutputDestination(path: path, named: named, holdUntilDone: false, terminal: terminal)
        } catch {
            terminal.writeError(error.description + "\n")
            return .ioError
        }
        let outcome: ExitStatus?
        // Large .ics inputs stream with flat memory; Graph JSON and NDJSON are read whole.
        if formats.allSatisfy({ $0 == .iCalendar }) && (!readable.allSatisfy(\.isComplete) || request.streams) {
            do {
                outcome = try stream(readable, request, destination, reporter: &reporter)
            } catch {
                destination.abandon()
                terminal.writeError("\(error)\n")
                return .ioError
            }
        } else {
            outcome = expandWhole(zip(readable, formats).map { $0 }, request, destination, reporter: &reporter)
        }
        if let failed = destination.conclude(ranToEnd: outcome != nil) { return failed }
        return readable.count < inputs.count ? .dataProblem : outcome ?? .dataProblem
    }

    /// Expands inputs read whole into the model; nil when `--strict` stopped.
    private static func expandWhole(
        _ inputs: [(InputFile, InputFile.Format)], _ request: Request, _ destination: OutputDestination,
        reporter: inout DiagnosticReporter
    ) -> ExitStatus? {
        let window = request.window
        let layout = request.layout
        var documents: [(name: String, document: CalendarDocument)] = []
        var dropped = 0
        for (input, format) in inputs {
            let read = CalendarInput.read(input, as: format, limits: InputLimits(), reading: request.reading)
            if reporter.stops(read.diagnostics) { return nil }
            dropped += read.dropped
            documents.append((input.name, read.document))
        }
        var zones: [TimeZoneDefinition] = []
        for (_, document) in documents {
            zones += document.timeZones.filter { zone in !zones.contains { $0.identifier == zone.identifier } }
        }
        let writer = OccurrenceWriter(
            layout: layout, output: BufferedOutput(destination, writesAside: false), clock: window.clock)
        writer.append(layout.header(timeZones: zones))
        for (name, document) in documents {
            var occurrences = DocumentOccurrences(
                document: document, window: window.window, floating: window.clock,
                options: request.options)
            writer.send(&occurrences)
            writer.flush()
            // Occurrences before this point are already out: there is nothing to say about the rest.
            if reporter.stops(occurrences.diagnostics.located(in: name), consequence: nil) { return nil }
        }
        writer.append(layout.footer)
        writer.flush()
        return dropped > 0 || reporter.errorCount > 0 ? .dataProblem : .success
    }

    /// Expands with flat memory: a first pass (`SeriesIndex`) notes each file's VTIMEZONEs and where
    /// each series' members are; the second expands series by series into an `ExternalSorter` keyed by
    /// (file, start, series), whose merge writes what `DocumentOccurrences` would, in the same order,
    /// each file's expansion diagnostics after its occurrences as when read whole. A single input cut
    /// in halves has its second pass in two parts at once (`ExpansionPart`).
    private static func stream(
        _ calendars: [InputFile], _ request: Request, _ destination: OutputDestination,
        reporter: inout DiagnosticReporter
    ) throws -> ExitStatus? {
        let terminal = reporter.terminal
        let scratch = ScratchSpace(under: terminal.temporaryDirectory())
        let limits = InputLimits().iCalendar
        let index = try SeriesIndex(
            calendars.map { ($0.name, try $0.readable(spoolingIn: scratch)) }, scope: .withinFile, limits: limits,
            scratch: scratch)
        let zones = index.files.map { file in
            ExpansionZones(
                timeZones: file.timeZones, timeZoneHint: file.header.timeZoneHint, years: file.years,
                floating: request.window.clock)
        }
        func part(_ half: SeriesReader.Half?, firstSeries: Int64) -> ExpansionPart {
            ExpansionPart(
                reader: SeriesReader(index, limits: limits, half: half, reading: request.reading), zones: zones,
                // Two parts fill both cores: each sorts and writes its own runs.
                sorter: ExternalSorter(scratch: scratch, spillsAside: half == nil), firstSeries: firstSeries,
                layout: request.layout, window: request.window, options: request.options)
        }
        var second: ExpansionHalf?
        if let cut = index.halvesCut, let held = try? scratch.create("diagnostics") {
            second = ExpansionHalf(
                part(.second, firstSeries: ExpansionPart.secondPartSeries), cut: cut,
                diagnostics: HeldDiagnostics(held))
        }
        var expansion = part(second == nil ? nil : .first, firstSeries: 0)
        let progress = Progress.forTerminal(quiet: reporter.quiet, terminal: terminal)
        let totalBytes = expansion.reader.totalBytes
        defer { progress.finish() }
        // Stopped (by `--strict`) or failed (writing a run), the second half is not wanted: its
        // thread is stopped, and waited for, before the run ends.
        func stopSecondHalf() {
            second?.state.cancel()
            _ = try? second?.wait()
        }
        let finished: Bool
        do {
            finished = try expansion.run(
                progress: { bytes, events in
                    progress.update(
                        bytes: bytes + (second?.state.bytes ?? 0), of: totalBytes,
                        events: events + (second?.state.events ?? 0))
                },
                report: { reporter.stops($0) })
        } catch {
            stopSecondHalf()
            throw error
        }
        guard finished else {
            stopSecondHalf()
            return nil
        }
        var dropped = expansion.reader.droppedComponents
        if let half = try second?.wait() {
            second = nil
            guard try half.diagnostics.replay({ reporter.stops($0) }) else { return nil }
            let unresolved = SeriesReader.unresolvedZones(
                first: expansion.reader.unresolvedZones, second: half.part.reader.unresolvedZones)
            if reporter.stops(unresolved) { return nil }
            dropped += half.part.reader.droppedComponents
            try expansion.adopt((consume half).part)
        }
        try index.checkReads()
        var layout = request.layout
        var output = BufferedOutput(destination)
        output.append(layout.header(timeZones: index.timeZones))
        var finishedFiles = 0
        var stopped = false
        // Says what expanding the files before `file` found, once their occurrences are out.
        func finishFiles(before file: Int) {
            while finishedFiles < file && !stopped {
                let found =
                    expansion.zones[finishedFiles].diagnostics
                    + expansion.notes[finishedFiles].sorted { $0.order < $1.order }.flatMap(\.diagnostics)
                output.flush()
                // Occurrences before this point are already out: there is nothing to say about the rest.
                stopped = reporter.stops(found.located(in: index.files[finishedFiles].name), consequence: nil)
                finishedFiles += 1
            }
        }
        var records = try expansion.takeSorted()
        var file = 0
        while try records.advance() {
            if records.key.first != file {
                file = Int(records.key.first)
                finishFiles(before: file)
                if stopped { break }
            }
            output.append { bytes in records.withRecord { layout.append(record: $0, to: &bytes) } }
        }
        finishFiles(before: index.files.count)
        if stopped { return nil }
        output.append(layout.footer)
        output.flush()
        return dropped > 0 || reporter.errorCount > 0 ? .dataProblem : .success
    }

    /// `--max-occurrences`: a positive cap, 0 for none, 100000 when not given.
    static func maximumOccurrences(_ text: String?) throws(UsageError) -> Int? {
        guard let text else { return 100_000 }
        guard let value = Int(text), value >= 0 else {
            throw UsageError(message: "--max-occurrences expects a whole number, found '\(text)'")
        }
        return value == 0 ? nil : value
    }
}
