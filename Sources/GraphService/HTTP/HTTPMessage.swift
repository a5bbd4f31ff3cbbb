import Foundation

/// One HTTP request as calport builds it: method, absolute URL, headers and body bytes.
public struct HTTPRequest: Sendable, Hashable {
    /// The HTTP method, upper case (`GET`, `POST`, `PATCH`, `DELETE`).
    public var method: String
    /// The absolute URL, query included.
    public var url: URL
    /// Header fields by name, one value each (`Authorization`, `Content-Type`, `Prefer`).
    public var headers: [String: String]
    /// The body bytes; empty for none.
    public var body: [UInt8]

    /// A request for `method` and `url` with `headers` and `body`.
    public init(method: String, url: URL, headers: [String: String] = [:], body: [UInt8] = []) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
    }

    /// The request line without query, safe for messages: query strings may carry codes.
    public var summary: String { "\(method) \(url.path)" }
}

/// One HTTP response: status, headers (names lower-cased) and body bytes.
public struct HTTPResponse: Sendable, Hashable {
    /// The HTTP status code (200, 404, 429, …).
    public var status: Int
    /// Header fields by lower-cased name (`retry-after`, `location`), one value each.
    public var headers: [String: String]
    /// The body bytes; empty for none (a 204).
    public var body: [UInt8]

    /// A response with `status`, `headers` (their names lower-cased here) and `body`.
    public init(status: Int, headers: [String: String] = [:], body: [UInt8] = []) {
        self.status = status
        self.headers = Dictionary(
            headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { first, _ in first })
        self.body = body
    }

    /// Whether the status is 2xx.
    public var isSuccess: Bool { (200..<300).contains(status) }
}
