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
    var member: JSONKey {
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

    /// Copies the scalar members of `object` that the model lacks into extra properties.
    mutating func decodeGraphExtras(
        _ object: JSONNode, at path: @autoclosure () -> String, _ decoder: inout GraphDecoder
    ) {
        for property in GraphExtraProperty.allCases {
            let value: String?
            if property == .responseStatus {
                let status = decoder.object(property.member, of: object, at: path())
                value = status.flatMap { decoder.string("response", of: $0, at: "\(path()).responseStatus") }
            } else if property.isBoolean {
                value = decoder.bool(property.member, of: object, at: path()).map { $0 ? "TRUE" : "FALSE" }
            } else {
                value = decoder.string(property.member, of: object, at: path())
            }
            // A new event has none of these yet, so appending is enough.
            if let value {
                extraProperties.append(ExtraProperty(name: property.rawValue, value: ICalendarText.escape(value)))
            }
        }
    }

    /// Writes the extra properties back as Graph members (only writable ones for a POST body).
    func encodeGraphExtras(into object: inout some JSONMemberSink, _ encoder: GraphEncoder) {
        for property in GraphExtraProperty.allCases where encoder.style == .full || property.isWritable {
            // The id and transactionId are written by the writer, which knows the series.
            guard property != .id, property != .transactionID, let value = graphExtra(property) else { continue }
            if property == .responseStatus {
                object.set(property.member, ["response": .string(value)])
            } else {
                object.set(property.member, property.isBoolean ? .bool(value == "TRUE") : .string(value))
            }
        }
    }
}
