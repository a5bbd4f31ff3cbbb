/// Why JSON text could not be read, and where: a 1-based line and column and a byte offset.
public struct JSONError: Error, Hashable, Sendable, CustomStringConvertible {
    public var message: String
    public var line: Int
    public var column: Int
    /// Bytes from the start of the input.
    public var offset: Int

    public init(message: String, line: Int, column: Int, offset: Int) {
        self.message = message
        self.line = line
        self.column = column
        self.offset = offset
    }

    /// `line:column: message`.
    public var description: String { "\(line):\(column): \(message)" }
}

/// Bounds that keep hostile input from exhausting the stack or memory.
public struct JSONLimits: Hashable, Sendable {
    /// Deepest nesting of arrays and objects accepted.
    public var maximumDepth: Int
    /// Longest string accepted, in UTF-8 bytes.
    public var maximumStringLength: Int

    public init(maximumDepth: Int = 256, maximumStringLength: Int = 64 << 20) {
        self.maximumDepth = maximumDepth
        self.maximumStringLength = maximumStringLength
    }
}

/// Turns byte offsets into line and column numbers, scanning forward only, so that positions are
/// computed when something needs reporting instead of on every byte parsed.
struct LineCounter {
    private var offset = 0
    private var line = 1
    private var lineStart = 0

    /// The 1-based line and column of `target`; targets should not decrease between calls.
    mutating func position(of target: Int, in bytes: UnsafeBufferPointer<UInt8>) -> (line: Int, column: Int) {
        if target < offset { (offset, line, lineStart) = (0, 1, 0) }
        let end = min(target, bytes.count)
        while offset < end {
            if bytes[offset] == UInt8(ascii: "\n") {
                line += 1
                lineStart = offset + 1
            }
            offset += 1
        }
        return (line, target - lineStart + 1)
    }
}
