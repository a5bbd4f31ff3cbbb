import CalendarModel

/// Every occurrence of every series of a document in a window: series in document order, each
/// series' occurrences in start order, produced lazily.
public struct DocumentOccurrences: IteratorProtocol, Sequence, Sendable {
    private let series: [EventSeries]
    private let window: ExpansionWindow
    private let zones: ExpansionZones
    private let options: ExpansionOptions
    private var seriesIndex = 0
    private var current: SeriesOccurrences?
    /// Unresolved zones, caps reached and other problems met so far.
    public private(set) var diagnostics: [Diagnostic]

    /// The occurrences of `document` overlapping `window`; floating times and dates are read on `floating`.
    public init(
        document: CalendarDocument, window: ExpansionWindow, floating: ZoneClock = .utc,
        options: ExpansionOptions = .init()
    ) {
        series = document.series
        self.window = window
        zones = ExpansionZones(document: document, floating: floating)
        self.options = options
        diagnostics = zones.diagnostics
    }

    public mutating func next() -> Occurrence? {
        while true {
            if current == nil {
                guard seriesIndex < series.count else { return nil }
                current = SeriesOccurrences(series: series[seriesIndex], window: window, zones: zones, options: options)
                seriesIndex += 1
            }
            if let occurrence = current?.next() { return occurrence }
            diagnostics += current?.diagnostics ?? []
            current = nil
        }
    }
}
