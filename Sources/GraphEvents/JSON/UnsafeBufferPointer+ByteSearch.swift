// memchr, for finding a byte.
import Foundation

extension UnsafeBufferPointer<UInt8> {
    /// The index of the first `byte` in `range`, found by `memchr`: line ends in NDJSON's long
    /// lines, a string's closing quote past its escapes, the end of an Outlook tag past its long
    /// style attribute, where a search a byte at a time cost a few instructions each.
    func firstIndex(of byte: UInt8, in range: Range<Int>) -> Int? {
        guard let base = baseAddress, !range.isEmpty,
            let found = memchr(base + range.lowerBound, Int32(byte), range.count)
        else { return nil }
        return UnsafeRawPointer(found) - UnsafeRawPointer(base)
    }
}
