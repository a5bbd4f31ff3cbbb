import CalendarConversion
import CalendarModel
import ICalendar
import Synchronization

/// What one reader of a streamed expansion reads and expands: every series it meets, in input
/// order, each occurrence's record added to its sorter keyed by (file, start, series number).
///
/// A single input the first pass cut in halves (`SeriesIndex.halvesCut`) is expanded in two parts at
/// once, the second on a thread of its own (`ExpansionHalf`), its diagnostics held; its series are
/// numbered after all of the first's, so that, once taken in (`adopt`), the merge gives the order
/// one reader of the whole input gives.
struct ExpansionPart {
    private(set) var reader: SeriesReader
    /// Each file's clocks, with the events read so far added.
    private(set) var zones: [ExpansionZones]
    /// Each file's series diagnostics, with where they come out (`ExpandCommand.stream`).
    private(set) var notes: [[(order: ExternalSorter.Key, diagnostics: [Diagnostic])]]
    private var sorter: ExternalSorter
    private var seriesCount: [Int]
    /// The number of the part's first series.
    private let firstSeries: Int64
    private let layout: OccurrenceLayout
    private let window: ExpandWindow
    private let options: ExpansionOptions

    /// The second part's series are numbered from here: past any first part's.
    static let secondPartSeries: Int64 = 1 << 40

    init(
        reader: SeriesReader, zones: [ExpansionZones], sorter: ExternalSorter, firstSeries: Int64,
        layout: OccurrenceLayout, window: ExpandWindow, options: ExpansionOptions
    ) {
        self.reader = reader
        self.zones = zones
        notes = zones.map { _ in [] }
        self.sorter = sorter
        seriesCount = zones.map { _ in 0 }
        self.firstSeries = firstSeries
        self.layout = layout
        self.window = window
        self.options = options
    }

    /// Reads and expands every event; `report` gets each batch of reading diagnostics and says
    /// whether to stop (false is returned then), `progress` how far the reading has come.
    mutating func run(
        progress: (_ bytes: Int, _ events: Int) -> Void, report: ([Diagnostic]) -> Bool
    ) throws(AtomicFile.WriteError) -> Bool {
        var events = 0
        // Written to by the sorter's `append`, which has the part's `sorter` changing: a local.
        var layout = layout
        let clock = window.clock
        while let item = reader.next() {
            events += 1
            if events % 256 == 0 { progress(reader.bytesRead, events) }
            if report(reader.takeDiagnostics()) { return false }
            zones[item.file].add(item.event)
            guard let series = item.series else { continue }
            var seriesZones = zones[item.file]
            // Each member in place: an array of them would copy every event.
            if let master = series.master { seriesZones.add(master) }
            for override in series.overrides { seriesZones.add(override) }
            let ordinal = firstSeries + Int64(seriesCount[item.file])
            seriesCount[item.file] += 1
            var occurrences = SeriesOccurrences(
                series: series, window: window.window, zones: seriesZones, options: options)
            var last: Int?
            while let occurrence = occurrences.next() {
                let key = ExternalSorter.Key(Int64(item.file), Int64(occurrence.startInstant), ordinal)
                try sorter.append(key) { layout.write(occurrence, clock: clock, into: &$0) }
                last = occurrence.startInstant
            }
            if !occurrences.diagnostics.isEmpty {
                let order = ExternalSorter.Key(last == nil ? 0 : 1, Int64(last ?? 0), ordinal)
                notes[item.file].append((order, occurrences.diagnostics))
            }
        }
        return !report(reader.takeDiagnostics())
    }

    /// Every record added, in key order; the sorter is left empty.
    mutating func takeSorted() throws(AtomicFile.WriteError) -> SortedRecords {
        try sorter.sorted()
    }

    /// Takes in the second part of the one input, expanded beside this one: its zones' diagnostics
    /// about zones this part did not meet, its series' diagnostics and its records.
    mutating func adopt(_ second: consuming ExpansionPart) throws(AtomicFile.WriteError) {
        zones[0].adopt(second.zones[0])
        notes[0] += second.notes[0]
        try sorter.adopt(second.sorter)
    }
}

/// The second half of an input, expanded on a thread of its own into its own sorter, with its
/// diagnostics held to be reported after the first half's.
final class ExpansionHalf: @unchecked Sendable {
    /// What the thread read and expanded.
    struct Done {
        var part: ExpansionPart
        var diagnostics: HeldDiagnostics
    }

    /// How far it has come, whether it is wanted, what it found.
    let state: HalfState
    // The thread's own until `wait()` hands it over (and lets go of it: its buffers are not held
    // through the merge).
    private var part: ExpansionPart?
    /// The thread's expanding, once started; the error writing its sorter's runs met, if any.
    private var task: ThreadResult<AtomicFile.WriteError?>?

    /// Starts expanding `part`, the half from `cut` on, holding its diagnostics in `diagnostics`.
    init(_ part: ExpansionPart, cut: Int, diagnostics: HeldDiagnostics) {
        self.part = part
        state = HalfState(cut: cut, diagnostics: diagnostics)
        task = ThreadResult { [self] in run() }
    }

    /// Expands the half; runs on the half's thread.
    private func run() -> AtomicFile.WriteError? {
        let state = state
        do throws(AtomicFile.WriteError) {
            _ = try part?.run(progress: { state.read(upTo: $0, events: $1) }, report: state.hold)
            return nil
        } catch {
            return error
        }
    }

    /// What the thread read and expanded, once it is done.
    func wait() throws(AtomicFile.WriteError) -> Done {
        if let failure = task!.wait() { throw failure }
        defer { part = nil }
        return Done(part: part!, diagnostics: state.diagnostics)
    }
}
