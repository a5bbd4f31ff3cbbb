import ArgumentParsing
import CalendarModel
import Dispatch
import Foundation
import ICalendar

/// `calport convert --out-dir`: every input to its own output file, files in parallel across cores,
/// one bad file never stopping the rest, and a summary at the end.
struct BatchConversion {
    var arguments: ParsedArguments
    var directory: String
    /// What each input is read as; detected per file when nil.
    var requestedFormat: InputFile.Format?
    var target: OutputFormat
    var limits: InputLimits

    /// What converting one file produced, reported in input order once all are done.
    private struct Outcome: Sendable {
        var diagnostics: [Diagnostic] = []
        var failure: String?
        var events = 0
        var dropped = 0
    }

    func run(terminal: Terminal) -> ExitStatus {
        let inputs = InputDiscovery.expand(arguments.positionals)
        guard !inputs.isEmpty else {
            terminal.writeError("calport convert: error: --out-dir needs input files or directories\n")
            return .usage
        }
        let strict = arguments.isSet(CommonOptions.strict)
        let outcomes = OutcomeSlots<Outcome>(count: inputs.count)
        let progress = Progress.forTerminal(quiet: arguments.isSet(CommonOptions.quiet), terminal: terminal)
        DispatchQueue.concurrentPerform(iterations: inputs.count) { index in
            outcomes.set(index, convert(inputs[index], strict: strict))
            let done = outcomes.values
            progress.update(filesDone: done.count, of: inputs.count, events: done.reduce(0) { $0 + $1.events })
        }
        progress.finish()
        var reporter = DiagnosticReporter(
            quiet: arguments.isSet(CommonOptions.quiet), strict: strict,
            verbose: arguments.isSet(CommonOptions.verbose), terminal: terminal)
        var failures = 0
        var events = 0
        for (input, outcome) in zip(inputs, outcomes.values) {
            _ = reporter.report(outcome.diagnostics)
            if let failure = outcome.failure {
                terminal.writeError("\(input.path): error: \(failure)\n")
                failures += 1
            }
            events += outcome.events
            if outcome.dropped > 0 && outcome.failure == nil { failures += 1 }
        }
        terminal.writeError(
            "calport: \(inputs.count) files, \(events) events, \(reporter.warningCount) warnings, \(failures) failed\n")
        if outcomes.values.contains(where: {
            $0.failure?.hasPrefix("cannot write") == true || $0.failure?.hasPrefix("cannot read") == true
        }) {
            return .ioError
        }
        return failures > 0 ? .dataProblem : .success
    }

    private func convert(_ input: BatchInput, strict: Bool) -> Outcome {
        var outcome = Outcome()
        // Each file is read whole: refuse one over the limit before reading it.
        if let size = (try? FileManager.default.attributesOfItem(atPath: input.path))?[.size] as? Int,
            size > limits.maximumInputSize
        {
            outcome.failure = limits.inputTooLarge(input.path).message
            return outcome
        }
        guard let data = FileManager.default.contents(atPath: input.path) else {
            outcome.failure = "cannot read input"
            return outcome
        }
        let file = InputFile(name: input.path, bytes: [UInt8](data), remainder: nil)
        guard let format = requestedFormat ?? file.detectedFormat else {
            outcome.failure = "expected iCalendar (BEGIN:VCALENDAR) or Graph JSON ({ or [), found neither"
            return outcome
        }
        let read = CalendarInput.read(file, as: format, limits: limits)
        let written = target.write(read.document)
        outcome.diagnostics = read.diagnostics + written.diagnostics
        outcome.events = read.document.events.count
        outcome.dropped = read.dropped + written.diagnostics.filter { $0.severity == .error }.count
        if strict, let first = outcome.diagnostics.first(where: { $0.severity >= .warning }) {
            outcome.failure = "stopped by --strict at \(first.location); nothing was written"
            return outcome
        }
        let path = (directory as NSString).appendingPathComponent(
            ((input.relativePath as NSString).deletingPathExtension as NSString).appendingPathExtension(
                target.fileExtension) ?? input.relativePath)
        do {
            try FileManager.default.createDirectory(
                atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try AtomicFile.write(written.bytes, to: path)
        } catch {
            outcome.failure = "cannot write \(path): \(error)"
        }
        return outcome
    }
}

/// Results written by concurrent workers, one slot each, read after they have all finished.
private final class OutcomeSlots<Value: Sendable>: @unchecked Sendable {
    private var slots: [Value?]
    private let lock = NSLock()

    init(count: Int) { slots = Array(repeating: nil, count: count) }

    func set(_ index: Int, _ value: Value) {
        lock.lock()
        slots[index] = value
        lock.unlock()
    }

    var values: [Value] { slots.compactMap { $0 } }
}
