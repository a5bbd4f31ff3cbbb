/// SHA-256 (FIPS 180-4), for identifiers derived from content; Linux has no CryptoKit and we take no
/// packages.
public enum SHA256 {
    /// The 32-byte digest of `message`.
    public static func hash<Bytes: Collection<UInt8>>(_ message: Bytes) -> [UInt8] {
        var state: [UInt32] = [
            0x6a09_e667, 0xbb67_ae85, 0x3c6e_f372, 0xa54f_f53a, 0x510e_527f, 0x9b05_688c, 0x1f83_d9ab, 0x5be0_cd19,
        ]
        var padded = Array(message)
        let bitLength = UInt64(padded.count) * 8
        padded.append(0x80)
        while padded.count % 64 != 56 { padded.append(0) }
        for shift in stride(from: 56, through: 0, by: -8) {
            padded.append(UInt8(truncatingIfNeeded: bitLength >> UInt64(shift)))
        }
        // The message schedule on the stack and the round constants through their buffer: with an
        // `Array` each of the 64 rounds' reads was bounds-checked (issue 24, a Graph entry's transactionId).
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 64) { words in
            constants.withUnsafeBufferPointer { constants in
                compress(padded, into: &state, words: words, constants: constants)
            }
        }
        return state.flatMap { word in
            stride(from: 24, through: 0, by: -8).map { UInt8(truncatingIfNeeded: word >> UInt32($0)) }
        }
    }

    private static func compress(
        _ padded: [UInt8], into state: inout [UInt32], words: UnsafeMutableBufferPointer<UInt32>,
        constants: UnsafeBufferPointer<UInt32>
    ) {
        for block in stride(from: 0, to: padded.count, by: 64) {
            for t in 0..<16 {
                let base = block + t * 4
                words[t] =
                    UInt32(padded[base]) << 24 | UInt32(padded[base + 1]) << 16 | UInt32(padded[base + 2]) << 8
                    | UInt32(padded[base + 3])
            }
            for t in 16..<64 {
                let s0 = rotate(words[t - 15], 7) ^ rotate(words[t - 15], 18) ^ (words[t - 15] >> 3)
                let s1 = rotate(words[t - 2], 17) ^ rotate(words[t - 2], 19) ^ (words[t - 2] >> 10)
                words[t] = words[t - 16] &+ s0 &+ words[t - 7] &+ s1
            }
            var (a, b, c, d, e, f, g, h) = (
                state[0], state[1], state[2], state[3], state[4], state[5], state[6], state[7]
            )
            for t in 0..<64 {
                let t1 =
                    h &+ (rotate(e, 6) ^ rotate(e, 11) ^ rotate(e, 25)) &+ ((e & f) ^ (~e & g)) &+ constants[t]
                    &+ words[t]
                let t2 = (rotate(a, 2) ^ rotate(a, 13) ^ rotate(a, 22)) &+ ((a & b) ^ (a & c) ^ (b & c))
                (h, g, f, e, d, c, b, a) = (g, f, e, d &+ t1, c, b, a, t1 &+ t2)
            }
            for (position, value) in [a, b, c, d, e, f, g, h].enumerated() { state[position] &+= value }
        }
    }

    private static func rotate(_ value: UInt32, _ count: UInt32) -> UInt32 { value >> count | value << (32 - count) }

    private static let constants: [UInt32] = [
        0x428a_2f98, 0x7137_4491, 0xb5c0_fbcf, 0xe9b5_dba5, 0x3956_c25b, 0x59f1_11f1, 0x923f_82a4, 0xab1c_5ed5,
        0xd807_aa98, 0x1283_5b01, 0x2431_85be, 0x550c_7dc3, 0x72be_5d74, 0x80de_b1fe, 0x9bdc_06a7, 0xc19b_f174,
        0xe49b_69c1, 0xefbe_4786, 0x0fc1_9dc6, 0x240c_a1cc, 0x2de9_2c6f, 0x4a74_84aa, 0x5cb0_a9dc, 0x76f9_88da,
        0x983e_5152, 0xa831_c66d, 0xb003_27c8, 0xbf59_7fc7, 0xc6e0_0bf3, 0xd5a7_9147, 0x06ca_6351, 0x1429_2967,
        0x27b7_0a85, 0x2e1b_2138, 0x4d2c_6dfc, 0x5338_0d13, 0x650a_7354, 0x766a_0abb, 0x81c2_c92e, 0x9272_2c85,
        0xa2bf_e8a1, 0xa81a_664b, 0xc24b_8b70, 0xc76c_51a3, 0xd192_e819, 0xd699_0624, 0xf40e_3585, 0x106a_a070,
        0x19a4_c116, 0x1e37_6c08, 0x2748_774c, 0x34b0_bcb5, 0x391c_0cb3, 0x4ed8_aa4a, 0x5b9c_ca4f, 0x682e_6ff3,
        0x748f_82ee, 0x78a5_636f, 0x84c8_7814, 0x8cc7_0208, 0x90be_fffa, 0xa450_6ceb, 0xbef9_a3f7, 0xc671_78f2,
    ]
}

extension SHA256 {
    /// `bytes` as lower-case hexadecimal, two digits a byte: how a digest is written in identifiers
    /// and journals, whichever library computed it.
    package static func hex(_ bytes: some Collection<UInt8>) -> String {
        let digits = Array("0123456789abcdef".utf8)
        return String(decoding: bytes.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 15)]] }, as: UTF8.self)
    }
}
