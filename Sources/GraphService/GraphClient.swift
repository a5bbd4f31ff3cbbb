import Foundation
import GraphEvents

/// Authorised JSON requests to Graph: bearer token, at most four operations in flight on the
/// mailbox (a `$batch` counting the items it runs at once), transient failures retried, one token
/// refresh on HTTP 401.
public struct GraphClient: Sendable {
    /// The API root and sign-in settings requests are made against.
    public var endpoints: GraphEndpoints
    private let tokens: any TokenProvider
    private let sender: RetryingSender
    private let gate: RequestGate

    /// A client for `endpoints` signing requests with tokens from `tokens`, sent by `transport`, retried
    /// by `retry`, at most `gate`'s limit of operations at once (share one gate among clients of one
    /// mailbox). `onRetry` is told of each retry: the request as `METHOD /path`, why, and the delay in
    /// seconds.
    public init(
        endpoints: GraphEndpoints, tokens: any TokenProvider, transport: any HTTPTransport = HelperTransport(),
        retry: RetryPolicy = RetryPolicy(), gate: RequestGate = RequestGate(limit: 4),
        onRetry: @escaping @Sendable (_ request: String, _ reason: String, _ delay: Double) -> Void = { _, _, _ in }
    ) {
        self.endpoints = endpoints
        self.tokens = tokens
        self.sender = RetryingSender(transport: transport, policy: retry, onRetry: onRetry)
        self.gate = gate
    }

    /// A JSON request to `url` (absolute, e.g. an `@odata.nextLink`) and the response, whatever its
    /// status. `operations` is how many mailbox operations it runs at once: 1, or for a `$batch`
    /// the items Graph runs in parallel.
    public func send(
        _ method: String, _ url: URL, body: JSONValue? = nil, headers: [String: String] = [:], operations: Int = 1
    ) async throws(GraphServiceError) -> HTTPResponse {
        var draft = HTTPRequest(
            method: method, url: url, headers: headers.merging(["Accept": "application/json"]) { $1 })
        if let body {
            draft.headers["Content-Type"] = "application/json"
            draft.body = Array(JSONWriter().string(body).utf8)
        }
        let tokens = self.tokens
        let request = draft
        let authorised = { () async throws(GraphServiceError) -> HTTPResponse in
            try await sender.send(request, gate: gate, operations: operations) {
                (request: HTTPRequest) async throws(GraphServiceError) -> HTTPRequest in
                var request = request
                request.headers["Authorization"] = "Bearer " + (try await tokens.accessToken(refresh: false)).reveal()
                return request
            }
        }
        let response = try await authorised()
        guard response.status == 401 else { return response }
        // The token was refused: get a new one, once, and try again.
        _ = try await tokens.accessToken(refresh: true)
        return try await authorised()
    }

    /// Sends `request` as it is, without a token, through the same retries and mailbox gate: for a
    /// pre-authenticated URL (an attachment upload session's `uploadUrl`, to which Graph says not to
    /// send an Authorization header).
    public func sendUnsigned(_ request: HTTPRequest) async throws(GraphServiceError) -> HTTPResponse {
        try await sender.send(request, gate: gate, operations: 1)
    }

    /// The JSON object a successful request answers; an error status becomes `GraphServiceError.http`.
    public func json(
        _ method: String, _ url: URL, body: JSONValue? = nil, headers: [String: String] = [:], operations: Int = 1
    ) async throws(GraphServiceError) -> JSONValue {
        let response = try await send(method, url, body: body, headers: headers, operations: operations)
        let summary = "\(method) \(url.path)"
        guard response.isSuccess else { throw GraphClient.error(summary, response.status, body: response.body) }
        if response.body.isEmpty { return .null }
        do {
            return try JSONParser.parse(response.body)
        } catch {
            throw .unexpectedResponse(request: summary, reason: "invalid JSON: \(error)")
        }
    }

    /// The error for an error status, with Graph's `error.code` and `error.message` when the body has them.
    static func error(_ request: String, _ status: Int, body: [UInt8]) -> GraphServiceError {
        error(request, status, json: try? JSONParser.parse(body))
    }

    /// The same, from an already-parsed body (a `$batch` item's).
    static func error(_ request: String, _ status: Int, json: JSONValue?) -> GraphServiceError {
        let detail = json?["error"]
        return .http(
            request: request, status: status, code: detail?["code"]?.stringValue,
            message: detail?["message"]?.stringValue)
    }
}
