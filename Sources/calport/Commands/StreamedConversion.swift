import CalendarConversion
import CalendarModel
import ICalendar
import Synchronization

/// `calport convert`'s second pass over streamed inputs: every component read (`SeriesReader`)
/// and written, iCalendar as it comes, Graph series whole.
///
/// A single iCalendar input that the first pass cut in halves (`SeriesIndex.File.cut`), and whose
/// every series is within one of them, is read in its two halves at once: the second on a thread of
/// its own, into a scratch file, with its diagnostics held; once the first half is written, the
/// second's diagnostics are reported and its output appended, as reading the whole input in one
/// would have given them. Each thread makes and frees its own values.
struct StreamedConversion: @unchecked Sendable {
    // Unchecked for the index, whose files are Sendable but which is a public value of another module.
    let index: SeriesIndex
    let target: OutputFormat
    let limits: InputLimits
    /// The calendar properties of all inputs.
    let header: CalendarDocument

    init(index: SeriesIndex, target: OutputFormat, limits: InputLimits) {
        self.index = index
        self.target = target
        self.limits = limits
        header = index.header
    }

    /// How far a reader has come, for progress.
    struct Read {
        var bytes: Int
        var events: Int
    }

    /// What the readers of an input read, added up.
    struct Counts {
        var componentsRead = 0
        var eventsRead = 0
        var droppedComponents = 0
        var otherComponents: [[String]] = []

        mutating func add(_ reader: SeriesReader) {
            componentsRead += reader.componentsRead
            eventsRead += reader.eventsRead
            droppedComponents += reader.droppedComponents
            otherComponents =
                otherComponents.isEmpty
                ? reader.otherComponents : zip(otherComponents, reader.otherComponents).map { $0 + $1 }
        }
    }

    /// Converts what `reader` reads: iCalendar into `calendar`, the rest into `output`, whose bytes go
    /// to `write` a chunk at a time. `report` gets each batch of diagnostics in input order and says
    /// whether to stop; false when it did.
    func convert(
        _ reader: inout SeriesReader, _ calendar: inout ICalendarStreamWriter, _ output: inout EntryOutput,
        write: ([UInt8]) -> Void, progress: (Read) -> Void, report: ([Diagnostic]) -> Bool
    ) -> Bool {
        while let component = reader.nextComponent() {
            if reader.componentsRead % 256 == 0 { progress(Read(bytes: reader.bytesRead, events: reader.eventsRead)) }
            if report(reader.takeDiagnostics()) { return false }
            // Consumed, and the event taken out of its item: the writer then holds its only reference
            // and renames its zones in place (with a second one, it copied every Graph event).
            switch consume component {
            case .other(let other, _):
                if target.kind == .iCalendar { calendar.write(.other(other), header: header) }
            case .event(var item):
                switch target.kind {
                case .iCalendar: calendar.write(item.takeEvent(), header: header)
                case .ndjson: _ = output.add([item.event])
                case .graph, .graphPost:
                    guard let series = item.series else { continue }
                    let written = output.add(series)
                    if report(written.located(in: index.files[item.file].name)) { return false }
                }
            }
            if output.bytes.count >= BufferedOutput.threshold { write(output.take()) }
        }
        return !report(reader.takeDiagnostics())
    }

    /// Starts reading the second half of the one input on a thread of its own, when the input was
    /// cut in halves and no series spans the cut; nil otherwise.
    func secondHalf(scratch: ScratchSpace) -> SecondHalf? {
        guard let cut = index.halvesCut, let output = try? scratch.create("output"),
            let diagnostics = try? scratch.create("diagnostics")
        else { return nil }
        let second = SecondHalf(output: output, diagnostics: HeldDiagnostics(diagnostics), cut: cut)
        second.start(self)
        return second
    }

    /// Reports the second half's diagnostics and appends its output after the first half's, then
    /// the zones neither half's VTIMEZONEs define. False when `report` stopped.
    func appendSecondHalf(
        _ second: SecondHalf, after first: SeriesReader, _ calendar: inout ICalendarStreamWriter,
        _ output: inout EntryOutput, to destination: OutputDestination, counts: inout Counts,
        report: ([Diagnostic]) -> Bool
    ) throws(AtomicFile.WriteError) -> Bool {
        let done = second.wait()
        guard try done.diagnostics.replay(report) else { return false }
        // The calendar's beginning, which the second half's writer took as written, even when the
        // first half wrote nothing.
        if target.kind == .iCalendar { calendar.writeHeader(header) }
        calendar.flush()
        destination.write(output.take())
        try appendOutput(done, firstHadEntries: output.entryCount > 0, to: destination)
        if let notes = done.notes { calendar.adopt(notes) }
        counts.add(done.reader)
        return !report(SeriesReader.unresolvedZones(first: first.unresolvedZones, second: done.reader.unresolvedZones))
    }

    /// Copies the second half's output from its scratch file, without the separator before its first
    /// entry when the first half wrote none.
    private func appendOutput(_ done: SecondHalf.Done, firstHadEntries: Bool, to destination: OutputDestination)
        throws(AtomicFile.WriteError)
    {
        try done.output.finish()
        var source = done.output.reader(chunkSize: 1 << 20)
        var skip = !firstHadEntries && done.entries > 0 ? EntryOutput.firstSeparator.count : 0
        while let chunk = source.nextChunk() {
            destination.write(skip > 0 ? Array(chunk.dropFirst(skip)) : chunk)
            skip = max(skip - chunk.count, 0)
        }
        if let failure = source.failure {
            throw AtomicFile.WriteError(path: done.output.path, reason: failure, action: "read back")
        }
    }
}

/// The second half of an input, read on its own thread into a scratch file.
final class SecondHalf: @unchecked Sendable {
    /// What the thread read and wrote.
    struct Done {
        var reader: SeriesReader
        var diagnostics: HeldDiagnostics
        var output: SpillWriter
        var notes: ICalendarStreamWriter.PartNotes?
        var entries: Int
    }

    /// How far it has come, whether it is wanted, what it found.
    let state: HalfState
    private let output: SpillWriter
    /// The thread's reading and writing, once started.
    private var task: ThreadResult<Done>?

    fileprivate init(output: SpillWriter, diagnostics: HeldDiagnostics, cut: Int) {
        self.output = output
        state = HalfState(cut: cut, diagnostics: diagnostics)
    }

    /// Starts reading and writing the second half on a thread of its own.
    fileprivate func start(_ conversion: StreamedConversion) {
        task = ThreadResult { [self] in run(conversion) }
    }

    /// Reads and writes the second half; runs on the half's thread.
    private func run(_ conversion: StreamedConversion) -> Done {
        var reader = SeriesReader(
            conversion.index, limits: conversion.limits.iCalendar, jsonLimits: conversion.limits.json, half: .second)
        let (output, state) = (output, state)
        var calendar = ICalendarStreamWriter(continuing: conversion.index.timeZones) { output.write($0) }
        var entries = EntryOutput(
            continuing: conversion.target, header: conversion.header, timeZones: conversion.index.timeZones)
        _ = conversion.convert(
            &reader, &calendar, &entries, write: { output.write($0) },
            progress: { state.read(upTo: $0.bytes, events: $0.events) }, report: state.hold)
        let notes = conversion.target.kind == .iCalendar ? calendar.takePart() : nil
        output.write(entries.take())
        return Done(
            reader: reader, diagnostics: state.diagnostics, output: output, notes: notes,
            entries: entries.entryCount)
    }

    /// What the thread read and wrote, once it is done.
    fileprivate func wait() -> Done {
        task!.wait()
    }
}

/// What the thread reading the second half of an input shares with the thread of the first: how
/// far it has come (for the progress line), whether it is still wanted, and the diagnostics it holds
/// to be reported after the first half's.
final class HalfState: @unchecked Sendable {
    // Unchecked for `diagnostics`, a scratch file only the half's thread writes until it is done.
    private let bytesPastCut = Atomic<Int>(0)
    private let eventsRead = Atomic<Int>(0)
    /// Set when the run stopped before the second half was wanted: the thread stops too.
    private let cancelled = Atomic<Bool>(false)
    /// Where the half begins in the input.
    private let cut: Int
    /// The half's diagnostics, in the batches its reader gave them.
    let diagnostics: HeldDiagnostics

    init(cut: Int, diagnostics: HeldDiagnostics) {
        self.cut = cut
        self.diagnostics = diagnostics
    }

    /// Bytes read past the cut.
    var bytes: Int { bytesPastCut.load(ordering: .relaxed) }
    /// Events read.
    var events: Int { eventsRead.load(ordering: .relaxed) }

    /// Notes that the half's reader has read up to `offset` of the input, and `events` events.
    func read(upTo offset: Int, events: Int) {
        bytesPastCut.store(offset - cut, ordering: .relaxed)
        eventsRead.store(events, ordering: .relaxed)
    }

    /// Holds a batch of the half's diagnostics; whether the half's reading is to stop (it is no
    /// longer wanted). Whether the diagnostics stop the run is decided when they are reported.
    func hold(_ batch: [Diagnostic]) -> Bool {
        if !batch.isEmpty { diagnostics.append(batch) }
        return cancelled.load(ordering: .relaxed)
    }

    /// Stops the thread at its next event: the run ended before the half was wanted.
    func cancel() { cancelled.store(true, ordering: .relaxed) }
}

/// Diagnostics held in a scratch file, batch by batch, to be reported later in the same batches:
/// a damaged input's thousands take no memory while they wait.
struct HeldDiagnostics {
    private let spill: SpillWriter

    init(_ spill: SpillWriter) { self.spill = spill }

    /// Holds `batch` after those held before.
    func append(_ batch: [Diagnostic]) {
        spill.write(UInt64(batch.count))
        for diagnostic in batch {
            spill.write(UInt64(diagnostic.severity.rawValue))
            for text in [
                diagnostic.code, diagnostic.message, diagnostic.location.file, diagnostic.location.jsonPath,
                diagnostic.uid,
            ] {
                let bytes = text.map { Array($0.utf8) }
                spill.write(bytes.map { UInt64($0.count) } ?? Self.none)
                if let bytes { spill.write(bytes) }
            }
            for number in [diagnostic.location.line, diagnostic.location.column] {
                spill.write(number.map { UInt64($0) } ?? Self.none)
            }
        }
    }

    /// Hands each batch held to `report`, in order, until it says to stop: false then.
    func replay(_ report: ([Diagnostic]) -> Bool) throws(AtomicFile.WriteError) -> Bool {
        try spill.finish()
        var reader = SpillReader(spill.reader())
        func text() -> String? {
            guard let count = reader.readUInt64(), count != Self.none, let bytes = reader.read(Int(count)) else {
                return nil
            }
            return String(decoding: bytes, as: UTF8.self)
        }
        func number() -> Int? { reader.readUInt64().flatMap { $0 == Self.none ? nil : Int($0) } }
        while let count = reader.readUInt64() {
            var batch: [Diagnostic] = []
            for _ in 0..<count {
                let severity = Severity(rawValue: Int(reader.readUInt64() ?? 0)) ?? .error
                let (code, message, file, jsonPath, uid) = (text() ?? "", text() ?? "", text(), text(), text())
                let location = SourceLocation(file: file, line: number(), column: number(), jsonPath: jsonPath)
                batch.append(Diagnostic(severity, code: code, message: message, location: location, uid: uid))
            }
            if report(batch) { return false }
        }
        try reader.checkRead(spill)
        return true
    }

    /// Written for a text or number that is not there.
    private static let none = UInt64.max
}
