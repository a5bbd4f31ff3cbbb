/// The `transactionId` sent with a POST: derived from the UID (and, for an override, its
/// RECURRENCE-ID), so importing the same file twice lets Graph recognise the second attempt.
public enum GraphTransactionID {
    /// SHA-256 of the UTF-8 key, first 16 bytes as an RFC 9562 version-8 UUID in upper case.
    /// The key is the UID, or `UID` + `/` + the RECURRENCE-ID as a UTC basic-format time
    /// (`20261202T160000Z`) or date (`20261202`) for an override.
    public static func make(uid: String, recurrenceID: String? = nil) -> String {
        var digest = Array(SHA256.hash(Array((recurrenceID.map { uid + "/" + $0 } ?? uid).utf8)).prefix(16))
        digest[6] = digest[6] & 0x0F | 0x80  // version 8: custom
        digest[8] = digest[8] & 0x3F | 0x80  // variant 10
        let hex = digest.map { byte in String(byte >> 4, radix: 16) + String(byte & 15, radix: 16) }.joined()
            .uppercased()
        let groups = [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { range in
            String(hex.dropFirst(range.lowerBound).prefix(range.count))
        }
        return groups.joined(separator: "-")
    }

    /// A UID for an event that has none, derived from its Graph JSON: the same content gives the
    /// same UID from run to run, different content a different one.
    static func derivedUID(content: JSONValue) -> String {
        "calport-" + make(uid: JSONWriter().string(content))
    }
}
