import CalendarModel
import Foundation
import GraphEvents

/// What to export: a time window of one calendar, in a zone, as series or flat occurrences.
public struct ExportRequest: Sendable, Hashable {
    /// Window start and end: `YYYY-MM-DD` or an ISO 8601 date-time; without an offset, UTC (as Graph reads them).
    public var start: String
    public var end: String
    /// A calendar id; nil for the default calendar.
    public var calendarID: String?
    /// The zone times come out in (Windows or IANA name); nil for the mailbox's own.
    public var timeZone: String?
    /// Flat occurrences instead of masters with overrides.
    public var instances: Bool
    /// `text` or `html`, sent as `Prefer: outlook.body-content-type`.
    public var bodyContentType: String

    public init(
        start: String, end: String, calendarID: String? = nil, timeZone: String? = nil, instances: Bool = false,
        bodyContentType: String = "text"
    ) {
        self.start = start
        self.end = end
        self.calendarID = calendarID
        self.timeZone = timeZone
        self.instances = instances
        self.bodyContentType = bodyContentType
    }
}

/// The exported calendar: Graph objects as the service sent them and the model events they map to.
public struct ExportResult: Sendable {
    /// Single events and series masters (with `exceptionOccurrences`), or occurrences with `--instances`.
    public var values: [JSONValue]
    public var events: [Event]
    public var diagnostics: [Diagnostic]
    /// The zone the times are in.
    public var timeZone: String
}

/// Reads a window of a calendar the way Microsoft's Graph calendar tutorial does: the mailbox's
/// zone, then `calendarView` page by page, then each recurring series' master and exceptions.
public struct CalendarExporter: Sendable {
    public var client: GraphClient

    public init(client: GraphClient) {
        self.client = client
    }

    /// The events in the window.
    public func export(_ request: ExportRequest) async throws(GraphServiceError) -> ExportResult {
        let start = try Self.queryTime(request.start, option: "--start")
        let end = try Self.queryTime(request.end, option: "--end")
        let zone = try await timeZone(request.timeZone)
        let headers = [
            "Prefer": "outlook.timezone=\"\(zone)\", outlook.body-content-type=\"\(request.bodyContentType)\""
        ]
        let calendar = request.calendarID.map { "/me/calendars/\($0.urlComponentEncoded)" } ?? "/me"
        let query =
            "startDateTime=\(start.urlComponentEncoded)&endDateTime=\(end.urlComponentEncoded)&"
            + ImportedIdentity.expandQuery
        let occurrences = try await GraphPager(client: client).all(
            client.endpoints.graph(calendar + "/calendarView", query: query), headers: headers)
        let values = request.instances ? occurrences : try await seriesView(of: occurrences, headers: headers)
        let mapper = GraphEventMapper()
        var events: [Event] = []
        var diagnostics: [Diagnostic] = []
        for (position, value) in values.enumerated() {
            let mapping = mapper.events(
                from: ImportedIdentity.restore(value), location: SourceLocation(jsonPath: "$.value[\(position)]"))
            events += mapping.output
            diagnostics += mapping.diagnostics
        }
        return ExportResult(values: values, events: events, diagnostics: diagnostics, timeZone: zone)
    }

    /// The given zone, else the mailbox's `timeZone` setting, else UTC.
    private func timeZone(_ given: String?) async throws(GraphServiceError) -> String {
        if let given { return given }
        let settings = try await client.json("GET", client.endpoints.graph("/me/mailboxSettings"))
        return settings["timeZone"]?.stringValue ?? "UTC"
    }

    /// Single events as they are, and each series once, as its master with `exceptionOccurrences`
    /// expanded, in the order the view first shows them. Masters are fetched side by side (the
    /// client's gate keeps four requests in flight).
    private func seriesView(of occurrences: [JSONValue], headers: [String: String]) async throws(GraphServiceError)
        -> [JSONValue]
    {
        var order: [Int: String] = [:]  // position in the view → master id, at its first appearance
        var seen: Set<String> = []
        for (position, occurrence) in occurrences.enumerated() {
            if let masterID = Self.seriesMasterID(of: occurrence), seen.insert(masterID).inserted {
                order[position] = masterID
            }
        }
        let client = self.client
        let masters = await withTaskGroup(of: (String, Result<JSONValue, GraphServiceError>).self) { group in
            for masterID in seen {
                group.addTask {
                    let url = client.endpoints.graph(
                        "/me/events/\(masterID.urlComponentEncoded)",
                        query: "$expand=exceptionOccurrences,"
                            + ImportedIdentity.expandQuery.dropFirst("$expand=".count))
                    do throws(GraphServiceError) {
                        let master = try await client.json("GET", url, headers: headers)
                        return (
                            masterID,
                            .success(
                                try await ImportedIdentity.withExceptionProperties(master, client, headers: headers))
                        )
                    } catch {
                        return (masterID, .failure(error))
                    }
                }
            }
            return await group.reduce(into: [String: Result<JSONValue, GraphServiceError>]()) { $0[$1.0] = $1.1 }
        }
        var values: [JSONValue] = []
        for (position, occurrence) in occurrences.enumerated() {
            if let masterID = order[position], let master = masters[masterID] {
                values.append(try master.get())
            } else if Self.seriesMasterID(of: occurrence) == nil {
                values.append(occurrence)
            }
        }
        return values
    }

    /// The series an occurrence or exception belongs to; nil for a single event.
    private static func seriesMasterID(of occurrence: JSONValue) -> String? {
        guard occurrence["type"]?.stringValue != "singleInstance" else { return nil }
        return occurrence["seriesMasterId"]?.stringValue
    }

    /// A query bound: a date means its midnight.
    static func queryTime(_ text: String, option: String) throws(GraphServiceError) -> String {
        let pattern = #"^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})?)?$"#
        guard text.range(of: pattern, options: .regularExpression) != nil else {
            throw .invalidConfiguration("\(option): expected YYYY-MM-DD or an ISO 8601 date-time, found '\(text)'")
        }
        return text.count == 10 ? text + "T00:00:00" : text
    }
}
