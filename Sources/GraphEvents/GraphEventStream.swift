import CalendarModel

/// Reads Graph event JSON fed in chunks (from a pipe), handing over each event as soon as the
/// bytes holding it have arrived: events, arrays of events, pages, NDJSON, concatenated. An event
/// of a top-level array or of a page's `value` is handed over on its own, without waiting for the
/// rest of its array or page.
public struct GraphEventStream: Sendable {
    private var stream: GraphObjectStream<GraphSeriesAssembler>

    /// A stream naming `file` in its diagnostics and holding its input to `limits`.
    public init(file: String? = nil, limits: JSONLimits = JSONLimits()) {
        stream = GraphObjectStream(file: file, limits: limits)
    }

    /// A stream over the whole input, already complete.
    init(file: String?, limits: JSONLimits, bytes: [UInt8]) {
        stream = GraphObjectStream(file: file, limits: limits, bytes: bytes)
    }

    /// The file name used in diagnostics.
    public var file: String? { stream.file }

    /// The last page's `@odata.nextLink` seen so far.
    public var nextLink: String? { stream.nextLink }

    /// Adds the next chunk of input and hands the events it completes to `each`.
    public mutating func append(_ chunk: some Sequence<UInt8>, each: (GraphEventRecord) -> Void) {
        stream.append(chunk, each: each)
    }

    /// Ends the input, hands over what remains, and returns every diagnostic of the stream.
    public mutating func finish(each: (GraphEventRecord) -> Void) -> [Diagnostic] {
        stream.finish(each: each)
    }
}
