import ICalendar

/// Collects output bytes and hands them to their destination in large writes, so that streaming
/// millions of small records costs few system calls and little memory. A full chunk is written on
/// another thread while the next one fills (an expansion writes gigabytes, and the write system
/// calls were a tenth of its time), unless the output is made on a thread of its own already;
/// `flush()` returns once everything is written.
struct BufferedOutput {
    private var bytes: [UInt8] = []
    private let writer: ChunkWriter
    /// The size of the writes: 256 KiB, where 64 KiB chunks kept a formatting thread waiting on the
    /// writing one (`expand --format ics` over 1,000 series: 98 → 89 ms).
    static let threshold = 1 << 18

    /// Output to `destination`. `writesAside: false` writes each chunk on the thread that fills it:
    /// for a thread that is itself beside the one doing the work (`OccurrenceWriter`), a third thread
    /// on two cores cost more time than the writes (`--format ics` over 1,000 series: 94 → 90 ms).
    init(_ destination: OutputDestination, writesAside: Bool = true) {
        writer = ChunkWriter(destination, writesAside: writesAside)
        bytes.reserveCapacity(Self.threshold + 4_096)
    }

    mutating func append(_ data: [UInt8]) {
        bytes.append(contentsOf: data)
        if bytes.count >= Self.threshold { handOff() }
    }

    /// Lets `write` append to the buffer in place, for records encoded straight into it.
    mutating func append(_ write: (inout [UInt8]) -> Void) {
        write(&bytes)
        if bytes.count >= Self.threshold { handOff() }
    }

    /// Writes everything appended so far, and returns when it is written (before a diagnostic is
    /// said about it, or the destination is put in place).
    mutating func flush() {
        handOff()
        writer.waitForWrite()
    }

    /// Waits for the chunks handed over to be written, without handing over what is gathered: before
    /// a destination is abandoned (its descriptor closed), or something else is written beside it.
    func waitForWrites() {
        writer.waitForWrite()
    }

    /// Gives the chunk to the writer and goes on with an empty buffer.
    private mutating func handOff() {
        guard !bytes.isEmpty else { return }
        writer.write(&bytes)
    }
}

/// Writes chunks to a destination on a thread of its own (`BatchPipe`), four waiting at most, or on
/// the caller's. The caller gives a chunk up when it hands it over; the destination is used by that
/// thread alone until the writes are waited for.
private final class ChunkWriter {
    private let destination: OutputDestination
    private let writesAside: Bool
    private var pipe: BatchPipe<UInt8>?

    init(_ destination: OutputDestination, writesAside: Bool) {
        self.destination = destination
        self.writesAside = writesAside
    }

    /// Starts writing `chunk` once the chunks before it are written, and leaves an empty buffer of
    /// its size in its place.
    func write(_ chunk: inout [UInt8]) {
        guard writesAside else {
            destination.write(chunk)
            return chunk.removeAll(keepingCapacity: true)
        }
        if pipe == nil {
            let destination = UncheckedDestination(destination)
            pipe = BatchPipe(capacity: 4) { chunk in destination.value.write(chunk) }
        }
        pipe?.send(chunk)
        let capacity = chunk.capacity
        chunk = []
        chunk.reserveCapacity(capacity)
    }

    func waitForWrite() {
        pipe?.close()
        pipe = nil
    }

    // A writer dropped without a flush (a run stopped early) still finishes its writes before the
    // destination is concluded.
    deinit { waitForWrite() }
}

/// The destination, handed to the writing thread, which alone uses it until it is waited for.
private struct UncheckedDestination: @unchecked Sendable {
    let value: OutputDestination
    init(_ value: OutputDestination) { self.value = value }
}
