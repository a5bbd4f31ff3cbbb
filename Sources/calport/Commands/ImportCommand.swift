import ArgumentParsing
import CalendarConversion
import CalendarModel
import Foundation
import GraphEvents
import GraphService
import ICalendar

/// `calport import`: brings the events of iCalendar or Graph JSON files into a Graph calendar as
/// an upsert (new ones created, changed ones updated, nothing twice), mailing no one unless asked.
enum ImportCommand {
    static let calendar = OptionSpec(
        names: ["--calendar"], valueName: "NAME|ID", help: "Calendar name or id (default: the default calendar)",
        completion: CalendarNameCompletion.names)
    static let createCalendar = OptionSpec(
        names: ["--create-calendar"], valueName: "NAME",
        help: "Import into the calendar NAME, created unless the mailbox has one of that name")
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
            ConvertCommand.from, calendar, createCalendar, dryRun, journal, attendees, source, prune, force, report,
            mapAddress, ServiceOptions.user, ServiceOptions.tokenFile,
        ] + ServiceOptions.all + ServiceOptions.appOnly + CommonOptions.reporting + [CommonOptions.help],
        positionals: "[FILE…|DIR…|-]")

    static func run(_ arguments: ParsedArguments, terminal: Terminal) -> ExitStatus {
        var reporter = DiagnosticReporter(arguments, terminal: terminal)
        defer { reporter.finish() }
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
            terminal.writeErrorLine(error.message)
            return .ioError
        }
        // Locked before anything is sent, so that a second import on the journal stops at once.
        let openedJournal: ImportJournal?
        do {
            openedJournal = try arguments.isSet(dryRun) ? nil : arguments.value(journal).map(ImportJournal.init(path:))
        } catch {
            return ServiceOptions.report(error, command: "import", terminal: terminal)
        }
        let output = SharedOutput(terminal)
        let environment = terminal.environment
        // A dry run signs in only with a token or an app's credential given outright (it then looks
        // at the calendar and the mailbox's domain); otherwise it plans every event as new.
        let dryRunLooksUp =
            arguments.value(ServiceOptions.tokenFile) != nil || !(environment["CALPORT_TOKEN"] ?? "").isEmpty
            || ServiceOptions.givesAppCredential(arguments, environment: environment)
        let client: GraphClient
        do {
            client =
                arguments.isSet(dryRun) && !dryRunLooksUp
                ? GraphClient(
                    endpoints: try ServiceOptions.endpoints(arguments, environment: environment),
                    tokens: StaticTokenProvider(token: Secret("")))
                : try ServiceOptions.client(arguments, output: output)
        } catch {
            return ServiceOptions.report(error, command: "import", terminal: terminal)
        }
        let calendarID: String?
        switch targetCalendar(
            arguments, client: client, signedIn: !arguments.isSet(dryRun) || dryRunLooksUp,
            dryRun: arguments.isSet(dryRun), terminal: terminal)
        {
        case .success(let id): calendarID = id
        case .failure(let error):
            return ServiceOptions.report(error, command: "import", terminal: terminal)
        }
        let progress = Progress.forTerminal(quiet: arguments.isSet(CommonOptions.quiet), terminal: terminal)
        let importer = CalendarImporter(
            client: client, calendarID: calendarID, journal: openedJournal,
            options: options,
            progress: { done, total in progress.update(done: done, of: total, "events") })
        let requested = arguments.value(ConvertCommand.from).flatMap(InputFile.Format.init(rawValue:))
        if arguments.isSet(dryRun) && inputs.allSatisfy({ (requested ?? $0.detectedFormat) == .iCalendar }) {
            return streamingDryRun(
                inputs, importer, source: arguments.value(source), looksUp: dryRunLooksUp, reporter: &reporter,
                terminal: terminal)
        }
        guard
            let (sources, refused) = readSources(
                inputs, as: requested, source: arguments.value(source), reporter: &reporter)
        else { return .dataProblem }
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
        progress.finish()
        switch outcome {
        case .failure(let error):
            return ServiceOptions.report(error, command: "import", terminal: terminal)
        case .success(let result):
            terminal.writeError(summary(result, refused: refused))
            if let path = arguments.value(report) {
                var object = result.json(refused: refused).objectValue ?? JSONObject()
                // Whose mailbox, so that the reports of a tenant run can be gathered into one summary.
                object["mailbox"] = .string(client.endpoints.user ?? "me")
                let json = JSONWriter(pretty: true).string(.object(object)) + "\n"
                do {
                    try AtomicFile.write(Array(json.utf8), to: path, writingThroughDevices: true)
                } catch {
                    terminal.writeErrorLine(error.description)
                    return .ioError
                }
            }
            return result.failures.isEmpty && refused.isEmpty && reporter.errorCount == 0 ? .success : .dataProblem
        }
    }

    /// The id of the calendar to import into: `--calendar` (a name or an id) resolved, or the
    /// `--create-calendar` one, found or made; nil for the default calendar. Without sign-in (a dry
    /// run) `--calendar` is taken as an id and nothing is created.
    private static func targetCalendar(
        _ arguments: ParsedArguments, client: GraphClient, signedIn: Bool, dryRun: Bool, terminal: Terminal
    ) -> Result<
        String?, GraphServiceError
    > {
        let named = arguments.value(calendar)
        let created = arguments.value(createCalendar)
        if named != nil && created != nil {
            return .failure(.invalidConfiguration("--calendar and --create-calendar: give one"))
        }
        guard signedIn, named != nil || created != nil else {
            if let created {
                terminal.writeErrorLine("calport import: the dry run plans into the default calendar, not '\(created)'")
            }
            return .success(named)
        }
        let result = ServiceOptions.wait { () -> Result<String?, GraphServiceError> in
            do throws(GraphServiceError) {
                let calendars = MailboxCalendars(client: client)
                if let named { return .success(try await calendars.resolve(named).id) }
                // Found again when run again (a resumed import), since names compare without case in Exchange.
                let name = created ?? ""
                let existing = try await calendars.list().filter { $0.name.lowercased() == name.lowercased() }
                if existing.count == 1 { return .success(existing[0].id) }
                if existing.count > 1 { return .success(try MailboxCalendars.resolve(name, in: existing).id) }
                // A dry run sends nothing: it plans into the default calendar instead.
                return .success(dryRun ? nil : try await calendars.create(named: name).id)
            } catch {
                return .failure(error)
            }
        }
        if dryRun, case .success(nil) = result, let created {
            terminal.writeErrorLine(
                "calport import: '\(created)' does not exist yet; the dry run plans into the default calendar")
        }
        return result
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
            return ServiceOptions.report(error, command: "import", terminal: terminal)
        case .success(let preparation):
            terminal.write(Array((JSONWriter(pretty: true).string(importer.requests(for: preparation)) + "\n").utf8))
            terminal.writeError(dryRunNote(preparation.mail, refused: preparation.refusals, looksUp: looksUp))
            return reporter.errorCount > 0 ? .dataProblem : .success
        }
    }

    /// The plan for one input's events, and the events Graph cannot hold (never sent, counted as
    /// failed); nil when a diagnostic stops the import (it is reported).
    static func plan(_ events: [Event], method: String?, file: String, reporter: inout DiagnosticReporter) -> (
        plan: ImportPlan, refused: [(label: String, reason: String)]
    )? {
        var events = events
        // A METHOD:CANCEL calendar (RFC 5546 §3.2.5) cancels every event it names.
        if method?.uppercased() == "CANCEL" {
            for index in events.indices { events[index].status = .cancelled }
        }
        var written = ImportSource.planning(events, name: file)
        var origins = EventOrigins()
        origins.note(events, from: file)
        written.diagnostics = origins.locate(written.diagnostics)
        if reporter.stops(written.diagnostics, consequence: "nothing was imported") { return nil }
        let refused = written.diagnostics.filter { $0.severity == .error }.map {
            (label: $0.uid ?? $0.location.description, reason: $0.message)
        }
        return (written.output.plan, refused)
    }

    /// Every input read whole (as `format`, else as detected) and planned, one source per name;
    /// nil when a diagnostic stops the import (it is reported). Also the events Graph cannot hold,
    /// which count as failed.
    private static func readSources(
        _ inputs: [InputFile], as format: InputFile.Format?, source: String?, reporter: inout DiagnosticReporter
    ) -> (sources: [ImportSource], refused: [(label: String, reason: String)])? {
        let terminal = reporter.terminal
        var sources: [ImportSource] = []
        var refused: [(label: String, reason: String)] = []
        for input in inputs {
            guard let format = format ?? input.detectedFormat else {
                terminal.writeError("\(input.name):1: error: \(InputFile.unrecognisedFormat)\n")
                return nil
            }
            let read = CalendarInput.read(input, as: format, limits: InputLimits())
            let leftOut = OutputFormat.graphPost.leftOut(
                read.document.otherComponents.map(\.name), file: input.name, keptBy: nil)
            if reporter.stops(read.diagnostics + leftOut, consequence: "nothing was imported") { return nil }
            guard
                let mapped = plan(
                    read.document.events, method: read.document.method, file: input.name, reporter: &reporter)
            else { return nil }
            refused += mapped.refused
            let name = source ?? sourceName(input)
            let plan = mapped.plan
            if let index = sources.firstIndex(where: { $0.name == name }) {
                sources[index].plan.creates += plan.creates
                sources[index].plan.changes += plan.changes
            } else {
                sources.append(ImportSource(name: name, plan: plan))
            }
        }
        return (sources, refused)
    }

    /// `--dry-run` of iCalendar inputs, a series at a time (`ImportDryRun`).
    private static func streamingDryRun(
        _ inputs: [InputFile], _ importer: CalendarImporter, source: String?, looksUp: Bool,
        reporter: inout DiagnosticReporter, terminal: Terminal
    ) -> ExitStatus {
        let dryRun = ImportDryRun(importer: importer, sourceName: source, looksUp: looksUp)
        do {
            guard let result = try dryRun.run(inputs, limits: InputLimits(), reporter: &reporter, terminal: terminal)
            else { return .dataProblem }
            terminal.writeError(dryRunNote(result.mail, refused: result.refused, looksUp: looksUp))
        } catch let error as GraphServiceError {
            return ServiceOptions.report(error, command: "import", terminal: terminal)
        } catch {
            terminal.writeErrorLine("calport import: error: \(error)")
            return .ioError
        }
        return reporter.errorCount > 0 ? .dataProblem : .success
    }

    /// What a dry run says on standard error: what would fail before anything is sent, and the mail.
    private static func dryRunNote(
        _ mail: MailSummary, refused: [(label: String, reason: String)], looksUp: Bool
    ) -> String {
        var note = refused.map {
            "would fail: \($0.label.escapingControlCharacters): \($0.reason.escapingControlCharacters)\n"
        }.joined()
        note += "mail to be sent: \(mail.description)\n"
        if !looksUp {
            note +=
                "(the calendar was not read: without --token-file, CALPORT_TOKEN or an app's credential a dry run plans every event as new)\n"
        }
        return note
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
    static func sourceName(_ input: InputFile) -> String {
        guard let path = input.path else { return "stdin" }
        return URL(fileURLWithPath: path).lastPathComponent
    }

    /// The final report: counts, each failure with its reason, and the mail Graph was asked to send.
    static func summary(_ report: ImportReport, refused: [(label: String, reason: String)]) -> String {
        let failures = refused + report.failures
        var text = "created: \(report.created)\nupdated: \(report.updated)\nunchanged: \(report.unchanged)\n"
        text += "deleted: \(report.deleted)\nfailed: \(failures.count)\n"
        for failure in failures {
            text += "  \(failure.label.escapingControlCharacters): \(failure.reason.escapingControlCharacters)\n"
        }
        return text + "mail sent: \(report.mail.description)\n"
    }
}
