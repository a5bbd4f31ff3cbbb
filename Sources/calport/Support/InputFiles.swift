import CalendarConversion
import Foundation
import ICalendar

/// One input, opened: small ones are read whole; large ones keep their first chunk and the open
/// descriptor so that they can be streamed with flat memory.
struct InputFile {
    var name: String
    /// The whole input when it fit under the threshold, else its first chunk.
    var bytes: [UInt8]
    /// Where the rest comes from, for large inputs; nil when `bytes` is everything.
    var remainder: ChunkSource?
    /// The file's path; nil for standard input.
    var path: String?
    /// The size of a regular file, for progress; nil for standard input and pipes.
    var byteCount: Int?

    /// Inputs larger than this are streamed rather than read whole.
    static let streamingThreshold = 8 << 20
    /// How much of a large file is read ahead, to see what format it is.
    static let sniffLength = 64 << 10

    var isComplete: Bool { remainder == nil }

    /// Opens the named files and the calendar files under the named directories, or standard input
    /// for `-` or when none are named.
    static func open(_ paths: [String], terminal: Terminal) throws(InputError) -> [InputFile] {
        var files: [InputFile] = []
        var expanded: [String] = []
        for path in paths.isEmpty ? ["-"] : paths {
            var found = [path]
            if path != "-" {
                let discovery = InputDiscovery.discover([path])
                for warning in discovery.warnings { terminal.writeErrorLine(warning) }
                found = discovery.inputs.map(\.path)
            }
            guard !found.isEmpty else {
                let kinds = InputDiscovery.extensions.sorted().map { "." + $0 }.joined(separator: ", ")
                throw InputError(message: "\(path): error: no calendar files (\(kinds)) under this directory")
            }
            expanded += found
        }
        for path in expanded {
            var source: ChunkSource
            var limit = streamingThreshold
            var size = 0
            if path == "-" {
                source = terminal.standardInput()
            } else {
                let descriptor = Foundation.open(path, O_RDONLY | O_CLOEXEC)
                guard descriptor >= 0 else {
                    throw InputError(message: "\(path): error: cannot read input: \(String(cString: strerror(errno)))")
                }
                source = ChunkSource(FileDescriptorByteSource(descriptor: descriptor), closing: descriptor)
                // A large regular file is known to be large before reading it: read only enough to sniff it.
                var status = stat()
                if fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG {
                    size = Int(status.st_size)
                    if size > streamingThreshold { limit = sniffLength }
                }
            }
            var bytes: [UInt8] = []
            // Sized once for what will be read, and the room of the read that finds the end: growing
            // it chunk by chunk copies it again and again. Read into its room, not copied from chunks.
            bytes.reserveCapacity(min(size, limit) + ICalendarStreamWriter.chunkSize)
            var exhausted = false
            while bytes.count <= limit {
                guard source.readChunk(appendingTo: &bytes) else {
                    exhausted = true
                    break
                }
            }
            if let failure = source.failure {
                throw InputError(message: "\(path): error: cannot read input: \(failure)")
            }
            files.append(
                InputFile(
                    name: path == "-" ? "<stdin>" : path, bytes: bytes, remainder: exhausted ? nil : source,
                    path: path == "-" ? nil : path, byteCount: path == "-" ? nil : size))
        }
        return files
    }

    /// Opens the inputs, or says on stderr which one could not be read (nil then: exit status 3).
    static func openReporting(_ paths: [String], terminal: Terminal) -> [InputFile]? {
        do {
            return try open(paths, terminal: terminal)
        } catch {
            terminal.writeError(error.message + "\n")
            return nil
        }
    }

    /// What the content looks like, whatever the file is called.
    typealias Format = InputFormat

    /// What an input of none of the formats is told.
    static let unrecognisedFormat = InputFormat.unrecognised

    /// Detects iCalendar (`BEGIN:`) versus Graph JSON (`{` or `[`) from the first meaningful bytes.
    var detectedFormat: Format? { InputFormat(detectedIn: bytes) }

    /// All of the input in memory, for formats read whole; nil once it exceeds `limit` bytes, so
    /// that memory stays bounded whatever the input's size.
    func completeBytes(limit: Int) -> [UInt8]? {
        var all = bytes
        var rest = remainder
        while all.count <= limit, let chunk = rest?.nextChunk() { all += chunk }
        return all.count <= limit ? all : nil
    }

    /// The input as a file that can be read more than once: the file itself when it is a regular
    /// file, else (standard input, a pipe) what is left of it spooled into `scratch`.
    func readable(spoolingIn scratch: ScratchSpace) throws -> ReadableFile {
        var status = stat()
        if let path, stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG {
            return try ReadableFile(path: path)
        }
        let spool = try scratch.create("input")
        var source = self.source
        while let chunk = source.nextChunk() { spool.write(chunk) }
        if let failure = remainder?.failure {
            throw InputError(message: "\(name): error: cannot read input: \(failure)")
        }
        try spool.finish()
        return try ReadableFile(spool)
    }

    /// All of the input, chunk by chunk: what was read at open, then the rest.
    var source: ContinuedByteSource {
        ContinuedByteSource(first: bytes, rest: remainder)
    }
}

/// Any source of chunks, closing its descriptor (if it has one) at the end of input.
struct ChunkSource: ByteSource {
    private var read: (inout [UInt8]) -> Bool
    private let failureReason: () -> String?
    private let remaining: () -> Int?

    init(_ source: FileDescriptorByteSource, closing descriptor: Int32?) {
        let box = SourceBox(source)
        read = { buffer in
            let read = box.source.readChunk(appendingTo: &buffer)
            if !read, let descriptor { close(descriptor) }
            return read
        }
        failureReason = { box.source.failure }
        remaining = { box.source.remainingByteCount }
    }

    /// Chunks already in memory (tests, and pipes read ahead).
    init(chunks: [[UInt8]]) {
        // One variable, which both closures capture.
        var left = chunks[...]
        read = { buffer in
            guard let chunk = left.popFirst() else { return false }
            buffer += chunk
            return true
        }
        failureReason = { nil }
        remaining = { left.reduce(0) { $0 + $1.count } }
    }

    var failure: String? { failureReason() }

    var remainingByteCount: Int? { remaining() }

    mutating func nextChunk() -> [UInt8]? { chunkRead() }

    mutating func readChunk(appendingTo buffer: inout [UInt8]) -> Bool { read(&buffer) }
}

/// Lets the closures of a `ChunkSource` share one mutable descriptor reader.
private final class SourceBox {
    var source: FileDescriptorByteSource
    init(_ source: FileDescriptorByteSource) { self.source = source }
}

/// The chunk read when the input was opened, followed by the rest.
struct ContinuedByteSource: ByteSource {
    var first: [UInt8]?
    var rest: ChunkSource?

    mutating func nextChunk() -> [UInt8]? {
        if let chunk = first {
            first = nil
            return chunk
        }
        return rest?.nextChunk()
    }

    var remainingByteCount: Int? {
        guard let rest else { return first?.count ?? 0 }
        return rest.remainingByteCount.map { $0 + (first?.count ?? 0) }
    }
}
