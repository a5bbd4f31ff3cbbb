import CalendarModel
import GraphEvents
import ICalendar

/// The model as JSON, one event per line for `--to ndjson`: a stable schema (docs/ndjson.md) that
/// jq, grep and sort can work with. Absent values are left out, never written as null.
public enum EventJSON {
    /// The event as one NDJSON line's object; write it with `JSONWriter` and a newline.
    public static func object(_ event: Event) -> JSONValue {
        var members: [JSONMember] = [JSONMember("uid", .string(event.uid))]
        func add(_ key: String, _ value: JSONValue?) {
            if let value { members.append(JSONMember(key, value)) }
        }
        func addList(_ key: String, _ values: [JSONValue]) {
            if !values.isEmpty { members.append(JSONMember(key, .array(values))) }
        }
        add("recurrenceId", event.recurrenceID.map { time($0.time, thisAndFuture: $0.thisAndFuture) })
        add("sequence", event.sequence.map { .number(Double($0)) })
        add("summary", event.summary.map(JSONValue.string))
        add("description", event.description.map(JSONValue.string))
        add("htmlDescription", event.htmlDescription.map(JSONValue.string))
        add("start", event.start.map { time($0) })
        switch event.end {
        case .end(let end): add("end", time(end))
        case .duration(let duration): add("duration", .string(duration.iCalendarText))
        case nil: break
        }
        add("isAllDay", event.start.map { .bool($0.isDate) })
        addList("locations", event.locations.map(location))
        add("organizer", event.organizer.map(participant))
        addList("attendees", event.attendees.map(attendee))
        add("status", event.status.map { .string(token($0)) })
        add("transparency", event.transparency.map { .string($0 == .transparent ? "transparent" : "opaque") })
        add("busyStatus", event.busyStatus.map { .string(token($0)) })
        add("classification", event.classification.map { .string(token($0)) })
        add("priority", event.priority.map { .number(Double($0)) })
        add("importance", event.importance.map { .string(token($0)) })
        addList("categories", event.categories.map(JSONValue.string))
        addList("alarms", event.alarms.map(alarm))
        add("url", event.url.map(JSONValue.string))
        addList(
            "conferences",
            event.conferences.map {
                .object(JSONObject(compact([("uri", .string($0.uri)), ("label", $0.label.map(JSONValue.string))])))
            })
        addList("rrules", event.recurrenceRules.map { .string($0.iCalendarText) })
        addList("exrules", event.exceptionRules.map { .string($0.iCalendarText) })
        addList("rdates", event.recurrenceDates.map { time($0.start) })
        addList("exdates", event.exceptionDates.map { time($0) })
        add("created", event.created.map { time($0) })
        add("lastModified", event.lastModified.map { time($0) })
        add("timestamp", event.timestamp.map { time($0) })
        addList(
            "attachments",
            event.attachments.compactMap { attachment in
                if case .uri(let uri) = attachment.content { return .string(uri) }
                return nil
            })
        add("allowsNewTimeProposals", event.allowsNewTimeProposals.map(JSONValue.bool))
        addList(
            "extraProperties",
            event.extraProperties.map { property in
                .object(
                    JSONObject([
                        JSONMember("name", .string(property.name)), JSONMember("value", .string(property.value)),
                    ]))
            })
        return .object(JSONObject(members))
    }

    /// `{"date": …}`, `{"floating": …}`, `{"utc": …}` or `{"local": …, "timeZone": …, "iana": …}`.
    public static func time(_ time: CalendarTime, thisAndFuture: Bool = false) -> JSONValue {
        var members: [JSONMember]
        switch time {
        case .date(let date): members = [JSONMember("date", .string(iso(date)))]
        case .floating(let local): members = [JSONMember("floating", .string(iso(local)))]
        case .utc(let local): members = [JSONMember("utc", .string(iso(local) + "Z"))]
        case .zoned(let local, let zone):
            members = [JSONMember("local", .string(iso(local))), JSONMember("timeZone", .string(zone.name))]
            if let iana = zone.ianaIdentifier { members.append(JSONMember("iana", .string(iana))) }
        }
        if thisAndFuture { members.append(JSONMember("thisAndFuture", true)) }
        return .object(JSONObject(members))
    }

    private static func iso(_ date: CalendarDate) -> String {
        pad(date.year, 4) + "-" + pad(date.month, 2) + "-" + pad(date.day, 2)
    }

    private static func iso(_ local: LocalDateTime) -> String {
        iso(local.date) + "T" + pad(local.hour, 2) + ":" + pad(local.minute, 2) + ":" + pad(local.second, 2)
    }

    private static func pad(_ value: Int, _ width: Int) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }

    private static func compact(_ pairs: [(String, JSONValue?)]) -> [JSONMember] {
        pairs.compactMap { key, value in value.map { JSONMember(key, $0) } }
    }

    private static func participant(_ participant: Participant) -> JSONValue {
        .object(
            JSONObject(
                compact([
                    ("address", .string(participant.address)), ("name", participant.commonName.map(JSONValue.string)),
                ])))
    }

    private static func attendee(_ attendee: Attendee) -> JSONValue {
        guard case .object(var object) = participant(attendee.participant) else { return .null }
        if let role = attendee.role { object["role"] = .string(token(role)) }
        if let status = attendee.participationStatus { object["status"] = .string(token(status)) }
        if let rsvp = attendee.rsvp { object["rsvp"] = .bool(rsvp) }
        if let type = attendee.userType { object["type"] = .string(token(type)) }
        return .object(object)
    }

    private static func location(_ location: Location) -> JSONValue {
        var pairs: [(String, JSONValue?)] = [
            ("name", .string(location.name)), ("uri", location.uri.map(JSONValue.string)),
        ]
        if let coordinates = location.coordinates {
            pairs.append(("latitude", .number(coordinates.latitude)))
            pairs.append(("longitude", .number(coordinates.longitude)))
        }
        return .object(JSONObject(compact(pairs)))
    }

    private static func alarm(_ alarm: Alarm) -> JSONValue {
        var pairs: [(String, JSONValue?)] = [("action", .string(token(alarm.action)))]
        switch alarm.trigger {
        case .relative(let duration, let relatedToEnd):
            pairs.append(("trigger", .string(duration.iCalendarText)))
            if relatedToEnd { pairs.append(("relatedToEnd", true)) }
        case .absolute(let time): pairs.append(("triggerAt", EventJSON.time(time)))
        }
        pairs.append(("description", alarm.description.map(JSONValue.string)))
        return .object(JSONObject(compact(pairs)))
    }

    /// An enumeration case as its lower-camel-case name (`outOfOffice`), `other` cases as their token.
    package static func token<T>(_ value: T) -> String {
        let text = String(describing: value)
        guard text.hasPrefix("other(\"") else { return text }
        return String(text.dropFirst(7).dropLast(2))
    }
}
