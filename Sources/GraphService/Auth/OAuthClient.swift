import Foundation
import GraphEvents

/// The sign-in service's token endpoint: form posts in, tokens or OAuth errors out (RFC 6749 §5).
struct OAuthClient: Sendable {
    var endpoints: GraphEndpoints
    var transport: any HTTPTransport
    var retry: RetryPolicy

    /// What an OAuth endpoint answered: a JSON object on success, or its `error` code and description.
    enum Answer {
        case success(JSONObject)
        case failure(code: String, description: String?)
    }

    /// POSTs `form` (application/x-www-form-urlencoded) to `url`, retrying transient failures.
    func post(_ url: URL, form: [(String, String)]) async throws(GraphServiceError) -> Answer {
        let body = form.map { "\($0.0.urlComponentEncoded)=\($0.1.urlComponentEncoded)" }.joined(separator: "&")
        let request = HTTPRequest(
            method: "POST", url: url,
            headers: ["Content-Type": "application/x-www-form-urlencoded", "Accept": "application/json"],
            body: Array(body.utf8))
        let response = try await RetryingSender(transport: transport, policy: retry).send(request)
        guard let object = (try? JSONParser.parse(response.body))?.objectValue else {
            throw .unexpectedResponse(request: request.summary, reason: "HTTP \(response.status) without a JSON object")
        }
        if let code = object["error"]?.stringValue {
            return .failure(code: code, description: object["error_description"]?.stringValue)
        }
        guard response.isSuccess else {
            throw .http(request: request.summary, status: response.status, code: nil, message: nil)
        }
        return .success(object)
    }

    /// Tokens from a token endpoint answer (`access_token`, `refresh_token`, `expires_in`).
    func tokens(from object: JSONObject, previousRefresh: Secret? = nil) throws(GraphServiceError) -> CachedTokens {
        guard let access = object["access_token"]?.stringValue else {
            throw .unexpectedResponse(request: "POST token", reason: "no access_token")
        }
        let lifetime = object["expires_in"]?.numberValue ?? Double(object["expires_in"]?.stringValue ?? "") ?? 3600
        return CachedTokens(
            accessToken: Secret(access),
            refreshToken: object["refresh_token"]?.stringValue.map(Secret.init) ?? previousRefresh,
            expiresAt: Date().addingTimeInterval(lifetime), clientID: endpoints.clientID, tenant: endpoints.tenant)
    }
}
