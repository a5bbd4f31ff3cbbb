import CalendarModel
import Foundation
import GraphEvents

/// What to export: a time window of one calendar, in a zone, as series or flat occurrences.
public struct ExportRequest: Sendable, Hashable {
    /// The window's start: `YYYY-MM-DD` (its midnight) or an ISO 8601 date-time; without an offset,
    /// UTC (as Graph reads them).
    public var start: String
    /// The window's end, in the same forms as ``start``. Graph's `calendarView` returns the events that
    /// overlap the window, a series' occurrences one by one.
    public var end: String
    /// A calendar id; nil for the default calendar.
    public var calendarID: String?
    /// The zone times come out in (Windows or IANA name); nil for the mailbox's own.
    public var timeZone: String?
    /// Flat occurrences instead of masters with overrides.
    public var instances: Bool
    /// Whether to keep the Graph objects as sent (for `--format graph`); the events are always mapped.
    public var keepValues: Bool
    /// What becomes of the files attached to events (`hasAttachments`): inline ATTACH by default.
    public var attachments: AttachmentDestination = .inline

    /// The window from `start` to `end` of calendar `calendarID` (nil: the default one), with times in
    /// `timeZone` (nil: the mailbox's), as series or, with `instances`, as flat occurrences.
    public init(
        start: String, end: String, calendarID: String? = nil, timeZone: String? = nil, instances: Bool = false,
        keepValues: Bool = true
    ) {
        self.start = start
        self.end = end
        self.calendarID = calendarID
        self.timeZone = timeZone
        self.instances = instances
        self.keepValues = keepValues
    }
}

/// One entry of an export, in the order of the output: a single event or occurrence, or a recurring
/// series whole (its master, then its exceptions), at the place the calendar view first shows it.
public struct ExportEntry: Sendable {
    /// The Graph objects as the service sent them: the event, or the master (with
    /// `cancelledOccurrences` worked out from its instances) followed by its exceptions; empty
    /// unless the request kept them.
    public var values: [JSONValue]
    /// The objects mapped to the model: the event, or the master with its overrides (RECURRENCE-ID)
    /// and EXDATEs; for `instances`, the occurrence as a flat event.
    public var events: [Event]
    /// What mapping the objects and reading their attachments reported, each located at its object
    /// in the output's `value` array (`$.value[3]`).
    public var diagnostics: [Diagnostic]
}

/// The exported calendar: Graph objects as the service sent them and the model events they map to.
public struct ExportResult: Sendable {
    /// Single events and series masters, each master followed by its exceptions (the master with
    /// `cancelledOccurrences` worked out from its instances), or occurrences with `--instances`;
    /// empty unless the request kept them.
    public var values: [JSONValue]
    /// The exported events mapped to the model, in the order of ``values``: series as masters with
    /// their overrides (RECURRENCE-ID) and EXDATEs, or flat occurrences with `instances`.
    public var events: [Event]
    /// What mapping the Graph objects reported: members skipped, series whose zone moved, and so on,
    /// each located at its object in ``values`` (`$.value[3]`).
    public var diagnostics: [Diagnostic]
    /// The zone the times are in.
    public var timeZone: String

    /// The entries of an export, one after the other.
    init(entries: [ExportEntry], timeZone: String) {
        values = entries.flatMap(\.values)
        events = entries.flatMap(\.events)
        diagnostics = entries.flatMap(\.diagnostics)
        self.timeZone = timeZone
    }
}

/// How far an export has come, for a progress display: the calendar view is read page by page,
/// and after each page the recurring series first shown on it.
public struct ExportProgress: Sendable, Hashable {
    /// Occurrences and single events read from `calendarView` so far.
    public var occurrences: Int
    /// Recurring series whose master and instances have been read.
    public var seriesRead: Int
    /// Recurring series the calendar view has shown so far; final once the view is read.
    public var seriesTotal: Int
    /// Whether every page of the calendar view has been read, so that `seriesTotal` is final.
    public var viewRead: Bool

    /// Progress with the given counts.
    public init(occurrences: Int, seriesRead: Int, seriesTotal: Int, viewRead: Bool) {
        self.occurrences = occurrences
        self.seriesRead = seriesRead
        self.seriesTotal = seriesTotal
        self.viewRead = viewRead
    }
}

/// Reads a window of a calendar with Graph v1.0 members only: the mailbox's zone, then
/// `calendarView` page by page; after each page, each recurring series first shown on it (its
/// master from `/events/{id}`, its exceptions and cancellations from `/events/{id}/instances`) and
/// the attachments of the page's events. The page's entries are then handed on and dropped, so that
/// an export holds one page and its series, not the mailbox.
public struct CalendarExporter: Sendable {
    /// The client the export's requests go through, signed in to the mailbox read.
    public var client: GraphClient
    /// Told after each page of the calendar view and each series read; called from concurrent
    /// tasks.
    public var progress: @Sendable (ExportProgress) -> Void
    /// The page size asked for with `Prefer: odata.maxpagesize`; Graph sends 10 a page without it.
    public static let pageSize = 1000

    /// An exporter that reads through `client` and tells `progress` how far it has come.
    public init(client: GraphClient, progress: @escaping @Sendable (ExportProgress) -> Void = { _ in }) {
        self.client = client
        self.progress = progress
    }

    /// The events in the window, all at once: for small windows, and for `export --delta`, whose
    /// state holds every Graph object anyway.
    public func export(_ request: ExportRequest) async throws(GraphServiceError) -> ExportResult {
        var entries: [ExportEntry] = []
        let zone = try await export(request) { entries.append($0) }
        return ExportResult(entries: entries, timeZone: zone)
    }

    /// The events in the window, handed to `each` entry by entry in the order of the output (the
    /// calendar view's, each series whole where the view first shows it) as each page is read;
    /// returns the zone the times are in. Entries already handed on stay so when a later read fails.
    @discardableResult
    public func export(_ request: ExportRequest, each: (ExportEntry) -> Void) async throws(GraphServiceError)
        -> String
    {
        let start = try Self.queryTime(request.start, option: "--start")
        let end = try Self.queryTime(request.end, option: "--end")
        let zone = try await timeZone(request.timeZone)
        let headers = Self.headers(zone: zone)
        let calendar = calendarPath(request.calendarID)
        // calport's properties come with each event, for what an import kept (ImportedIdentity).
        let query =
            "startDateTime=\(start.urlComponentEncoded)&endDateTime=\(end.urlComponentEncoded)&"
            + ImportedIdentity.expandQuery
        let series = SeriesReader(client: client, headers: headers, window: SeriesWindow(start: start, end: end))
        let attachments =
            request.attachments == .omitted
            ? nil : EventAttachmentReader(client: client, destination: request.attachments)
        var mapper = ExportMapper(keepValues: request.keepValues)
        var seen: Set<String> = []  // the series met so far, each written once, where first met
        var counts = ExportProgress(occurrences: 0, seriesRead: 0, seriesTotal: 0, viewRead: false)
        try await GraphPager(client: client).forEachPage(
            client.endpoints.graph(calendar + "/calendarView", query: query), headers: headers
        ) { (page: [JSONValue]) throws(GraphServiceError) in
            var slots: [ViewSlot] = []
            var firstMet: [String] = []
            for occurrence in page {
                if !request.instances, let masterID = Self.seriesMasterID(of: occurrence) {
                    guard seen.insert(masterID).inserted else { continue }
                    firstMet.append(masterID)
                    slots.append(.series(masterID))
                } else {
                    slots.append(.object(occurrence))
                }
            }
            counts.occurrences += page.count
            counts.seriesTotal += firstMet.count
            progress(counts)
            let read = await readSeries(firstMet, with: series, counts: counts)
            counts.seriesRead += firstMet.count
            for slot in slots {
                var pending: PendingEntry
                switch slot {
                case .object(let value): pending = request.instances ? mapper.occurrence(value) : mapper.single(value)
                case .series(let masterID):
                    guard let outcome = read[masterID] else { continue }
                    pending = mapper.series(try outcome.get())
                }
                // One event's files at a time: each is held once, as the base64 text the model keeps.
                if let attachments { try await pending.readAttachments(with: attachments) }
                each(pending.entry)
            }
        }
        counts.viewRead = true
        progress(counts)
        return zone
    }

    /// A page's place in the output: a Graph object mapped on its own, or a series first met there.
    private enum ViewSlot {
        case object(JSONValue)
        case series(String)
    }

    /// The series `masterIDs`, read side by side (the client's gate keeps four requests in flight),
    /// each outcome by its master id; progress is told after each, counting on from `counts`.
    private func readSeries(_ masterIDs: [String], with reader: SeriesReader, counts: ExportProgress) async
        -> [String: Result<[JSONValue], GraphServiceError>]
    {
        guard !masterIDs.isEmpty else { return [:] }
        return await withTaskGroup(of: (String, Result<[JSONValue], GraphServiceError>).self) { group in
            for masterID in masterIDs {
                group.addTask { (masterID, await reader.read(masterID)) }
            }
            return await group.reduce(into: [String: Result<[JSONValue], GraphServiceError>]()) {
                $0[$1.0] = $1.1
                var step = counts
                step.seriesRead += $0.count
                progress(step)
            }
        }
    }

    /// The headers of every read: outlook.timezone, times in `zone` (else UTC); bodies as HTML,
    /// which keeps what the text form loses (kept as X-ALT-DESC); immutable ids, which stay valid
    /// when the event moves between folders, so the ids calport writes can be used later.
    static func headers(zone: String) -> [String: String] {
        [
            "Prefer":
                "outlook.timezone=\"\(zone)\", outlook.body-content-type=\"html\", odata.maxpagesize=\(pageSize), IdType=\"ImmutableId\""
        ]
    }

    /// The path of calendar `calendarID` of the mailbox, or of its default calendar.
    func calendarPath(_ calendarID: String?) -> String {
        client.endpoints.mailboxPath + (calendarID.map { "/calendars/\($0.urlComponentEncoded)" } ?? "")
    }

    /// The given zone, else the mailbox's `timeZone` setting, else UTC.
    func timeZone(_ given: String?) async throws(GraphServiceError) -> String {
        if let given { return given }
        let settings = try await client.json("GET", client.endpoints.mailbox("/mailboxSettings"))
        return settings["timeZone"]?.stringValue ?? "UTC"
    }

    /// The series an occurrence or exception belongs to; nil for a single event.
    static func seriesMasterID(of occurrence: JSONValue) -> String? {
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

/// The export window in UTC seconds.
struct SeriesWindow: Sendable {
    var from: Int
    var to: Int

    init(start: String, end: String) {
        from = GraphSeriesOccurrences.utcSeconds(start) ?? 0
        to = GraphSeriesOccurrences.utcSeconds(end) ?? 0
    }
}

/// Reads one series with v1.0 members: its master, then its instances around the window. A
/// pattern occurrence no instance claims is cancelled; an instance of type `exception` overrides
/// its occurrence.
struct SeriesReader: Sendable {
    var client: GraphClient
    var headers: [String: String]
    var window: SeriesWindow

    /// The members of a master calport maps, for the `$select` that beta's `cancelledOccurrences`
    /// needs ("returned only on $select"), which returns nothing else.
    static let mappedMembers = [
        "id", "iCalUId", "type", "subject", "body", "start", "end", "isAllDay", "originalStartTimeZone",
        "originalEndTimeZone", "location", "locations", "organizer", "attendees", "showAs", "sensitivity",
        "importance", "categories", "isReminderOn", "reminderMinutesBeforeStart", "onlineMeeting", "isOnlineMeeting",
        "onlineMeetingProvider", "isCancelled", "recurrence", "createdDateTime", "lastModifiedDateTime", "webLink",
        "allowNewTimeProposals", "responseRequested", "hideAttendees", "isOrganizer", "isDraft", "responseStatus",
        "transactionId", "hasAttachments",
    ]

    /// Whether calport was pointed at Graph's beta API, whose event has `exceptionOccurrences` and
    /// `cancelledOccurrences`.
    var isBeta: Bool { client.endpoints.graphURL.path.hasSuffix("/beta") }

    /// The master (with the `cancelledOccurrences` its instances imply, in the beta API's form)
    /// followed by its exceptions.
    func read(_ masterID: String) async -> Result<[JSONValue], GraphServiceError> {
        do throws(GraphServiceError) {
            let path = client.endpoints.mailboxPath + "/events/\(masterID.urlComponentEncoded)"
            if isBeta { return .success(try await readBeta(path)) }
            var master = try await client.json(
                "GET", client.endpoints.graph(path, query: ImportedIdentity.expandQuery), headers: headers)
            guard let pattern = GraphSeriesOccurrences(master: master) else { return .success([master]) }
            // An occurrence moved out of the window stays short of its neighbours' days, so a
            // period on each side holds every instance whose original start is in the window.
            let period = pattern.periodDays * 86_400
            let query =
                "startDateTime=\(GraphSeriesOccurrences.instantText(utcSeconds: window.from - 2 * period - 86_400))"
                + "&endDateTime=\(GraphSeriesOccurrences.instantText(utcSeconds: window.to + 2 * period + 86_400))"
                + "&" + ImportedIdentity.expandQuery
            var claimed: Set<String> = []
            var exceptions: [JSONValue] = []
            try await GraphPager(client: client).forEachPage(
                client.endpoints.graph(path + "/instances", query: query), headers: headers
            ) { (page: [JSONValue]) throws(GraphServiceError) in
                for instance in page {
                    if let key = instance["originalStart"]?.stringValue.flatMap(pattern.key(originalStart:)) {
                        claimed.insert(key)
                    }
                    if instance["type"]?.stringValue == "exception" { exceptions.append(instance) }
                }
            }
            let cancelled = pattern.keys(fromUTCSeconds: window.from - period, toUTCSeconds: window.to + period)
                .filter { !claimed.contains($0) }
            if !cancelled.isEmpty, var object = master.objectValue {
                object["cancelledOccurrences"] = .array(
                    cancelled.map { .string(pattern.cancelledOccurrenceID(key: $0)) })
                master = .object(object)
            }
            return .success([master] + exceptions)
        } catch {
            return .failure(error)
        }
    }
}

extension SeriesReader {
    /// On beta, the master with its `cancelledOccurrences` and `exceptionOccurrences` in one request:
    /// the whole series, not only around the window.
    private func readBeta(_ path: String) async throws(GraphServiceError) -> [JSONValue] {
        let select = (Self.mappedMembers + ["cancelledOccurrences"]).joined(separator: ",")
        let master = try await client.json(
            "GET",
            client.endpoints.graph(
                path,
                query: "$select=\(select)&$expand=exceptionOccurrences,"
                    + ImportedIdentity.expandQuery.dropFirst("$expand=".count)),
            headers: headers)
        guard var object = master.objectValue else { return [master] }
        let exceptions = object["exceptionOccurrences"]?.arrayValue ?? []
        object["exceptionOccurrences"] = nil
        return [.object(object)] + exceptions
    }
}

/// Maps the export's Graph objects to entries of the output, each object located at its place in
/// the output's `value` array, which is the order they are mapped in.
struct ExportMapper {
    var keepValues: Bool
    private let mapper = GraphEventMapper()
    private var position = 0

    init(keepValues: Bool) {
        self.keepValues = keepValues
    }

    /// A single event.
    mutating func single(_ value: JSONValue) -> PendingEntry {
        var entry = PendingEntry(values: keepValues ? [value] : [])
        let location = nextLocation()
        entry.add(mapper.events(from: ImportedIdentity.restore(value), location: location), of: value, at: location)
        return entry
    }

    /// An occurrence or exception for `--instances`: a flat event with a UID of its own (its
    /// iCalUId and original start), so that each occurrence is one event however Graph names them.
    mutating func occurrence(_ value: JSONValue) -> PendingEntry {
        let location = nextLocation()
        var mapping = mapper.events(from: ImportedIdentity.restore(value), location: location)
        if let original = value["originalStart"]?.stringValue,
            let seconds = GraphSeriesOccurrences.utcSeconds(original)
        {
            let stamp = GraphSeriesOccurrences.instantText(utcSeconds: seconds).filter { $0 != "-" && $0 != ":" }
            for index in mapping.output.indices {
                mapping.output[index].uid += "-" + stamp
                mapping.output[index].recurrenceID = nil
            }
        }
        var entry = PendingEntry(values: keepValues ? [value] : [])
        entry.add(mapping, of: value, at: location)
        return entry
    }

    /// A series as read: its master, then its exceptions as overrides.
    mutating func series(_ values: [JSONValue]) -> PendingEntry {
        var entry = PendingEntry(values: keepValues ? values : [])
        guard let masterValue = values.first else { return entry }
        let location = nextLocation()
        entry.add(
            mapper.events(from: ImportedIdentity.restore(masterValue), location: location), of: masterValue,
            at: location)
        guard let master = entry.entry.events.first else { return entry }
        for exception in values.dropFirst() {
            let location = nextLocation()
            let mapping = mapper.override(from: ImportedIdentity.restore(exception), of: master, location: location)
            entry.add(
                GraphMapping(output: mapping.output.map { [$0] } ?? [], diagnostics: mapping.diagnostics),
                of: exception, at: location)
        }
        return entry
    }

    /// Where the next object sits in the `--format graph` output's `value` array.
    private mutating func nextLocation() -> SourceLocation {
        defer { position += 1 }
        return SourceLocation(jsonPath: "$.value[\(position)]")
    }
}
