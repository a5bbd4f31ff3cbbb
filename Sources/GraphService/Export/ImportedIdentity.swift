import GraphEvents

/// What `calport import` kept on an event, put back for export: the source UID (Graph's
/// `iCalUId` is its own), the organizer and attendees kept out of Graph so that it mailed no one,
/// and the body without the list import added to it.
enum ImportedIdentity {
    /// The `$expand` that reads calport's properties with an event.
    static var expandQuery: String { CalportProperty.expandQuery }

    /// A series master whose `exceptionOccurrences` each carry calport's properties, read one by
    /// one (Get singleValueLegacyExtendedProperty documents `$expand` on a single event), when the
    /// master itself is calport's: an override keeps its own organizer and attendees there.
    static func withExceptionProperties(
        _ master: JSONValue, _ client: GraphClient, headers: [String: String]
    ) async throws(GraphServiceError) -> JSONValue {
        guard CalportProperty.values(of: master)[.source] != nil, var object = master.objectValue,
            let exceptions = object["exceptionOccurrences"]?.arrayValue, !exceptions.isEmpty
        else { return master }
        var expanded: [JSONValue] = []
        for exception in exceptions {
            guard var item = exception.objectValue, let id = exception["id"]?.stringValue else {
                expanded.append(exception)
                continue
            }
            let url = client.endpoints.graph("/me/events/\(id.urlComponentEncoded)", query: expandQuery)
            item["singleValueExtendedProperties"] = try await client.json("GET", url, headers: headers)[
                "singleValueExtendedProperties"]
            expanded.append(.object(item))
        }
        object["exceptionOccurrences"] = .array(expanded)
        return .object(object)
    }

    /// `value` as its source had it, when calport imported it; else as it is, less the expansion.
    static func restore(_ value: JSONValue) -> JSONValue {
        guard var event = value.objectValue else { return value }
        let properties = CalportProperty.values(of: value)
        event["singleValueExtendedProperties"] = nil
        if let uid = properties[.uid], properties[.source] != nil { event["iCalUId"] = .string(uid) }
        if let text = properties[.participants], let kept = try? JSONParser.parse(Array(text.utf8)) {
            if let organizer = kept["organizer"] { event["organizer"] = organizer }
            if let attendees = kept["attendees"], (event["attendees"]?.arrayValue ?? []).isEmpty {
                event["attendees"] = attendees
            }
        }
        if let body = event["body"] { event["body"] = withoutParticipantList(body) }
        if let exceptions = event["exceptionOccurrences"]?.arrayValue {
            event["exceptionOccurrences"] = .array(exceptions.map { restore($0) })
        }
        return .object(event)
    }

    /// A body without the participant list import appended (text: from the marker line; HTML:
    /// from the paragraph that opens with it); an empty body goes.
    private static func withoutParticipantList(_ body: JSONValue) -> JSONValue? {
        guard var object = body.objectValue, let content = object["content"]?.stringValue,
            let marker = content.range(of: ParticipantPolicy.bodyMarker)
        else { return body }
        var kept = content[..<marker.lowerBound]
        if kept.hasSuffix("<p>") { kept = kept.dropLast(3) }
        while kept.hasSuffix("\n") || kept.hasSuffix("\r") { kept = kept.dropLast() }
        guard !kept.isEmpty else { return nil }
        object["content"] = .string(String(kept))
        return .object(object)
    }
}
