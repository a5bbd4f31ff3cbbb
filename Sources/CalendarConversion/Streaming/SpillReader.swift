/// Reads back what a `SpillWriter` wrote, through a buffer of one chunk.
package struct SpillReader {
    private var source: FileRegionSource
    private var buffer: [UInt8] = []
    private var position = 0

    package init(_ source: FileRegionSource) {
        self.source = source
    }

    /// Throws when a read failed: the file then ended early, and what it held would be lost silently.
    package func checkRead(_ spill: SpillWriter) throws(AtomicFile.WriteError) {
        if let failure = source.failure {
            throw AtomicFile.WriteError(path: spill.path, reason: failure, action: "read back")
        }
    }

    /// A little-endian integer; nil at the end of the file.
    package mutating func readUInt64() -> UInt64? {
        guard fill(8) else { return nil }
        var value: UInt64 = 0
        for index in 0..<8 { value |= UInt64(buffer[position + index]) << (8 * index) }
        position += 8
        return value
    }

    /// The next `count` bytes; nil when the file ends before them.
    package mutating func read(_ count: Int) -> [UInt8]? {
        guard fill(count) else { return nil }
        defer { position += count }
        // A copy: a slice would keep the buffer shared and make the next refill copy all of it.
        return Array(buffer[position..<position + count])
    }

    /// Whether `count` bytes are buffered, reading more when needed.
    private mutating func fill(_ count: Int) -> Bool {
        if buffer.count - position >= count { return true }
        buffer.removeSubrange(..<position)
        position = 0
        while buffer.count < count {
            guard let chunk = source.nextChunk() else { return false }
            buffer += chunk
        }
        return true
    }
}
