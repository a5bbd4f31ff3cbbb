import CCrypto
import Foundation
import GraphEvents

/// An app's certificate and RSA private key (PEM files), for the client assertion of app-only
/// sign-in: a JWT signed RS256 whose header names the certificate by its `x5t` thumbprint
/// (Microsoft identity platform, "certificate credentials"). Parsing, hashing and signing are
/// OpenSSL's libcrypto.
public struct ClientCertificate: Sendable {
    /// The base64url SHA-1 thumbprint of the certificate's DER encoding (`x5t`).
    public let thumbprint: String
    /// The private key's PEM text; parsed again for each signature (about one an hour), so that
    /// no OpenSSL object outlives a call. Never printed.
    private let keyPEM: [UInt8]
    private let keyPath: String

    /// Reads both files; a key that does not belong to the certificate, or is not RSA, is an error.
    public init(certificatePath: String, privateKeyPath: String) throws(GraphServiceError) {
        let certificatePEM = try Self.read(certificatePath, what: "certificate")
        let keyPEM = try Self.read(privateKeyPath, what: "private key")
        guard let certificate = Self.parse(certificatePEM, PEM_read_bio_X509) else {
            throw .storage(path: certificatePath, reason: "not a PEM certificate")
        }
        defer { X509_free(certificate) }
        guard let key = Self.parse(keyPEM, PEM_read_bio_PrivateKey) else {
            throw .storage(path: privateKeyPath, reason: "not an unencrypted PEM private key")
        }
        defer { EVP_PKEY_free(key) }
        guard EVP_PKEY_get_base_id(key) == EVP_PKEY_RSA else {
            throw .storage(path: privateKeyPath, reason: "not an RSA key (the identity platform signs RS256)")
        }
        guard X509_check_private_key(certificate, key) == 1 else {
            throw .storage(path: privateKeyPath, reason: "the key does not belong to \(certificatePath)")
        }
        let length = i2d_X509(certificate, nil)
        guard length > 0 else { throw .storage(path: certificatePath, reason: "cannot encode the certificate") }
        var der = [UInt8](repeating: 0, count: Int(length))
        der.withUnsafeMutableBufferPointer { buffer in
            var cursor: UnsafeMutablePointer<UInt8>? = buffer.baseAddress
            _ = i2d_X509(certificate, &cursor)
        }
        var digest = [UInt8](repeating: 0, count: Int(SHA_DIGEST_LENGTH))
        _ = SHA1(der, der.count, &digest)
        self.thumbprint = Base64URL.encode(digest)
        self.keyPEM = keyPEM
        self.keyPath = privateKeyPath
    }

    /// The RS256 signature (RSASSA-PKCS1-v1_5 with SHA-256) of `data`.
    func sign(_ data: [UInt8]) throws(GraphServiceError) -> [UInt8] {
        guard let key = Self.parse(keyPEM, PEM_read_bio_PrivateKey) else {
            throw .storage(path: keyPath, reason: "not an unencrypted PEM private key")
        }
        defer { EVP_PKEY_free(key) }
        guard let context = EVP_MD_CTX_new() else { throw .login("OpenSSL could not allocate a digest context") }
        defer { EVP_MD_CTX_free(context) }
        var length = 0
        guard EVP_DigestSignInit(context, nil, EVP_sha256(), nil, key) == 1,
            EVP_DigestSign(context, nil, &length, data, data.count) == 1
        else { throw .login("OpenSSL could not sign the client assertion") }
        var signature = [UInt8](repeating: 0, count: length)
        guard EVP_DigestSign(context, &signature, &length, data, data.count) == 1 else {
            throw .login("OpenSSL could not sign the client assertion")
        }
        return Array(signature.prefix(length))
    }

    /// A signed client assertion for `clientID` at `tokenURL`, valid from now for ten minutes
    /// (claims as the identity platform documents them: aud, iss, sub, jti, nbf, iat, exp).
    func assertion(clientID: String, tokenURL: URL, now: Date = Date()) throws(GraphServiceError) -> Secret {
        let issued = Int(now.timeIntervalSince1970)
        let header: JSONValue = ["alg": "RS256", "typ": "JWT", "x5t": .string(thumbprint)]
        let claims: JSONValue = [
            "aud": .string(tokenURL.absoluteString), "iss": .string(clientID), "sub": .string(clientID),
            "jti": .string(UUID().uuidString.lowercased()), "nbf": .number(Double(issued)),
            "iat": .number(Double(issued)), "exp": .number(Double(issued + 600)),
        ]
        let signingInput = [header, claims].map { Base64URL.encode(Array(JSONWriter().string($0).utf8)) }
            .joined(separator: ".")
        return Secret(signingInput + "." + Base64URL.encode(try sign(Array(signingInput.utf8))))
    }

    private static func read(_ path: String, what: String) throws(GraphServiceError) -> [UInt8] {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw .storage(path: path, reason: "cannot read the \(what)")
        }
        return [UInt8](data)
    }

    /// An OpenSSL object read from PEM bytes by `reader` (PEM_read_bio_X509 or PEM_read_bio_PrivateKey).
    private static func parse<T>(
        _ pem: [UInt8],
        _ reader: (
            OpaquePointer?, UnsafeMutablePointer<T?>?,
            (@convention(c) (UnsafeMutablePointer<CChar>?, Int32, Int32, UnsafeMutableRawPointer?) -> Int32)?,
            UnsafeMutableRawPointer?
        ) -> T?
    ) -> T? {
        pem.withUnsafeBytes { bytes -> T? in
            guard let bio = BIO_new_mem_buf(bytes.baseAddress, Int32(bytes.count)) else { return nil }
            defer { BIO_free(bio) }
            return reader(bio, nil, nil, nil)
        }
    }
}

/// Base64 with the URL alphabet and no padding (RFC 7515 §2), as JWTs use it.
enum Base64URL {
    static func encode(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }
}
