/// Someone taking part in an event: an organizer, an attendee, or the target of an alarm.
public struct Participant: Hashable, Sendable {
    /// A calendar user address, usually `mailto:…`.
    public var address: String
    /// The display name (CN).
    public var commonName: String?
    /// Parameters the model does not interpret (SENT-BY, DIR, LANGUAGE, X-…), kept verbatim.
    public var parameters: [Parameter]

    public init(address: String, commonName: String? = nil, parameters: [Parameter] = []) {
        self.address = address
        self.commonName = commonName
        self.parameters = parameters
    }

    /// The e-mail address without its `mailto:` scheme, when it is one.
    public var emailAddress: String? {
        let lower = address.lowercased()
        guard lower.hasPrefix("mailto:") else { return nil }
        return String(address.dropFirst("mailto:".count))
    }
}

/// An attendee: a participant with a role, a reply and a kind (RFC 5545 §3.8.4.1).
public struct Attendee: Hashable, Sendable {
    public var participant: Participant
    public var role: AttendeeRole?
    public var participationStatus: ParticipationStatus?
    public var rsvp: Bool?
    public var userType: CalendarUserType?
    public var delegatedTo: [String]
    public var delegatedFrom: [String]

    public init(
        participant: Participant, role: AttendeeRole? = nil, participationStatus: ParticipationStatus? = nil,
        rsvp: Bool? = nil, userType: CalendarUserType? = nil, delegatedTo: [String] = [], delegatedFrom: [String] = []
    ) {
        self.participant = participant
        self.role = role
        self.participationStatus = participationStatus
        self.rsvp = rsvp
        self.userType = userType
        self.delegatedTo = delegatedTo
        self.delegatedFrom = delegatedFrom
    }
}

/// The part an attendee plays in a meeting (ROLE).
public enum AttendeeRole: Hashable, Sendable {
    case chair, required, optional, nonParticipant
    case other(String)
}

/// An attendee's reply (PARTSTAT).
public enum ParticipationStatus: Hashable, Sendable {
    case needsAction, accepted, declined, tentative, delegated
    case other(String)
}

/// What kind of calendar user an attendee is (CUTYPE).
public enum CalendarUserType: Hashable, Sendable {
    case individual, group, resource, room, unknown
    case other(String)
}
