import Foundation
import GraphEvents

/// Reads a Graph collection to its end by following `@odata.nextLink`.
struct GraphPager: Sendable {
    var client: GraphClient
    /// A guard against a service that links a page to itself.
    var maximumPages = 10_000

    /// Every `value` element of every page, starting at `url`.
    func all(_ url: URL, headers: [String: String] = [:]) async throws(GraphServiceError) -> [JSONValue] {
        var items: [JSONValue] = []
        var next: URL? = url
        var pages = 0
        while let page = next {
            pages += 1
            guard pages <= maximumPages else {
                throw .unexpectedResponse(request: "GET \(url.path)", reason: "more than \(maximumPages) pages")
            }
            let body = try await client.json("GET", page, headers: headers)
            guard let value = body["value"]?.arrayValue else {
                throw .unexpectedResponse(request: "GET \(page.path)", reason: "a page without a value array")
            }
            items += value
            next = try body["@odata.nextLink"]?.stringValue.map { link throws(GraphServiceError) in
                let url = try GraphEndpoints.parseURL(link, option: "@odata.nextLink")
                // The token goes with the request, so only to the Graph root it was meant for.
                guard url.host == client.endpoints.graphURL.host, url.port == client.endpoints.graphURL.port,
                    url.scheme == client.endpoints.graphURL.scheme
                else {
                    throw .unexpectedResponse(
                        request: "GET \(page.path)", reason: "@odata.nextLink leaves the Graph host")
                }
                return url
            }
        }
        return items
    }
}
