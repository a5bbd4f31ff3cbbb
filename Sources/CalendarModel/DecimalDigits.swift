/// Fixed-width decimal fields of the dates and times both formats write (`20261201T093000`,
/// `2026-12-01T09:30:00`), read from bytes.
public enum DecimalDigits {
    /// The value of the `count` ASCII digits of `bytes` from `start`; nil when one is not a digit or
    /// the field runs past the end. Inlinable, and by index rather than over a slice: a date-time
    /// reads six of these, and a call and a slice's iterator cost more than the digits.
    @inlinable @inline(__always)
    public static func value(of bytes: UnsafeBufferPointer<UInt8>, from start: Int, count: Int) -> Int? {
        guard start >= 0, start + count <= bytes.count else { return nil }
        var value = 0
        for index in start..<start + count {
            let digit = bytes[index] &- UInt8(ascii: "0")
            guard digit < 10 else { return nil }
            value = value * 10 + Int(digit)
        }
        return value
    }
}
