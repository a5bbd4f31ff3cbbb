import Testing

@testable import GraphEvents

/// Recording an object without some of its members (`JSONScanner.recordObject(into:depth:passingOver:)`),
/// as the Graph identity pass records events: the members kept read as a full recording reads
/// them, the ones passed over are absent, and passing over never stops where recording would go on.
@Suite struct JSONPassOverTests {
    private static let passedOver: [JSONKey] = ["attendees", "body", "subject", "categories", "location", "webLink"]

    /// Brackets, quotes and backslashes inside the strings of members passed over, and every kind
    /// of value among them.
    private static let event = #"""
        {"id": "AAMk1", "attendees": [{"emailAddress": {"name": "Team ] \"Sales\" }", "address": "a@example.com"}},
         {"type": "optional", "status": {"response": "none"}}], "body": {"contentType": "html",
         "content": "<p style=\"x\">{[a\\]}</p>\\"}, "subject": "ends in a backslash \\", "categories": [],
         "location": null, "webLink": -12.5e3, "start": {"dateTime": "2026-12-01T09:00:00", "timeZone": "UTC"},
         "after": ["}", "]", "\"", {"k": true}]}
        """#

    private func record(_ text: String, passingOver keys: [JSONKey], body: (Result<JSONNode, JSONError>, Int) -> Void) {
        let bytes = Array(text.utf8)
        let tape = JSONTapeBuffer()
        bytes.withUnsafeBufferPointer { buffer in
            var scanner = JSONScanner(bytes: buffer, limits: JSONLimits(maximumDepth: 32))
            do throws(JSONError) {
                _ = scanner.peekSignificant()
                try scanner.recordObject(into: tape, depth: 1, passingOver: keys)
                body(.success(JSONNode(tokens: tape.tokens, bytes: buffer, index: 0)), scanner.index)
            } catch {
                body(.failure(error), scanner.index)
            }
        }
    }

    @Test func theMembersKeptReadAsRecordedAndTheOthersAreAbsent() throws {
        var whole: (id: String?, start: String?, after: Int?, end: Int)?
        record(Self.event, passingOver: []) { result, end in
            guard case .success(let root) = result else { return }
            #expect(root["attendees"]?.arrayValue?.count == 2)
            #expect(root["subject"]?.stringValue == #"ends in a backslash \"#)
            whole = (
                root["id"]?.stringValue, root["start"]?["dateTime"]?.stringValue, root["after"]?.arrayValue?.count, end
            )
        }
        let full = try #require(whole)
        #expect(full.id == "AAMk1" && full.start == "2026-12-01T09:00:00" && full.after == 4)
        record(Self.event, passingOver: Self.passedOver) { result, end in
            guard case .success(let root) = result else {
                Issue.record("passing over failed: \(result)")
                return
            }
            #expect(end == full.end, "it ends where recording ends")
            #expect(root["id"]?.stringValue == full.id)
            #expect(root["start"]?["dateTime"]?.stringValue == full.start)
            #expect(root["start"]?["timeZone"]?.stringValue == "UTC")
            #expect(root["after"]?.arrayValue?.count == full.after)
            for name: JSONKey in ["attendees", "body", "subject", "categories", "location", "webLink"] {
                #expect(root[name] == nil, "\(name) was passed over")
            }
        }
    }

    /// Cut anywhere before its end (a chunk that ends there), the object is never taken as read:
    /// passing over fails at the end of the bytes, as recording does, so a streaming reader waits.
    @Test func anObjectCutShortFailsAtItsEnd() {
        let bytes = Array(Self.event.utf8)
        for count in 1..<bytes.count {
            for keys in [[], Self.passedOver] {
                let tape = JSONTapeBuffer()
                bytes.withUnsafeBufferPointer { buffer in
                    var scanner = JSONScanner(bytes: UnsafeBufferPointer(rebasing: buffer[..<count]))
                    scanner.moreMayFollow = true
                    let read = (try? scanner.recordObject(into: tape, depth: 1, passingOver: keys)) != nil
                    #expect(!read && scanner.index >= count, "cut at \(count), passing over \(keys.count) names")
                }
            }
        }
    }

    /// In a member passed over, a defect recording stops at may be read past; where passing over
    /// fails, recording has failed too, and no later.
    @Test func passingOverFailsOnlyWhereRecordingFails() {
        let texts = [
            #"{"body": [1 2], "id": "a"}"#, #"{"body": {"a": tru}, "id": "a"}"#, #"{"body": "\x", "id": "a"}"#,
            #"{"body": {"a" 1}, "id": "a"}"#, #"{"body": , "id": "a"}"#, #"{"body": }"#, #"{"body": ]"#,
            #"{"body": {"a": [}]}, "id": "a"}"#, #"{"body": "unterminated}"#,
            "{\"body\": " + String(repeating: "[", count: 40) + String(repeating: "]", count: 40) + "}",
        ]
        for text in texts {
            var recorded: (failed: Bool, at: Int) = (false, 0)
            record(text, passingOver: []) { result, end in
                switch result {
                case .failure(let error): recorded = (true, error.offset)
                case .success: recorded = (false, end)
                }
            }
            record(text, passingOver: ["body"]) { result, end in
                guard case .failure(let error) = result else { return }
                #expect(recorded.failed, "\(text): passing over failed where recording did not")
                #expect(error.offset >= recorded.at, "\(text): passing over failed before recording did")
            }
        }
    }
}
