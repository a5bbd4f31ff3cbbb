import Foundation
import GraphEvents

/// Reads a Graph collection page by page, following `@odata.nextLink`.
struct GraphPager: Sendable {
    var client: GraphClient

    /// Hands each page's `value` elements to `each`, from `url` to the last page, holding one page
    /// at a time; returns the last page (a delta round's has the `@odata.deltaLink`) and its URL. A
    /// next link that repeats an earlier one is an error: it would never end.
    @discardableResult
    func forEachPage(
        _ url: URL, headers: [String: String] = [:],
        _ each: ([JSONValue]) async throws(GraphServiceError) -> Void
    ) async throws(GraphServiceError) -> (body: JSONValue, url: URL) {
        var page = url
        var visited: Set<String> = []
        while true {
            guard visited.insert(page.absoluteString).inserted else {
                throw .unexpectedResponse(
                    request: "GET \(url.path)", reason: "@odata.nextLink repeats an earlier page (\(page.path))")
            }
            let body = try await client.json("GET", page, headers: headers)
            guard let value = body["value"]?.arrayValue else {
                throw .unexpectedResponse(request: "GET \(page.path)", reason: "a page without a value array")
            }
            try await each(value)
            guard let next = body["@odata.nextLink"]?.stringValue else { return (body, page) }
            page = try link(next, named: "@odata.nextLink", on: page)
        }
    }

    /// The URL of a link a page of `page` gave (`@odata.nextLink`, `@odata.deltaLink`), when it
    /// stays on the Graph root: the token goes with the request, so only where it was meant for.
    func link(_ text: String, named name: String, on page: URL) throws(GraphServiceError) -> URL {
        let url = try GraphEndpoints.parseURL(text, option: name)
        guard url.host == client.endpoints.graphURL.host, url.port == client.endpoints.graphURL.port,
            url.scheme == client.endpoints.graphURL.scheme
        else {
            throw .unexpectedResponse(request: "GET \(page.path)", reason: "\(name) leaves the Graph host")
        }
        return url
    }

    /// Every `value` element of every page, for collections known to be small (a series' instances
    /// around a few dates).
    func all(_ url: URL, headers: [String: String] = [:]) async throws(GraphServiceError) -> [JSONValue] {
        var items: [JSONValue] = []
        try await forEachPage(url, headers: headers) { (page: [JSONValue]) throws(GraphServiceError) in items += page }
        return items
    }
}
