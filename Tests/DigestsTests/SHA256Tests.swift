import Digests
import Testing

@Suite struct SHA256Tests {
    /// The examples of FIPS 180-2, appendix B (SHA-256), and the digest of no bytes.
    @Test(arguments: [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        (
            "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
        ),
        (String(repeating: "a", count: 1_000_000), "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"),
    ])
    func digestsMatchTheStandardsExamples(message: String, expected: String) {
        #expect(SHA256.hex(SHA256.hash(message.utf8)) == expected)
        #expect(SHA256.hex(SHA256.hash(Array(message.utf8))) == expected)
    }

    @Test func bytesThatAreNotContiguousAreHashedAlike() {
        // "abc" reversed, as a collection with no contiguous storage of its own.
        let reversed = Array("cba".utf8).reversed()
        #expect(reversed.withContiguousStorageIfAvailable { _ in true } == nil)
        #expect(SHA256.hex(SHA256.hash(reversed)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }

    @Test func derivedUUIDsAreTheDigestsFirstHalfAsVersion8() {
        // SHA-256("abc") begins ba7816bf 8f01 cfea 4141 40de5dae2223: the version nibble of byte 6
        // becomes 8 (cf → 8f), the variant bits of byte 8 become 10 (41 → 81); RFC 9562 §5.8.
        #expect(DerivedIdentifier.uuid(of: "abc".utf8) == "BA7816BF-8F01-8FEA-8141-40DE5DAE2223")
        #expect(DerivedIdentifier.uid(content: "abc") == "calport-BA7816BF-8F01-8FEA-8141-40DE5DAE2223")
        let lent = Array("abc".utf8).withUnsafeBytes { bytes in
            DerivedIdentifier.withUUID(of: bytes) { String(decoding: $0, as: UTF8.self) }
        }
        #expect(lent == "BA7816BF-8F01-8FEA-8141-40DE5DAE2223")
    }
}
