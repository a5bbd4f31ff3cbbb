import ArgumentParsing
import CalendarConversion
import Foundation
import GraphEvents
import GraphService

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
        names: ["--format"], valueName: "FORMAT", help: "Output format", choices: ["ics", "graph", "ndjson"],
        descriptions: [
            "ics": "iCalendar (RFC 5545)", "graph": "Graph events as the service returns them",
            "ndjson": "calport's NDJSON, an event a line; with --delta, a change record a line",
        ])
    static let delta = OptionSpec(
        names: ["--delta"], valueName: "STATE",
        help: "Keep the export current: read only what changed since the run that wrote STATE")
    static let instances = OptionSpec(names: ["--instances"], help: "Flat occurrences instead of series with overrides")
    static let output = OptionSpec(
        names: ["-o", "--output"], valueName: "FILE", help: "Write to FILE (atomically) instead of stdout")
    static let attachmentsDirectory = OptionSpec(
        names: ["--attachments-dir"], valueName: "DIR",
        help: "Write attached files into DIR, referenced by relative ATTACH URIs (default: inline in the .ics)")

    static let spec = CommandSpec(
        name: "export", abstract: "Export a window of a Microsoft Graph calendar.",
        options: [
            start, end, calendar, zone, format, instances, delta, output, attachmentsDirectory,
            ServiceOptions.user, ServiceOptions.tokenFile,
        ]
            + ServiceOptions.all + ServiceOptions.appOnly + [
                CommonOptions.quiet, CommonOptions.verbose, CommonOptions.diagnosticLevel, CommonOptions.help,
            ])

    static func run(_ arguments: ParsedArguments, terminal: Terminal) -> ExitStatus {
        let statePath = arguments.value(delta)
        let state: CalendarDeltaState?
        do {
            state = try statePath.flatMap { path throws(GraphServiceError) in try CalendarDeltaState.read(path) }
        } catch {
            return ServiceOptions.report(error, command: "export", terminal: terminal)
        }
        // A later --delta run may leave the window out: the state has it.
        guard let startText = arguments.value(start) ?? state?.start, let endText = arguments.value(end) ?? state?.end
        else {
            terminal.writeError("calport export: error: --start and --end are required\nUsage: \(spec.synopsis)\n")
            return .usage
        }
        let output = SharedOutput(terminal)
        let client: GraphClient
        do {
            client = try ServiceOptions.client(arguments, output: output)
        } catch {
            return ServiceOptions.report(error, command: "export", terminal: terminal)
        }
        let window = ExportRequest(
            start: startText, end: endText, calendarID: nil, timeZone: arguments.value(zone),
            instances: arguments.isSet(instances), keepValues: arguments.value(format) == "graph")
        var chosen = window
        if arguments.value(format) == "graph" {
            chosen.attachments = .omitted  // Graph event JSON has no place for them
        } else if let directory = arguments.value(attachmentsDirectory) {
            do {
                try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            } catch {
                terminal.writeError("calport export: error: \(directory): \(error.localizedDescription)\n")
                return .ioError
            }
            chosen.attachments = .directory(
                directory, reference: Self.relativePath(of: directory, from: arguments.value(self.output)))
        }
        let calendarName = arguments.value(calendar)
        let prepared = chosen
        let progress = Progress.forTerminal(quiet: arguments.isSet(CommonOptions.quiet), terminal: terminal)
        let exporter = CalendarExporter(client: client) { step in
            // Pages and their series alternate: the series count while a page's series are read.
            if step.viewRead || step.seriesRead < step.seriesTotal {
                progress.update(
                    done: step.seriesRead, of: step.seriesTotal, "series",
                    prefix: "\(step.occurrences.grouped) events; ")
            } else {
                progress.update(reading: step.occurrences, "events")
            }
        }
        let deltaExporter = CalendarDeltaExporter(client: client, progress: exporter.progress)
        // Written as the export comes in: to FILE through a temporary file renamed at the end (on
        // failure FILE is left as it was), to standard output as it goes.
        let destination: OutputDestination
        do {
            destination = try OutputDestination(
                path: arguments.value(self.output), holdUntilDone: false, terminal: terminal)
        } catch {
            terminal.writeErrorLine(error.description)
            return .ioError
        }
        let written = ExportOutput(
            ExportOutput.Format(rawValue: arguments.value(format) ?? "ics") ?? .iCalendar, to: destination)
        let result = ServiceOptions.wait { () -> Result<CalendarDeltaResult?, GraphServiceError> in
            do throws(GraphServiceError) {
                var request = prepared
                if let calendarName {
                    request.calendarID = try await MailboxCalendars(client: client).resolve(calendarName).id
                } else {
                    request.calendarID = state?.calendarID
                }
                guard statePath != nil else {
                    try await exporter.export(request) { written.write($0) }
                    return .success(nil)
                }
                // Delta's state holds every Graph object of the window by design: it is written whole.
                return .success(try await deltaExporter.export(request, state: state))
            } catch {
                return .failure(error)
            }
        }
        progress.finish()
        written.waitForWrites()
        switch result {
        case .failure(let error):
            destination.abandon()
            return ServiceOptions.report(error, command: "export", terminal: terminal)
        case .success(let delta):
            var reporter = DiagnosticReporter(arguments, terminal: terminal)
            if let reason = delta?.fullReadReason, !arguments.isSet(CommonOptions.quiet) {
                terminal.writeErrorLine("calport export: warning: \(reason)")
            }
            _ = reporter.report(delta?.export.diagnostics ?? written.diagnostics)
            reporter.finish()
            if let delta {
                if arguments.value(format) == "ndjson" {
                    delta.changes.forEach { written.writeLine(changeRecord($0)) }
                } else {
                    written.write(events: delta.export.events, values: delta.export.values)
                }
            }
            written.finish()
            if let failed = destination.conclude(ranToEnd: true) { return failed }
            // The state last: a run that fails before it leaves the old state, whose changes the
            // next run asks for again.
            if let statePath, let delta {
                do throws(GraphServiceError) {
                    try delta.state.write(to: statePath)
                } catch {
                    terminal.writeErrorLine("calport export: error: \(error)")
                    return .ioError
                }
            }
            return reporter.errorCount > 0 ? .dataProblem : .success
        }
    }

    /// A `--format ndjson --delta` line: `{"change": "added|updated|removed", "event": {…}}`, the
    /// event as `--format ndjson` writes it (for a removed one, as it was).
    static func changeRecord(_ change: EventChange) -> JSONValue {
        .object(
            JSONObject([
                JSONMember("change", .string(change.kind.rawValue)),
                JSONMember("event", EventJSON.object(change.event)),
            ]))
    }

    /// `directory` as a relative URI path seen from the folder of `output` (the current one for
    /// stdout), so that the .ics and its files can move together.
    static func relativePath(of directory: String, from output: String?) -> String {
        let base = URL(fileURLWithPath: output ?? "x").deletingLastPathComponent().standardizedFileURL.pathComponents
        let target = URL(fileURLWithPath: directory).standardizedFileURL.pathComponents
        let shared = zip(base, target).prefix { $0 == $1 }.count
        let parts = Array(repeating: "..", count: base.count - shared) + target.dropFirst(shared)
        return parts.map { $0.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? $0 }
            .joined(separator: "/")
    }
}
