import Foundation

/// What calport asks `calport-http` to do: send `request`, giving up after `timeout` seconds.
public struct HelperRequest: Sendable, Hashable {
    /// The request to send, as it goes on the wire.
    public let request: HTTPRequest
    /// Seconds, given to URLSession as the request's timeout; framed as whole milliseconds.
    public let timeout: TimeInterval

    /// Asks for `request` to be sent with `timeout` seconds (a negative timeout counts as 0).
    public init(request: HTTPRequest, timeout: TimeInterval) {
        self.request = request
        self.timeout = max(timeout, 0)
    }

    /// Reads a request frame, as the helper does with its stdin.
    public init(frame: [UInt8]) throws(HelperFrameError) {
        var reader = try HelperFrameReader(frame: frame)
        guard reader.kind == HelperFrame.Kind.request.rawValue else { throw .unexpectedKind(reader.kind) }
        let method = try reader.text("method")
        guard let url = URL(string: try reader.text("URL")) else { throw .invalidField("URL") }
        let milliseconds = try reader.number("timeout")
        let headers = try reader.headers()
        let body = Array(try reader.field())
        try reader.finish()
        self.init(
            request: HTTPRequest(method: method, url: url, headers: headers, body: body),
            timeout: TimeInterval(milliseconds) / 1000)
    }

    /// The request frame; a header that cannot be sent as it is throws instead of being altered.
    public func frame() throws(HelperFrameError) -> [UInt8] {
        var writer = HelperFrameWriter(kind: .request)
        try writer.text(request.method)
        try writer.text(request.url.absoluteString)
        try writer.number(UInt64(timeout * 1000))
        try writer.headers(request.headers)
        try writer.field(request.body)
        return writer.bytes
    }
}

/// What `calport-http` answers: the response, or why no response arrived.
public enum HelperReply: Sendable, Hashable {
    /// The response that arrived, whatever its status: HTTP errors are the client's to judge.
    case response(HTTPResponse)
    /// The transport failure's reason, as URLSession gave it.
    case failure(String)
    /// No connection could be made to the host (refused, unknown, no answer within the connect
    /// timeout), or the answer was refused (a redirect to another origin), with the reason
    /// naming it: sending again at once would fail the same way.
    case unreachable(String)

    /// Reads a reply frame, as calport does with the helper's stdout. A response's body, the
    /// frame's last field, keeps the frame's storage (moved to its front) when the caller hands the
    /// frame over: a downloaded file is then held once, not twice.
    public init(frame: consuming [UInt8]) throws(HelperFrameError) {
        switch try Self.read(frame) {
        case .response(let status, let headers, let body):
            frame.removeSubrange(body.upperBound...)
            frame.removeSubrange(..<body.lowerBound)
            self = .response(HTTPResponse(status: status, headers: headers, body: frame))
        case .other(let reply):
            self = reply
        }
    }

    private enum Parsed {
        case response(status: Int, headers: [String: String], body: Range<Int>)
        case other(HelperReply)
    }

    /// What a reply frame holds, a response's body as where it is in the frame; the reader, and with
    /// it its reference to the frame, ends here.
    private static func read(_ frame: [UInt8]) throws(HelperFrameError) -> Parsed {
        var reader = try HelperFrameReader(frame: frame)
        switch HelperFrame.Kind(rawValue: reader.kind) {
        case .response:
            guard let status = Int(exactly: try reader.number("status")), (100...999).contains(status) else {
                throw .invalidField("status")
            }
            let headers = try reader.headers()
            let body = try reader.field().indices
            try reader.finish()
            return .response(status: status, headers: headers, body: body)
        case .failure, .unreachable:
            let reason = try reader.text("reason")
            try reader.finish()
            return .other(reader.kind == HelperFrame.Kind.failure.rawValue ? .failure(reason) : .unreachable(reason))
        case .request, nil:
            throw .unexpectedKind(reader.kind)
        }
    }

    /// The reply frame; a response header that cannot be framed throws (the helper then replies
    /// with a failure naming it).
    public func frame() throws(HelperFrameError) -> [UInt8] {
        var bytes: [UInt8] = []
        try write { bytes.append(contentsOf: $0) }
        return bytes
    }

    /// Hands the reply frame to `sink` in pieces, a response's body straight from the response
    /// rather than copied into a frame; nothing reaches `sink` when a header cannot be framed.
    /// `body`, when given, is a response's body in place of its own (the helper's download, kept in
    /// the `Data` URLSession gave rather than copied into an array).
    public func write(to sink: (UnsafeRawBufferPointer) -> Void, body: UnsafeRawBufferPointer? = nil)
        throws(HelperFrameError)
    {
        switch self {
        case .response(let response):
            var writer = HelperFrameWriter(kind: .response)
            try writer.number(UInt64(clamping: response.status))
            try writer.headers(response.headers)
            try writer.fieldLength(body?.count ?? response.body.count)
            writer.bytes.withUnsafeBytes(sink)
            if let body { sink(body) } else { response.body.withUnsafeBytes(sink) }
        case .failure(let reason):
            var writer = HelperFrameWriter(kind: .failure)
            try writer.text(reason)
            writer.bytes.withUnsafeBytes(sink)
        case .unreachable(let reason):
            var writer = HelperFrameWriter(kind: .unreachable)
            try writer.text(reason)
            writer.bytes.withUnsafeBytes(sink)
        }
    }
}
