import CalendarModel

extension Participant {
    /// ORGANIZER / ATTENDEE parameters that `Participant` and `Attendee` model themselves.
    static let modelledParameters: Set<String> = [
        "CN", "ROLE", "PARTSTAT", "RSVP", "CUTYPE", "DELEGATED-TO", "DELEGATED-FROM",
    ]

    init(line: ContentLine) {
        self.init(
            address: line.value, commonName: line.parameter("CN"),
            parameters: line.parameters(excluding: Participant.modelledParameters))
    }

    /// Writes the participant as a `name` line (ORGANIZER, ATTENDEE).
    func write(to writer: inout ContentWriter, name: StaticString) {
        begin(&writer, name: name)
        finish(&writer)
    }

    /// Begins the `name` line with CN; the parameters a subtype models may follow.
    fileprivate func begin(_ writer: inout ContentWriter, name: StaticString) {
        writer.begin(line: name)
        if let commonName { writer.parameter("CN", commonName) }
    }

    /// Ends the line begun with the parameters kept from the input, then the address.
    fileprivate func finish(_ writer: inout ContentWriter) {
        writer.parameters(parameters)
        writer.finish(.raw(address))
    }
}

extension Attendee {
    init(line: ContentLine) {
        let delegatedTo = line.parameters.first { $0.name.caseInsensitiveEquals("DELEGATED-TO") }?.values ?? []
        let delegatedFrom = line.parameters.first { $0.name.caseInsensitiveEquals("DELEGATED-FROM") }?.values ?? []
        self.init(
            participant: Participant(line: line),
            role: line.parameter("ROLE").map(AttendeeRole.init(token:)),
            participationStatus: line.parameter("PARTSTAT").map(ParticipationStatus.init(token:)),
            rsvp: line.parameter("RSVP").map { $0.caseInsensitiveEquals("TRUE") },
            userType: line.parameter("CUTYPE").map(CalendarUserType.init(token:)),
            delegatedTo: delegatedTo, delegatedFrom: delegatedFrom)
    }

    /// The ATTENDEE line: CN, then the parameters the model has for an attendee, then those kept.
    /// Inlined into Event's write, which then reads the attendee in place instead of copying it whole.
    @inline(__always)
    func write(to writer: inout ContentWriter) {
        participant.begin(&writer, name: "ATTENDEE")
        if let role { writer.parameter("ROLE", role.token) }
        if let participationStatus { writer.parameter("PARTSTAT", participationStatus.token) }
        if let rsvp { writer.parameter("RSVP", rsvp ? "TRUE" : "FALSE") }
        if let userType { writer.parameter("CUTYPE", userType.token) }
        if !delegatedTo.isEmpty { writer.parameters([Parameter(name: "DELEGATED-TO", values: delegatedTo)]) }
        if !delegatedFrom.isEmpty { writer.parameters([Parameter(name: "DELEGATED-FROM", values: delegatedFrom)]) }
        participant.finish(&writer)
    }
}

/// The iCalendar tokens of the model's enumerations, one table each so both directions agree.
protocol ICalendarToken {
    static var tokens: [(Self, String)] { get }
    static func other(_ token: String) -> Self
}

extension ICalendarToken where Self: Equatable {
    init(token: String) {
        let upper = token.uppercased()
        self = Self.tokens.first { $0.1 == upper }?.0 ?? Self.other(token)
    }

    var token: String {
        // A plain loop: `first(where:)` and its Optional tuple cost half as much again per lookup,
        // and an event writes about ten tokens.
        for (value, token) in Self.tokens where value == self { return token }
        return otherToken
    }

    private var otherToken: String {
        // `other` cases carry their token as their only payload.
        Mirror(reflecting: self).children.first?.value as? String ?? ""
    }
}

extension AttendeeRole: ICalendarToken {
    static let tokens: [(AttendeeRole, String)] = [
        (.chair, "CHAIR"), (.required, "REQ-PARTICIPANT"), (.optional, "OPT-PARTICIPANT"),
        (.nonParticipant, "NON-PARTICIPANT"),
    ]
}

extension ParticipationStatus: ICalendarToken {
    static let tokens: [(ParticipationStatus, String)] = [
        (.needsAction, "NEEDS-ACTION"), (.accepted, "ACCEPTED"), (.declined, "DECLINED"), (.tentative, "TENTATIVE"),
        (.delegated, "DELEGATED"),
    ]
}

extension CalendarUserType: ICalendarToken {
    static let tokens: [(CalendarUserType, String)] = [
        (.individual, "INDIVIDUAL"), (.group, "GROUP"), (.resource, "RESOURCE"), (.room, "ROOM"), (.unknown, "UNKNOWN"),
    ]
}

extension EventStatus: ICalendarToken {
    static let tokens: [(EventStatus, String)] = [
        (.tentative, "TENTATIVE"), (.confirmed, "CONFIRMED"), (.cancelled, "CANCELLED"),
    ]
}

extension Classification: ICalendarToken {
    static let tokens: [(Classification, String)] = [
        (.public, "PUBLIC"), (.private, "PRIVATE"), (.confidential, "CONFIDENTIAL"), (.personal, "X-PERSONAL"),
    ]
}

extension Alarm.Action: ICalendarToken {
    static let tokens: [(Alarm.Action, String)] = [(.audio, "AUDIO"), (.display, "DISPLAY"), (.email, "EMAIL")]
}
