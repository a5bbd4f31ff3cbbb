/// Sends a request until it gets a non-transient answer: 429, 503, 504 and retryable transport
/// failures (dropped connections, timeouts) are retried after `Retry-After` or backoff. Only
/// idempotent requests may come here (Graph event POSTs carry a `transactionId`, which makes them so).
struct RetryingSender: Sendable {
    var transport: any HTTPTransport
    var policy: RetryPolicy
    /// Told of each retry, for progress output; never given headers or bodies.
    var onRetry: @Sendable (_ request: String, _ reason: String, _ delay: Double) -> Void = { _, _, _ in }

    /// The first non-transient response, or the last transient one when attempts run out.
    func send(
        _ request: HTTPRequest, prepare: @Sendable (HTTPRequest) async throws(GraphServiceError) -> HTTPRequest = { $0 }
    )
        async throws(GraphServiceError) -> HTTPResponse
    {
        var attempt = 0
        while true {
            attempt += 1
            let prepared = try await prepare(request)
            let outcome: Result<HTTPResponse, TransportError>
            do {
                outcome = .success(try await transport.send(prepared))
            } catch {
                outcome = .failure(error)
            }
            let reason: String
            var retryAfter: String?
            switch outcome {
            case .success(let response) where policy.isRetryable(status: response.status):
                reason = "HTTP \(response.status)"
                retryAfter = response.headers["retry-after"]
                if attempt >= policy.maximumAttempts { return response }
            case .success(let response):
                return response
            case .failure(let error):
                reason = error.reason
                if attempt >= policy.maximumAttempts || !error.isRetryable { throw .transport(error) }
            }
            let delay = policy.delay(afterAttempt: attempt, retryAfter: retryAfter)
            onRetry(request.summary, reason, delay)
            try? await Task.sleep(for: .seconds(delay))
        }
    }
}
