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
    /// The events mapped from the last chunk not yet handed out, last first: each is moved out
    /// (`popLast`), not copied, and the buffer is kept for the next chunk.
    private var pending: [(event: Event, line: Int?)] = []
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
        while pending.isEmpty {
            guard !ended else { return nil }
            // Mapped into a local array (the readers' callbacks cannot reach `self`), then reversed.
            var mapped: [(event: Event, line: Int?)] = []
            swap(&mapped, &pending)
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
            mapped.reverse()
            swap(&mapped, &pending)
        }
        return pending.popLast()
    }
}

/// The UIDs and start years of the events of a Graph JSON or NDJSON input, in no set order, each
/// at least as often as `MappedEventReader` hands on an event with it: Graph JSON is named
/// without being mapped (`GraphIdentityStream`), NDJSON is read.
struct EventNameReader {
    private var source: FileRegionSource?
    private var graph: GraphIdentityStream?
    private var events: MappedEventReader?
    /// The identities named from the last chunk not yet handed out, last first (as
    /// `MappedEventReader.pending`).
    private var pending: [GraphEventIdentity] = []
    private var ended = false

    /// A reader of `file`, which is Graph JSON or NDJSON.
    init(_ file: SeriesIndex.File, limits: JSONLimits) {
        if file.format == .graph {
            source = file.content.reader()
            graph = GraphIdentityStream(limits: limits)
        } else {
            events = MappedEventReader(file, limits: limits)
        }
    }

    /// The next event's UID and start year; nil at the end of the input.
    mutating func next() -> (uid: String, year: Int?)? {
        if events != nil {
            guard let (event, _) = events?.next() else { return nil }
            return (event.uid, event.start?.localDateTime.date.year)
        }
        while pending.isEmpty {
            guard !ended else { return nil }
            if let chunk = source?.nextChunk() {
                graph?.append(chunk) { pending.append($0) }
            } else {
                graph?.finish { pending.append($0) }
                ended = true
            }
            pending.reverse()
        }
        return pending.popLast().map { ($0.uid, $0.year) }
    }
}
