import ArgumentParsing
import GraphEvents
import GraphService

/// `calport calendars`: lists the calendars of a mailbox, for `--calendar` (which takes a name or an id).
enum CalendarsCommand {
    static let format = OptionSpec(
        names: ["--format"], valueName: "FORMAT", help: "Output format", choices: ["table", "csv", "ndjson", "json"],
        descriptions: [
            "table": "aligned columns (the default)", "csv": "RFC 4180, a header and a calendar a record",
            "ndjson": "a JSON object a line", "json": "one JSON array",
        ])
    /// For the shell completion scripts: names only, one a line, and nothing at all on any error.
    static let names = OptionSpec(
        names: ["--names"], help: "Print the names only, one a line, silently failing (for shell completion)")

    static let spec = CommandSpec(
        name: "calendars", abstract: "List the calendars of a Microsoft Graph mailbox.",
        options: [format, names, ServiceOptions.user, ServiceOptions.tokenFile] + ServiceOptions.all
            + ServiceOptions.appOnly + [CommonOptions.quiet, CommonOptions.help])

    /// The columns, in order, with their CSV and JSON names.
    static let columns = ["id", "name", "owner", "color", "canEdit", "isDefault"]

    static func run(_ arguments: ParsedArguments, terminal: Terminal) -> ExitStatus {
        let namesOnly = arguments.isSet(names)
        let output = SharedOutput(terminal)
        let result = ServiceOptions.wait { () -> Result<[CalendarInfo], GraphServiceError> in
            do throws(GraphServiceError) {
                let client = try ServiceOptions.client(arguments, output: output, quiet: namesOnly)
                return .success(try await MailboxCalendars(client: client).list())
            } catch {
                return .failure(error)
            }
        }
        let calendars: [CalendarInfo]
        switch result {
        case .failure(let error):
            if namesOnly { return ServiceOptions.exitStatus(error) }
            return ServiceOptions.report(error, command: "calendars", terminal: terminal)
        case .success(let listed): calendars = listed
        }
        if namesOnly {
            terminal.write(Array(calendars.map { $0.name + "\n" }.joined().utf8))
            return .success
        }
        terminal.write(Array(render(calendars, as: arguments.value(format) ?? "table").utf8))
        return .success
    }

    /// The listing in `format`: table, csv, ndjson or json.
    static func render(_ calendars: [CalendarInfo], as format: String) -> String {
        switch format {
        case "csv":
            return CSV.record(columns) + calendars.map { CSV.record(cells($0)) }.joined()
        case "ndjson":
            return calendars.map { JSONWriter().string(json($0)) + "\n" }.joined()
        case "json":
            return JSONWriter(pretty: true).string(.array(calendars.map(json))) + "\n"
        default:
            // A table is read on a terminal: a name Graph returns cannot break its rows or drive the terminal.
            let rows =
                [["ID", "NAME", "OWNER", "COLOUR", "CAN EDIT", "DEFAULT"]]
                + calendars.map { cells($0).map(\.escapingControlCharacters) }
            let widths = (0..<6).map { column in rows.map { $0[column].count }.max() ?? 0 }
            return rows.map { row in
                row.enumerated().map { column, cell in
                    column == 5 ? cell : cell.padding(toLength: widths[column], withPad: " ", startingAt: 0)
                }.joined(separator: "  ") + "\n"
            }.joined()
        }
    }

    /// A calendar's cells: the colour as `#RRGGBB` when Graph has one, else its name.
    static func cells(_ calendar: CalendarInfo) -> [String] {
        let colour = calendar.hexColor.flatMap { $0.isEmpty ? nil : $0 } ?? calendar.color ?? ""
        return [
            calendar.id, calendar.name, calendar.ownerAddress ?? calendar.ownerName ?? "", colour,
            calendar.canEdit ? "yes" : "no", calendar.isDefault ? "yes" : "no",
        ]
    }

    static func json(_ calendar: CalendarInfo) -> JSONValue {
        var object = JSONObject([JSONMember("id", .string(calendar.id)), JSONMember("name", .string(calendar.name))])
        object["owner"] = calendar.ownerAddress.map(JSONValue.string) ?? .null
        object["ownerName"] = calendar.ownerName.map(JSONValue.string) ?? .null
        object["color"] = calendar.color.map(JSONValue.string) ?? .null
        object["hexColor"] = calendar.hexColor.flatMap { $0.isEmpty ? nil : JSONValue.string($0) } ?? .null
        object["canEdit"] = .bool(calendar.canEdit)
        object["isDefault"] = .bool(calendar.isDefault)
        return .object(object)
    }
}
