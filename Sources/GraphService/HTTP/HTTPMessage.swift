import Foundation

/// One HTTP request as calport builds it: method, absolute URL, headers and body bytes.
public struct HTTPRequest: Sendable, Hashable {
    public var method: String
    public var url: URL
    public var headers: [String: String]
    public var body: [UInt8]

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
    public var status: Int
    public var headers: [String: String]
    public var body: [UInt8]

    public init(status: Int, headers: [String: String] = [:], body: [UInt8] = []) {
        self.status = status
        self.headers = Dictionary(
            headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { first, _ in first })
        self.body = body
    }

    /// Whether the status is 2xx.
    public var isSuccess: Bool { (200..<300).contains(status) }
}
