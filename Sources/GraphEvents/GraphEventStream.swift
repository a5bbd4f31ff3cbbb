import CalendarModel

/// Reads Graph event JSON fed in chunks (from a pipe), handing over each event as soon as the
/// bytes holding it have arrived: events, arrays of events, pages, NDJSON, concatenated. An event
/// of a top-level array or of a page's `value` is handed over on its own, without waiting for the
/// rest of its array or page.
public struct GraphEventStream: Sendable {
    /// The file name used in diagnostics.
    public let file: String?
    private var reader: JSONStreamReader
    private var walker: GraphDocumentWalker

    /// A stream naming `file` in its diagnostics and holding its input to `limits`.
    public init(file: String? = nil, limits: JSONLimits = JSONLimits()) {
        self.file = file
        reader = JSONStreamReader(limits: limits)
        walker = GraphDocumentWalker(file: file)
    }

    /// A stream over the whole input, already complete.
    init(file: String?, limits: JSONLimits, bytes: [UInt8]) {
        self.file = file
        reader = JSONStreamReader(bytes: bytes, limits: limits)
        walker = GraphDocumentWalker(file: file)
    }

    /// The last page's `@odata.nextLink` seen so far.
    public var nextLink: String? { walker.nextLink }

    /// Adds the next chunk of input and hands the events it completes to `each`.
    public mutating func append(_ chunk: some Sequence<UInt8>, each: (GraphEventRecord) -> Void) {
        guard !walker.failed else { return }
        reader.append(chunk)
        drain(each)
    }

    /// Ends the input, hands over what remains, and returns every diagnostic of the stream.
    public mutating func finish(each: (GraphEventRecord) -> Void) -> [Diagnostic] {
        reader.finish()
        drain(each)
        return walker.finish(each)
    }

    private mutating func drain(_ each: (GraphEventRecord) -> Void) {
        // The walker works on the reader's buffer while the reader holds it.
        var walker = GraphDocumentWalker(file: file)
        swap(&walker, &self.walker)
        defer { swap(&walker, &self.walker) }
        let dropped = reader.droppedCount
        let tape = JSONTapeBuffer()
        while !walker.failed {
            do throws(JSONError) {
                let read = try reader.step { scanner throws(JSONError) in
                    try walker.step(&scanner, dropped: dropped, tape: tape, each)
                }
                guard read == true else { return }
            } catch {
                walker.fail(error)
            }
        }
    }
}
