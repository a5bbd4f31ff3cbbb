import CLZ4
import Foundation

/// Sorts records (bytes with a key) of any total size with bounded memory: records are gathered up to
/// `runBytes`, each full batch is sorted and spilled to a run file (in LZ4 blocks), and the runs are
/// merged k-way (at most `fanIn` at a time, merging runs into longer runs first when there are more).
/// Records with equal keys keep the order they were added in. Nothing touches the disk when all
/// records fit.
package struct ExternalSorter {
    /// What records are ordered by, compared in order.
    package struct Key: Comparable, Sendable {
        package var first: Int64
        package var second: Int64
        package var third: Int64

        package init(_ first: Int64, _ second: Int64, _ third: Int64) {
            self.first = first
            self.second = second
            self.third = third
        }

        package static func < (a: Key, b: Key) -> Bool {
            (a.first, a.second, a.third) < (b.first, b.second, b.third)
        }
    }

    private let scratch: ScratchSpace
    private let runBytes: Int
    private let fanIn: Int
    private var arena: [UInt8] = []
    /// The records gathered since the last spill, each at `start` in `arena`: later ones start later,
    /// so that order breaks ties between equal keys.
    private var entries: [Entry] = []
    private var runs: [SpillWriter] = []
    /// The batch being sorted and written on another thread, while the next one is gathered.
    private var spilling: SpillJob?

    fileprivate typealias Entry = (key: Key, start: Int, count: Int)

    /// Gathers runs of about `runBytes` and merges up to `fanIn` of them at once. The fan-in is
    /// large because every level of merging writes and reads all records again (a 1M-event
    /// expansion spills about 9 GB before compression): the merge holds a 16 KiB block of each run.
    /// A full batch is sorted and written on another thread while the next is gathered, so that
    /// twice `runBytes` may be held; unless `spillsAside` is false, when the thread that adds
    /// records sorts and writes each batch itself (a sorter beside another that fills both cores).
    package init(scratch: ScratchSpace, runBytes: Int = 8 << 20, fanIn: Int = 4096, spillsAside: Bool = true) {
        self.scratch = scratch
        self.runBytes = runBytes
        self.fanIn = max(2, fanIn)
        self.spillsAside = spillsAside
    }

    private let spillsAside: Bool

    /// How many sorted runs have been spilled so far.
    package var spilledRuns: Int { runs.count + (spilling == nil ? 0 : 1) }

    /// Adds a record.
    package mutating func append(_ key: Key, _ record: some Collection<UInt8>) throws(AtomicFile.WriteError) {
        try append(key) { $0.append(contentsOf: record) }
    }

    /// Adds the record `write` appends to the bytes it is given (and does nothing else with them):
    /// written where it is kept, not copied there.
    package mutating func append(_ key: Key, writing write: (inout [UInt8]) -> Void) throws(AtomicFile.WriteError) {
        if arena.capacity < runBytes { arena.reserveCapacity(runBytes + (64 << 10)) }
        let start = arena.count
        write(&arena)
        entries.append((key, start, arena.count - start))
        if arena.count + entries.count * 40 >= runBytes { try spill() }
    }

    /// Takes in the records of `other`, a sorter filled at the same time from another part of the
    /// input, whose keys all differ from this one's: they are sorted among these.
    package mutating func adopt(_ other: consuming ExternalSorter) throws(AtomicFile.WriteError) {
        var other = other
        try other.collectSpill()
        runs += other.runs
        for entry in other.entries { try append(entry.key, other.arena[entry.start..<entry.start + entry.count]) }
    }

    /// Every record in key order, one at a time; the sorter is left empty.
    package mutating func sorted() throws(AtomicFile.WriteError) -> SortedRecords {
        defer {
            arena = []
            entries = []
            runs = []
        }
        if runs.isEmpty && spilling == nil {
            entries.sort(by: Self.inOrder)
            return SortedRecords(arena: arena, entries: entries)
        }
        if !entries.isEmpty { try spill() }
        try collectSpill()
        // The gathering buffers are not needed again: give their memory to the merge.
        arena = []
        entries = []
        while runs.count > fanIn {
            var merged: [SpillWriter] = []
            for start in stride(from: 0, to: runs.count, by: fanIn) {
                var group = try SortedRecords(
                    merging: Array(runs[start..<min(runs.count, start + fanIn)]))
                var run = RunWriter(try scratch.create("run"))
                while try group.advance() {
                    let key = group.key
                    group.withRecord { run.append(key, $0) }
                }
                merged.append(try run.finish())
            }
            runs = merged
        }
        return try SortedRecords(merging: runs)
    }

    fileprivate static func inOrder(_ a: Entry, _ b: Entry) -> Bool { (a.key, a.start) < (b.key, b.start) }

    /// Hands what is gathered to another thread to be sorted into a new run file, once the batch
    /// before it is written, and goes on with that batch's buffers.
    private mutating func spill() throws(AtomicFile.WriteError) {
        let spare = try collectSpill()
        let job = SpillJob(arena: arena, entries: entries, run: try scratch.create("run"))
        arena = spare?.arena ?? []
        entries = spare?.entries ?? []
        guard spillsAside else {
            // Written here, its buffers are the next batch's: one batch is held, not two.
            job.runHere()
            let done = try job.wait()
            runs.append(done.run)
            (arena, entries) = (done.arena, done.entries)
            return
        }
        job.start()
        spilling = job
    }

    /// Waits for the batch being spilled; its run joins the others and its buffers, emptied, are returned.
    @discardableResult
    private mutating func collectSpill() throws(AtomicFile.WriteError) -> (arena: [UInt8], entries: [Entry])? {
        guard let job = spilling else { return nil }
        spilling = nil
        let done = try job.wait()
        runs.append(done.run)
        return (done.arena, done.entries)
    }
}

/// One batch of records sorted and written to its run on a thread of its own. The owner gives the
/// batch up when it starts the job and touches nothing of it again until `wait()` returns.
private final class SpillJob: @unchecked Sendable {
    private var arena: [UInt8]
    private var entries: [ExternalSorter.Entry]
    private let run: SpillWriter
    /// The sort and write, once started; nil or the error writing the run met.
    private var job: ThreadResult<AtomicFile.WriteError?>?

    init(arena: [UInt8], entries: [ExternalSorter.Entry], run: SpillWriter) {
        self.arena = arena
        self.entries = entries
        self.run = run
    }

    /// Sorts and writes the batch on a thread of its own.
    func start() {
        job = ThreadResult { [self] in write() }
    }

    /// Sorts and writes the batch on the calling thread.
    func runHere() {
        failure = write()
    }

    /// The error writing met, when the batch was written on the calling thread.
    private var failure: AtomicFile.WriteError?

    private func write() -> AtomicFile.WriteError? {
        entries.sort(by: ExternalSorter.inOrder)
        var writer = RunWriter(run)
        // Each record appended from the arena's buffer: a slice of the array retains and releases it.
        arena.withUnsafeBytes { arena in
            for entry in entries {
                writer.append(
                    entry.key, UnsafeRawBufferPointer(rebasing: arena[entry.start..<entry.start + entry.count]))
            }
        }
        defer {
            arena.removeAll(keepingCapacity: true)
            entries.removeAll(keepingCapacity: true)
        }
        do throws(AtomicFile.WriteError) {
            _ = try writer.finish()
            return nil
        } catch {
            return error
        }
    }

    /// The run, and the batch's buffers for the next one; throws when writing the run failed.
    func wait() throws(AtomicFile.WriteError) -> (run: SpillWriter, arena: [UInt8], entries: [ExternalSorter.Entry]) {
        if let failure = job?.wait() ?? failure { throw failure }
        return (run, arena, entries)
    }
}

/// Writes a run: each record after its key and length (`readHeader`'s varints), gathered in blocks of
/// about `blockSize` that are LZ4-compressed and written in chunks (appending to the `SpillWriter`'s
/// buffer, a class's property, checked exclusive access at every call).
private struct RunWriter {
    private let spill: SpillWriter
    /// The records of the block being gathered.
    private var buffer: [UInt8] = []
    /// Compressed blocks, each after its header, gathered to be written together.
    private var compressed: [UInt8] = []
    /// Where a block is compressed, made once: made room for in `compressed` at each block, its
    /// bound was zeroed first (16 KiB a block, 2 % of an expansion's instructions).
    private var scratch = [UInt8](repeating: 0, count: Int(LZ4_compressBound(Int32(RunWriter.blockSize + 4_096))))
    private let compressor = BlockCompressor()

    init(_ spill: SpillWriter) {
        self.spill = spill
        buffer.reserveCapacity(Self.blockSize + 4_096)
    }

    /// How many bytes of records are compressed together. The merge holds a block of every run
    /// (1,100 runs at 1M events); 8 MiB of an expansion compressed 10.7x in 16 KiB blocks, 6.8x in 4 KiB.
    static let blockSize = 16 << 10
    /// Blocks are written to the file in chunks of about this size.
    private static let chunkSize = 64 << 10

    mutating func append(_ key: ExternalSorter.Key, _ record: UnsafeRawBufferPointer) {
        // The header put together on the stack and appended at once: a byte at a time, each append
        // checked the array's capacity and uniqueness (4 % of an expansion's instructions).
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: Self.longestHeader) { header in
            var count = 0
            Self.putVarint(key.first, into: header, at: &count)
            Self.putVarint(key.second, into: header, at: &count)
            Self.putVarint(key.third, into: header, at: &count)
            Self.putVarint(Int64(record.count), into: header, at: &count)
            buffer.append(contentsOf: UnsafeBufferPointer(rebasing: header[..<count]))
        }
        buffer.append(contentsOf: record)
        if buffer.count >= Self.blockSize { compressBlock() }
    }

    /// Compresses the gathered records into a block: their length and the compressed length (two
    /// little-endian 32-bit words), then the LZ4 block.
    private mutating func compressBlock() {
        guard !buffer.isEmpty else { return }
        let bound = Int(LZ4_compressBound(Int32(buffer.count)))
        if scratch.count < bound { scratch = [UInt8](repeating: 0, count: bound) }
        let length = buffer.withUnsafeBytes { source in
            scratch.withUnsafeMutableBytes { target in compressor.compress(source, into: target) }
        }
        // LZ4 cannot fail with room for its bound.
        precondition(length > 0, "LZ4 could not compress a block within its bound")
        withUnsafeBytes(of: UInt32(buffer.count).littleEndian) { compressed.append(contentsOf: $0) }
        withUnsafeBytes(of: UInt32(length).littleEndian) { compressed.append(contentsOf: $0) }
        compressed += scratch[..<Int(length)]
        buffer.removeAll(keepingCapacity: true)
        if compressed.count >= Self.chunkSize {
            spill.write(chunk: compressed)
            compressed.removeAll(keepingCapacity: true)
        }
    }

    /// A record's header: its key's three integers and its length, each zigzag-encoded (a start may
    /// be before 1970) in seven-bit groups, low first (LEB128). Twelve bytes or so for an occurrence,
    /// where four whole words were 32: the runs of a 1M-event expansion are 9 GB.
    static let longestHeader = 4 * 10

    private static func putVarint(_ value: Int64, into buffer: UnsafeMutableBufferPointer<UInt8>, at count: inout Int) {
        var rest = UInt64(bitPattern: (value << 1) ^ (value >> 63))
        while rest >= 0x80 {
            buffer[count] = UInt8(truncatingIfNeeded: rest) | 0x80
            count += 1
            rest >>= 7
        }
        buffer[count] = UInt8(rest)
        count += 1
    }

    /// The header at `position` in `bytes`, `position` moved past it; nil when `bytes` end inside it.
    static func readHeader(
        from bytes: UnsafeRawBufferPointer, at position: inout Int
    ) -> (key: ExternalSorter.Key, length: Int)? {
        func varint() -> Int64? {
            var value: UInt64 = 0
            var shift: UInt64 = 0
            while position < bytes.count && shift < 64 {
                let byte = bytes[position]
                position += 1
                value |= UInt64(byte & 0x7F) << shift
                if byte < 0x80 { return Int64(bitPattern: value >> 1) ^ -Int64(bitPattern: value & 1) }
                shift += 7
            }
            return nil
        }
        guard let first = varint(), let second = varint(), let third = varint(), let length = varint(), length >= 0
        else { return nil }
        return (ExternalSorter.Key(first, second, third), Int(length))
    }

    consuming func finish() throws(AtomicFile.WriteError) -> SpillWriter {
        compressBlock()
        spill.write(chunk: compressed)
        try spill.finish()
        return spill
    }
}

/// LZ4's compression state for a run's blocks, each compressed alone: reset between blocks rather
/// than made anew (`LZ4_compress_default` zeroed its 16 KiB table for every block, 2 % of an
/// expansion's instructions). A block is still decompressed alone (`LZ4_decompress_safe`).
private final class BlockCompressor {
    private let stream = LZ4_createStream()

    deinit { LZ4_freeStream(stream) }

    /// Compresses `source` into `target`, which holds its bound: the compressed length.
    func compress(_ source: UnsafeRawBufferPointer, into target: UnsafeMutableRawBufferPointer) -> Int32 {
        LZ4_resetStream_fast(stream)
        return LZ4_compress_fast_continue(
            stream, source.baseAddress!.assumingMemoryBound(to: CChar.self),
            target.baseAddress!.assumingMemoryBound(to: CChar.self), Int32(source.count), Int32(target.count), 1)
    }
}

/// What an `ExternalSorter` holds, in key order: its records in memory, or its runs merged with a
/// binary min-heap of the runs by their current record (equal keys go in the order of the runs,
/// which were spilled in the order their records were added).
package struct SortedRecords {
    private var arena: [UInt8] = []
    private var entries: [ExternalSorter.Entry] = []
    private var index = 0
    private var cursors: [RunCursor] = []
    /// The runs that have records left, as a heap by their current record's key (kept beside the
    /// run's index, so that sifting reads the heap alone).
    private var heap: [(key: ExternalSorter.Key, run: Int)] = []
    /// Whether the heap's top was handed out and is to be moved past at the next call.
    private var handedOut = false

    fileprivate init(arena: [UInt8], entries: [ExternalSorter.Entry]) {
        self.arena = arena
        self.entries = entries
    }

    /// Merges `runs`, holding a block of each (`RunWriter.blockSize`).
    fileprivate init(merging runs: [SpillWriter]) throws(AtomicFile.WriteError) {
        cursors = runs.map { RunCursor($0) }
        for run in cursors.indices {
            if cursors[run].advance() {
                heap.append((cursors[run].key, run))
            } else {
                try cursors[run].checkRead()
            }
        }
        for start in stride(from: heap.count / 2 - 1, through: 0, by: -1) { siftDown(start) }
    }

    /// The current record's key and bytes, after `advance()` returned true; valid until the next call.
    package private(set) var key = ExternalSorter.Key(0, 0, 0)
    package var record: ArraySlice<UInt8> {
        if cursors.isEmpty {
            let entry = entries[index - 1]
            return arena[entry.start..<entry.start + entry.count]
        }
        return cursors[heap[0].run].record
    }

    /// Calls `body` with the current record's bytes where they lie, valid during the call: the
    /// merge's way to copy each record out without retaining the buffer that holds it. (Mutating so
    /// that the run's cursor is reached in place: read through the array, it was copied, its
    /// buffers retained and released, for every record.)
    package mutating func withRecord<Result>(_ body: (UnsafeRawBufferPointer) -> Result) -> Result {
        if cursors.isEmpty {
            let entry = entries[index - 1]
            return arena.withUnsafeBytes { arena in
                body(UnsafeRawBufferPointer(rebasing: arena[entry.start..<entry.start + entry.count]))
            }
        }
        return cursors[heap[0].run].withRecord(body)
    }

    /// Moves to the next record; false when there is none left. (Not an optional tuple: destroying
    /// one went through the generic value witnesses, some 350 instructions a record.)
    package mutating func advance() throws(AtomicFile.WriteError) -> Bool {
        if cursors.isEmpty {
            guard index < entries.count else { return false }
            key = entries[index].key
            index += 1
            return true
        }
        if handedOut, let top = heap.first?.run {
            if cursors[top].advance() {
                heap[0].key = cursors[top].key
            } else {
                try cursors[top].checkRead()
                heap[0] = heap[heap.count - 1]
                heap.removeLast()
            }
            siftDown(0)
        }
        guard let top = heap.first else { return false }
        handedOut = true
        key = top.key
        return true
    }

    private static func precedes(_ a: (key: ExternalSorter.Key, run: Int), _ b: (key: ExternalSorter.Key, run: Int))
        -> Bool
    {
        (a.key.first, a.key.second, a.key.third, a.run) < (b.key.first, b.key.second, b.key.third, b.run)
    }

    /// Moves the entry at `start` down to its place, the entries it passes moving up into the hole.
    private mutating func siftDown(_ start: Int) {
        guard start < heap.count else { return }
        let moving = heap[start]
        var hole = start
        while true {
            var child = 2 * hole + 1
            guard child < heap.count else { break }
            if child + 1 < heap.count && Self.precedes(heap[child + 1], heap[child]) { child += 1 }
            guard Self.precedes(heap[child], moving) else { break }
            heap[hole] = heap[child]
            hole = child
        }
        heap[hole] = moving
    }
}

/// A run being merged: its records read through a buffer, the current one handed out as a slice of
/// it (not an array of its own: merging 9 GB made an array a record). Changed only in place in the
/// merge's array: a copy would share its buffer (a class), not copy it on write as an array did.
private struct RunCursor {
    private let run: SpillWriter
    /// Where the next read starts in the run.
    private var offset = 0
    /// Decompressed bytes up to `end`; the rest is room for the next block.
    private var buffer: CursorBuffer
    private var end = 0
    /// The run's bytes read ahead of the blocks decompressed, from `compressedStart` to
    /// `compressedEnd`: read a few blocks at a time. A block's header and the block were read
    /// apart, two system calls a block (some 1.2 million at 1M events, a tenth of the merge's thread).
    private var compressed = [UInt8](repeating: 0, count: RunCursor.readAheadSize)
    private var compressedStart = 0
    private var compressedEnd = 0
    /// How much is read at once: about two of an expansion's compressed blocks, 4.4 MB for the
    /// 1,100 runs of a 1M-event expansion.
    static let readAheadSize = 4 << 10
    /// Where the current record begins in `buffer`, and how long it is.
    private var start = 0
    private var count = 0
    /// The current record's key.
    private(set) var key = ExternalSorter.Key(0, 0, 0)
    /// Set when the run ended inside a record or a block, or a block did not decompress.
    private var damaged = false

    init(_ run: SpillWriter) {
        self.run = run
        buffer = CursorBuffer(count: RunWriter.blockSize + 1_024)
    }

    /// The current record.
    var record: ArraySlice<UInt8> { ArraySlice(UnsafeRawBufferPointer(rebasing: buffer.bytes[start..<start + count])) }

    /// Calls `body` with the current record's bytes, valid during the call.
    mutating func withRecord<Result>(_ body: (UnsafeRawBufferPointer) -> Result) -> Result {
        body(UnsafeRawBufferPointer(rebasing: buffer.bytes[start..<start + count]))
    }

    /// Moves to the next record; false at the end of the run (or when a read failed: `checkRead`).
    mutating func advance() -> Bool {
        start += count
        count = 0
        if end - start < RunWriter.longestHeader { refill(RunWriter.longestHeader) }
        guard start < end else { return false }
        var position = start
        let header = RunWriter.readHeader(from: UnsafeRawBufferPointer(rebasing: buffer.bytes[..<end]), at: &position)
        guard let (key, length) = header else {
            damaged = true
            return false
        }
        self.key = key
        start = position
        if end - start < length { refill(length) }
        guard end - start >= length else {
            damaged = true
            return false
        }
        count = length
        return true
    }

    /// Throws when a read failed: the run then ended early, and what it held would be lost silently.
    func checkRead() throws(AtomicFile.WriteError) {
        if let failure = run.readFailure ?? (damaged ? "the run ends inside a record or is damaged" : nil) {
            throw AtomicFile.WriteError(path: run.path, reason: failure, action: "read back")
        }
    }

    /// Moves the unread bytes to the front and decompresses blocks after them until `wanted` bytes
    /// from `start` are there, or the run ends.
    private mutating func refill(_ wanted: Int) {
        if start > 0 {
            let (from, unread) = (start, end - start)
            buffer.bytes.baseAddress!.copyMemory(from: buffer.bytes.baseAddress! + from, byteCount: unread)
            (start, end) = (0, unread)
        }
        while end - start < wanted, decompressBlock() {}
    }

    /// Reads the next block and decompresses it at `end`; false at the end of the run or when the
    /// block is damaged (`damaged` then set).
    private mutating func decompressBlock() -> Bool {
        guard readAhead(8) else {
            damaged = compressedEnd > compressedStart
            return false
        }
        let (length, compressedLength) = compressed.withUnsafeBytes { [start = compressedStart] bytes in
            (
                Int(UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: start, as: UInt32.self))),
                Int(UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: start + 4, as: UInt32.self)))
            )
        }
        // What `RunWriter` writes: a block of at least one record, within LZ4's bound for its length.
        guard length > 0, length <= Int(Int32.max), compressedLength > 0,
            compressedLength <= Int(LZ4_compressBound(Int32(length))), readAhead(8 + compressedLength)
        else {
            damaged = true
            return false
        }
        if buffer.bytes.count < end + length { buffer = CursorBuffer(count: end + length, keeping: buffer, upTo: end) }
        let target = buffer.bytes.baseAddress! + end
        let decompressed = compressed.withUnsafeBytes { source in
            LZ4_decompress_safe(
                (source.baseAddress! + compressedStart + 8).assumingMemoryBound(to: CChar.self),
                target.assumingMemoryBound(to: CChar.self), Int32(compressedLength), Int32(length))
        }
        guard decompressed == length else {
            damaged = true
            return false
        }
        end += length
        compressedStart += 8 + compressedLength
        return true
    }

    /// Makes `wanted` bytes of the run from `compressedStart` on be in `compressed`, reading as many
    /// more as it holds: false when the run ends (or a read fails) first.
    private mutating func readAhead(_ wanted: Int) -> Bool {
        guard compressedEnd - compressedStart < wanted else { return true }
        let unread = compressedEnd - compressedStart
        if compressed.count < wanted { compressed += [UInt8](repeating: 0, count: wanted - compressed.count) }
        compressed.withUnsafeMutableBytes { bytes in
            if unread > 0 {
                bytes.baseAddress!.copyMemory(from: bytes.baseAddress! + compressedStart, byteCount: unread)
            }
            (compressedStart, compressedEnd) = (0, unread)
            while compressedEnd < wanted {
                let count = run.read(into: UnsafeMutableRawBufferPointer(rebasing: bytes[compressedEnd...]), at: offset)
                guard count > 0 else { return }
                compressedEnd += count
                offset += count
            }
        }
        return compressedEnd >= wanted
    }
}

/// The bytes a run's cursor decompresses into, handed to the merge where they lie. (An array's buffer,
/// lent to the merge's closure for each record, was retained and released around the call: two
/// atomic operations a record, on the one thread that merges.) Replaced when a record needs more
/// room, not grown: a class's `let` is read without the exclusivity check of a `var`.
private final class CursorBuffer {
    let bytes: UnsafeMutableRawBufferPointer

    /// `count` bytes, the first `kept` of them those of `old`.
    init(count: Int, keeping old: CursorBuffer? = nil, upTo kept: Int = 0) {
        bytes = .allocate(byteCount: count, alignment: 1)
        bytes.initializeMemory(as: UInt8.self, repeating: 0)
        if let old { bytes.copyMemory(from: UnsafeRawBufferPointer(rebasing: old.bytes[..<kept])) }
    }

    deinit { bytes.deallocate() }
}
