/// Identifiers derived from content: the same bytes give the same identifier from run to run and
/// machine to machine, different bytes a different one.
public enum DerivedIdentifier {
    /// SHA-256 of `bytes`, its first 16 bytes as an RFC 9562 version-8 UUID in upper case.
    public static func uuid(of bytes: some Collection<UInt8>) -> String {
        if let uuid = bytes.withContiguousStorageIfAvailable({ uuid(ofBytes: UnsafeRawBufferPointer($0)) }) {
            return uuid
        }
        return Array(bytes).withUnsafeBytes(uuid(ofBytes:))
    }

    /// `uuid(of:)` of the UTF-8 of `text`. Not generic, so a caller in another module reaches the
    /// bytes without a protocol's dispatch (with the digest's array, 800 instructions of each
    /// event's transactionId).
    public static func uuid(of text: String) -> String {
        var text = text
        return text.withUTF8 { uuid(ofBytes: UnsafeRawBufferPointer($0)) }
    }

    private static func uuid(ofBytes bytes: UnsafeRawBufferPointer) -> String {
        SHA256.withDigest(of: bytes) { digest in
            String(unsafeUninitializedCapacity: uuidLength) { write(uuidOf: digest, into: $0) }
        }
    }

    /// `uuid(of:)`'s text lent to `body` from the stack, for a writer that copies it: made into a
    /// `String` and freed, it was some 700 instructions of each event's transactionId.
    public static func withUUID<Result>(
        of bytes: UnsafeRawBufferPointer, _ body: (UnsafeBufferPointer<UInt8>) -> Result
    ) -> Result {
        // An `InlineArray`, not `withUnsafeTemporaryAllocation`: run unspecialised, as from another
        // module, that instantiated `Result`'s metadata on every call (`SHA256.withDigest`).
        var text = UUIDText(repeating: 0)
        var room = text.mutableSpan
        let count = room.withUnsafeMutableBufferPointer { room in
            SHA256.withDigest(of: bytes) { write(uuidOf: $0, into: room) }
        }
        return text.span.extracting(..<count).withUnsafeBufferPointer(body)
    }

    /// Room for a UUID's 36 characters.
    private typealias UUIDText = InlineArray<36, UInt8>
    private static let uuidLength = UUIDText.count

    /// Writes the UUID of a digest's first 16 bytes into `text` (room for 36), returning its length.
    private static func write(uuidOf digest: UnsafeBufferPointer<UInt8>, into text: UnsafeMutableBufferPointer<UInt8>)
        -> Int
    {
        // Written as ASCII in one buffer: made from `String(radix:)` pieces joined, upper-cased
        // and cut into groups, this was 53,000 instructions of each event written to Graph.
        var count = 0
        for index in 0..<16 {
            if index == 4 || index == 6 || index == 8 || index == 10 {
                text[count] = UInt8(ascii: "-")
                count += 1
            }
            var byte = digest[index]
            if index == 6 { byte = byte & 0x0F | 0x80 }  // version 8: custom
            if index == 8 { byte = byte & 0x3F | 0x80 }  // variant 10
            text[count] = hexDigit(byte >> 4)
            text[count + 1] = hexDigit(byte & 15)
            count += 2
        }
        return count
    }

    private static func hexDigit(_ value: UInt8) -> UInt8 {
        value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "A") + value - 10
    }

    /// A UID for an event that has none (RFC 5545 requires one; not every producer writes it),
    /// from a text that stands for its content.
    public static func uid(content: String) -> String {
        "calport-" + uuid(of: content)
    }
}
