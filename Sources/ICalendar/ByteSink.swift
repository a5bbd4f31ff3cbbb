/// Where value encoders (TEXT escaping, DATE-TIME and DURATION digits) put their bytes: the
/// writer's output directly, or an array when a value is wanted as a `String`. One encoder serves
/// both, and writing a property costs no intermediate `String`.
protocol ByteSink: ~Copyable {
    mutating func append(_ byte: UInt8)
    mutating func append(contentsOf bytes: UnsafeBufferPointer<UInt8>)
}

extension Array: ByteSink where Element == UInt8 {}

extension ByteSink where Self: ~Copyable {
    /// `value` in decimal, zero-padded to `width` characters, a minus sign counting as one: what
    /// `String(value)` writes for width 1, and `%04d` for width 4.
    mutating func appendDecimal(_ value: Int, width: Int = 1) {
        let magnitude = value.magnitude
        var divisor: UInt = 1
        var digits = 1
        while magnitude / divisor >= 10 {
            divisor *= 10
            digits += 1
        }
        if value < 0 { append(UInt8(ascii: "-")) }
        var padding = width - digits - (value < 0 ? 1 : 0)
        while padding > 0 {
            append(UInt8(ascii: "0"))
            padding -= 1
        }
        while divisor > 0 {
            append(UInt8(ascii: "0") + UInt8(magnitude / divisor % 10))
            divisor /= 10
        }
    }
}

/// Finds the bytes a value must have encoded, eight at a time: text needs encoding rarely, and a
/// word of eight plain bytes is passed over with a few arithmetic operations instead of eight
/// comparisons each.
enum ByteScan {
    /// The index of the first byte at or after `start` for which `byte` holds. `candidates` marks,
    /// in eight bytes read as one little-endian word, the bytes for which `byte` may hold: the lowest
    /// high bit it sets is the first such byte (bits above it may be set wrongly, as `bytes(below:)`
    /// and `bytes(equalTo:)` set them, and are not read), and it sets one for every byte `byte`
    /// holds for. The scan goes straight to that byte: a loop over the word's bytes up to it took
    /// a third of the time of escaping an Outlook body, whose HTML has a comma or a semicolon every
    /// sixteen bytes.
    @inline(__always)
    static func firstIndex(
        in bytes: UnsafeBufferPointer<UInt8>, from start: Int, candidates: (UInt64) -> UInt64,
        byte: (UInt8) -> Bool
    ) -> Int {
        guard let base = bytes.baseAddress else { return start }
        func load(_ index: Int) -> UInt64 {
            UInt64(littleEndian: UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self))
        }
        var index = start
        while bytes.count - index >= 8 {
            let found = candidates(load(index))
            if found == 0 {
                index += 8
                continue
            }
            index += found.trailingZeroBitCount >> 3
            if byte(base[index]) { return index }
            index += 1
        }
        if index < bytes.count, bytes.count - start >= 8, candidates(load(bytes.count - 8)) == 0 {
            // The last few bytes, read as the word that ends the text (its first bytes were read
            // before, and hold no candidate, or one `byte` turned down, which a zero word has not).
            return bytes.count
        }
        while index < bytes.count {
            if byte(base[index]) { return index }
            index += 1
        }
        return bytes.count
    }
}

extension UInt64 {
    private static let lowBits: UInt64 = 0x0101_0101_0101_0101
    private static let highBits: UInt64 = 0x8080_8080_8080_8080

    /// Nonzero when one of the eight bytes is below `limit` (at most 0x80). The high bits it sets
    /// mark such bytes, and possibly bytes after the first one, which is why callers only test for zero.
    func bytes(below limit: UInt8) -> UInt64 {
        (self &- UInt64.lowBits &* UInt64(limit)) & ~self & UInt64.highBits
    }

    /// Nonzero when one of the eight bytes is `value`.
    func bytes(equalTo value: UInt8) -> UInt64 {
        (self ^ (UInt64.lowBits &* UInt64(value))).bytes(below: 1)
    }
}
