import ArgumentParsing
import CalendarModel
import Foundation
import GraphEvents
import GraphService
import ICalendar

/// `calport import`: brings the events of iCalendar or Graph JSON files into a Graph calendar as
/// an upsert (new ones created, changed ones updated, nothing twice), mailing no one unless asked.
enum ImportCommand {
    static let calendar = OptionSpec(
        names: ["--calendar"], valueName: "ID", help: "Calendar id (default: the default calendar)")
    static let dryRun = OptionSpec(names: ["--dry-run"], help: "Print the requests instead of sending them")
    static let journal = OptionSpec(
        names: ["--journal"], valueName: "FILE", help: "Record progress in FILE and resume from it when run again")
    static let attendees = OptionSpec(
        names: ["--attendees"], valueName: "MODE",
        help: "none: keep attendees in calport's property, mail no one (default); invite: Graph invites them",
        choices: ["none", "invite"])
    static let source = OptionSpec(
        names: ["--source"], valueName: "NAME", help: "Name the inputs' events go under (default: each file's name)")
    static let prune = OptionSpec(
        names: ["--prune"], help: "Delete the source's events that are gone from the input")
    static let force = OptionSpec(
        names: ["--force"], help: "Overwrite events edited in the calendar since the last import, and newer versions")
    static let report = OptionSpec(
        names: ["--report"], valueName: "FILE", help: "Also write the report to FILE as JSON")
    static let mapAddress = OptionSpec(
        names: ["--map-address"], valueName: "OLD=NEW",
        help: "Rewrite attendee and organizer addresses in domain OLD to domain NEW (repeatable)")

    static let spec = CommandSpec(
        name: "import", abstract: "Import events into a Microsoft Graph calendar.",
        options: [
            calendar, dryRun, journal, attendees, source, prune, force, report, mapAddress, ServiceOptions.tokenFile,
        ] + ServiceOptions.all + [
            CommonOptions.strict, CommonOptions.quiet, CommonOptions.verbose, CommonOptions.help,
        ],
        positionals: "FILE…")

    static func run(_ arguments: ParsedArguments, terminal: Terminal) -> ExitStatus {
        var reporter = DiagnosticReporter(
            quiet: arguments.isSet(CommonOptions.quiet), strict: arguments.isSet(CommonOptions.strict),
            verbose: arguments.isSet(CommonOptions.verbose), terminal: terminal)
        let options: ImportOptions
        switch importOptions(arguments) {
        case .success(let parsed): options = parsed
        case .failure(let error):
            terminal.writeError("calport import: error: \(error.message)\nUsage: \(spec.synopsis)\n")
            return .usage
        }
        let inputs: [InputFile]
        do {
            inputs = try InputFile.open(arguments.positionals, terminal: terminal)
        } catch {
            terminal.writeError(error.message + "\n")
            return .ioError
        }
        var sources: [ImportSource] = []
        var refused: [(label: String, reason: String)] = []
        for input in inputs {
            guard let format = input.detectedFormat else {
                terminal.writeError("\(input.name):1: error: expected iCalendar or Graph event JSON\n")
                return .dataProblem
            }
            let read = CalendarInput.read(input, as: format, limits: InputLimits())
            if reporter.stops(read.diagnostics, consequence: "nothing was imported") { return .dataProblem }
            var events = read.document.events
            // A METHOD:CANCEL calendar (RFC 5546 §3.2.5) cancels every event it names.
            if read.document.method?.uppercased() == "CANCEL" {
                for index in events.indices { events[index].status = .cancelled }
            }
            // The importer deletes cancelled events itself, so the writer's warning does not apply.
            var written = GraphEventWriter(style: .post, annotatesIdentity: true).write(events)
            written.diagnostics.removeAll { $0.code == "graph-post-cancelled" }
            if reporter.stops(written.diagnostics, consequence: "nothing was imported") { return .dataProblem }
            // Events Graph cannot hold are never sent; they count as failed.
            refused += written.diagnostics.filter { $0.severity == .error }.map {
                (label: $0.uid ?? $0.location.description, reason: $0.message)
            }
            let name = arguments.value(source) ?? sourceName(input)
            let plan = ImportPlan(entries: written.output)
            if let index = sources.firstIndex(where: { $0.name == name }) {
                sources[index].plan.creates += plan.creates
                sources[index].plan.changes += plan.changes
            } else {
                sources.append(ImportSource(name: name, plan: plan))
            }
        }
        let output = SharedOutput(terminal)
        let environment = ProcessInfo.processInfo.environment
        // A dry run signs in only with a token given outright (it then looks at the calendar and
        // the mailbox's domain); otherwise it plans every event as new.
        let dryRunLooksUp =
            arguments.value(ServiceOptions.tokenFile) != nil || !(environment["CALPORT_TOKEN"] ?? "").isEmpty
        let client: GraphClient
        do {
            client =
                arguments.isSet(dryRun) && !dryRunLooksUp
                ? GraphClient(
                    endpoints: try ServiceOptions.endpoints(arguments, environment: environment),
                    tokens: StaticTokenProvider(token: Secret("")))
                : try ServiceOptions.client(arguments, output: output)
        } catch {
            terminal.writeError("calport import: error: \(error)\n")
            return ServiceOptions.exitStatus(error)
        }
        let showsProgress = !arguments.isSet(CommonOptions.quiet) && isatty(STDERR_FILENO) != 0
        let importer = CalendarImporter(
            client: client, calendarID: arguments.value(calendar), journalPath: arguments.value(journal),
            options: options,
            progress: { done, total in
                if showsProgress { output.error("\rcalport import: \(done)/\(total)") }
            })
        if arguments.isSet(dryRun) {
            return dryRunReport(sources, importer, looksUp: dryRunLooksUp, reporter: reporter, terminal: terminal)
        }
        let inputSources = sources
        let outcome = ServiceOptions.wait { () -> Result<ImportReport, GraphServiceError> in
            do throws(GraphServiceError) {
                return .success(try await importer.run(inputSources))
            } catch {
                return .failure(error)
            }
        }
        if showsProgress { terminal.writeError("\n") }  // end the progress line
        switch outcome {
        case .failure(let error):
            terminal.writeError("calport import: error: \(error)\n")
            return ServiceOptions.exitStatus(error)
        case .success(let result):
            terminal.writeError(summary(result, refused: refused))
            if let path = arguments.value(report) {
                let json = JSONWriter(pretty: true).string(result.json(refused: refused)) + "\n"
                do {
                    try AtomicFile.write(Array(json.utf8), to: path)
                } catch {
                    terminal.writeError(error.description + "\n")
                    return .ioError
                }
            }
            return result.failures.isEmpty && refused.isEmpty && reporter.errorCount == 0 ? .success : .dataProblem
        }
    }

    /// `--dry-run`: the requests on stdout, what they would do and the mail they would send on stderr.
    private static func dryRunReport(
        _ sources: [ImportSource], _ importer: CalendarImporter, looksUp: Bool, reporter: DiagnosticReporter,
        terminal: Terminal
    ) -> ExitStatus {
        let prepared = ServiceOptions.wait { () -> Result<CalendarImporter.Preparation, GraphServiceError> in
            do throws(GraphServiceError) {
                return .success(try await importer.prepare(sources, lookUp: looksUp))
            } catch {
                return .failure(error)
            }
        }
        switch prepared {
        case .failure(let error):
            terminal.writeError("calport import: error: \(error)\n")
            return ServiceOptions.exitStatus(error)
        case .success(let preparation):
            terminal.write(Array((JSONWriter(pretty: true).string(importer.requests(for: preparation)) + "\n").utf8))
            var note = "mail to be sent: \(preparation.mail.description)\n"
            if !looksUp {
                note +=
                    "(the calendar was not read: without --token-file or CALPORT_TOKEN a dry run plans every event as new)\n"
            }
            terminal.writeError(note)
            return reporter.errorCount > 0 ? .dataProblem : .success
        }
    }

    /// The options that shape the import, or what is wrong with them.
    private static func importOptions(_ arguments: ParsedArguments) -> Result<ImportOptions, UsageError> {
        var addressMap: [String: String] = [:]
        for mapping in arguments.values(mapAddress) {
            let parts = mapping.split(separator: "=", omittingEmptySubsequences: false).map(String.init)
            guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty, !mapping.contains("@") else {
                return .failure(
                    UsageError(message: "--map-address: expected OLD.DOMAIN=NEW.DOMAIN, found '\(mapping)'"))
            }
            addressMap[parts[0]] = parts[1]
        }
        let mode: ParticipantPolicy.Attendees = arguments.value(attendees) == "invite" ? .invite : .keep
        return .success(
            ImportOptions(
                participants: ParticipantPolicy(attendees: mode, addressMap: addressMap),
                prune: arguments.isSet(prune), force: arguments.isSet(force)))
    }

    /// A source's default name: the input's file name, without its directories.
    private static func sourceName(_ input: InputFile) -> String {
        guard let path = input.path else { return "stdin" }
        return URL(fileURLWithPath: path).lastPathComponent
    }

    /// The final report: counts, each failure with its reason, and the mail Graph was asked to send.
    static func summary(_ report: ImportReport, refused: [(label: String, reason: String)]) -> String {
        let failures = refused + report.failures
        var text = "created: \(report.created)\nupdated: \(report.updated)\nunchanged: \(report.unchanged)\n"
        text += "deleted: \(report.deleted)\nfailed: \(failures.count)\n"
        for failure in failures { text += "  \(failure.label): \(failure.reason)\n" }
        return text + "mail sent: \(report.mail.description)\n"
    }
}
