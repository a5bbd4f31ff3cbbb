import Foundation

/// Supplies the bearer token for Graph requests.
public protocol TokenProvider: Sendable {
    /// A token to use now; `refresh` asks for a new one because the last was refused (HTTP 401).
    func accessToken(refresh: Bool) async throws(GraphServiceError) -> Secret
}

/// A token given from outside (`CALPORT_TOKEN` or `--token-file`), used as is.
public struct StaticTokenProvider: TokenProvider {
    private let token: Secret

    /// A provider that answers every request with `token`. It cannot refresh: a 401 after it is
    /// ``GraphServiceError/notSignedIn(_:)``.
    public init(token: Secret) {
        self.token = token
    }

    /// The file's content with surrounding whitespace removed; a file that its group or others
    /// may read is refused, as ssh refuses such a private key.
    public init(file path: String) throws(GraphServiceError) {
        self.init(token: try Self.secret(file: path, what: "token file"))
    }

    public func accessToken(refresh: Bool) async throws(GraphServiceError) -> Secret {
        if refresh { throw .notSignedIn("the given token was refused (HTTP 401); get a new one") }
        return token
    }
}
