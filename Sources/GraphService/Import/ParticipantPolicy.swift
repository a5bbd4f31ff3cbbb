import GraphEvents

/// Who Graph mails: with `.keep` (the default) no one — organizer and attendees are left out of
/// what Graph receives, kept in the `calport.participants` property and listed at the end of the
/// body; with `.invite` Graph gets the attendees and invites them (Create event: "the server sends
/// invitations to all the attendees"). The organizer is never sent: Graph makes the mailbox owner
/// the organizer whatever the body says, so a foreign one is kept like the attendees.
public struct ParticipantPolicy: Sendable, Hashable {
    /// What becomes of the attendees (`--attendees none|invite`).
    public enum Attendees: String, Sendable, Hashable {
        /// Keep them in calport's property; send no invitation.
        case keep = "none"
        /// Send them to Graph, which invites them.
        case invite
    }

    /// Whether attendees are kept aside (`.keep`, the default) or given to Graph, which invites them.
    public var attendees: Attendees
    /// Domain rewrites (`--map-address old.example=new.example`), applied to every address first.
    public var addressMap: [String: String]

    /// A policy for `attendees`, with `addressMap` rewriting the domain of each address before anything
    /// else (its keys, the old domains, compare case-insensitively).
    public init(attendees: Attendees = .keep, addressMap: [String: String] = [:]) {
        self.attendees = attendees
        self.addressMap = addressMap.reduce(into: [:]) { $0[$1.key.lowercased()] = $1.value }
    }

    /// The first line of the text import adds to a body; export removes it and what follows.
    public static let bodyMarker = "-- calport: participants kept from the import; no invitation was sent --"

    /// `body` with its organizer and attendees mapped; with `.keep`, moved into the returned
    /// `calport.participants` value (nil when there are none) and listed at the end of the body.
    /// With `.invite`, `deferAttendees` leaves the attendees out as well and returns them apart,
    /// for a series whose overrides must be in place before anyone is invited.
    func apply(to body: inout JSONObject, deferAttendees: Bool = false) -> (kept: String?, deferred: JSONValue?) {
        var organizer = body["organizer"]
        var attendees = body["attendees"]
        organizer = organizer.map(mapped)
        attendees = attendees.map(mapped)
        body["organizer"] = nil
        body["attendees"] = nil
        var kept = JSONObject()
        if let organizer { kept["organizer"] = organizer }
        var deferred: JSONValue?
        switch self.attendees {
        case .keep:
            if let attendees { kept["attendees"] = attendees }
        case .invite:
            if deferAttendees { deferred = attendees } else if let attendees { body["attendees"] = attendees }
        }
        guard !kept.members.isEmpty else { return (nil, deferred) }
        if self.attendees == .keep { appendList(kept, to: &body) }
        return (JSONWriter().string(.object(kept)), deferred)
    }

    /// The addresses of `attendees` (Graph JSON), for counting the mail an import sends.
    static func addresses(_ attendees: JSONValue?) -> [String] {
        (attendees?.arrayValue ?? []).compactMap { $0["emailAddress"]?["address"]?.stringValue?.lowercased() }
    }

    private func mapped(_ value: JSONValue) -> JSONValue {
        switch value {
        case .array(let items): return .array(items.map(mapped))
        case .object(var object):
            if var address = object["emailAddress"]?.objectValue, let text = address["address"]?.stringValue {
                address["address"] = .string(rewrite(text))
                object["emailAddress"] = .object(address)
            }
            return .object(object)
        default: return value
        }
    }

    private func rewrite(_ address: String) -> String {
        guard let at = address.lastIndex(of: "@"),
            let domain = addressMap[address[address.index(after: at)...].lowercased()]
        else { return address }
        return address[..<address.index(after: at)] + domain
    }

    /// Adds the readable list to the body: a paragraph for HTML, lines for text.
    private func appendList(_ kept: JSONObject, to body: inout JSONObject) {
        var lines = [Self.bodyMarker]
        if let organizer = kept["organizer"] { lines.append("Organizer: " + Self.describe(organizer)) }
        for attendee in kept["attendees"]?.arrayValue ?? [] {
            let role = attendee["type"]?.stringValue ?? "required"
            lines.append("\(role.prefix(1).uppercased() + role.dropFirst()): " + Self.describe(attendee))
        }
        let existing = body["body"]?["content"]?.stringValue ?? ""
        if body["body"]?["contentType"]?.stringValue?.lowercased() == "html" {
            let list = lines.map(Self.escapeHTML).joined(separator: "<br>")
            body["body"] = ["contentType": "html", "content": .string(existing + "<p>" + list + "</p>")]
        } else {
            let list = lines.joined(separator: "\n")
            body["body"] = [
                "contentType": "text", "content": .string(existing.isEmpty ? list : existing + "\n\n" + list),
            ]
        }
    }

    private static func describe(_ participant: JSONValue) -> String {
        let address = participant["emailAddress"]?["address"]?.stringValue ?? ""
        guard let name = participant["emailAddress"]?["name"]?.stringValue, !name.isEmpty else { return address }
        return "\(name) <\(address)>"
    }

    private static func escapeHTML(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;")
    }
}
