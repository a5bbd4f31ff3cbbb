import ArgumentParsing
import CalendarModel
import Foundation
import GraphEvents
import GraphService
import ICalendar

/// `calport import`: creates the events of iCalendar or Graph JSON files in a Graph calendar,
/// never twice, resuming from its journal after an interruption.
enum ImportCommand {
    static let calendar = OptionSpec(
        names: ["--calendar"], valueName: "ID", help: "Calendar id (default: the default calendar)")
    static let dryRun = OptionSpec(names: ["--dry-run"], help: "Print the requests instead of sending them")
    static let journal = OptionSpec(
        names: ["--journal"], valueName: "FILE", help: "Record progress in FILE and resume from it when run again")

    static let spec = CommandSpec(
        name: "import", abstract: "Import events into a Microsoft Graph calendar.",
        options: [ConvertCommand.from, calendar, dryRun, journal, ServiceOptions.tokenFile] + ServiceOptions.all
            + CommonOptions.reporting + [CommonOptions.help],
        positionals: "[FILE…|DIR…|-]")

    static func run(_ arguments: ParsedArguments, terminal: Terminal) -> ExitStatus {
        var reporter = DiagnosticReporter(arguments, terminal: terminal)
        defer { reporter.finish() }
        let inputs: [InputFile]
        do {
            inputs = try InputFile.open(arguments.positionals, terminal: terminal)
        } catch {
            terminal.writeError(error.message + "\n")
            return .ioError
        }
        var events: [Event] = []
        var origins = EventOrigins()
        let requested = arguments.value(ConvertCommand.from).flatMap(InputFile.Format.init(rawValue:))
        for input in inputs {
            guard let format = requested ?? input.detectedFormat else {
                terminal.writeError(
                    "\(input.name):1: error: \(InputFile.unrecognisedFormat)\n"
                )
                return .dataProblem
            }
            let read = CalendarInput.read(input, as: format, limits: InputLimits())
            events += read.document.events
            origins.note(read.document.events, from: input.name)
            let leftOut = OutputFormat.graphPost.leftOut(
                read.document.otherComponents.map(\.name), file: input.name, keptBy: nil)
            if reporter.stops(read.diagnostics + leftOut, consequence: "nothing was imported") { return .dataProblem }
        }
        let written = GraphEventWriter(style: .post).write(events)
        if reporter.stops(origins.locate(written.diagnostics), consequence: "nothing was imported") {
            return .dataProblem
        }
        let plan = ImportPlan(entries: written.output)
        let output = SharedOutput(terminal)
        let client: GraphClient
        do {
            // A dry run needs no token: it only prints.
            client =
                arguments.isSet(dryRun)
                ? GraphClient(
                    endpoints: try ServiceOptions.endpoints(
                        arguments, environment: ProcessInfo.processInfo.environment),
                    tokens: StaticTokenProvider(token: Secret("")))
                : try ServiceOptions.client(arguments, output: output)
        } catch {
            terminal.writeError("calport import: error: \(error)\n")
            return ServiceOptions.exitStatus(error)
        }
        let showsProgress = !arguments.isSet(CommonOptions.quiet) && isatty(STDERR_FILENO) != 0
        let importer = CalendarImporter(
            client: client, calendarID: arguments.value(calendar), journalPath: arguments.value(journal),
            progress: { done, total in
                if showsProgress { output.error("\rcalport import: \(done)/\(total)") }
            })
        if arguments.isSet(dryRun) {
            terminal.write(Array((JSONWriter(pretty: true).string(dryRunRequests(plan, importer)) + "\n").utf8))
            return reporter.errorCount > 0 ? .dataProblem : .success
        }
        let outcome = ServiceOptions.wait { () -> Result<ImportReport, GraphServiceError> in
            do throws(GraphServiceError) {
                return .success(try await importer.run(plan))
            } catch {
                return .failure(error)
            }
        }
        if showsProgress { terminal.writeError("\n") }  // end the progress line
        switch outcome {
        case .failure(let error):
            terminal.writeError("calport import: error: \(error)\n")
            return ServiceOptions.exitStatus(error)
        case .success(let report):
            // Events Graph cannot hold were never sent; they count as failed too.
            let refused = written.diagnostics.filter { $0.severity == .error }.map {
                (label: $0.uid ?? $0.location.description, reason: $0.message)
            }
            terminal.write(Array(summary(report, refused: refused).utf8))
            return report.failures.isEmpty && reporter.errorCount == 0 ? .success : .dataProblem
        }
    }

    /// The requests a run would send, as JSON: each `$batch`, then each occurrence change.
    static func dryRunRequests(_ plan: ImportPlan, _ importer: CalendarImporter) -> JSONValue {
        var requests: [JSONValue] = importer.batchBodies(for: plan).map {
            ["method": "POST", "url": "/$batch", "body": $0]
        }
        for change in plan.changes {
            switch change.action {
            case .update(let master, let originalStart, let body):
                let url = "/me/events/{occurrence of \(master) at \(originalStart)}"
                requests.append(["method": "PATCH", "url": .string(url), "body": .object(body)])
            case .cancel(let master, let originalStart):
                requests.append([
                    "method": "DELETE", "url": .string("/me/events/{occurrence of \(master) at \(originalStart)}"),
                ])
            case .create:
                continue
            }
        }
        return .array(requests)
    }

    /// The final report: counts, then each failure with its reason.
    static func summary(_ report: ImportReport, refused: [(label: String, reason: String)]) -> String {
        let failures = refused + report.failures
        var text = "created: \(report.created)\nalready present: \(report.alreadyPresent)\nfailed: \(failures.count)\n"
        for failure in failures { text += "  \(failure.label): \(failure.reason)\n" }
        return text
    }
}
