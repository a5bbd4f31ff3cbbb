import CalendarModel

extension Participant {
    /// ORGANIZER / ATTENDEE parameters that `Participant` and `Attendee` model themselves.
    static let modelledParameters = [
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
        if let role { writer.parameter("ROLE", token: role) }
        if let participationStatus { writer.parameter("PARTSTAT", token: participationStatus) }
        if let rsvp { writer.parameter("RSVP", literal: rsvp ? "TRUE" : "FALSE") }
        if let userType { writer.parameter("CUTYPE", token: userType) }
        if !delegatedTo.isEmpty { writer.parameters([Parameter(name: "DELEGATED-TO", values: delegatedTo)]) }
        if !delegatedFrom.isEmpty { writer.parameters([Parameter(name: "DELEGATED-FROM", values: delegatedFrom)]) }
        participant.finish(&writer)
    }
}

/// The iCalendar tokens of the model's enumerations, one table each so both directions agree.
///
/// The tokens are literals: written, they are bytes in place, without the `String` a value needs
/// and without the scan for characters to quote, which no token has (a test holds them to that).
protocol ICalendarToken: Equatable {
    static var tokens: [(Self, StaticString)] { get }
    static func other(_ token: String) -> Self
}

extension ICalendarToken {
    init(token: String) {
        var upper = token.uppercased()
        let known = upper.withUTF8 { bytes in Self.tokens.first { $0.1.utf8Equals(bytes) }?.0 }
        self = known ?? Self.other(token)
    }

    /// The token from `tokens`; nil for an `other` case, which carries its own text.
    var knownToken: StaticString? {
        // A plain loop: `first(where:)` and its Optional tuple cost half as much again per lookup,
        // and an event writes about ten tokens.
        for (value, token) in Self.tokens where value == self { return token }
        return nil
    }

    /// The text an `other` case carries, written as read.
    var otherToken: String {
        // `other` cases carry their token as their only payload.
        Mirror(reflecting: self).children.first?.value as? String ?? ""
    }

    /// The token as a property value.
    var contentValue: ContentValue {
        knownToken.map(ContentValue.literal) ?? .raw(otherToken)
    }
}

extension StaticString {
    /// Whether `bytes` are this string's UTF-8.
    func utf8Equals(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        // A plain loop: `elementsEqual` was several times the cost of the `String` comparison it replaced.
        withUTF8Buffer { token in
            guard bytes.count == token.count else { return false }
            for index in bytes.indices where bytes[index] != token[index] { return false }
            return true
        }
    }
}

extension AttendeeRole: ICalendarToken {
    static let tokens: [(AttendeeRole, StaticString)] = [
        (.chair, "CHAIR"), (.required, "REQ-PARTICIPANT"), (.optional, "OPT-PARTICIPANT"),
        (.nonParticipant, "NON-PARTICIPANT"),
    ]
}

extension ParticipationStatus: ICalendarToken {
    static let tokens: [(ParticipationStatus, StaticString)] = [
        (.needsAction, "NEEDS-ACTION"), (.accepted, "ACCEPTED"), (.declined, "DECLINED"), (.tentative, "TENTATIVE"),
        (.delegated, "DELEGATED"),
    ]
}

extension CalendarUserType: ICalendarToken {
    static let tokens: [(CalendarUserType, StaticString)] = [
        (.individual, "INDIVIDUAL"), (.group, "GROUP"), (.resource, "RESOURCE"), (.room, "ROOM"), (.unknown, "UNKNOWN"),
    ]
}

extension EventStatus: ICalendarToken {
    static let tokens: [(EventStatus, StaticString)] = [
        (.tentative, "TENTATIVE"), (.confirmed, "CONFIRMED"), (.cancelled, "CANCELLED"),
    ]
}

extension Classification: ICalendarToken {
    static let tokens: [(Classification, StaticString)] = [
        (.public, "PUBLIC"), (.private, "PRIVATE"), (.confidential, "CONFIDENTIAL"), (.personal, "X-PERSONAL"),
    ]
}

extension Alarm.Action: ICalendarToken {
    static let tokens: [(Alarm.Action, StaticString)] = [(.audio, "AUDIO"), (.display, "DISPLAY"), (.email, "EMAIL")]
}
