import Foundation
import GraphEvents

/// A calendar of a mailbox, as `GET {mailbox}/calendars` lists it (Graph's calendar resource).
public struct CalendarInfo: Sendable, Hashable {
    /// Graph's id, which `--calendar` and the calendar routes take.
    public var id: String
    /// The name shown in Outlook; a mailbox's own calendars have distinct names, but those shared
    /// with the user may repeat them.
    public var name: String
    /// The owner's name (`owner.name`), when Graph gave it.
    public var ownerName: String?
    /// The owner's address (`owner.address`), when Graph gave it.
    public var ownerAddress: String?
    /// Graph's colour name: `auto`, `lightBlue`, …
    public var color: String?
    /// The colour as `#RRGGBB`; empty when none was set.
    public var hexColor: String?
    /// Whether the user may write to it.
    public var canEdit: Bool
    /// Whether it is the mailbox's default calendar.
    public var isDefault: Bool

    /// The memberwise form, for callers that build a list themselves.
    public init(
        id: String, name: String, ownerName: String? = nil, ownerAddress: String? = nil, color: String? = nil,
        hexColor: String? = nil, canEdit: Bool = true, isDefault: Bool = false
    ) {
        self.id = id
        self.name = name
        self.ownerName = ownerName
        self.ownerAddress = ownerAddress
        self.color = color
        self.hexColor = hexColor
        self.canEdit = canEdit
        self.isDefault = isDefault
    }

    /// From a calendar object; nil without an id.
    init?(json: JSONValue) {
        guard let id = json["id"]?.stringValue else { return nil }
        let owner = json["owner"]
        self.init(
            id: id, name: json["name"]?.stringValue ?? "", ownerName: owner?["name"]?.stringValue,
            ownerAddress: owner?["address"]?.stringValue, color: json["color"]?.stringValue,
            hexColor: json["hexColor"]?.stringValue, canEdit: json["canEdit"]?.boolValue ?? false,
            isDefault: json["isDefaultCalendar"]?.boolValue ?? false)
    }

    /// How an error message names it: name, owner and id.
    var label: String {
        "'\(name)'" + (ownerAddress.map { " (owner \($0))" } ?? "") + " id \(id)"
    }
}

/// The calendars of the client's mailbox (``GraphEndpoints/mailboxPath``): listing, creating, and
/// finding one by id or name.
public struct MailboxCalendars: Sendable {
    /// The client, whose ``GraphEndpoints/user`` picks the mailbox.
    public var client: GraphClient

    /// The calendars of `client`'s mailbox.
    public init(client: GraphClient) {
        self.client = client
    }

    /// Every calendar, from `GET {mailbox}/calendars` and its next pages.
    public func list() async throws(GraphServiceError) -> [CalendarInfo] {
        try await GraphPager(client: client).all(client.endpoints.mailbox("/calendars"))
            .compactMap(CalendarInfo.init(json:))
    }

    /// A new calendar named `name`, from `POST {mailbox}/calendars` (Graph refuses a name the
    /// mailbox already has with 409 ErrorFolderExists).
    public func create(named name: String) async throws(GraphServiceError) -> CalendarInfo {
        let answer = try await client.json(
            "POST", client.endpoints.mailbox("/calendars"), body: ["name": .string(name)])
        guard let calendar = CalendarInfo(json: answer) else {
            throw .unexpectedResponse(request: "POST \(client.endpoints.mailboxPath)/calendars", reason: "no id")
        }
        return calendar
    }

    /// The calendar `text` names, read from Graph: see ``resolve(_:in:)``.
    public func resolve(_ text: String) async throws(GraphServiceError) -> CalendarInfo {
        try Self.resolve(text, in: try await list())
    }

    /// The calendar whose id is `text`, else the one named `text` exactly, else the one named so
    /// without regard to case. Two or more of a kind are an error listing them (a calendar shared
    /// with the user may have the name of one of the user's own); none is an error listing every name.
    public static func resolve(_ text: String, in calendars: [CalendarInfo]) throws(GraphServiceError) -> CalendarInfo {
        if let byID = calendars.first(where: { $0.id == text }) { return byID }
        let folded = text.lowercased()
        for matches in [calendars.filter { $0.name == text }, calendars.filter { $0.name.lowercased() == folded }] {
            if matches.count == 1 { return matches[0] }
            if matches.count > 1 {
                throw .invalidConfiguration(
                    "--calendar '\(text)': \(matches.count) calendars match: "
                        + matches.map(\.label).joined(separator: ", ") + "; give the id")
            }
        }
        let names = calendars.map { "'\($0.name)'" }.joined(separator: ", ")
        throw .invalidConfiguration(
            "--calendar '\(text)': no calendar has this id or name; the calendars are \(names.isEmpty ? "none" : names)"
        )
    }
}
