import Foundation
import GraphService

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// FoundationNetworking's URLSession, without caches or cookies: what sends calport's requests.
struct URLSessionTransport: HTTPTransport {
    /// Seconds a request may take before it counts as dropped.
    var timeout: TimeInterval

    private static let session: URLSession = {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.urlCache = nil
        configuration.httpCookieStorage = nil
        return URLSession(configuration: configuration)
    }()

    /// Sends `request` once; retrying is the client's business.
    func send(_ request: HTTPRequest) async throws(TransportError) -> HTTPResponse {
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
            return HTTPResponse(status: http.statusCode, headers: headers, body: [UInt8](data))
        } catch let error as TransportError {
            throw error
        } catch {
            // URLError descriptions name the URL, never headers, so they are safe to show.
            throw TransportError(request: request.summary, reason: (error as NSError).localizedDescription)
        }
    }
}
