import CalendarModel

/// Graph JSON fed in chunks, its event objects handed to a sink as soon as the bytes holding each
/// have arrived: the reading `GraphEventStream` and `GraphIdentityStream` share.
struct GraphObjectStream<Sink: GraphObjectSink>: Sendable {
    let file: String?
    private var reader: JSONStreamReader
    private var walker: GraphDocumentWalker<Sink>

    init(file: String?, limits: JSONLimits) {
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

    var nextLink: String? { walker.nextLink }

    mutating func append(_ chunk: some Sequence<UInt8>, each: (Sink.Output) -> Void) {
        guard !walker.failed else { return }
        reader.append(chunk)
        drain(each)
    }

    mutating func finish(each: (Sink.Output) -> Void) -> [Diagnostic] {
        reader.finish()
        drain(each)
        return walker.finish(each)
    }

    private mutating func drain(_ each: (Sink.Output) -> Void) {
        // The walker works on the reader's buffer while the reader holds it.
        var walker = GraphDocumentWalker<Sink>(file: file)
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
