/// The bytes of a JSON string that need attention: a quote, a backslash or a control character.
enum JSONStringBytes {
    /// The index of the first such byte at or after `start`, or the end.
    static func plainRunEnd(in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        plainRun(in: bytes, from: start).end
    }

    /// The index of the first such byte at or after `start` (or the end), and whether the bytes
    /// before it are all ASCII (and so UTF-8). It tests eight bytes at a time (the "has zero byte"
    /// bit trick), since most of an event's bytes are plain string content, and both reading and
    /// writing scan it.
    @inline(__always)
    static func plainRun(in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> (end: Int, isASCII: Bool) {
        guard let base = bytes.baseAddress else { return (start, true) }
        var index = start
        var seen: UInt64 = 0
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        while index + 8 <= bytes.count {
            let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
            let quotes = word ^ (ones &* 0x22)
            let backslashes = word ^ (ones &* 0x5C)
            let special =
                ((quotes &- ones) & ~quotes) | ((backslashes &- ones) & ~backslashes) | ((word &- ones &* 0x20) & ~word)
            // The lowest flagged byte is exact (borrows only run upwards), so it is the one.
            if case let found = special & highs, found != 0 {
                // Only the bytes before it count for ASCII: the bits below its flag are theirs.
                let before = word & (found &- 1)
                return (index + found.trailingZeroBitCount / 8, (seen | before) & highs == 0)
            }
            seen |= word
            index += 8
        }
        while index < bytes.count && !needsAttention(bytes[index]) {
            seen |= UInt64(bytes[index])
            index += 1
        }
        return (index, seen & highs == 0)
    }

    static func needsAttention(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
    }

    /// Whether every byte is ASCII (and so the bytes are UTF-8), tested eight bytes at a time.
    static func isASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        var index = 0
        while index + 8 <= bytes.count {
            if UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self) & 0x8080_8080_8080_8080 != 0 {
                return false
            }
            index += 8
        }
        while index < bytes.count {
            if bytes[index] >= 0x80 { return false }
            index += 1
        }
        return true
    }
}

/// Where bytes go, a run or a byte at a time: a JSON string's decoded bytes as the scanner reads
/// them (plain runs copied as they are, and the bytes escapes decode to), or JSON text as the
/// writer makes it.
protocol JSONByteSink {
    var count: Int { get }
    mutating func append(_ run: UnsafeBufferPointer<UInt8>)
    mutating func append(_ byte: UInt8)
}

extension [UInt8]: JSONByteSink {
    mutating func append(_ run: UnsafeBufferPointer<UInt8>) { append(contentsOf: run) }
}

/// A sink writing into memory its caller holds, with room for `capacity` bytes: a decoded JSON
/// string is never longer than its text (an escape is at least as long as what it decodes to).
struct BufferSink: JSONByteSink {
    private let base: UnsafeMutablePointer<UInt8>
    private let capacity: Int
    private(set) var count = 0

    init(_ buffer: UnsafeMutableBufferPointer<UInt8>) {
        base = buffer.baseAddress!
        capacity = buffer.count
    }

    /// The bytes written.
    var bytes: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: base, count: count) }

    mutating func append(_ run: UnsafeBufferPointer<UInt8>) {
        guard let source = run.baseAddress else { return }
        precondition(count + run.count <= capacity, "a decoded string outgrew its text")
        (base + count).update(from: source, count: run.count)
        count += run.count
    }

    mutating func append(_ byte: UInt8) {
        precondition(count < capacity, "a decoded string outgrew its text")
        base[count] = byte
        count += 1
    }
}

/// A sink that keeps nothing: it measures the decoded string and notes whether it had escapes,
/// which is all a reader needs before the string is asked for.
struct DecodedLength: JSONByteSink {
    private(set) var count = 0
    private(set) var hasEscapes = false

    mutating func append(_ run: UnsafeBufferPointer<UInt8>) { count += run.count }

    mutating func append(_ byte: UInt8) {
        count += 1
        hasEscapes = true
    }
}
