import CCrypto
import CalendarModel

/// SHA-256 of an attachment's text through libcrypto, read in place: the model's own `SHA256`
/// copies its input, which for a 150 MB file would be one copy too many.
enum FileDigest {
    /// The lower-case hex SHA-256 of `text`'s UTF-8 bytes.
    static func sha256(_ text: String) -> String {
        var text = text
        let digest = text.withUTF8 { bytes -> [UInt8] in
            var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
            var length: UInt32 = 0
            guard let context = EVP_MD_CTX_new() else { return [] }
            defer { EVP_MD_CTX_free(context) }
            guard EVP_DigestInit_ex(context, EVP_sha256(), nil) == 1,
                EVP_DigestUpdate(context, bytes.baseAddress, bytes.count) == 1,
                EVP_DigestFinal_ex(context, &digest, &length) == 1
            else { return [] }
            return Array(digest.prefix(Int(length)))
        }
        return SHA256.hex(digest)
    }
}
