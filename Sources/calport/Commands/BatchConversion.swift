import ArgumentParsing
import CalendarConversion
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
        var reporter = DiagnosticReporter(arguments, terminal: terminal)
        let outcomes = OutcomeSlots<Outcome>(count: inputs.count)
        let progress = Progress.forTerminal(quiet: arguments.isSet(CommonOptions.quiet), terminal: terminal)
        let (policy, strict) = (reporter.policy, reporter.strict)
        let plan = OutputPlan(inputs, under: directory, extension: target.fileExtension)
        DispatchQueue.concurrentPerform(iterations: inputs.count) { index in
            let outcome: Outcome
            switch plan.entries[index] {
            case .write(let path): outcome = convert(inputs[index], to: path, policy: policy, strict: strict)
            case .refused(let reason): outcome = Outcome(failure: reason)
            }
            outcomes.set(index, outcome)
            let done = outcomes.values
            progress.update(filesDone: done.count, of: inputs.count, events: done.reduce(0) { $0 + $1.events })
        }
        progress.finish()
        var failed: [String] = []
        var events = 0
        for (input, outcome) in zip(inputs, outcomes.values) {
            _ = reporter.report(outcome.diagnostics)
            if let failure = outcome.failure {
                terminal.writeError("\(input.path): error: \(failure)\n")
            }
            events += outcome.events
            if outcome.failure != nil || outcome.dropped > 0 { failed.append(input.path) }
        }
        reporter.finish()
        terminal.writeError(
            "calport: \(inputs.count.grouped) files, \(events.grouped) events, \(reporter.warningCount.grouped) warnings, "
                + "\(failed.count.grouped) failed\(failed.namingTheFirst())\n")
        if outcomes.values.contains(where: {
            $0.failure?.hasPrefix("cannot write") == true || $0.failure?.hasPrefix("cannot read") == true
        }) {
            return .ioError
        }
        return failed.isEmpty ? .success : .dataProblem
    }

    private func convert(_ input: BatchInput, to path: String, policy: DiagnosticPolicy, strict: Bool) -> Outcome {
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
            outcome.failure = InputFile.unrecognisedFormat
            return outcome
        }
        let read = CalendarInput.read(file, as: format, limits: limits)
        let leftOut = target.leftOut(read.document.otherComponents.map(\.name), file: input.path)
        let written = target.write(read.document)
        outcome.diagnostics = read.diagnostics + leftOut + written.diagnostics.located(in: input.path)
        outcome.events = read.document.events.count
        outcome.dropped = read.dropped + written.diagnostics.filter { $0.severity == .error }.count
        if strict, let first = outcome.diagnostics.first(where: { policy.isError($0, strict: true) }) {
            outcome.failure = "stopped by --strict at \(first.location); nothing was written"
            return outcome
        }
        if target.kind != .iCalendar && read.document.events.isEmpty && !read.document.otherComponents.isEmpty {
            outcome.failure = "holds no events for --to \(target.kind.rawValue); nothing was written"
            return outcome
        }
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
