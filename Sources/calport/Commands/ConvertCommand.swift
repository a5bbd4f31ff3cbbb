import CalendarModel
import ICalendar

/// `calport convert`: reads calendars and writes them in another (or the same) format.
enum ConvertCommand {
    static let from = OptionSpec(
        names: ["--from"], valueName: "FORMAT", help: "Input format; auto detects it from the content",
        choices: ["auto", "ics"])
    static let to = OptionSpec(names: ["--to"], valueName: "FORMAT", help: "Output format", choices: ["ics"])
    static let output = OptionSpec(
        names: ["-o", "--output"], valueName: "FILE", help: "Write to FILE (atomically) instead of stdout")
    static let outputDirectory = OptionSpec(
        names: ["--out-dir"], valueName: "DIR",
        help: "Convert each input to its own file under DIR, keeping relative paths")

    static let spec = CommandSpec(
        name: "convert", abstract: "Convert calendars between iCalendar and Microsoft Graph event JSON.",
        options: [from, to, output, outputDirectory, CommonOptions.strict, CommonOptions.quiet, CommonOptions.help],
        positionals: "[FILE…|-]")

    static func run(_ arguments: ParsedArguments, terminal: Terminal) -> ExitStatus {
        if let directory = arguments.value(outputDirectory) {
            guard arguments.value(output) == nil else {
                terminal.writeError("calport convert: error: use either -o FILE or --out-dir DIR, not both\n")
                return .usage
            }
            return BatchConversion(arguments: arguments, directory: directory).run(terminal: terminal)
        }
        var reporter = DiagnosticReporter(
            quiet: arguments.isSet(CommonOptions.quiet), strict: arguments.isSet(CommonOptions.strict),
            terminal: terminal)
        let inputs: [InputFile]
        do {
            inputs = try InputFile.read(arguments.positionals, terminal: terminal)
        } catch {
            terminal.writeError(error.message + "\n")
            return .ioError
        }
        var merged = CalendarDocument()
        var dropped = 0
        for input in inputs {
            if arguments.value(from) != "ics", input.detectedFormat != .iCalendar {
                terminal.writeError("\(input.name):1: error: expected iCalendar data starting with BEGIN:VCALENDAR\n")
                dropped += 1
                continue
            }
            let result = ICalendarParser().parse(input.bytes, file: input.name)
            if let stop = reporter.report(result.diagnostics) {
                terminal.writeError("calport: stopped by --strict at \(stop.location); nothing was written\n")
                return .dataProblem
            }
            dropped += result.droppedComponents
            merged.merge(result.document)
        }
        let bytes = ICalendarSerializer().serialize(merged)
        if let path = arguments.value(output) {
            do {
                try AtomicFile.write(bytes, to: path)
            } catch {
                terminal.writeError(error.description + "\n")
                return .ioError
            }
        } else {
            terminal.writeOutput(bytes)
        }
        return dropped > 0 || reporter.errorCount > 0 ? .dataProblem : .success
    }
}

extension CalendarDocument {
    /// Adds another calendar's content; the first calendar's properties win, zones are kept once per TZID.
    mutating func merge(_ other: CalendarDocument) {
        if events.isEmpty && timeZones.isEmpty && otherComponents.isEmpty && extraProperties.isEmpty {
            productID = productID ?? other.productID
            method = method ?? other.method
            name = name ?? other.name
            timeZoneHint = timeZoneHint ?? other.timeZoneHint
            extraProperties = other.extraProperties
        }
        let known = Set(timeZones.map(\.identifier))
        timeZones += other.timeZones.filter { !known.contains($0.identifier) }
        events += other.events
        otherComponents += other.otherComponents
    }
}
