/// Base64 (RFC 4648 §4) straight between byte arrays and text, without the intermediate `Data`
/// copies Foundation's API needs: attachments are up to 150 MB.
enum Base64 {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
    private static let values: [UInt8] = {
        var table = [UInt8](repeating: 0xFF, count: 256)
        for (index, byte) in alphabet.enumerated() { table[Int(byte)] = UInt8(index) }
        return table
    }()

    /// The base64 text of `bytes`, padded, on one line.
    static func encode(_ bytes: [UInt8]) -> String {
        let length = (bytes.count + 2) / 3 * 4
        return String(unsafeUninitializedCapacity: length) { output in
            var out = 0
            var index = 0
            while index + 2 < bytes.count {
                let triple = UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8 | UInt32(bytes[index + 2])
                for shift in [18, 12, 6, 0] {
                    output[out] = alphabet[Int(triple >> UInt32(shift) & 0x3F)]
                    out += 1
                }
                index += 3
            }
            let rest = bytes.count - index
            if rest > 0 {
                let triple = UInt32(bytes[index]) << 16 | (rest == 2 ? UInt32(bytes[index + 1]) << 8 : 0)
                output[out] = alphabet[Int(triple >> 18 & 0x3F)]
                output[out + 1] = alphabet[Int(triple >> 12 & 0x3F)]
                output[out + 2] = rest == 2 ? alphabet[Int(triple >> 6 & 0x3F)] : UInt8(ascii: "=")
                output[out + 3] = UInt8(ascii: "=")
                out += 4
            }
            return out
        }
    }

    /// The bytes of base64 `text` (whitespace ignored, padding optional); nil when it is not base64.
    static func decode<Text: Collection>(_ text: Text) -> [UInt8]? where Text.Element == UInt8 {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.count / 4 * 3)
        var accumulator: UInt32 = 0
        var bits = 0
        var padding = 0
        for byte in text {
            if isWhitespace(byte) { continue }
            if byte == UInt8(ascii: "=") {
                padding += 1
                continue
            }
            let value = values[Int(byte)]
            guard value != 0xFF, padding == 0 else { return nil }
            accumulator = accumulator << 6 | UInt32(value)
            bits += 6
            if bits >= 8 {
                bits -= 8
                bytes.append(UInt8(truncatingIfNeeded: accumulator >> UInt32(bits)))
            }
        }
        return padding <= 2 && bits < 6 ? bytes : nil
    }

    /// Whether `byte` is white space the decoder skips: space, tab, line feed, carriage return (an
    /// ATTACH value may still hold the line breaks of a folded or wrapped text).
    static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == 0x0A || byte == 0x0D
    }

    /// How many bytes base64 `text` decodes to, counted without decoding.
    static func decodedCount<Text: Collection>(_ text: Text) -> Int where Text.Element == UInt8 {
        var symbols = 0
        for byte in text where values[Int(byte)] != 0xFF { symbols += 1 }
        return symbols * 6 / 8
    }
}
