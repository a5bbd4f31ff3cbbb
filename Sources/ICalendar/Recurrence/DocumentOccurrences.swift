import CalendarModel

/// Every occurrence of every series of a document in a window, in start order as calendarView lists
/// them (ties in document order), produced lazily: one pending occurrence per series is held, never the
/// list.
public struct DocumentOccurrences: IteratorProtocol, Sequence, Sendable {
    private var series: [SeriesOccurrences]
    /// Each series' next occurrence, taken out when it is returned.
    private var pending: [Occurrence?]
    /// A binary min-heap of the unfinished series, keyed by (start of their pending occurrence, series
    /// index): two integers per entry, so that sifting never copies an occurrence.
    private var heap: [(start: Int, series: Int)] = []
    private var started = false
    /// Unresolved zones, caps reached and other problems met so far.
    public private(set) var diagnostics: [Diagnostic]

    /// The occurrences of `document` overlapping `window`; floating times and dates are read on `floating`.
    public init(
        document: CalendarDocument, window: ExpansionWindow, floating: ZoneClock = .utc,
        options: ExpansionOptions = .init()
    ) {
        let zones = ExpansionZones(document: document, floating: floating)
        series = document.series.map { SeriesOccurrences(series: $0, window: window, zones: zones, options: options) }
        pending = Array(repeating: nil, count: series.count)
        diagnostics = zones.diagnostics
    }

    public mutating func next() -> Occurrence? {
        if !started {
            started = true
            heap.reserveCapacity(series.count)
            for index in series.indices { pull(index) }
        }
        guard let top = heap.first else { return nil }
        // Swapped out rather than `take()`n: an optional occurrence taken or assigned goes through
        // value witnesses, where a swap moves its words.
        var occurrence: Occurrence?
        swap(&occurrence, &pending[top.series])
        // The series' next occurrence takes its place at the top, and sinks as far as it must.
        if let start = advance(top.series) {
            heap[0].start = start
        } else {
            let last = heap.removeLast()
            guard !heap.isEmpty else { return occurrence }
            heap[0] = last
        }
        siftDown(0)
        return occurrence
    }

    /// Reads the next occurrence of series `index` into its slot: its start, or nil (its diagnostics
    /// collected) when the series is done.
    private mutating func advance(_ index: Int) -> Int? {
        // Its start is read from the local before the occurrence moves into its slot: read through
        // the array (`pending[index]?.startInstant`) it was copied out and its references retained.
        var next = series[index].next()
        guard let start = next?.startInstant else {
            diagnostics.collect(series[index].diagnostics)
            return nil
        }
        swap(&pending[index], &next)
        return start
    }

    /// Adds the next occurrence of series `index` to the heap, or collects its diagnostics when it is done.
    private mutating func pull(_ index: Int) {
        guard let start = advance(index) else { return }
        heap.append((start, index))
        var child = heap.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard precedes(child, parent) else { break }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    /// Moves the entry at `start` down to its place: the smaller child rises into the hole it
    /// leaves until the entry precedes both children, then the entry is written once. Through the
    /// buffer: swapping through the array checked its uniqueness and bounds at every level (some
    /// 530 instructions an occurrence over 1,000 series).
    private mutating func siftDown(_ start: Int) {
        heap.withUnsafeMutableBufferPointer { heap in
            let entry = heap[start]
            var hole = start
            while true {
                var child = 2 * hole + 1
                guard child < heap.count else { break }
                if child + 1 < heap.count && heap[child + 1] < heap[child] { child += 1 }
                guard heap[child] < entry else { break }
                heap[hole] = heap[child]
                hole = child
            }
            heap[hole] = entry
        }
    }

    private func precedes(_ first: Int, _ second: Int) -> Bool {
        heap[first] < heap[second]
    }
}
