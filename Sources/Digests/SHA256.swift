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
    ///
    /// Through libcrypto's own `SHA256_Init`/`Update`/`Final`, deprecated in OpenSSL 3 but kept (the
    /// shim asks for them without the deprecation warning): they run the same SHA-NI code with no
    /// provider behind them. `EVP_Digest` needed the algorithm fetched first, and the first fetch
    /// loads `openssl.cnf` and the default provider, 5.4 million instructions (about 1.5 ms) of
    /// every `--to graph` run's start, more than converting 150 events; then 165 ns a digest
    /// against 95 ns (the 60 bytes of a transactionId, timed in C).
    private static func digest(of message: UnsafeRawBufferPointer) -> InlineArray<32, UInt8> {
        var digest = InlineArray<32, UInt8>(repeating: 0)
        var context = SHA256_CTX()
        var span = digest.mutableSpan
        let done = span.withUnsafeMutableBufferPointer { digest in
            SHA256_Init(&context) == 1 && SHA256_Update(&context, message.baseAddress, message.count) == 1
                && SHA256_Final(digest.baseAddress, &context) == 1
        }
        // The three only report failure for a null context, which this one is not.
        precondition(done, "libcrypto could not compute SHA-256")
        return digest
    }

    /// `bytes` as lower-case hexadecimal, two digits a byte: how a digest is written in identifiers
    /// and journals.
    public static func hex(_ bytes: some Collection<UInt8>) -> String {
        let digits = Array("0123456789abcdef".utf8)
        return String(decoding: bytes.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 15)]] }, as: UTF8.self)
    }
}
