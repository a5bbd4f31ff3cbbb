// memcmp, for comparing bytes with a literal.
import Foundation

extension UnsafeBufferPointer<UInt8> {
    /// Whether these bytes are those of `literal`, byte for byte: compared as generic sequences, a
    /// name took some 230 instructions. For the names and tokens readers look for (`UID`, `FREQ`).
    @inline(__always)
    func spells(_ literal: StaticString) -> Bool {
        guard count == literal.utf8CodeUnitCount else { return false }
        guard let base = baseAddress else { return true }
        return memcmp(base, literal.utf8Start, count) == 0
    }
}
