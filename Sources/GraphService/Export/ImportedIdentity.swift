import Foundation
import GraphEvents

/// What `calport import` kept on an event, put back for export: the source UID (Graph's
/// `iCalUId` is its own), the organizer and attendees kept out of Graph so that it mailed no one,
/// and the body without the list import added to it.
enum ImportedIdentity {
    /// The `$expand` that reads calport's properties with an event.
    static var expandQuery: String { CalportProperty.expandQuery }

    /// `value` as its source had it, when calport imported it; else as it is, less the expansion.
    static func restore(_ value: JSONValue) -> JSONValue {
        guard var event = value.objectValue else { return value }
        let properties = CalportProperty.values(of: value)
        event["singleValueExtendedProperties"] = nil
        guard properties[.source] != nil else { return .object(event) }
        if let uid = properties[.uid] { event["iCalUId"] = .string(uid) }
        // Graph makes the mailbox owner the organizer of what it creates; the source's is the one kept.
        let kept = properties[.participants].flatMap { try? JSONParser.parse(Array($0.utf8)) }
        event["organizer"] = kept?["organizer"]
        if let attendees = kept?["attendees"], (event["attendees"]?.arrayValue ?? []).isEmpty {
            event["attendees"] = attendees
        }
        if let body = event["body"] { event["body"] = withoutParticipantList(body) }
        return .object(event)
    }

    /// A body without the participant list import appended: in text, from the marker line to the
    /// end; in HTML (Graph's rendering of a text body, or import's own paragraph), from the marker
    /// to the end of its paragraph or of the document's body. A body left blank goes.
    private static func withoutParticipantList(_ body: JSONValue) -> JSONValue? {
        guard var object = body.objectValue, let content = object["content"]?.stringValue else { return body }
        guard let marker = content.range(of: ParticipantPolicy.bodyMarker) else {
            // An event imported without a body comes back with Graph's empty one.
            return isBlank(content) ? nil : body
        }
        var before = content[..<marker.lowerBound]
        var after = content[marker.upperBound...]
        if object["contentType"]?.stringValue?.lowercased() == "html" {
            if before.hasSuffix("<p>"), let close = after.range(of: "</p>") {
                before = before.dropLast(3)
                after = after[close.upperBound...]
            } else {
                after = after.range(of: "</body>").map { after[$0.lowerBound...] } ?? ""
            }
        } else {
            after = ""
        }
        while let last = ["<br>", "\r\n", "\n"].first(where: { before.hasSuffix($0) }) {
            before = before.dropLast(last.count)
        }
        let kept = String(before + after)
        guard !isBlank(kept) else { return nil }
        object["content"] = .string(kept)
        return .object(object)
    }

    /// Whether a text or HTML body shows nothing.
    private static func isBlank(_ content: String) -> Bool {
        content.replacingOccurrences(of: "<head>.*</head>", with: "", options: .regularExpression)
            .replacingOccurrences(of: "<[^>]*>", with: "", options: .regularExpression).allSatisfy(\.isWhitespace)
    }
}
