import ArgumentParsing
import CalendarConversion
import CalendarModel
import GraphEvents
import GraphService
import ICalendar

/// `calport export`: reads a window of a Graph calendar and writes it as iCalendar or Graph JSON.
enum ExportCommand {
    static let start = OptionSpec(
        names: ["--start"], valueName: "DATE", help: "Window start: YYYY-MM-DD or ISO 8601 (UTC without offset)")
    static let end = OptionSpec(names: ["--end"], valueName: "DATE", help: "Window end, exclusive")
    static let calendar = OptionSpec(
        names: ["--calendar"], valueName: "NAME|ID", help: "Calendar name or id (default: the default calendar)",
        completion: CalendarNameCompletion.names)
    static let zone = OptionSpec(
        names: ["--tz"], valueName: "ZONE", help: "Zone for the times (default: the mailbox's time zone)",
        completion: ZoneNameCompletion.all)
    static let format = OptionSpec(
        names: ["--format"], valueName: "FORMAT", help: "Output format", choices: ["ics", "graph"])
    static let instances = OptionSpec(names: ["--instances"], help: "Flat occurrences instead of series with overrides")
    static let output = OptionSpec(
        names: ["-o", "--output"], valueName: "FILE", help: "Write to FILE (atomically) instead of stdout")

    static let spec = CommandSpec(
        name: "export", abstract: "Export a window of a Microsoft Graph calendar.",
        options: [start, end, calendar, zone, format, instances, output, ServiceOptions.user, ServiceOptions.tokenFile]
            + ServiceOptions.all + ServiceOptions.appOnly + [
                CommonOptions.quiet, CommonOptions.verbose, CommonOptions.diagnosticLevel, CommonOptions.help,
            ])

    static func run(_ arguments: ParsedArguments, terminal: Terminal) -> ExitStatus {
        guard let startText = arguments.value(start), let endText = arguments.value(end) else {
            terminal.writeError("calport export: error: --start and --end are required\nUsage: \(spec.synopsis)\n")
            return .usage
        }
        let output = SharedOutput(terminal)
        let client: GraphClient
        do {
            client = try ServiceOptions.client(arguments, output: output)
        } catch {
            terminal.writeError("calport export: error: \(error)\n")
            return ServiceOptions.exitStatus(error)
        }
        let window = ExportRequest(
            start: startText, end: endText, calendarID: nil, timeZone: arguments.value(zone),
            instances: arguments.isSet(instances), keepValues: arguments.value(format) == "graph")
        let calendarName = arguments.value(calendar)
        let progress = Progress.forTerminal(quiet: arguments.isSet(CommonOptions.quiet), terminal: terminal)
        let exporter = CalendarExporter(client: client) { step in
            if step.viewRead {
                progress.update(
                    done: step.seriesRead, of: step.seriesTotal, "series",
                    prefix: "\(step.occurrences.grouped) events; ")
            } else {
                progress.update(reading: step.occurrences, "events")
            }
        }
        let result = ServiceOptions.wait { () -> Result<ExportResult, GraphServiceError> in
            do throws(GraphServiceError) {
                var request = window
                if let calendarName {
                    request.calendarID = try await MailboxCalendars(client: client).resolve(calendarName).id
                }
                return .success(try await exporter.export(request))
            } catch {
                return .failure(error)
            }
        }
        progress.finish()
        switch result {
        case .failure(let error):
            terminal.writeError("calport export: error: \(ServiceOptions.explain(error))\n")
            return ServiceOptions.exitStatus(error)
        case .success(let exported):
            var reporter = DiagnosticReporter(arguments, terminal: terminal)
            _ = reporter.report(exported.diagnostics)
            reporter.finish()
            let bytes: [UInt8]
            if arguments.value(format) == "graph" {
                bytes = Array((JSONWriter(pretty: true).string(["value": .array(exported.values)]) + "\n").utf8)
            } else {
                bytes = ICalendarSerializer().serialize(CalendarDocument(events: exported.events))
            }
            if let path = arguments.value(self.output) {
                do {
                    try AtomicFile.write(bytes, to: path)
                } catch {
                    terminal.writeError(error.description + "\n")
                    return .ioError
                }
            } else {
                terminal.write(bytes)
            }
            return reporter.errorCount > 0 ? .dataProblem : .success
        }
    }
}
