import CalendarModel
import Dispatch
import Foundation

/// Converts many inputs, each to its own output file: files in parallel across cores, one bad file
/// never stopping the rest, each file's outcome kept in input order. `calport convert --out-dir` is
/// this call, with a summary printed after it.
public struct BatchConverter: Sendable {
    /// What each output is written as.
    public var target: OutputFormat
    /// What each input is read as; detected per file when nil.
    public var format: InputFormat?
    /// What one input may cost before it is refused.
    public var limits: InputLimits
    /// Whether a diagnostic stops its file, nothing written (as `--strict` does); nil when none does.
    public var stopsOn: (@Sendable (Diagnostic) -> Bool)?

    /// What converting one input produced.
    public struct Outcome: Sendable {
        /// What reading and writing the input found, in order, each naming the input.
        public var diagnostics: [Diagnostic] = []
        /// Why nothing was written for the input, when nothing was.
        public var failure: String?
        /// The events read.
        public var events = 0
        /// The events and components dropped as unreadable, and the events writing refused.
        public var dropped = 0
    }

    /// A converter to `target`, reading inputs as `format` (detected when nil) within `limits`.
    public init(
        to target: OutputFormat, from format: InputFormat? = nil, limits: InputLimits = InputLimits(),
        stopsOn: (@Sendable (Diagnostic) -> Bool)? = nil
    ) {
        self.target = target
        self.format = format
        self.limits = limits
        self.stopsOn = stopsOn
    }

    /// Converts `inputs` into `directory`, each to its relative path with the target's extension
    /// (``OutputPlan`` refuses outputs that would clash); `progress` is called after each file with
    /// the outcomes so far, from the thread that converted it.
    public func run(
        _ inputs: [BatchInput], under directory: String, progress: @Sendable (_ done: [Outcome]) -> Void = { _ in }
    ) -> [Outcome] {
        let outcomes = OutcomeSlots<Outcome>(count: inputs.count)
        let plan = OutputPlan(inputs, under: directory, extension: target.fileExtension)
        DispatchQueue.concurrentPerform(iterations: inputs.count) { index in
            let outcome: Outcome
            switch plan.entries[index] {
            case .write(let path): outcome = convert(inputs[index], to: path)
            case .refused(let reason): outcome = Outcome(failure: reason)
            }
            outcomes.set(index, outcome)
            progress(outcomes.values)
        }
        return outcomes.values
    }

    /// Converts one input to the file at `path`, written atomically, its directory made when missing.
    public func convert(_ input: BatchInput, to path: String) -> Outcome {
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
        let bytes = [UInt8](data)
        guard let format = format ?? InputFormat(detectedIn: bytes) else {
            outcome.failure = InputFormat.unrecognised
            return outcome
        }
        var read = CalendarInput.read(bytes, file: input.path, as: format, limits: limits)
        let leftOut = target.leftOut(read.document.otherComponents.map(\.name), file: input.path)
        let holdsOnlyOtherComponents = read.document.events.isEmpty && !read.document.otherComponents.isEmpty
        outcome.events = read.document.events.count
        let written = target.write(read.document.handedOver())
        outcome.diagnostics = read.diagnostics + leftOut + written.diagnostics.located(in: input.path)
        outcome.dropped = read.dropped + written.diagnostics.filter { $0.severity == .error }.count
        if let stopsOn, let first = outcome.diagnostics.first(where: stopsOn) {
            outcome.failure = "stopped by --strict at \(first.location); nothing was written"
            return outcome
        }
        if target.kind != .iCalendar && holdsOnlyOtherComponents {
            outcome.failure = "holds no events for --to \(target.kind.rawValue); nothing was written"
            return outcome
        }
        do {
            try FileManager.default.createDirectory(
                atPath: path.parentDirectory, withIntermediateDirectories: true)
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
