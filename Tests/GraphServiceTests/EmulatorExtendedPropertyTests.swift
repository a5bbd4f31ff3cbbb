import Foundation
import GraphEvents
import Testing

@testable import GraphService

/// The emulator's single-value extended properties, pinned to what Graph's documentation says
/// (docs/graph-service.md, "The emulator").
@Suite struct EmulatorExtendedPropertyTests {
    static let id = "String {66F5A359-4659-4830-9070-00047EC6AC6E} Name Tag"

    func event(_ subject: String, properties: [JSONValue]) -> JSONValue {
        [
            "subject": .string(subject), "start": ["dateTime": "2027-01-04T10:00:00", "timeZone": "UTC"],
            "end": ["dateTime": "2027-01-04T11:00:00", "timeZone": "UTC"],
            "singleValueExtendedProperties": .array(properties),
        ]
    }

    @Test func propertiesAreSetByPostAndPatchAndShownOnlyWhenExpanded() async throws {
        let emulator = try GraphEmulator()
        let client = emulator.client()
        let created = try await client.json(
            "POST", emulator.endpoints.graph("/me/events"),
            body: event("Tagged", properties: [["id": .string(Self.id), "value": "Blue"]]))
        let id = try #require(created["id"]?.stringValue)
        // "You cannot use the REST API to get all the extended properties of a specific instance in one call."
        #expect(created["singleValueExtendedProperties"] == nil)
        let plain = try await client.json("GET", emulator.endpoints.graph("/me/events/\(id)"))
        #expect(plain["singleValueExtendedProperties"] == nil)
        let expand = "$expand=" + "singleValueExtendedProperties($filter=id eq '\(Self.id)')".urlComponentEncoded
        let expanded = try await client.json("GET", emulator.endpoints.graph("/me/events/\(id)", query: expand))
        #expect(expanded["singleValueExtendedProperties"] == [["id": .string(Self.id), "value": "Blue"]])

        // A PATCH sets the properties it names and leaves the event's other members as they were.
        _ = try await client.json(
            "PATCH", emulator.endpoints.graph("/me/events/\(id)"),
            body: ["singleValueExtendedProperties": [["id": .string(Self.id), "value": "Green"]]])
        let patched = try await client.json("GET", emulator.endpoints.graph("/me/events/\(id)", query: expand))
        #expect(patched["singleValueExtendedProperties"]?.arrayValue?.first?["value"] == "Green")
        #expect(patched["subject"] == "Tagged")
    }

    @Test func aFilterFindsTheEventsWithAValueComparedWithoutCase() async throws {
        let emulator = try GraphEmulator()
        let client = emulator.client()
        for (subject, value) in [("One", "Blue"), ("Two", "Red")] {
            _ = try await client.json(
                "POST", emulator.endpoints.graph("/me/events"),
                body: event(subject, properties: [["id": .string(Self.id), "value": .string(value)]]))
        }
        let filter = "singleValueExtendedProperties/Any(ep: ep/id eq '\(Self.id)' and ep/value eq 'BLUE')"
        let found = try await client.json(
            "GET", emulator.endpoints.graph("/me/events", query: "$filter=" + filter.urlComponentEncoded))
        #expect(found["value"]?.arrayValue?.map { $0["subject"] } == ["One"])
        // "The response body does not include the extended property."
        #expect(found["value"]?.arrayValue?.first?["singleValueExtendedProperties"] == nil)
    }

    @Test func anIdNotInADocumentedFormatIsRefused() async throws {
        let emulator = try GraphEmulator()
        let response = try await emulator.client().send(
            "POST", emulator.endpoints.graph("/me/events"),
            body: event("Bad", properties: [["id": "String Tag", "value": "x"]]))
        #expect(response.status == 400)
    }
}
