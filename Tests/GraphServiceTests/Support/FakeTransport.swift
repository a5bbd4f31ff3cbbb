import GraphService

/// A transport that answers from a script and records what it was sent.
actor FakeTransport: HTTPTransport {
    /// Answers in order; a nil entry is a dropped connection.
    private var script: [HTTPResponse?]
    private(set) var requests: [HTTPRequest] = []

    init(_ script: [HTTPResponse?]) {
        self.script = script
    }

    func send(_ request: HTTPRequest) async throws(TransportError) -> HTTPResponse {
        requests.append(request)
        guard !script.isEmpty, let response = script.removeFirst() else {
            throw TransportError(request: request.summary, reason: "connection dropped")
        }
        return response
    }
}

/// A JSON response.
func jsonResponse(_ status: Int, _ body: String, headers: [String: String] = [:]) -> HTTPResponse {
    HTTPResponse(
        status: status, headers: headers.merging(["Content-Type": "application/json"]) { $1 }, body: Array(body.utf8))
}
