import Foundation
import GraphEvents
import Testing

@testable import GraphService

@Suite struct ImporterTests {
    let endpoints = GraphEndpoints(graphURL: URL(string: "http://127.0.0.1:9/v1.0")!)

    func importer(_ transport: FakeTransport, journal: String? = nil) -> CalendarImporter {
        let client = GraphClient(
            endpoints: endpoints, tokens: StaticTokenProvider(token: Secret("t")), transport: transport,
            retry: RetryPolicy(maximumAttempts: 4, baseDelay: 0.01))
        return CalendarImporter(
            client: client, retry: RetryPolicy(maximumAttempts: 4, baseDelay: 0.01), journalPath: journal)
    }

    func single(_ n: Int) -> JSONValue {
        [
            "subject": .string("Event \(n)"), "start": ["dateTime": "2027-01-04T10:00:00", "timeZone": "UTC"],
            "end": ["dateTime": "2027-01-04T11:00:00", "timeZone": "UTC"], "transactionId": .string("TX-\(n)"),
        ]
    }

    @Test func checksEveryItemOfABatchAndResendsOnlyTheThrottledOnes() async throws {
        let transport = FakeTransport([
            jsonResponse(
                200,
                #"{"responses":[{"id":"1","status":201,"body":{"id":"e1"}},{"id":"2","status":200,"body":{"id":"e2"}},"#
                    + #"{"id":"3","status":400,"body":{"error":{"code":"ErrorInvalidRequest","message":"bad start"}}},"#
                    + #"{"id":"4","status":429,"headers":{"Retry-After":"0"}}]}"#),
            jsonResponse(200, #"{"responses":[{"id":"1","status":201,"body":{"id":"e4"}}]}"#),
        ])
        let report = try await importer(transport).run(ImportPlan(entries: (1...4).map(single)))
        #expect(
            report.results.map(\.outcome) == [
                .created, .alreadyPresent, .failed(reason: "POST /me/events: HTTP 400 ErrorInvalidRequest: bad start"),
                .created,
            ])
        let requests = await transport.requests
        #expect(requests.map(\.url.path) == ["/v1.0/$batch", "/v1.0/$batch"])
        let second = try JSONParser.parse(requests[1].body)
        #expect(second["requests"]?.arrayValue?.count == 1)
        #expect(second["requests"]?.arrayValue?.first?["body"]?["transactionId"] == "TX-4")
    }

    @Test func sendsAtMostTwentyItemsPerBatch() async throws {
        let transport = FakeTransport([])
        let bodies = importer(transport).batchBodies(for: ImportPlan(entries: (1...45).map(single)))
        #expect(bodies.map { $0["requests"]?.arrayValue?.count } == [20, 20, 5])
        #expect(bodies[0]["requests"]?.arrayValue?.first?["url"] == "/me/events")
        #expect(bodies[0]["requests"]?.arrayValue?.first?["headers"]?["Content-Type"] == "application/json")
    }

    @Test func aBatchThatCannotBeSentFailsItsItemsWithTheReason() async throws {
        let transport = FakeTransport([nil, nil, nil, nil])
        let report = try await importer(transport).run(ImportPlan(entries: [single(1)]))
        guard case .failed(let reason) = report.results.first?.outcome else {
            Issue.record("expected a failure")
            return
        }
        #expect(reason.contains("POST /v1.0/$batch"))
        #expect(reason.contains("connection dropped"))
    }

    @Test func resumesFromTheJournalWithoutResendingFinishedItems() async throws {
        let journal = FileManager.default.temporaryDirectory.appendingPathComponent("journal-\(UUID().uuidString)").path
        defer { unlink(journal) }
        // An earlier run finished TX-1, sent TX-2 without learning its outcome, and was killed
        // halfway through writing a line.
        let earlier =
            #"{"op":"intent","request":"POST /$batch","keys":["TX-1","TX-2"]}"# + "\n"
            + #"{"op":"outcome","key":"TX-1","outcome":"created","id":"e1"}"# + "\n"
            + #"{"op":"outcome","key":"TX-2","out"#
        _ = FileManager.default.createFile(atPath: journal, contents: Data(earlier.utf8))
        let transport = FakeTransport([
            jsonResponse(200, #"{"responses":[{"id":"1","status":200,"body":{"id":"e2"}}]}"#)
        ])
        let report = try await importer(transport, journal: journal).run(ImportPlan(entries: [single(1), single(2)]))
        #expect(report.results.map(\.outcome) == [.alreadyPresent, .alreadyPresent])
        let sent = try JSONParser.parse(await transport.requests[0].body)
        #expect(sent["requests"]?.arrayValue?.map { $0["body"]?["transactionId"] } == ["TX-2"])
        let records = ImportJournal.load(path: journal)
        #expect(records["TX-2"] == JournalRecord(outcome: "present", id: "e2"))
        #expect(records["TX-1"] == JournalRecord(outcome: "created", id: "e1"))
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
            jsonResponse(
                200, #"{"responses":[{"id":"1","status":400,"body":{"error":{"code":"ErrorInvalidRecurrence"}}}]}"#)
        ])
        let cancel: JSONValue = [
            "isCancelled": true, .init(stringLiteral: GraphEventWriter.seriesMasterAnnotation): "TX-1",
            "originalStart": "2027-01-11T10:00:00Z",
        ]
        let report = try await importer(transport).run(ImportPlan(entries: [single(1), cancel]))
        #expect(report.results.map(\.outcome).last == .failed(reason: "its series master was not created"))
        #expect(await transport.requests.count == 1)
    }
}
