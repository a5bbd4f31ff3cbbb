import Foundation
import GraphEvents
import Testing

@testable import GraphService

@Suite struct ImporterTests {
    let endpoints = GraphEndpoints(graphURL: URL(string: "http://127.0.0.1:9/v1.0")!)

    func importer(_ transport: FakeTransport) -> CalendarImporter {
        let client = GraphClient(
            endpoints: endpoints, tokens: StaticTokenProvider(token: Secret("t")), transport: transport,
            retry: RetryPolicy(maximumAttempts: 4, baseDelay: 0.01))
        return CalendarImporter(client: client, retry: RetryPolicy(maximumAttempts: 4, baseDelay: 0.01))
    }

    /// The answer to the listing of what a source already has: nothing.
    let emptyListing = jsonResponse(200, #"{"value":[]}"#)

    func sources(_ entries: [JSONValue]) -> [ImportSource] {
        [ImportSource(name: "test.ics", plan: ImportPlan(entries: entries))]
    }

    func single(_ n: Int) -> JSONValue {
        [
            "subject": .string("Event \(n)"), "start": ["dateTime": "2027-01-04T10:00:00", "timeZone": "UTC"],
            "end": ["dateTime": "2027-01-04T11:00:00", "timeZone": "UTC"], "transactionId": .string("TX-\(n)"),
        ]
    }

    @Test func checksEveryItemOfABatchAndResendsOnlyTheThrottledOnes() async throws {
        let transport = FakeTransport([
            emptyListing,
            jsonResponse(
                200,
                #"{"responses":[{"id":"1","status":201,"body":{"id":"e1"}},{"id":"2","status":200,"body":{"id":"e2"}},"#
                    + #"{"id":"3","status":400,"body":{"error":{"code":"ErrorInvalidRequest","message":"bad start"}}},"#
                    + #"{"id":"4","status":429,"headers":{"Retry-After":"0"}}]}"#),
            jsonResponse(200, #"{"responses":[{"id":"1","status":201,"body":{"id":"e4"}}]}"#),
        ])
        let report = try await importer(transport).run(sources((1...4).map(single)))
        // 200 is what a repeated transactionId may answer: the event this run's first POST made.
        #expect(
            report.results.map(\.outcome) == [
                .created, .created, .failed(reason: "POST /me/events: HTTP 400 ErrorInvalidRequest: bad start"),
                .created,
            ])
        let requests = await transport.requests
        #expect(requests.map(\.url.path) == ["/v1.0/me/events", "/v1.0/$batch", "/v1.0/$batch"])
        let first = try JSONParser.parse(requests[1].body)
        let second = try JSONParser.parse(requests[2].body)
        #expect(second["requests"]?.arrayValue?.count == 1)
        #expect(
            second["requests"]?.arrayValue?.first?["body"]?["transactionId"]
                == first["requests"]?.arrayValue?.last?["body"]?["transactionId"])
    }

    @Test func sendsAtMostTwentyItemsPerBatch() async throws {
        let transport = FakeTransport([])
        let importer = importer(transport)
        let preparation = try await importer.prepare(sources((1...45).map(single)), lookUp: false)
        let bodies = (importer.requests(for: preparation).arrayValue ?? []).compactMap { $0["body"] }
        #expect(bodies.map { $0["requests"]?.arrayValue?.count } == [20, 20, 5])
        #expect(bodies[0]["requests"]?.arrayValue?.first?["url"] == "/me/events")
        #expect(bodies[0]["requests"]?.arrayValue?.first?["headers"]?["Content-Type"] == "application/json")
        #expect(await transport.requests.isEmpty)
    }

    @Test func aBatchThatCannotBeSentFailsItsItemsWithTheReason() async throws {
        let transport = FakeTransport([emptyListing, nil, nil, nil, nil])
        let report = try await importer(transport).run(sources([single(1)]))
        guard case .failed(let reason) = report.results.first?.outcome else {
            Issue.record("expected a failure")
            return
        }
        #expect(reason.contains("POST /v1.0/$batch"))
        #expect(reason.contains("connection dropped"))
    }

    @Test func aFilterGraphRefusesStopsTheImportBeforeAnythingIsCreated() async throws {
        let transport = FakeTransport([
            jsonResponse(
                400, #"{"error":{"code":"ErrorInvalidUrlQueryFilter","message":"The filter is not supported."}}"#)
        ])
        await #expect(throws: GraphServiceError.self) { try await importer(transport).run(sources([single(1)])) }
        let requests = await transport.requests
        #expect(requests.map(\.method) == ["GET"], "nothing is POSTed after the listing fails")
    }

    @Test func anEventWhosePropertiesAreNotCalportsIsNeverAMatch() async throws {
        // The same source and UID, but a stamp that does not parse, then one of another namespace.
        let preparation = try await importer(FakeTransport([])).prepare(sources([single(1)]), lookUp: false)
        let uid = try #require(preparation.steps.first?.unit.uid)
        func listed(_ properties: [(String, String)]) -> HTTPResponse {
            let entries = properties.map { #"{"id":"\#($0.0)","value":"\#($0.1)"}"# }.joined(separator: ",")
            return jsonResponse(
                200,
                #"{"value":[{"id":"e9","subject":"Event 1","singleValueExtendedProperties":[\#(entries)]}]}"#)
        }
        let source = CalportProperty.source.id
        let uidID = CalportProperty.uid.id
        let valid =
            "v1 content=\(String(repeating: "a", count: 64)) edits=\(String(repeating: "b", count: 32)) state=done"
        for answer in [
            listed([(source, "test.ics"), (uidID, uid), (CalportProperty.stamp.id, "v1 content=zz state=done")]),
            listed([
                (source, "test.ics"), (uidID, uid),
                ("String {00000000-0000-0000-0000-000000000000} Name calport.stamp", "v1"),
            ]),
            listed([(source, "TEST.ICS"), (uidID, uid), (CalportProperty.stamp.id, valid)]),
        ] {
            let preparation = try await importer(FakeTransport([answer])).prepare(sources([single(1)]))
            #expect(preparation.steps.map(\.step) == [.create])
        }
    }

    @Test func plansOverridesAsPatchesAndCancellationsAsDeletes() {
        let master = "MASTER-KEY"
        let plan = ImportPlan(entries: [
            single(1),
            [
                "subject": "Moved", "start": ["dateTime": "2027-01-12T14:00:00", "timeZone": "UTC"],
                .init(stringLiteral: GraphEventWriter.seriesMasterAnnotation): .string(master),
                "originalStart": "2027-01-11T10:00:00Z", "transactionId": "TX-override",
            ],
            [
                "isCancelled": true, .init(stringLiteral: GraphEventWriter.seriesMasterAnnotation): .string(master),
                "originalStart": "2027-01-18T10:00:00Z",
            ],
        ])
        #expect(plan.creates.map(\.key) == ["TX-1"])
        #expect(plan.changes.count == 2)
        guard case .update(let key, let start, let body) = plan.changes[0].action else {
            Issue.record("not an update")
            return
        }
        #expect(key == master && start == "2027-01-11T10:00:00Z")
        #expect(body.members.map(\.key) == ["subject", "start"])
        #expect(plan.changes[1].action == .cancel(masterKey: master, originalStart: "2027-01-18T10:00:00Z"))
    }

    @Test func changesToASeriesWhoseMasterFailedFailWithoutBeingSent() async throws {
        let transport = FakeTransport([
            emptyListing,
            jsonResponse(
                200, #"{"responses":[{"id":"1","status":400,"body":{"error":{"code":"ErrorInvalidRecurrence"}}}]}"#),
        ])
        let cancel: JSONValue = [
            "isCancelled": true, .init(stringLiteral: GraphEventWriter.seriesMasterAnnotation): "TX-1",
            "originalStart": "2027-01-11T10:00:00Z",
        ]
        let report = try await importer(transport).run(sources([single(1), cancel]))
        #expect(
            report.results.map(\.outcome).last == .failed(reason: "POST /me/events: HTTP 400 ErrorInvalidRecurrence"))
        #expect(await transport.requests.count == 2, "the listing and the batch")
    }
}
