/// Identifiers derived from content: the same bytes give the same identifier from run to run and
/// machine to machine, different bytes a different one.
public enum DerivedIdentifier {
    /// SHA-256 of `bytes`, its first 16 bytes as an RFC 9562 version-8 UUID in upper case.
    public static func uuid(of bytes: some Collection<UInt8>) -> String {
        var digest = Array(SHA256.hash(bytes).prefix(16))
        digest[6] = digest[6] & 0x0F | 0x80  // version 8: custom
        digest[8] = digest[8] & 0x3F | 0x80  // variant 10
        let hex = digest.map { byte in String(byte >> 4, radix: 16) + String(byte & 15, radix: 16) }.joined()
            .uppercased()
        let groups = [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { range in
            String(hex.dropFirst(range.lowerBound).prefix(range.count))
        }
        return groups.joined(separator: "-")
    }

    /// A UID for an event that has none (RFC 5545 requires one; not every producer writes it),
    /// from a text that stands for its content.
    public static func uid(content: String) -> String {
        "calport-" + uuid(of: Array(content.utf8))
    }
}
