import ICalendar

/// Collects output bytes and hands them to their destination in large writes, so that streaming
/// millions of small records costs few system calls and little memory.
struct BufferedOutput {
    private var bytes: [UInt8] = []
    private let destination: OutputDestination
    /// The size of the writes, that of the .ics writer's chunks.
    static let threshold = ICalendarStreamWriter.chunkSize

    init(_ destination: OutputDestination) {
        self.destination = destination
        bytes.reserveCapacity(Self.threshold + 4_096)
    }

    mutating func append(_ data: [UInt8]) {
        bytes.append(contentsOf: data)
        if bytes.count >= Self.threshold { flush() }
    }

    /// Lets `write` append to the buffer in place, for records encoded straight into it.
    mutating func append(_ write: (inout [UInt8]) -> Void) {
        write(&bytes)
        if bytes.count >= Self.threshold { flush() }
    }

    mutating func flush() {
        guard !bytes.isEmpty else { return }
        destination.write(bytes)
        bytes.removeAll(keepingCapacity: true)
    }
}
