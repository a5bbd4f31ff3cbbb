import CalendarModel

extension Event {
    /// The members that map one to one: subject, categories, webLink, allowNewTimeProposals and
    /// the created / last-modified instants (last-modified is also the DTSTAMP).
    mutating func decodeGraphProperties(
        _ object: JSONNode, at path: @autoclosure () -> String, _ decoder: inout GraphDecoder
    ) {
        summary = decoder.string("subject", of: object, at: path())
        categories = decoder.array("categories", of: object, at: path()).enumerated().compactMap {
            index, value in
            if let text = value.stringValue { return text }
            decoder.report(
                .warning, "graph-wrong-type", "a category should be a string, found \(value.typeName); ignored",
                at: "\(path()).categories[\(index)]")
            return nil
        }
        url = decoder.string("webLink", of: object, at: path())
        allowsNewTimeProposals = decoder.bool("allowNewTimeProposals", of: object, at: path())
        created = decoder.instant("createdDateTime", of: object, at: path())
        lastModified = decoder.instant("lastModifiedDateTime", of: object, at: path())
        timestamp = lastModified
    }

    /// Writes the one-to-one members; the service sets webLink and the timestamps, so a POST body
    /// leaves them out.
    func encodeGraphProperties(into object: inout some JSONMemberSink, _ encoder: GraphEncoder) {
        if let summary { object.set("subject", .string(summary)) }
        if !categories.isEmpty || encoder.style == .full {
            object.set("categories", .array(categories.map(JSONValue.string)))
        }
        if let allowsNewTimeProposals { object.set("allowNewTimeProposals", .bool(allowsNewTimeProposals)) }
        guard encoder.style == .full else { return }
        if case .utc(let time)? = created { object.set("createdDateTime", .string(GraphDateTime.formatInstant(time))) }
        if case .utc(let time)? = lastModified ?? timestamp {
            object.set("lastModifiedDateTime", .string(GraphDateTime.formatInstant(time)))
        }
        if let url { object.set("webLink", .string(url)) }
    }
}

extension GraphDecoder {
    /// An `Edm.DateTimeOffset` member as a UTC time.
    mutating func instant(_ key: JSONKey, of object: JSONNode, at path: @autoclosure () -> String) -> CalendarTime? {
        guard let text = stringNode(key, of: object, at: path()) else { return nil }
        guard let utc = GraphDateTime.parseInstant(text) else {
            report(
                .warning, "graph-invalid-date-time", "\(key) \"\(text.stringValue ?? "")\" is not a date-time; ignored",
                at: "\(path()).\(key)")
            return nil
        }
        guard GraphDateTime.isWritable(utc) else {
            reportUnwritable(key, text, at: "\(path()).\(key)")
            return nil
        }
        return .utc(utc)
    }

    /// A date-time whose UTC form falls outside the years 0000–9999, which iCalendar cannot write.
    mutating func reportUnwritable(_ key: JSONKey, _ text: JSONNode, at path: @autoclosure () -> String) {
        report(
            .warning, "graph-invalid-date-time",
            "\(key) \"\(text.stringValue ?? "")\" falls outside the years 0000–9999 in UTC, which iCalendar cannot write; ignored",
            at: path())
    }
}
