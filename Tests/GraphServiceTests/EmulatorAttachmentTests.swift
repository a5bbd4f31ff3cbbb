import Foundation
import GraphEvents
import Testing

@testable import GraphService

/// The emulator's attachment routes, each pinned to the page graph_emulator.py cites: Add attachment
/// (https://learn.microsoft.com/graph/api/event-post-attachments), Get attachment
/// (https://learn.microsoft.com/graph/api/attachment-get), createUploadSession
/// (https://learn.microsoft.com/graph/api/attachment-createuploadsession) and Attach large files
/// (https://learn.microsoft.com/graph/outlook-large-attachments). Requests go as they are, once.
@Suite struct EmulatorAttachmentTests {
    func start() async throws -> (GraphEmulator, GraphClient, String) {
        let emulator = try GraphEmulator()
        let client = emulator.client(retry: RetryPolicy(maximumAttempts: 1))
        let event = EmulatorBehaviourTests.event("With files", "2027-01-04T09:00:00", "2027-01-04T10:00:00")
        let id = try #require(
            try await client.json("POST", emulator.endpoints.graph("/me/events"), body: event)["id"]?.stringValue)
        return (emulator, client, id)
    }

    func file(_ name: String, _ bytes: [UInt8]) -> JSONValue {
        [
            "@odata.type": "#microsoft.graph.fileAttachment", "name": .string(name), "contentType": "text/plain",
            "contentBytes": .string(Data(bytes).base64EncodedString()),
        ]
    }

    @Test func aPostUnder3MBAttachesAndTheRawBytesComeFromValue() async throws {
        let (emulator, client, id) = try await start()
        let attachments = emulator.endpoints.graph("/me/events/\(id)/attachments")
        let posted = try await client.send("POST", attachments, body: file("a.txt", Array("hello".utf8)))
        #expect(posted.status == 201)
        let attachmentID = try #require((try JSONParser.parse(posted.body))["id"]?.stringValue)
        let raw = try await client.send(
            "GET", emulator.endpoints.graph("/me/events/\(id)/attachments/\(attachmentID)/$value"))
        #expect(raw.status == 200 && raw.body == Array("hello".utf8) && raw.headers["content-type"] == "text/plain")
        let event = try await client.json("GET", emulator.endpoints.graph("/me/events/\(id)"))
        #expect(event["hasAttachments"]?.boolValue == true)
        // Over 3,000,000 bytes: the stricter reading of "under 3 MB" refuses it.
        let large = try await client.send(
            "POST", attachments, body: file("b.bin", [UInt8](repeating: 7, count: 3_000_001)))
        #expect(large.status == 413)
    }

    @Test func anUploadSessionTakesRangesInOrderWithoutAuthorization() async throws {
        let (emulator, client, id) = try await start()
        let bytes = (0..<10_000).map { UInt8(truncatingIfNeeded: $0 * 7) }
        let session = try await client.json(
            "POST", emulator.endpoints.graph("/me/events/\(id)/attachments/createUploadSession"),
            body: ["AttachmentItem": ["attachmentType": "file", "name": "c.bin", "size": 10_000]])
        #expect(session["nextExpectedRanges"] == ["0-"])
        let upload = try #require(session["uploadUrl"]?.stringValue.flatMap(URL.init(string:)))
        func put(_ range: Range<Int>, signed: Bool = false) async throws -> HTTPResponse {
            var request = HTTPRequest(
                method: "PUT", url: upload,
                headers: ["Content-Range": "bytes \(range.lowerBound)-\(range.upperBound - 1)/10000"],
                body: Array(bytes[range]))
            if signed { request.headers["Authorization"] = "Bearer " + GraphEmulator.token }
            return try await client.sendUnsigned(request)
        }
        #expect(try await put(0..<4_000, signed: true).status == 401, "the uploadUrl takes no Authorization")
        #expect(try await put(4_000..<8_000).status == 416, "ranges come in order")
        let firstPart = try await put(0..<4_000)
        #expect(firstPart.status == 200)
        #expect((try JSONParser.parse(firstPart.body))["nextExpectedRanges"] == ["4000"])
        let last = try await put(4_000..<10_000)
        #expect(last.status == 201 && last.headers["location"]?.contains("Attachments('") == true)
        let stored = try await emulator.state()["events"]?.arrayValue?.first?["attachments"]?.arrayValue?.first
        #expect(stored?["route"] == "uploadSession" && stored?["size"]?.numberValue == 10_000)
    }

    @Test func anExceptionHoldsFilesOfItsOwnAndAnUnchangedOccurrenceTakesNone() async throws {
        // An exception is an event with an id of its own (List instances), and Add attachment takes
        // any event id; the docs are silent on the rest, where graph_emulator.py is strictest.
        let emulator = try GraphEmulator()
        let client = emulator.client(retry: RetryPolicy(maximumAttempts: 1))
        let series = EmulatorBehaviourTests.event(
            "Daily", "2027-01-04T09:00:00", "2027-01-04T10:00:00", extra: [("recurrence", EmulatorBehaviourTests.daily)]
        )
        let masterID = try #require(
            try await client.json("POST", emulator.endpoints.graph("/me/events"), body: series)["id"]?.stringValue)
        let instances = try await client.json(
            "GET",
            emulator.endpoints.graph(
                "/me/events/\(masterID)/instances",
                query: "startDateTime=2027-01-01T00:00:00Z&endDateTime=2027-02-01T00:00:00Z"))
        let ids = (instances["value"]?.arrayValue ?? []).compactMap { $0["id"]?.stringValue }
        #expect(ids.count == 5)
        let third = try #require(ids.dropFirst(2).first)
        let attach = emulator.endpoints.graph("/me/events/\(third)/attachments")
        let early = try await client.send("POST", attach, body: file("agenda.txt", Array("agenda".utf8)))
        #expect(early.status == 400, "an occurrence not yet changed takes no file")
        _ = try await client.json(
            "PATCH", emulator.endpoints.graph("/me/events/\(third)"), body: ["subject": "Daily, with the agenda"])
        #expect(try await client.send("POST", attach, body: file("agenda.txt", Array("agenda".utf8))).status == 201)
        let exception = try await client.json("GET", emulator.endpoints.graph("/me/events/\(third)"))
        #expect(exception["type"] == "exception" && exception["hasAttachments"]?.boolValue == true)
        let listed = try await client.json("GET", attach)["value"]?.arrayValue ?? []
        #expect(listed.compactMap { $0["name"]?.stringValue } == ["agenda.txt"])
        // The series itself and its other occurrences have none.
        let master = try await client.json("GET", emulator.endpoints.graph("/me/events/\(masterID)"))
        #expect(master["hasAttachments"]?.boolValue != true)
        let second = try await client.json("GET", emulator.endpoints.graph("/me/events/\(ids[1])/attachments"))
        #expect(second["value"]?.arrayValue?.isEmpty == true)
        // Cancelled, the exception goes with its files.
        #expect(try await client.send("DELETE", emulator.endpoints.graph("/me/events/\(third)")).status == 204)
        #expect(try await client.send("GET", attach).status == 404)
    }

    @Test func anUploadSessionOver150MBIsRefused() async throws {
        let (emulator, client, id) = try await start()
        let session = try await client.send(
            "POST", emulator.endpoints.graph("/me/events/\(id)/attachments/createUploadSession"),
            body: ["AttachmentItem": ["attachmentType": "file", "name": "d.bin", "size": 157_286_401]])
        #expect(session.status == 413)
    }
}
