import Foundation
import GraphEvents
import Testing

@testable import GraphService

@Suite struct GraphClientTests {
    let endpoints = GraphEndpoints(graphURL: URL(string: "http://127.0.0.1:9/v1.0")!)

    func client(_ transport: FakeTransport, token: String = "secret-token") -> GraphClient {
        GraphClient(
            endpoints: endpoints, tokens: StaticTokenProvider(token: Secret(token)), transport: transport,
            retry: RetryPolicy(maximumAttempts: 4, baseDelay: 0.01))
    }

    @Test func plainHTTPIsRefusedUnlessTheHostIsThisMachine() throws {
        for text in ["http://graph.example.com/v1.0", "http://127.0.0.1.example.com", "http://10.0.0.1:8080"] {
            #expect(throws: GraphServiceError.self, "\(text)") {
                try GraphEndpoints.parseURL(text, option: "--graph-url")
            }
        }
        for text in [
            "https://graph.example.com/v1.0", "http://127.0.0.1:9/v1.0", "http://127.1.2.3", "http://localhost:8080",
            "http://[::1]:8080/v1.0",
        ] {
            #expect(throws: Never.self, "\(text)") { try GraphEndpoints.parseURL(text, option: "--graph-url") }
        }
    }

    @Test func sendsTheBearerTokenAndRetriesThrottlingAndDrops() async throws {
        let transport = FakeTransport([
            jsonResponse(429, #"{"error":{"code":"TooManyRequests"}}"#, headers: ["Retry-After": "0"]),
            nil,
            jsonResponse(200, #"{"timeZone":"Pacific Standard Time"}"#),
        ])
        let body = try await client(transport).json("GET", endpoints.graph("/me/mailboxSettings"))
        #expect(body["timeZone"] == "Pacific Standard Time")
        let requests = await transport.requests
        #expect(requests.count == 3)
        #expect(requests.allSatisfy { $0.headers["Authorization"] == "Bearer secret-token" })
        #expect(requests[0].url.absoluteString == "http://127.0.0.1:9/v1.0/me/mailboxSettings")
    }

    @Test func reportsGraphsErrorCodeAndMessage() async {
        let transport = FakeTransport([
            jsonResponse(
                404,
                #"{"error":{"code":"ErrorItemNotFound","message":"The specified object was not found in the store."}}"#)
        ])
        await #expect(
            throws: GraphServiceError.http(
                request: "GET /v1.0/me/events/x", status: 404, code: "ErrorItemNotFound",
                message: "The specified object was not found in the store.")
        ) {
            try await client(transport).json("GET", endpoints.graph("/me/events/x"))
        }
    }

    @Test func aRefusedStaticTokenIsNotSignedInAndNeverNamed() async {
        let transport = FakeTransport([jsonResponse(401, #"{"error":{"code":"InvalidAuthenticationToken"}}"#)])
        do {
            _ = try await client(transport, token: "leaky-token-123").json("GET", endpoints.graph("/me"))
            Issue.record("expected an error")
        } catch {
            guard case .notSignedIn = error else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(!error.description.contains("leaky-token-123"))
        }
    }

    @Test func aNextLinkThatRepeatsAnEarlierPageIsAnError() async throws {
        let first = "http://127.0.0.1:9/v1.0/me/calendarView?$skiptoken=1"
        let transport = FakeTransport([
            jsonResponse(200, #"{"value":[1],"@odata.nextLink":"\#(first)"}"#),
            jsonResponse(200, #"{"value":[2],"@odata.nextLink":"\#(first)"}"#),
        ])
        var pages = 0
        await #expect {
            try await GraphPager(client: client(transport)).forEachPage(endpoints.graph("/me/calendarView")) {
                (_: [JSONValue]) throws(GraphServiceError) in pages += 1
            }
        } throws: { error in
            guard case .unexpectedResponse(_, let reason) = error as? GraphServiceError else { return false }
            return reason.contains("repeats an earlier page")
        }
        #expect(pages == 2, "each page is handed over as it comes")
    }

    @Test func exportAsksForLargePagesHTMLBodiesAndImmutableIds() async throws {
        let transport = FakeTransport([
            jsonResponse(200, #"{"timeZone":"W. Europe Standard Time"}"#),
            jsonResponse(200, #"{"value":[]}"#),
        ])
        _ = try await CalendarExporter(client: client(transport)).export(
            ExportRequest(start: "2027-01-01", end: "2027-02-01"))
        let view = try #require(await transport.requests.last)
        #expect(view.url.path == "/v1.0/me/calendarView")
        #expect(
            view.headers["Prefer"]
                == #"outlook.timezone="W. Europe Standard Time", outlook.body-content-type="html", odata.maxpagesize=1000, IdType="ImmutableId""#
        )
    }

    @Test func followsNextLinksOnTheGraphHostOnly() async throws {
        let transport = FakeTransport([
            jsonResponse(
                200, #"{"value":[1,2],"@odata.nextLink":"http://127.0.0.1:9/v1.0/me/calendarView?$skiptoken=2"}"#),
            jsonResponse(200, #"{"value":[3],"@odata.nextLink":"http://attacker.example/steal"}"#),
        ])
        await #expect(throws: GraphServiceError.self) {
            try await GraphPager(client: client(transport)).all(endpoints.graph("/me/calendarView"))
        }
        #expect(await transport.requests.count == 2)
    }

    @Test func aSecretNeverPrintsItsText() {
        let secret = Secret("hidden-value")
        #expect("\(secret)" == "<redacted>")
        #expect(String(reflecting: secret) == "<redacted>")
    }

    @Test func theGateKeepsAtMostFourRequestsInFlight() async {
        let gate = RequestGate(limit: 4)
        let counter = InFlightCounter()
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<16 {
                group.addTask {
                    await gate.withSlots { () async -> Void in
                        await counter.enter()
                        try? await Task.sleep(for: .milliseconds(10))
                        await counter.leave()
                    }
                }
            }
        }
        #expect(await counter.highest == 4)
    }

    @Test func aBatchHoldsASlotForEachItemItRunsAtOnce() async {
        let gate = RequestGate(limit: 4)
        let counter = InFlightCounter()
        await withTaskGroup(of: Void.self) { group in
            for slots in [4, 1, 3, 2, 4, 1, 1, 1, 1, 2] {
                group.addTask {
                    await gate.withSlots(slots) { () async -> Void in
                        await counter.enter(slots)
                        try? await Task.sleep(for: .milliseconds(10))
                        await counter.leave(slots)
                    }
                }
            }
        }
        #expect(await counter.highest <= 4)
        #expect(await counter.highest >= 3, "holders that fit together run together")
    }
}

/// Counts concurrent holders and remembers the most at once.
actor InFlightCounter {
    private var current = 0
    private(set) var highest = 0
    func enter(_ count: Int = 1) {
        current += count
        highest = max(highest, current)
    }
    func leave(_ count: Int = 1) { current -= count }
}
