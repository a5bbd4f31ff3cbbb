/// Why talking to Graph or its sign-in service failed, with what was being done; never a token.
public enum GraphServiceError: Error, Sendable, Hashable, CustomStringConvertible {
    /// No token from `CALPORT_TOKEN`, `--token-file` or the login cache.
    case notSignedIn(String)
    /// A token file, the token cache or the journal could not be read or written.
    case storage(path: String, reason: String)
    /// The server answered with an error status; `code` and `message` come from its error object.
    case http(request: String, status: Int, code: String?, message: String?)
    /// No answer, after every retry.
    case transport(TransportError)
    /// The answer was not what Graph documents.
    case unexpectedResponse(request: String, reason: String)
    /// Signing in failed or was declined.
    case login(String)
    /// A configuration value (URL, date) is unusable.
    case invalidConfiguration(String)

    public var description: String {
        switch self {
        case .notSignedIn(let detail): return "not signed in: \(detail)"
        case .storage(let path, let reason): return "\(path): \(reason)"
        case .http(let request, let status, let code, let message):
            var text = "\(request): HTTP \(status)"
            if let code { text += " \(code)" }
            if let message { text += ": \(message)" }
            return text
        case .transport(let error): return error.description
        case .unexpectedResponse(let request, let reason): return "\(request): unexpected response: \(reason)"
        case .login(let reason): return "login failed: \(reason)"
        case .invalidConfiguration(let reason): return reason
        }
    }
}
