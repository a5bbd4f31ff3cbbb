/// Sends one HTTP request and returns its response; the seam where tests put a fake.
public protocol HTTPTransport: Sendable {
    /// The response, or a `TransportError` when no response arrived (refused, dropped, timed out).
    func send(_ request: HTTPRequest) async throws(TransportError) -> HTTPResponse
}

/// No HTTP response arrived: the connection failed, dropped or timed out.
public struct TransportError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The request that failed, as `METHOD /path`.
    public var request: String
    /// Why no response arrived, for a message: the network's error as the transport reported it, or
    /// what went wrong with the transport itself (`calport-http did not answer within 70 s and was killed`).
    public var reason: String
    /// Whether sending again may succeed (a dropped connection, a timeout); false when the same
    /// failure would recur, such as a missing HTTP helper.
    public var isRetryable: Bool

    /// The failure of `request` (`METHOD /path`) for `reason`; retryable unless said otherwise.
    public init(request: String, reason: String, isRetryable: Bool = true) {
        self.request = request
        self.reason = reason
        self.isRetryable = isRetryable
    }

    public var description: String { "\(request): no response: \(reason)" }
}
