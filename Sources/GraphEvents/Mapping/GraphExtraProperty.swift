import CalendarModel

/// A scalar Graph member the model has no field for, carried as an `X-CALPORT-GRAPH-…` property so
/// that it survives Graph → iCalendar → Graph. docs/mapping.md lists each one.
enum GraphExtraProperty: String, CaseIterable {
    case id = "X-CALPORT-GRAPH-ID"
    case transactionID = "X-CALPORT-GRAPH-TRANSACTION-ID"
    case originalStartTimeZone = "X-CALPORT-GRAPH-ORIGINAL-START-TZ"
    case originalEndTimeZone = "X-CALPORT-GRAPH-ORIGINAL-END-TZ"
    case responseRequested = "X-CALPORT-GRAPH-RESPONSE-REQUESTED"
    case hideAttendees = "X-CALPORT-GRAPH-HIDE-ATTENDEES"
    case isOrganizer = "X-CALPORT-GRAPH-IS-ORGANIZER"
    case isDraft = "X-CALPORT-GRAPH-IS-DRAFT"
    case isOnlineMeeting = "X-CALPORT-GRAPH-IS-ONLINE-MEETING"
    case onlineMeetingProvider = "X-CALPORT-GRAPH-ONLINE-MEETING-PROVIDER"
    case responseStatus = "X-CALPORT-GRAPH-RESPONSE-STATUS"

    /// The Graph member; `responseStatus` is the `response` inside that object.
    var member: String {
        switch self {
        case .id: return "id"
        case .transactionID: return "transactionId"
        case .originalStartTimeZone: return "originalStartTimeZone"
        case .originalEndTimeZone: return "originalEndTimeZone"
        case .responseRequested: return "responseRequested"
        case .hideAttendees: return "hideAttendees"
        case .isOrganizer: return "isOrganizer"
        case .isDraft: return "isDraft"
        case .isOnlineMeeting: return "isOnlineMeeting"
        case .onlineMeetingProvider: return "onlineMeetingProvider"
        case .responseStatus: return "responseStatus"
        }
    }

    /// Booleans are written `TRUE`/`FALSE` like iCalendar BOOLEAN values; the rest as TEXT.
    var isBoolean: Bool {
        switch self {
        case .responseRequested, .hideAttendees, .isOrganizer, .isDraft, .isOnlineMeeting: return true
        default: return false
        }
    }

    /// Whether `POST /me/events` accepts the member; the others are set by the service.
    var isWritable: Bool {
        switch self {
        case .responseRequested, .hideAttendees, .isOnlineMeeting, .onlineMeetingProvider: return true
        default: return false
        }
    }
}

extension Event {
    /// The decoded value of an `X-CALPORT-GRAPH-…` property, when the event has it.
    func graphExtra(_ property: GraphExtraProperty) -> String? {
        extraProperties.first { $0.name == property.rawValue }.map { ICalendarText.unescape($0.value) }
    }

    /// Sets (or with nil removes) an `X-CALPORT-GRAPH-…` property.
    mutating func setGraphExtra(_ property: GraphExtraProperty, _ value: String?) {
        extraProperties.removeAll { $0.name == property.rawValue }
        if let value { extraProperties.append(ExtraProperty(name: property.rawValue, value: ICalendarText.escape(value))) }
    }

    /// Copies the scalar members of `object` that the model lacks into extra properties.
    mutating func decodeGraphExtras(_ object: JSONObject, at path: String, _ decoder: inout GraphDecoder) {
        for property in GraphExtraProperty.allCases {
            if property == .responseStatus {
                let status = decoder.object(property.member, of: object, at: path)
                setGraphExtra(property, status.flatMap { decoder.string("response", of: $0, at: "\(path).responseStatus") })
            } else if property.isBoolean {
                setGraphExtra(property, decoder.bool(property.member, of: object, at: path).map { $0 ? "TRUE" : "FALSE" })
            } else {
                setGraphExtra(property, decoder.string(property.member, of: object, at: path))
            }
        }
    }

    /// Writes the extra properties back as Graph members (only writable ones for a POST body).
    func encodeGraphExtras(into object: inout JSONObject, _ encoder: GraphEncoder) {
        for property in GraphExtraProperty.allCases where encoder.style == .full || property.isWritable {
            // The id and transactionId are written by the writer, which knows the series.
            guard property != .id, property != .transactionID, let value = graphExtra(property) else { continue }
            if property == .responseStatus {
                object[property.member] = ["response": .string(value)]
            } else {
                object[property.member] = property.isBoolean ? .bool(value == "TRUE") : .string(value)
            }
        }
    }
}

/// RFC 5545 §3.3.11 TEXT escaping, since `ExtraProperty.value` holds the value as iCalendar writes it.
enum ICalendarText {
    /// `\` `;` `,` and newlines escaped.
    static func escape(_ text: String) -> String {
        guard text.utf8.contains(where: { [0x5C, 0x3B, 0x2C, 0x0A, 0x0D].contains($0) }) else { return text }
        var result = ""
        for character in text {
            switch character {
            case "\\": result += "\\\\"
            case ";": result += "\\;"
            case ",": result += "\\,"
            case "\n", "\r\n": result += "\\n"
            case "\r": break
            default: result.append(character)
            }
        }
        return result
    }

    /// The inverse of `escape`; `\N` is a newline too.
    static func unescape(_ text: String) -> String {
        guard text.contains("\\") else { return text }
        var result = ""
        var escaping = false
        for character in text {
            if escaping {
                result.append(character == "n" || character == "N" ? "\n" : character)
                escaping = false
            } else if character == "\\" {
                escaping = true
            } else {
                result.append(character)
            }
        }
        return result
    }
}
