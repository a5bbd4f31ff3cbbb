/// Someone taking part in an event: an organizer, an attendee, or the target of an alarm.
public struct Participant: Hashable, Sendable, Codable {
    /// A calendar user address, usually `mailto:…`.
    public var address: String
    /// The display name (CN).
    public var commonName: String?
    /// Parameters the model does not interpret (SENT-BY, DIR, LANGUAGE, X-…), kept verbatim.
    public var parameters: [Parameter]

    /// The participant at `address` (a URI such as `mailto:ana@example.com`, not a bare e-mail
    /// address), with the name shown for it and uninterpreted parameters.
    public init(address: String, commonName: String? = nil, parameters: [Parameter] = []) {
        self.address = address
        self.commonName = commonName
        self.parameters = parameters
    }

    /// The e-mail address without its `mailto:` scheme, when it is one.
    public var emailAddress: String? {
        var address = address
        return address.withUTF8 { Self.mailtoPath(of: $0).map { String(decoding: $0, as: UTF8.self) } }
    }

    /// Calls `body` with the UTF-8 of `emailAddress` when there is one, else of `address`: what a
    /// writer of plain addresses writes, read in place (made into a `String` and freed, it was some
    /// 400 instructions of each attendee written to Graph).
    public func withEmailAddressOrAddress<Result>(_ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        var address = address
        return address.withUTF8 { body(Self.mailtoPath(of: $0) ?? $0) }
    }

    /// The bytes after a `mailto:` scheme at the start of `bytes`, compared in place ignoring ASCII
    /// case: lower-casing the whole address to test it made a string for every participant (2,500
    /// instructions each, a tenth of writing an event's attendees to Graph).
    private static func mailtoPath(of bytes: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8>? {
        let scheme: StaticString = "mailto:"
        let length = scheme.utf8CodeUnitCount
        guard bytes.count >= length,
            UnsafeBufferPointer(rebasing: bytes[..<length]).caseInsensitiveEquals(
                UnsafeBufferPointer(start: scheme.utf8Start, count: length))
        else { return nil }
        return UnsafeBufferPointer(rebasing: bytes[length...])
    }
}

/// An attendee: a participant with a role, a reply and a kind (RFC 5545 §3.8.4.1).
public struct Attendee: Hashable, Sendable, Codable {
    /// Who the attendee is: the ATTENDEE's address, CN and uninterpreted parameters.
    public var participant: Participant
    /// The attendee's part in the meeting (ROLE, RFC 5545 §3.2.16; Graph's attendee `type`); nil
    /// when not given, which RFC 5545 reads as a required participant.
    public var role: AttendeeRole?
    /// The attendee's reply (PARTSTAT, RFC 5545 §3.2.12; Graph's `status.response`); nil when not
    /// given, which RFC 5545 reads as no reply yet (NEEDS-ACTION).
    public var participationStatus: ParticipationStatus?
    /// Whether the organizer asks this attendee to reply (RSVP, RFC 5545 §3.2.17); nil when not given,
    /// which RFC 5545 reads as false. Graph has no such member.
    public var rsvp: Bool?
    /// What kind of calendar user the attendee is (CUTYPE, RFC 5545 §3.2.3); nil when not given,
    /// which RFC 5545 reads as an individual. Graph's `resource` attendees are `.resource`.
    public var userType: CalendarUserType?
    /// The calendar user addresses (`mailto:` URIs) this attendee delegated the invitation to
    /// (DELEGATED-TO, RFC 5545 §3.2.5); empty when none. Graph has no delegation.
    public var delegatedTo: [String]
    /// The calendar user addresses (`mailto:` URIs) that delegated the invitation to this attendee
    /// (DELEGATED-FROM, RFC 5545 §3.2.4); empty when none. Graph has no delegation.
    public var delegatedFrom: [String]

    /// An attendee who is `participant`, with the ROLE, PARTSTAT, RSVP, CUTYPE and delegation given;
    /// those left out are not said (nil or empty).
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
public enum AttendeeRole: Hashable, Sendable, Codable {
    /// CHAIR, REQ-PARTICIPANT, OPT-PARTICIPANT and NON-PARTICIPANT (RFC 5545 §3.2.16). Graph's
    /// attendee `type` `required` and `optional` are the second and third; its `resource` is a
    /// non-participant of kind RESOURCE; a chair is sent to Graph as `required`.
    case chair, required, optional, nonParticipant
    /// A ROLE RFC 5545 does not define (an X- or IANA name), kept as written.
    case other(String)
}

/// An attendee's reply (PARTSTAT).
public enum ParticipationStatus: Hashable, Sendable, Codable {
    /// NEEDS-ACTION, ACCEPTED, DECLINED, TENTATIVE and DELEGATED, the replies RFC 5545 §3.2.12 allows
    /// on a VEVENT. Graph's `none` and `notResponded` are `needsAction`, `accepted` and `organizer`
    /// `accepted`, `tentativelyAccepted` `tentative`, `declined` `declined`; Graph has no delegation.
    case needsAction, accepted, declined, tentative, delegated
    /// A PARTSTAT kept as written: an X- or IANA value, or one RFC 5545 defines for to-dos only
    /// (COMPLETED, IN-PROCESS).
    case other(String)
}

/// What kind of calendar user an attendee is (CUTYPE).
public enum CalendarUserType: Hashable, Sendable, Codable {
    /// INDIVIDUAL (a person), GROUP, RESOURCE (a projector, a car), ROOM and UNKNOWN, the CUTYPE
    /// values of RFC 5545 §3.2.3. Graph knows only people and resources: a room is sent as a `resource`.
    case individual, group, resource, room, unknown
    /// A CUTYPE RFC 5545 does not define (an X- or IANA name), kept as written.
    case other(String)
}
