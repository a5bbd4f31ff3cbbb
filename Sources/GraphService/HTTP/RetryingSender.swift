/// Sends a request until it gets a non-transient answer: 429, 503, 504 and retryable transport
/// failures (dropped connections, timeouts) are retried after `Retry-After` or backoff. Only
/// idempotent requests may come here (Graph event POSTs carry a `transactionId`, which makes them so).
struct RetryingSender: Sendable {
    var transport: any HTTPTransport
    var policy: RetryPolicy
    /// Told of each retry, for progress output; never given headers or bodies.
    var onRetry: @Sendable (_ request: String, _ reason: String, _ delay: Double) -> Void = { _, _, _ in }

    /// The first non-transient response, or the last transient one when attempts run out. With a
    /// `gate`, each attempt holds `operations` of its slots while it is sent, and none while it
    /// waits to be sent again: a throttled request does not keep others from the mailbox.
    func send(
        _ request: HTTPRequest, gate: RequestGate? = nil, operations: Int = 1,
        prepare: @Sendable (HTTPRequest) async throws(GraphServiceError) -> HTTPRequest = { $0 }
    )
        async throws(GraphServiceError) -> HTTPResponse
    {
        var attempt = 0
        while true {
            attempt += 1
            let prepared = try await prepare(request)
            let outcome: Result<HTTPResponse, TransportError>
            let transport = self.transport
            let sendOnce = { @Sendable () async throws(TransportError) -> HTTPResponse in
                try await transport.send(prepared)
            }
            do throws(TransportError) {
                if let gate {
                    outcome = .success(try await gate.withSlots(operations, sendOnce))
                } else {
                    outcome = .success(try await sendOnce())
                }
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
