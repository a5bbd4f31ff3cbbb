import Foundation

/// Where iCalendar bytes come from, a chunk at a time, so that a calendar of any size is read with
/// flat memory.
public protocol ByteSource {
    /// The next chunk, or nil at the end of input.
    mutating func nextChunk() -> [UInt8]?

    /// Appends the next chunk to `buffer`; false, having appended nothing, at the end of input. A
    /// reader keeps its bytes in one buffer: a source that reads into the buffer's room spares each
    /// byte a copy from a chunk of its own (`nextChunk`), some 1,000 instructions of each event read.
    mutating func readChunk(appendingTo buffer: inout [UInt8]) -> Bool

    /// How many bytes the chunks still to come hold, when the source knows (a regular file, bytes in
    /// memory); nil when it does not (a pipe). Readers size a long value by it rather than by a limit.
    var remainingByteCount: Int? { get }
}

extension ByteSource {
    public var remainingByteCount: Int? { nil }

    public mutating func readChunk(appendingTo buffer: inout [UInt8]) -> Bool {
        guard let chunk = nextChunk() else { return false }
        buffer.append(contentsOf: chunk)
        return true
    }

    /// The next chunk read into an array of its own: `nextChunk()` of a source whose
    /// `readChunk(appendingTo:)` is its own way of reading.
    package mutating func chunkRead() -> [UInt8]? {
        var chunk: [UInt8] = []
        return readChunk(appendingTo: &chunk) ? chunk : nil
    }
}

/// Bytes already in memory, handed over in one chunk.
public struct InMemoryByteSource: ByteSource {
    private var bytes: [UInt8]?

    /// A source handing over `bytes` (a whole .ics file's UTF-8) as its one chunk.
    public init(_ bytes: [UInt8]) { self.bytes = bytes }

    public mutating func nextChunk() -> [UInt8]? {
        defer { bytes = nil }
        return bytes
    }

    public var remainingByteCount: Int? { bytes?.count ?? 0 }
}

/// A file descriptor read in fixed-size chunks (a file, a pipe, standard input).
public struct FileDescriptorByteSource: ByteSource {
    private let descriptor: Int32
    /// The most a read asks for.
    package let chunkSize: Int
    /// Where the next read starts, read with `pread` so that many sources can share a descriptor;
    /// nil: from the descriptor's own position.
    private var offset: Int?
    /// Set when a read failed, with the system's reason.
    public private(set) var failure: String?

    /// A source reading `descriptor` from its position, or from `offset` (a regular file) when given.
    /// The default chunk is `ICalendarStreamWriter.chunkSize`, for the same reasons.
    public init(descriptor: Int32, chunkSize: Int = ICalendarStreamWriter.chunkSize, offset: Int? = nil) {
        self.descriptor = descriptor
        self.chunkSize = chunkSize
        self.offset = offset
    }

    /// What is left of a regular file from where the next read starts; nil for anything else.
    public var remainingByteCount: Int? {
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return nil }
        let position = offset ?? Int(lseek(descriptor, 0, SEEK_CUR))
        return position < 0 ? nil : max(Int(status.st_size) - position, 0)
    }

    public mutating func nextChunk() -> [UInt8]? { chunkRead() }

    public mutating func readChunk(appendingTo buffer: inout [UInt8]) -> Bool {
        readChunk(appendingTo: &buffer, atMost: chunkSize)
    }

    /// Appends at most `limit` bytes read to `buffer`, into its room: zeroing them first only to
    /// overwrite them costs as much as copying them. False, having appended nothing, at the end of
    /// input or after a failure (`failure`).
    package mutating func readChunk(appendingTo buffer: inout [UInt8], atMost limit: Int) -> Bool {
        while true {
            var count = 0
            buffer.append(addingCapacity: limit) { room in
                room.withUnsafeMutableBufferPointer { bytes, initialized in
                    count =
                        offset.map { pread(descriptor, bytes.baseAddress, limit, off_t($0)) }
                        ?? read(descriptor, bytes.baseAddress, limit)
                    initialized = max(count, 0)
                }
            }
            if count > 0 {
                offset? += count
                return true
            }
            if count < 0 && errno == EINTR { continue }
            if count < 0 { failure = String(cString: strerror(errno)) }
            return false
        }
    }
}
