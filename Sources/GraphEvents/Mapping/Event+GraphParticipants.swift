import CalendarModel

extension Event {
    /// `organizer` and `attendees` with their type and response.
    mutating func decodeGraphParticipants(
        _ object: JSONNode, at path: @autoclosure () -> String, _ decoder: inout GraphDecoder
    ) {
        if let organizer = decoder.object("organizer", of: object, at: path()) {
            self.organizer = decoder.participant(organizer, at: "\(path()).organizer")
        }
        let list = decoder.array("attendees", of: object, at: path())
        var attendees: [Attendee] = []
        // Sized at once: growing it copies every attendee made so far.
        attendees.reserveCapacity(list.count)
        for (index, value) in list.enumerated() {
            func itemPath() -> String { "\(path()).attendees[\(index)]" }
            guard let item = value.objectValue else {
                decoder.report(
                    .warning, "graph-wrong-type", "an attendee should be an object, found \(value.typeName); ignored",
                    at: itemPath())
                continue
            }
            if let attendee = decoder.attendee(item, at: itemPath()) { attendees.append(attendee) }
        }
        self.attendees = attendees
    }

    /// Writes `organizer` and `attendees`; a POST body carries no responses (the service sets them).
    func encodeGraphParticipants<Object: JSONMemberSink>(into object: inout Object, _ encoder: GraphEncoder) {
        if let organizer {
            object.setObject("organizer") { $0.setObject("emailAddress") { Self.emailAddress(organizer, into: &$0) } }
        }
        guard !attendees.isEmpty || encoder.style == .full else { return }
        object.setObjects("attendees", attendees) { object, attendee in
            object.set("type", .string(Self.graphAttendeeType(attendee)))
            if encoder.style == .full, let response = Self.graphResponse(attendee) {
                // Written in place: a `JSONValue` literal made an array and an enum to write and free
                // (5,300 instructions an event of three attendees).
                object.setObject("status") { $0.set("response", .string(response)) }
            }
            object.setObject("emailAddress") { Self.emailAddress(attendee.participant, into: &$0) }
        }
    }

    private static func emailAddress(_ participant: Participant, into object: inout some JSONMemberSink) {
        if let name = participant.commonName { object.set("name", .string(name)) }
        participant.withEmailAddressOrAddress { object.set("address", utf8: $0) }
    }

    /// The Graph response for an attendee: the one it came with, else the PARTSTAT's.
    private static func graphResponse(_ attendee: Attendee) -> String? {
        if let original = attendee.participant.parameters.first(where: { $0.name == responseParameter })?.firstValue {
            return original
        }
        switch attendee.participationStatus {
        case nil: return nil
        case .accepted?: return "accepted"
        case .tentative?: return "tentativelyAccepted"
        case .declined?: return "declined"
        default: return "none"
        }
    }

    /// Resources (CUTYPE=RESOURCE or ROOM, or ROLE=NON-PARTICIPANT) are `resource`; OPT-PARTICIPANT is
    /// `optional`; everyone else is `required`.
    private static func graphAttendeeType(_ attendee: Attendee) -> String {
        switch (attendee.userType, attendee.role) {
        case (.resource?, _), (.room?, _), (_, .nonParticipant?): return "resource"
        case (_, .optional?): return "optional"
        default: return "required"
        }
    }

    /// Graph responses and the PARTSTAT each becomes. `organizer` and `notResponded` have no PARTSTAT
    /// of their own, so they also leave a parameter naming them, which makes the way back exact.
    static let graphResponses = GraphNames<ParticipationStatus>([
        "none": .needsAction, "notResponded": .needsAction, "organizer": .accepted, "accepted": .accepted,
        "tentativelyAccepted": .tentative, "declined": .declined,
    ])
    static let responseParameter = "X-CALPORT-GRAPH-RESPONSE"
    /// Graph attendee types and the ROLE each becomes (a resource is also CUTYPE=RESOURCE).
    static let graphAttendeeTypes = GraphNames<AttendeeRole>([
        "required": .required, "optional": .optional, "resource": .nonParticipant,
    ])
}

extension GraphDecoder {
    /// An `emailAddress` holder (organizer, attendee) as a `mailto:` participant.
    mutating func participant(_ object: JSONNode, at path: @autoclosure () -> String) -> Participant? {
        guard let email = self.object("emailAddress", of: object, at: path()) else { return nil }
        let name = string("name", of: email, at: "\(path()).emailAddress")
        guard let address = stringNode("address", of: email, at: "\(path()).emailAddress"),
            let uri = Self.mailto(address)
        else {
            report(
                .warning, "graph-missing-address", "\(name ?? "a participant") has no e-mail address; left out",
                at: "\(path()).emailAddress")
            return nil
        }
        return Participant(address: uri, commonName: name)
    }

    /// `mailto:` and the address, made at once from the JSON bytes when they have no escapes;
    /// nil for an empty address.
    private static func mailto(_ address: JSONNode) -> String? {
        guard let bytes = address.rawStringBytes else {
            return address.stringValue.flatMap { $0.isEmpty ? nil : "mailto:" + $0 }
        }
        guard !bytes.isEmpty else { return nil }
        let scheme: StaticString = "mailto:"
        return String(unsafeUninitializedCapacity: scheme.utf8CodeUnitCount + bytes.count) { buffer in
            let schemeBytes = UnsafeBufferPointer(start: scheme.utf8Start, count: scheme.utf8CodeUnitCount)
            _ = buffer.initialize(fromContentsOf: schemeBytes)
            _ = UnsafeMutableBufferPointer(rebasing: buffer[schemeBytes.count...]).initialize(fromContentsOf: bytes)
            return buffer.count
        }
    }

    /// Built from its parts at once: an `Attendee` made first and then changed was copied whole
    /// on its way into the event (a dozen references retained and released, for each attendee).
    mutating func attendee(_ object: JSONNode, at path: @autoclosure () -> String) -> Attendee? {
        guard var participant = participant(object, at: path()) else { return nil }
        var role: AttendeeRole?
        var userType: CalendarUserType?
        switch enumeration("type", of: object, at: path(), Event.graphAttendeeTypes) {
        case .required?: role = .required
        case .optional?: role = .optional
        case .nonParticipant?:
            role = .nonParticipant
            userType = .resource
        default: break
        }
        var participationStatus: ParticipationStatus?
        if let status = self.object("status", of: object, at: path()),
            let response = stringNode("response", of: status, at: "\(path()).status")
        {
            if let (key, status) = Event.graphResponses.entry(named: response) {
                participationStatus = status
                if key == "organizer" || key == "notResponded" {
                    participant.parameters.append(Parameter(Event.responseParameter, key))
                }
            } else {
                report(
                    .warning, "graph-unknown-value",
                    "unknown attendee response \"\(response.stringValue ?? "")\"; ignored",
                    at: "\(path()).status.response")
            }
        }
        return Attendee(
            participant: participant, role: role, participationStatus: participationStatus, userType: userType)
    }
}
