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

    static let streaming = OptionSpec(
        names: ["--stream"],
        help: "Expand with flat memory (through sorted runs in $TMPDIR) even for small inputs, as for large ones")

    static let spec = CommandSpec(
        name: "expand", abstract: "List every occurrence of recurring events in a window.",
        options: [
            start, end, zone, format, cap, streaming, CommonOptions.strict, CommonOptions.quiet, CommonOptions.verbose,
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
        let outputFormat = OccurrenceFormat(rawValue: arguments.value(format) ?? "ndjson") ?? .ndjson
        let options = ExpansionOptions(maximumOccurrencesPerSeries: limit)
        if !inputs.allSatisfy(\.isComplete) || arguments.isSet(streaming) {
            do {
                return try stream(inputs, window: window, options: options, format: outputFormat, reporter: &reporter)
            } catch {
                terminal.writeError("\(error)\n")
                return .ioError
            }
        }
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
        var output = BufferedOutput(terminal: terminal)
        var zones: [TimeZoneDefinition] = []
        for (_, document) in documents {
            zones += document.timeZones.filter { zone in !zones.contains { $0.identifier == zone.identifier } }
        }
        output.append(outputFormat.header(timeZones: zones))
        for (name, document) in documents {
            var occurrences = DocumentOccurrences(
                document: document, window: window.window, floating: window.clock,
                options: options)
            while let occurrence = occurrences.next() {
                output.append { outputFormat.write(occurrence, clock: window.clock, into: &$0) }
            }
            output.flush()
            // Occurrences before this point are already out: there is nothing to say about the rest.
            if reporter.stops(located(occurrences.diagnostics, in: name), consequence: nil) { return .dataProblem }
        }
        output.append(outputFormat.footer)
        output.flush()
        return dropped > 0 || reporter.errorCount > 0 ? .dataProblem : .success
    }

    /// Expands with flat memory: a first pass (`SeriesIndex`) notes each file's VTIMEZONEs and where
    /// each series' members are; the second expands series by series into an `ExternalSorter` keyed by
    /// (file, start, series), whose merge writes what `DocumentOccurrences` would, in the same order,
    /// each file's expansion diagnostics after its occurrences as when read whole.
    private static func stream(
        _ inputs: [InputFile], window: ExpandWindow, options: ExpansionOptions, format: OccurrenceFormat,
        reporter: inout DiagnosticReporter
    ) throws -> ExitStatus {
        let terminal = reporter.terminal
        var dropped = 0
        let calendars = inputs.filter { input in
            guard input.detectedFormat == .iCalendar else {
                terminal.writeError("\(input.name):1: error: expected iCalendar data starting with BEGIN:VCALENDAR\n")
                dropped += 1
                return false
            }
            return true
        }
        let scratch = ScratchSpace(under: terminal.temporaryDirectory())
        let limits = InputLimits().iCalendar
        let index = try SeriesIndex(
            calendars.map { ($0.name, try $0.readable(spoolingIn: scratch)) }, scope: .withinFile, limits: limits,
            scratch: scratch)
        var zones = index.files.map { file in
            ExpansionZones(
                timeZones: file.timeZones, timeZoneHint: file.header.timeZoneHint, years: file.years,
                floating: window.clock)
        }
        // Series diagnostics come out as DocumentOccurrences gives them: those of series without
        // occurrences first, then each series' when its last occurrence is listed.
        var notes = index.files.map { _ in [(order: ExternalSorter.Key, diagnostics: [Diagnostic])]() }
        var seriesCount = index.files.map { _ in 0 }
        var sorter = ExternalSorter(scratch: scratch)
        var reader = SeriesReader(index, limits: limits)
        var record: [UInt8] = []
        while let item = reader.next() {
            if reporter.stops(reader.takeDiagnostics()) { return .dataProblem }
            zones[item.file].add(item.event)
            guard let series = item.series else { continue }
            var seriesZones = zones[item.file]
            for member in (series.master.map { [$0] } ?? []) + series.overrides { seriesZones.add(member) }
            let ordinal = Int64(seriesCount[item.file])
            seriesCount[item.file] += 1
            var occurrences = SeriesOccurrences(
                series: series, window: window.window, zones: seriesZones, options: options)
            var last: Int?
            while let occurrence = occurrences.next() {
                record.removeAll(keepingCapacity: true)
                format.write(occurrence, clock: window.clock, into: &record)
                try sorter.append(
                    ExternalSorter.Key(Int64(item.file), Int64(occurrence.startInstant), ordinal), record)
                last = occurrence.startInstant
            }
            if !occurrences.diagnostics.isEmpty {
                let order = ExternalSorter.Key(last == nil ? 0 : 1, Int64(last ?? 0), ordinal)
                notes[item.file].append((order, occurrences.diagnostics))
            }
        }
        if reporter.stops(reader.takeDiagnostics()) { return .dataProblem }
        try index.checkReads()
        dropped += reader.droppedComponents
        var output = BufferedOutput(terminal: terminal)
        output.append(format.header(timeZones: index.timeZones))
        var finished = 0
        var stopped = false
        // Says what expanding the files before `file` found, once their occurrences are out.
        func finishFiles(before file: Int) {
            while finished < file && !stopped {
                let found =
                    zones[finished].diagnostics + notes[finished].sorted { $0.order < $1.order }.flatMap(\.diagnostics)
                output.flush()
                // Occurrences before this point are already out: there is nothing to say about the rest.
                stopped = reporter.stops(located(found, in: index.files[finished].name), consequence: nil)
                finished += 1
            }
        }
        try sorter.drain { key, record in
            finishFiles(before: Int(key.first))
            guard !stopped else { return false }
            output.append { $0.append(contentsOf: record) }
            return true
        }
        finishFiles(before: index.files.count)
        if stopped { return .dataProblem }
        output.append(format.footer)
        output.flush()
        return dropped > 0 || reporter.errorCount > 0 ? .dataProblem : .success
    }

    /// Expansion diagnostics with the file they are about.
    private static func located(_ diagnostics: [Diagnostic], in name: String) -> [Diagnostic] {
        diagnostics.map { diagnostic in
            var diagnostic = diagnostic
            diagnostic.location.file = diagnostic.location.file ?? name
            return diagnostic
        }
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
