import CalendarConversion
import CalendarModel
import GraphEvents
import GraphService
import ICalendar

/// `import --dry-run` over iCalendar inputs a series at a time, in the two passes `convert` uses
/// to stream (`SeriesIndex`, `SeriesReader`): only the series at hand, the create batch being
/// filled and the UIDs met so far are held, however large the input.
struct ImportDryRun {
    var importer: CalendarImporter
    /// `--source NAME`, else nil for each input's own name.
    var sourceName: String?
    var looksUp: Bool

    /// Prints the requests (a JSON array, written as it is produced) and returns what a run would
    /// report as failed before sending anything, and the mail it would send; nil when a
    /// diagnostic stopped it (already reported).
    func run(
        _ inputs: [InputFile], limits: InputLimits, reporter: inout DiagnosticReporter, terminal: Terminal
    ) throws -> (refused: [(label: String, reason: String)], mail: MailSummary)? {
        let scratch = ScratchSpace(under: terminal.temporaryDirectory())
        let index = try SeriesIndex(
            inputs.map { ($0.name, try $0.readable(spoolingIn: scratch)) }, scope: .withinFile,
            limits: limits.iCalendar, scratch: scratch)
        let names = inputs.map { sourceName ?? ImportCommand.sourceName($0) }
        var snapshot = try waitForSnapshot(names)
        var reader = SeriesReader(index, limits: limits.iCalendar)
        var output = RequestArrayWriter(terminal: terminal)
        // The creates of the batch being filled (at most 20) and the requests that follow them.
        var pending: [PlannedItem] = []
        var waiting: [JSONValue] = []
        var refused: [(label: String, reason: String)] = []
        var mail = MailSummary()
        while let item = reader.next() {
            if reporter.stops(reader.takeDiagnostics(), consequence: "nothing was imported") { return nil }
            guard let series = item.series else { continue }
            guard
                let mapped = ImportCommand.plan(
                    series.events, method: index.files[item.file].header.method, file: index.files[item.file].name,
                    reporter: &reporter)
            else { return nil }
            refused += mapped.refused
            let preparation = importer.decide(ImportSource(name: names[item.file], plan: mapped.plan), in: &snapshot)
            refused += preparation.refusals
            mail.add(preparation.mail)
            let later = importer.laterRequests(for: preparation)
            if preparation.creates.isEmpty {
                later.forEach { output.add($0) }
                continue
            }
            // A new series' occurrence changes follow the batch that creates it, as in a run.
            pending += preparation.creates
            waiting += later
            if pending.count >= 20 { flush(&pending, &waiting, &output) }
        }
        if reporter.stops(reader.takeDiagnostics(), consequence: "nothing was imported") { return nil }
        try index.checkReads()
        for (file, names) in reader.otherComponents.enumerated() {
            let leftOut = OutputFormat.graphPost.leftOut(names, file: index.files[file].name, keptBy: nil)
            if reporter.stops(leftOut, consequence: "nothing was imported") { return nil }
        }
        flush(&pending, &waiting, &output)
        for request in importer.laterRequests(for: importer.prunes(in: snapshot)) { output.add(request) }
        output.finish()
        mail.mailboxDomain = snapshot.mailboxDomain
        return (refused, mail)
    }

    private func flush(_ pending: inout [PlannedItem], _ waiting: inout [JSONValue], _ output: inout RequestArrayWriter)
    {
        while !pending.isEmpty {
            output.add(importer.batchRequest(Array(pending.prefix(20))))
            pending.removeFirst(min(20, pending.count))
        }
        waiting.forEach { output.add($0) }
        waiting.removeAll()
    }

    private func waitForSnapshot(_ names: [String]) throws(GraphServiceError) -> CalendarImporter.Snapshot {
        // Without a token there is nothing to ask: no task to wait for (in a test, the thread that
        // would wait may be one the task needs).
        guard looksUp else { return CalendarImporter.Snapshot() }
        let importer = self.importer
        return try ServiceOptions.wait { () -> Result<CalendarImporter.Snapshot, GraphServiceError> in
            do throws(GraphServiceError) {
                return .success(try await importer.snapshot(of: names))
            } catch {
                return .failure(error)
            }
        }.get()
    }
}

/// A JSON array written element by element, so that it is never held whole.
private struct RequestArrayWriter {
    let terminal: Terminal
    private var count = 0

    init(terminal: Terminal) {
        self.terminal = terminal
    }

    mutating func add(_ value: JSONValue) {
        terminal.write(Array(((count == 0 ? "[\n" : ",\n") + JSONWriter(pretty: true).string(value)).utf8))
        count += 1
    }

    func finish() { terminal.write(Array((count == 0 ? "[]\n" : "\n]\n").utf8)) }
}
