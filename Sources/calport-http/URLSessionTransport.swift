import Foundation
import GraphService

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// FoundationNetworking's URLSession, without caches or cookies: what sends calport's requests.
struct URLSessionTransport {
    /// Seconds a request may take before it counts as dropped.
    var timeout: TimeInterval

    private static let session: URLSession = {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.urlCache = nil
        configuration.httpCookieStorage = nil
        return URLSession(configuration: configuration, delegate: SameOriginRedirects(), delegateQueue: nil)
    }()

    /// Sends `request` once (retrying is the client's business), the response's body given apart as
    /// URLSession's `Data`: the helper writes a download out from it rather than from a copy.
    func sendKeepingBody(_ request: HTTPRequest) async throws(TransportError) -> (response: HTTPResponse, body: Data) {
        var urlRequest = URLRequest(
            url: request.url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: timeout)
        urlRequest.httpMethod = request.method
        for (name, value) in request.headers { urlRequest.setValue(value, forHTTPHeaderField: name) }
        if !request.body.isEmpty { urlRequest.httpBody = Data(request.body) }
        do {
            let (data, response) = try await Self.session.data(for: urlRequest)
            guard let http = response as? HTTPURLResponse else {
                throw TransportError(request: request.summary, reason: "not an HTTP response")
            }
            var headers: [String: String] = [:]
            for (name, value) in http.allHeaderFields {
                if let name = name as? String, let value = value as? String { headers[name] = value }
            }
            if (300..<400).contains(http.statusCode),
                let location = http.value(forHTTPHeaderField: "Location"),
                let target = URL(string: location, relativeTo: request.url)?.absoluteURL,
                !SameOriginRedirects.isSameOrigin(target, request.url)
            {
                throw TransportError(
                    request: request.summary,
                    reason: "HTTP \(http.statusCode) redirects to \(SameOriginRedirects.origin(of: target)), another "
                        + "origin; not followed, since the request carries credentials (redirects are followed "
                        + "only within \(SameOriginRedirects.origin(of: request.url)))", isRetryable: false)
            }
            return (HTTPResponse(status: http.statusCode, headers: headers), data)
        } catch let error as TransportError {
            throw error
        } catch {
            // URLError descriptions name the URL, never headers, so they are safe to show.
            throw TransportError(request: request.summary, reason: (error as NSError).localizedDescription)
        }
    }
}

/// Follows a redirect only within the origin (scheme, host and port) of the request: URLSession
/// would send the request's headers, the bearer token among them, to wherever a redirect points.
/// A redirect elsewhere is not followed, and its 3xx response is what the transport reports.
final class SameOriginRedirects: NSObject, URLSessionTaskDelegate, Sendable {
    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void
    ) {
        guard let from = response.url ?? task.originalRequest?.url, let to = request.url,
            Self.isSameOrigin(from, to)
        else { return completionHandler(nil) }
        completionHandler(request)
    }

    /// RFC 6454 origins: scheme, host and port, with the scheme's default port filled in.
    static func isSameOrigin(_ first: URL, _ second: URL) -> Bool { origin(of: first) == origin(of: second) }

    /// `scheme://host:port`, lowercased, the port made explicit.
    static func origin(of url: URL) -> String {
        let scheme = url.scheme?.lowercased() ?? ""
        let port = url.port ?? (scheme == "https" ? 443 : scheme == "http" ? 80 : -1)
        return "\(scheme)://\(url.host?.lowercased() ?? ""):\(port)"
    }
}
