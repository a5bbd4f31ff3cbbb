import CalendarModel
import GraphEvents
import ICalendar

/// The events of a Graph JSON or NDJSON input, read and mapped a chunk at a time and handed out one
/// by one (each with the line it begins on), in the order reading the input whole gives them: the
/// passes of `SeriesIndex` and `SeriesReader` pull events, the readers push them.
struct MappedEventReader {
    private var source: FileRegionSource
    private var graph: GraphEventStream?
    private var lines: EventJSONReader?
    /// The events mapped from the last chunk, and how many of them were handed out.
    private var pending: [(event: Event, line: Int?)] = []
    private var handedOut = 0
    private var ended = false
    /// What reading reported so far (Graph JSON: once the input has ended).
    private(set) var diagnostics: [Diagnostic] = []
    /// The input's bytes read so far.
    private(set) var bytesRead = 0

    /// A reader of `file`, which is Graph JSON or NDJSON.
    init(_ file: SeriesIndex.File, limits: JSONLimits) {
        source = file.content.reader()
        if file.format == .graph {
            graph = GraphEventStream(file: file.name, limits: limits)
        } else {
            lines = EventJSONReader(file: file.name, limits: limits)
        }
    }

    /// The next event and the line it begins on; nil at the end of the input.
    mutating func next() -> (event: Event, line: Int?)? {
        while handedOut == pending.count {
            guard !ended else { return nil }
            var mapped: [(event: Event, line: Int?)] = []
            let chunk = source.nextChunk()
            bytesRead += chunk?.count ?? 0
            if let chunk, graph != nil {
                graph?.append(chunk) { mapped.append(($0.event, $0.location.line)) }
            } else if graph != nil {
                diagnostics += graph?.finish { mapped.append(($0.event, $0.location.line)) } ?? []
            } else {
                diagnostics += lines?.read(chunk) { mapped.append(($0, $1)) } ?? []
            }
            ended = chunk == nil
            pending = mapped
            handedOut = 0
        }
        defer { handedOut += 1 }
        return pending[handedOut]
    }
}
