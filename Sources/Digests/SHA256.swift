import CCrypto

/// SHA-256 (FIPS 180-4) through OpenSSL's libcrypto: calport does no cryptography of its own.
public enum SHA256 {
    /// The 32-byte digest of `message`, read in place when its bytes are contiguous.
    public static func hash(_ message: some Collection<UInt8>) -> [UInt8] {
        message.withContiguousStorageIfAvailable { hash(UnsafeRawBufferPointer($0)) }
            ?? Array(message).withUnsafeBytes { hash($0) }
    }

    /// The 32-byte digest of the bytes of `message`.
    public static func hash(_ message: UnsafeRawBufferPointer) -> [UInt8] {
        withDigest(of: message) { Array($0) }
    }

    /// Calls `body` with the 32-byte digest of `message`, made on the stack: for a caller that
    /// only reads it (an identifier made of it), an array for it was an allocation more.
    ///
    /// The digest is an `InlineArray` on the stack, made by a function that is not generic: run
    /// unspecialised (a caller in another module), `withUnsafeTemporaryAllocation` instantiated
    /// `Result`'s metadata on every call, some 330 instructions of each event's transactionId.
    public static func withDigest<Result>(
        of message: UnsafeRawBufferPointer, _ body: (UnsafeBufferPointer<UInt8>) -> Result
    ) -> Result {
        let digest = digest(of: message)
        return digest.span.withUnsafeBufferPointer(body)
    }

    /// The 32 bytes of the digest of `message`.
    private static func digest(of message: UnsafeRawBufferPointer) -> InlineArray<32, UInt8> {
        var digest = InlineArray<32, UInt8>(repeating: 0)
        var length: UInt32 = 0
        var span = digest.mutableSpan
        let done = span.withUnsafeMutableBufferPointer { digest in
            // EVP_Digest with the algorithm fetched once: libcrypto 3's one-shot `SHA256()` fetches it by
            // name on every call, a lock and a table lookup for each event's transactionId.
            EVP_Digest(message.baseAddress, message.count, digest.baseAddress, &length, algorithm, nil)
        }
        // It fails only when libcrypto cannot allocate a context: nothing to recover.
        precondition(done == 1 && length == SHA256_DIGEST_LENGTH, "libcrypto could not compute SHA-256")
        return digest
    }

    /// `bytes` as lower-case hexadecimal, two digits a byte: how a digest is written in identifiers
    /// and journals.
    public static func hex(_ bytes: some Collection<UInt8>) -> String {
        let digits = Array("0123456789abcdef".utf8)
        return String(decoding: bytes.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 15)]] }, as: UTF8.self)
    }

    /// libcrypto's SHA-256, fetched once for the process; a fetched algorithm is immutable, so threads
    /// may share it (OpenSSL's crypto(7), "Explicit fetching").
    nonisolated(unsafe) private static let algorithm: OpaquePointer? = EVP_MD_fetch(nil, "SHA256", nil)
}
