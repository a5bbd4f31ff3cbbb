import Foundation
import ICalendar
import Synchronization

/// Where a streaming run spills to: files made in a directory (`$TMPDIR`) and unlinked at once, so
/// that only their open descriptors hold them. Nothing is left behind however the run ends, even
/// killed; the space comes back when the last descriptor closes.
public struct ScratchSpace: Sendable {
    /// Where the files are made.
    public let directory: String

    /// Scratch files in `directory` (`FileManager.default.temporaryDirectory.path`, say).
    public init(under directory: String) {
        self.directory = directory
    }

    /// A new, nameless file, open for writing and reading.
    package func create(_ prefix: String) throws(AtomicFile.WriteError) -> SpillWriter {
        try SpillWriter(in: directory, prefix: prefix)
    }
}

/// A file written through a buffer, then read back (any number of times) from any offset.
package final class SpillWriter {
    /// The name the file had, for messages.
    package let path: String
    fileprivate let descriptor: Int32
    private var buffer: [UInt8] = []
    /// The first write error, if any; later writes are skipped.
    package private(set) var failure: String?

    /// Makes `calport-PREFIX-XXXXXX` in `directory` and removes its name straight away.
    package init(in directory: String, prefix: String) throws(AtomicFile.WriteError) {
        var template = Array((directory as NSString).appendingPathComponent("calport-\(prefix)-XXXXXX").utf8CString)
        descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        path = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        guard descriptor >= 0 else { throw AtomicFile.WriteError(path: path, reason: String(cString: strerror(errno))) }
        unlink(path)
        _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        buffer.reserveCapacity(1 << 16)
    }

    /// Appends bytes, through the buffer.
    package func write(_ bytes: some Collection<UInt8>) {
        buffer.append(contentsOf: bytes)
        if buffer.count >= 1 << 16 { flush() }
    }

    /// Appends an integer, little-endian.
    package func write(_ value: UInt64) {
        withUnsafeBytes(of: value.littleEndian) { write($0) }
    }

    /// Writes what is buffered; throws the first error met so far.
    package func finish() throws(AtomicFile.WriteError) {
        flush()
        // A finished file is only read again: its buffer is not kept (a sort may hold hundreds of runs).
        buffer = []
        if let failure { throw AtomicFile.WriteError(path: path, reason: failure) }
    }

    /// The file's bytes from `offset`, in chunks of `chunkSize`.
    package func reader(from offset: Int = 0, chunkSize: Int = 1 << 16) -> FileRegionSource {
        FileRegionSource(descriptor: descriptor, offset: offset, end: nil, chunkSize: chunkSize, owner: self)
    }

    /// The first failed read of the file back, if any.
    package private(set) var readFailure: String?

    /// Reads what `buffer` holds from `offset` on: the count read, 0 at the end or after a failure.
    package func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int) -> Int {
        while readFailure == nil {
            let count = pread(descriptor, buffer.baseAddress, buffer.count, off_t(offset))
            if count >= 0 { return count }
            if errno != EINTR { readFailure = String(cString: strerror(errno)) }
        }
        return 0
    }

    /// Writes a chunk gathered elsewhere: straight to the file, without a copy, when nothing is buffered.
    package func write(chunk: [UInt8]) {
        guard buffer.isEmpty else { return write(chunk) }
        writeOut(chunk)
    }

    private func flush() {
        writeOut(buffer)
        buffer.removeAll(keepingCapacity: true)
    }

    private func writeOut(_ bytes: [UInt8]) {
        guard failure == nil else { return }
        var written = 0
        while written < bytes.count {
            let count = bytes.withUnsafeBytes {
                Foundation.write(descriptor, $0.baseAddress! + written, $0.count - written)
            }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else {
                failure = String(cString: strerror(errno))
                return
            }
            written += count
        }
    }

    deinit { close(descriptor) }
}

/// A file opened for reading more than once, from any offset, from any thread; closed when the last
/// reader is gone.
public final class ReadableFile: Sendable {
    package let descriptor: Int32
    private let firstFailure = Mutex<String?>(nil)

    /// The first read that failed, with the system's reason.
    var failure: String? { firstFailure.withLock { $0 } }

    /// Opens the file at `path` for reading.
    public init(path: String) throws(InputError) {
        descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw InputError(message: "\(path): error: cannot read input: \(String(cString: strerror(errno)))")
        }
    }

    /// The content of a finished spill file, which keeps existing after the writer is gone.
    package init(_ spill: SpillWriter) throws(InputError) {
        descriptor = dup(spill.descriptor)
        guard descriptor >= 0 else {
            throw InputError(message: "\(spill.path): error: cannot read: \(String(cString: strerror(errno)))")
        }
    }

    /// The file's size in bytes, for progress.
    public var size: Int {
        var status = stat()
        return fstat(descriptor, &status) == 0 ? Int(status.st_size) : 0
    }

    /// The file's bytes from `offset`, up to `end` (the end of the file when nil), in chunks of
    /// `chunkSize`.
    package func reader(from offset: Int = 0, upTo end: Int? = nil, chunkSize: Int = 1 << 20) -> FileRegionSource {
        FileRegionSource(descriptor: descriptor, offset: offset, end: end, chunkSize: chunkSize, owner: self)
    }

    /// The file's bytes from `offset` up to `end`, to read one component again: in small chunks, as
    /// a component is a few KiB (in chunks of `reader`'s megabyte, a file of events read again one by
    /// one would be read a megabyte an event).
    package func rereader(from offset: Int, upTo end: Int?) -> FileRegionSource {
        reader(from: offset, upTo: end, chunkSize: 16 << 10)
    }

    /// Notes a read that failed, unless one did before.
    fileprivate func noteFailure(_ reason: String) {
        firstFailure.withLock { failure in if failure == nil { failure = reason } }
    }

    deinit { close(descriptor) }
}

/// A file's bytes from an offset to its end, or to a given offset, keeping the file open while they
/// are read.
package struct FileRegionSource: ByteSource {
    private var source: FileDescriptorByteSource
    /// The bytes left before the region's end, when it ends before the file does.
    private var remainingInRegion: Int?
    /// Keeps the descriptor open while the source is in use.
    private let owner: AnyObject

    fileprivate init(descriptor: Int32, offset: Int, end: Int?, chunkSize: Int, owner: AnyObject) {
        source = FileDescriptorByteSource(descriptor: descriptor, chunkSize: chunkSize, offset: offset)
        remainingInRegion = end.map { max($0 - offset, 0) }
        self.owner = owner
    }

    /// Set when a read failed, with the system's reason.
    package var failure: String? { source.failure }

    package var remainingByteCount: Int? {
        guard let remainingInRegion else { return source.remainingByteCount }
        return min(source.remainingByteCount ?? remainingInRegion, remainingInRegion)
    }

    package mutating func nextChunk() -> [UInt8]? { chunkRead() }

    package mutating func readChunk(appendingTo buffer: inout [UInt8]) -> Bool {
        if remainingInRegion == 0 { return false }
        let before = buffer.count
        guard
            source.readChunk(appendingTo: &buffer, atMost: min(source.chunkSize, remainingInRegion ?? source.chunkSize))
        else {
            if let failure = source.failure { (owner as? ReadableFile)?.noteFailure(failure) }
            return false
        }
        remainingInRegion? -= buffer.count - before
        return true
    }
}
