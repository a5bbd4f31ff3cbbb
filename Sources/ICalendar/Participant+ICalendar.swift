import CalendarModel

extension Participant {
    init(line: ContentLine) {
        let read = ParticipantParameters(line)
        self.init(address: line.value, commonName: read.value(read.commonName, of: line), parameters: read.kept)
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
    /// The attendee an ATTENDEE line names. Made here and returned, not by an `init` delegating to
    /// the model's: that one was made aside, copied into place and released (600 instructions an
    /// event of three attendees).
    static func reading(_ line: ContentLine) -> Attendee {
        let read = ParticipantParameters(line)
        return Attendee(
            participant: Participant(
                address: line.value, commonName: read.value(read.commonName, of: line), parameters: read.kept),
            role: read.value(read.role, of: line).map(AttendeeRole.init(token:)),
            participationStatus: read.value(read.participationStatus, of: line).map(ParticipationStatus.init(token:)),
            rsvp: read.value(read.rsvp, of: line).map { $0.caseInsensitiveEquals("TRUE") },
            userType: read.value(read.userType, of: line).map(CalendarUserType.init(token:)),
            delegatedTo: read.delegatedTo.map { line.parameters[$0].values } ?? [],
            delegatedFrom: read.delegatedFrom.map { line.parameters[$0].values } ?? [])
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
        // Compared as ASCII, without the upper-cased copy `uppercased()` makes by Unicode's rules:
        // tokens compare case-insensitively in ASCII (RFC 5545 §2), and a line has several.
        var text = token
        let known = text.withUTF8 { bytes in
            Self.tokens.first { known in known.1.withUTF8Buffer { bytes.caseInsensitiveEquals($0) } }?.0
        }
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

/// The parameters of an ORGANIZER or ATTENDEE line that `Participant` and `Attendee` model, found in
/// one pass over the line's parameters: each the first of its name's, as `ContentLine.parameter(_:)`
/// reads it, and every one of those names left out of the parameters kept. Asked by name, one
/// parameter at a time, they were a fifteenth of reading an event with three attendees (issue 24).
/// Each is held as its place among the line's parameters, not as its text: strings held here were
/// copied in and out and released (2,000 instructions an attendee).
private struct ParticipantParameters {
    var commonName: Int?
    var role: Int?
    var participationStatus: Int?
    var rsvp: Int?
    var userType: Int?
    var delegatedTo: Int?
    var delegatedFrom: Int?
    /// The parameters of the line the model does not read, in their order.
    var kept: [Parameter] = []

    init(_ line: ContentLine) {
        for (index, parameter) in line.parameters.enumerated() where !note(index, named: parameter.name) {
            // Parsed names are upper-case already, and a name with a lower-case letter matched
            // none above; names set by code may have one.
            let hasLowercase = parameter.name.utf8.contains { $0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "z") }
            if !hasLowercase || !note(index, named: parameter.name.uppercased()) { kept.append(parameter) }
        }
    }

    /// Notes the parameter at `index` when `name`, upper-case, is one of those modelled: false when
    /// it is not. Told apart by length before they are compared: comparing two strings that differ
    /// is a call, and a `switch` over the names made up to five an attendee. A later parameter of a
    /// name met is not read (`CN=a;CN=b` has CN a).
    private mutating func note(_ index: Int, named name: String) -> Bool {
        switch name.utf8.count {
        case 2 where name == "CN": if commonName == nil { commonName = index }
        case 4 where name == "ROLE": if role == nil { role = index }
        case 8 where name == "PARTSTAT": if participationStatus == nil { participationStatus = index }
        case 4 where name == "RSVP": if rsvp == nil { rsvp = index }
        case 6 where name == "CUTYPE": if userType == nil { userType = index }
        case 12 where name == "DELEGATED-TO": if delegatedTo == nil { delegatedTo = index }
        case 14 where name == "DELEGATED-FROM": if delegatedFrom == nil { delegatedFrom = index }
        default: return false
        }
        return true
    }

    /// The first value of the parameter at `index` of `line`'s, the line these were found in.
    func value(_ index: Int?, of line: ContentLine) -> String? {
        guard let index else { return nil }
        return line.parameters[index].firstValue
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
