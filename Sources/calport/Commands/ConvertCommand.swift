import ArgumentParsing
import CalendarConversion
import CalendarModel
import GraphEvents
import ICalendar

/// `calport convert`: reads calendars and writes them in another (or the same) format.
enum ConvertCommand {
    static let from = OptionSpec(
        names: ["--from"], valueName: "FORMAT", help: "Input format; auto detects it from the content",
        choices: ["auto", "ics", "graph", "ndjson"],
        descriptions: [
            "auto": "detect from the content", "ics": "iCalendar (RFC 5545)", "graph": "Microsoft Graph event JSON",
            "ndjson": "calport's NDJSON, an event a line",
        ])
    static let to = OptionSpec(
        names: ["--to"], valueName: "FORMAT", help: "Output format (default ics)",
        choices: ["ics", "graph", "graph-post", "ndjson"],
        descriptions: [
            "ics": "iCalendar (RFC 5545)", "graph": "Graph events as the service returns them",
            "graph-post": "bodies for POST /me/events", "ndjson": "calport's NDJSON, an event a line",
        ])
    static let output = OptionSpec(
        names: ["-o", "--output"], valueName: "FILE", help: "Write to FILE (atomically) instead of stdout")
    static let streaming = OptionSpec(
        names: ["--stream"], help: "Stream component by component even for small inputs (added VTIMEZONEs come last)")
    static let expandUnsupported = OptionSpec(
        names: ["--expand-unsupported"], valueName: "START/END",
        help: "With --to graph or graph-post: write series Graph cannot hold as single events in this window")
    static let outputDirectory = OptionSpec(
        names: ["--out-dir"], valueName: "DIR",
        help: "Convert each input to its own file under DIR, keeping relative paths")

    static let spec = CommandSpec(
        name: "convert", abstract: "Convert calendars between iCalendar and Microsoft Graph event JSON.",
        options: [
            from, to, output, outputDirectory, streaming, expandUnsupported, ExpandCommand.cap,
        ] + InputLimits.options + CommonOptions.reporting + [CommonOptions.help],
        positionals: "[FILE…|-]")

    static func run(_ arguments: ParsedArguments, terminal: Terminal) -> ExitStatus {
        let limits: InputLimits
        do {
            limits = try InputLimits(arguments)
        } catch {
            terminal.writeError("calport convert: error: \(error.message)\n")
            return .usage
        }
        if let directory = arguments.value(outputDirectory) {
            guard arguments.value(output) == nil else {
                terminal.writeError("calport convert: error: use either -o FILE or --out-dir DIR, not both\n")
                return .usage
            }
            return BatchConversion(
                arguments: arguments, directory: directory,
                requestedFormat: arguments.value(from).flatMap(InputFile.Format.init(rawValue:)),
                target: OutputFormat(rawValue: arguments.value(to) ?? "ics") ?? .iCalendar, limits: limits
            ).run(terminal: terminal)
        }
        var reporter = DiagnosticReporter(arguments, terminal: terminal)
        defer { reporter.finish() }
        guard let inputs = InputFile.openReporting(arguments.positionals, terminal: terminal) else { return .ioError }
        var formats: [InputFile.Format] = []
        var readable: [InputFile] = []
        for input in inputs {
            let requested = arguments.value(from).flatMap(InputFile.Format.init(rawValue:))
            guard let format = requested ?? input.detectedFormat else {
                terminal.writeError(
                    "\(input.name):1: error: \(InputFile.unrecognisedFormat)\n"
                )
                continue
            }
            formats.append(format)
            readable.append(input)
        }
        // With nothing to convert, an existing output file is left as it was.
        guard !readable.isEmpty else { return .dataProblem }
        var target = OutputFormat(rawValue: arguments.value(to) ?? "ics") ?? .iCalendar
        if let text = arguments.value(expandUnsupported) {
            let parts = text.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
            do throws(UsageError) {
                guard parts.count == 2, target == .graph || target == .graphPost else {
                    throw UsageError(message: "--expand-unsupported expects START/END and --to graph or graph-post")
                }
                target.expansion = try ExpandWindow(start: parts[0], end: parts[1], zone: nil).window
                // The same cap as `calport expand`: a SECONDLY series is not written as millions of events.
                target.expansionOptions = ExpansionOptions(
                    maximumOccurrencesPerSeries: try ExpandCommand.maximumOccurrences(
                        arguments.value(ExpandCommand.cap)))
            } catch {
                terminal.writeError("calport convert: error: \(error.message)\n")
                return .usage
            }
        }
        let destination: OutputDestination
        do {
            destination = try OutputDestination(
                path: arguments.value(output), holdUntilDone: arguments.isSet(CommonOptions.strict), terminal: terminal)
        } catch {
            terminal.writeError(error.description + "\n")
            return .ioError
        }
        let dropped: Int?
        let streams = !readable.allSatisfy(\.isComplete) || arguments.isSet(streaming)
        if streams {
            do {
                dropped = try streamSeries(
                    zip(readable, formats).map { $0 }, to: target, destination, limits: limits, reporter: &reporter)
            } catch {
                destination.abandon()
                terminal.writeError("\(error)\n")
                return .ioError
            }
        } else {
            dropped = convertWhole(
                zip(readable, formats).map { $0 }, to: target, destination, limits: limits, reporter: &reporter)
        }
        if let failed = destination.conclude(ranToEnd: dropped != nil) { return failed }
        return dropped ?? 0 > 0 || reporter.errorCount > 0 || readable.count < inputs.count ? .dataProblem : .success
    }

    /// Converts inputs read whole; returns how many components were dropped, or nil when `--strict` stopped.
    private static func convertWhole(
        _ inputs: [(InputFile, InputFile.Format)], to target: OutputFormat, _ destination: OutputDestination,
        limits: InputLimits, reporter: inout DiagnosticReporter
    ) -> Int? {
        var merged = CalendarDocument()
        var places: [SourceLocation] = []
        // Which input each event is in: two inputs may have one name (`convert a.json a.json`).
        var inputOf: [Int] = []
        var dropped = 0
        var origins = EventOrigins()
        for (number, (input, format)) in inputs.enumerated() {
            let read = CalendarInput.read(input, as: format, limits: limits)
            if reporter.stops(read.diagnostics) { return nil }
            if reporter.stops(target.leftOut(read.document.otherComponents.map(\.name), file: input.name)) {
                return nil
            }
            dropped += read.dropped
            origins.note(read.document.events, from: input.name)
            places += read.locations
            inputOf += read.locations.map { _ in number }
            merged.merge(read.document)
        }
        // One output holds one version of each event: `convert a.ics a.ics` does not double them.
        // Two versions in one file were resolved, and reported with their lines, as it was read, so
        // one input has nothing left to resolve.
        if inputs.count > 1 {
            let versions = EventVersions.resolve(merged.events)
            let acrossFiles = versions.conflicts.filter { inputOf[$0.earlier] != inputOf[$0.later] }
            if reporter.stops(
                acrossFiles.map {
                    EventVersions.diagnostic(
                        $0, of: merged.events[$0.later], earlier: places[$0.earlier], later: places[$0.later])
                })
            {
                return nil
            }
            merged.events = versions.kept.map { merged.events[$0] }
        }
        if readOnlyErrors(merged.isEmpty, reporter) { return nil }
        if noEvents(merged.events.isEmpty && !merged.otherComponents.isEmpty, target, reporter) { return nil }
        let written = target.write(merged.handedOver())
        if reporter.stops(origins.locate(written.diagnostics)) { return nil }
        destination.write(written.bytes)
        return dropped
    }

    /// Whether nothing but errors was read, said once: such a run writes nothing, since an existing
    /// output file is better left as it was than emptied.
    fileprivate static func readOnlyErrors(_ nothingRead: Bool, _ reporter: DiagnosticReporter) -> Bool {
        guard nothingRead && reporter.errorCount > 0 else { return false }
        reporter.terminal.writeError("calport: nothing could be read; nothing was written\n")
        return true
    }

    /// Whether a target that holds events only got none (the input had only to-dos, journals…), said
    /// once: writing an empty Graph page or nothing with exit status 0 would hide that nothing came over.
    fileprivate static func noEvents(
        _ onlyOtherComponents: Bool, _ target: OutputFormat, _ reporter: DiagnosticReporter
    )
        -> Bool
    {
        guard onlyOtherComponents && target.kind != .iCalendar else { return false }
        reporter.terminal.writeError(
            "calport: the input holds no events for --to \(target.kind.rawValue); nothing was written\n")
        return true
    }
}

extension ConvertCommand {
    /// Converts inputs with flat memory, in two passes: the first (`SeriesIndex`) notes the
    /// VTIMEZONEs and where each series' members are (mapping Graph JSON and NDJSON to a scratch
    /// file), the second writes each series whole where its first member is (Graph JSON), or each
    /// event and other component where it is (iCalendar, NDJSON), one version of each event
    /// (issue #18), so the output holds what `convertWhole` writes.
    private static func streamSeries(
        _ inputs: [(InputFile, InputFile.Format)], to target: OutputFormat, _ destination: OutputDestination,
        limits: InputLimits, reporter: inout DiagnosticReporter
    ) throws -> Int? {
        let scratch = ScratchSpace(under: reporter.terminal.temporaryDirectory())
        let index = try SeriesIndex(
            inputs.map { ($0.name, try $0.readable(spoolingIn: scratch), $1) }, scope: .acrossFiles,
            limits: limits.iCalendar, jsonLimits: limits.json, scratch: scratch)
        let conversion = StreamedConversion(index: index, target: target, limits: limits)
        var output = EntryOutput(target, header: conversion.header, timeZones: index.timeZones)
        // iCalendar is written as it is read, the inputs' VTIMEZONEs first, those added at the end.
        var calendar = ICalendarStreamWriter(sink: destination.write)
        if target.kind == .iCalendar {
            for zone in index.timeZones { calendar.write(.timeZone(zone), header: conversion.header) }
        }
        let second = conversion.secondHalf(scratch: scratch)
        var reader = SeriesReader(
            index, limits: limits.iCalendar, jsonLimits: limits.json, half: second == nil ? nil : .first)
        let progress = Progress.forTerminal(quiet: reporter.quiet, terminal: reporter.terminal)
        let totalBytes = reader.totalBytes
        defer { progress.finish() }
        var counts = StreamedConversion.Counts()
        let finished = conversion.convert(
            &reader, &calendar, &output, write: destination.write,
            progress: { read in
                progress.update(
                    bytes: read.bytes + (second?.state.bytes ?? 0), of: totalBytes,
                    events: read.events + (second?.state.events ?? 0))
            },
            report: { reporter.stops($0) })
        guard finished else {
            second?.state.cancel()
            return nil
        }
        counts.add(reader)
        if let second {
            guard
                try conversion.appendSecondHalf(
                    second, after: reader, &calendar, &output, to: destination, counts: &counts,
                    report: { reporter.stops($0) })
            else { return nil }
        }
        try index.checkReads()
        for (file, names) in counts.otherComponents.enumerated() {
            if reporter.stops(target.leftOut(names, file: index.files[file].name)) { return nil }
        }
        if readOnlyErrors(counts.componentsRead == 0, reporter) { return nil }
        if noEvents(counts.eventsRead == 0 && counts.otherComponents.contains { !$0.isEmpty }, target, reporter) {
            return nil
        }
        if target.kind == .iCalendar {
            calendar.finish(header: conversion.header)
        } else {
            destination.write(output.finish())
        }
        return counts.droppedComponents
    }
}
