import CalendarModel
import Foundation
import GraphEvents

/// An event of the output that a delta run added, changed or removed.
public struct EventChange: Sendable, Hashable {
    /// What happened to the event.
    public enum Kind: String, Sendable {
        /// New since the last run.
        case added
        /// There before, different now.
        case updated
        /// Gone since the last run.
        case removed
    }
    /// What happened to the event.
    public var kind: Kind
    /// The event as it is now; for `removed`, as it was.
    public var event: Event
}

/// The outcome of an `export --delta` run: the window's events as a full export would give them,
/// the state for the next run, and what changed since the last.
public struct CalendarDeltaResult: Sendable {
    /// The window's events, equal to those of a full export of it.
    public var export: ExportResult
    /// The state to write for the next run.
    public var state: CalendarDeltaState
    /// The events added, changed and removed since the state read (all added on a first run),
    /// each master and each override on its own, by UID and RECURRENCE-ID.
    public var changes: [EventChange]
    /// Why the window was read in full although a state was given (Graph no longer knew it).
    public var fullReadReason: String?
}

/// Keeps an export of a window current with Graph's `calendarView/delta`: the first run reads the
/// window in full and the delta round's deltaLink; a later run asks only for the changes. Delta
/// names instances (occurrences, exceptions, single events, never masters) and returns them
/// without calport's extended properties (`$expand` is not supported there), so a changed single
/// event is read again with them, and a series with any instance changed is read again as the full
/// export reads it, master and exceptions: the result equals a full export of the window.
public struct CalendarDeltaExporter: Sendable {
    /// The client the requests go through, signed in to the mailbox read.
    public var client: GraphClient
    /// Told how a full read comes along (the first run, or one after an expired state).
    public var progress: @Sendable (ExportProgress) -> Void

    /// An exporter that reads through `client`.
    public init(client: GraphClient, progress: @escaping @Sendable (ExportProgress) -> Void = { _ in }) {
        self.client = client
        self.progress = progress
    }

    /// The window of `request` brought up to date from `state` (nil: the first run). A state for
    /// another window, calendar or zone is an error; a state Graph has forgotten (410 Gone,
    /// `syncStateNotFound`, `resyncRequired`) means a full read, said in `fullReadReason`.
    public func export(_ request: ExportRequest, state: CalendarDeltaState?) async throws(GraphServiceError)
        -> CalendarDeltaResult
    {
        guard !request.instances else {
            throw .invalidConfiguration("--delta keeps series with their overrides; it does not take --instances")
        }
        let start = try CalendarExporter.queryTime(request.start, option: "--start")
        let end = try CalendarExporter.queryTime(request.end, option: "--end")
        guard let state else { return try await fullRead(request, start: start, end: end, previous: nil, reason: nil) }
        try state.check(request, start: start, end: end)
        do {
            return try await incremental(state)
        } catch let error where Self.isForgotten(error) {
            return try await fullRead(
                request, start: start, end: end, previous: state,
                reason: "Graph no longer knows the delta state (\(error)); the window was read in full")
        }
    }

    /// Whether Graph answered that it no longer has the state a deltaLink names.
    /// Source: delta-query-overview ("Synchronization reset": 410 Gone; "Token duration": a 40X
    /// error "with error codes such as syncStateNotFound"); field: 410 SyncStateNotFound
    /// (microsoftgraph/microsoft-graph-docs#2350) and the errors page's resyncRequired.
    static func isForgotten(_ error: GraphServiceError) -> Bool {
        guard case .http(_, let status, let code, _) = error else { return false }
        let forgotten = ["syncstatenotfound", "resyncrequired", "syncstateinvalid"]
        return status == 410 || (400..<500).contains(status) && forgotten.contains(code?.lowercased() ?? "")
    }

    /// The first run (or one after Graph forgot the state): a delta round for the deltaLink and the
    /// instances, then the full export. In this order, a change made between the two is at worst
    /// reported again by the next round, never lost.
    private func fullRead(
        _ request: ExportRequest, start: String, end: String, previous: CalendarDeltaState?, reason: String?
    ) async throws(GraphServiceError) -> CalendarDeltaResult {
        let exporter = CalendarExporter(client: client, progress: progress)
        let zone = try await exporter.timeZone(request.timeZone)
        let query = "startDateTime=\(start.urlComponentEncoded)&endDateTime=\(end.urlComponentEncoded)"
        let first = client.endpoints.graph(
            exporter.calendarPath(request.calendarID) + "/calendarView/delta", query: query)
        let round = try await readRound(first, zone: zone)
        var exportRequest = request
        exportRequest.timeZone = zone
        exportRequest.keepValues = true
        let exported = try await exporter.export(exportRequest)
        var instances: [String: [String]] = [:]
        for item in round.items where item["@removed"] == nil {
            guard let id = item["id"]?.stringValue else { continue }
            instances[CalendarExporter.seriesMasterID(of: item) ?? id, default: []].append(id)
        }
        let units = Self.units(of: exported.values).map { unit in
            var unit = unit
            unit.instances = instances[unit.id] ?? (unit.kind == .single ? [unit.id] : [])
            return unit
        }
        let state = CalendarDeltaState(
            deltaLink: round.deltaLink, start: start, end: end, calendarID: request.calendarID, timeZone: zone,
            units: units)
        return result(state, previous: previous, reason: reason)
    }

    /// A later run: the changes since `state`, applied to its units.
    private func incremental(_ state: CalendarDeltaState) async throws(GraphServiceError) -> CalendarDeltaResult {
        let link = try GraphPager(client: client).link(
            state.deltaLink, named: "deltaLink", on: client.endpoints.graphURL)
        let round = try await readRound(link, zone: state.timeZone)
        var units = state.units
        var owner: [String: Int] = [:]  // instance id -> index in units
        var position: [String: Int] = [:]  // event or master id -> index in units
        for (index, unit) in units.enumerated() {
            position[unit.id] = index
            for instance in unit.instances { owner[instance] = index }
        }
        var changed: Set<Int> = []
        for item in round.items {
            guard let id = item["id"]?.stringValue else { continue }
            if item["@removed"] != nil {
                // Graph also names events outside the window that changed: not ours, ignored.
                guard let index = owner.removeValue(forKey: id) else { continue }
                units[index].instances.removeAll { $0 == id }
                changed.insert(index)
                continue
            }
            // An instance already known belongs where it was: an update may carry only the
            // members that changed ("at least the properties that have been updated",
            // delta-query-overview), without type or seriesMasterId.
            let masterID = CalendarExporter.seriesMasterID(of: item)
            let unitID = masterID ?? id
            let index: Int
            if let owned = owner[id] {
                index = owned
            } else if let known = position[unitID] {
                index = known
            } else {
                // New to the window: it goes last, read in full below.
                index = units.count
                position[unitID] = index
                units.append(
                    DeltaUnit(kind: masterID == nil ? .single : .series, id: unitID, instances: [], values: []))
            }
            if owner[id] == nil {
                units[index].instances.append(id)
                owner[id] = index
            }
            changed.insert(index)
        }
        let reread = try await reread(changed.sorted().filter { !units[$0].instances.isEmpty }.map { units[$0] }, state)
        units = units.enumerated().compactMap { index, unit in
            guard changed.contains(index) else { return unit }
            guard !unit.instances.isEmpty, let values = reread[unit.id], !values.isEmpty else { return nil }
            var unit = unit
            unit.values = values
            return unit
        }
        var next = state
        next.deltaLink = round.deltaLink
        next.units = units
        return result(next, previous: state, reason: nil)
    }

    /// Each changed unit read again as the full export reads it: a single event with calport's
    /// properties, a series as master and exceptions. A unit Graph no longer has (404) is left out.
    private func reread(_ units: [DeltaUnit], _ state: CalendarDeltaState) async throws(GraphServiceError)
        -> [String: [JSONValue]]
    {
        let headers = CalendarExporter.headers(zone: state.timeZone)
        let series = SeriesReader(
            client: client, headers: headers, window: SeriesWindow(start: state.start, end: state.end))
        let client = self.client
        let read = await withTaskGroup(of: (String, Result<[JSONValue], GraphServiceError>).self) { group in
            for unit in units {
                group.addTask {
                    switch unit.kind {
                    case .series: return (unit.id, await series.read(unit.id))
                    case .single:
                        do throws(GraphServiceError) {
                            let url = client.endpoints.graph(
                                client.endpoints.mailboxPath + "/events/\(unit.id.urlComponentEncoded)",
                                query: ImportedIdentity.expandQuery)
                            return (unit.id, .success([try await client.json("GET", url, headers: headers)]))
                        } catch {
                            return (unit.id, .failure(error))
                        }
                    }
                }
            }
            return await group.reduce(into: [String: Result<[JSONValue], GraphServiceError>]()) { $0[$1.0] = $1.1 }
        }
        var values: [String: [JSONValue]] = [:]
        for (id, outcome) in read {
            switch outcome {
            case .success(let objects): values[id] = objects
            case .failure(.http(_, 404, _, _)): values[id] = []
            case .failure(let error): throw error
            }
        }
        return values
    }

    /// A delta round from `url` to its deltaLink: every item of every page.
    private func readRound(_ url: URL, zone: String) async throws(GraphServiceError) -> (
        items: [JSONValue], deltaLink: String
    ) {
        let pager = GraphPager(client: client)
        var items: [JSONValue] = []
        let last = try await pager.forEachPage(url, headers: CalendarExporter.headers(zone: zone)) {
            (page: [JSONValue]) throws(GraphServiceError) in items += page
        }
        guard let delta = last.body["@odata.deltaLink"]?.stringValue else {
            throw .unexpectedResponse(
                request: "GET \(last.url.path)",
                reason: "a delta page with neither @odata.nextLink nor @odata.deltaLink")
        }
        _ = try pager.link(delta, named: "@odata.deltaLink", on: last.url)
        return (items, delta)
    }

    /// The units of a full export's values: a single event, or a master and the exceptions after it.
    static func units(of values: [JSONValue]) -> [DeltaUnit] {
        var units: [DeltaUnit] = []
        for value in values {
            let id = value["id"]?.stringValue ?? ""
            if let masterID = value["seriesMasterId"]?.stringValue, value["type"]?.stringValue == "exception",
                units.last?.kind == .series, units.last?.id == masterID
            {
                units[units.count - 1].values.append(value)
            } else if value["type"]?.stringValue == "seriesMaster" {
                units.append(DeltaUnit(kind: .series, id: id, instances: [], values: [value]))
            } else {
                units.append(DeltaUnit(kind: .single, id: id, instances: [id], values: [value]))
            }
        }
        return units
    }

    /// The export made from `state`'s units, and the changes from `previous`'s.
    private func result(_ state: CalendarDeltaState, previous: CalendarDeltaState?, reason: String?)
        -> CalendarDeltaResult
    {
        let export = Self.mapped(state)
        let before = previous.map { Self.mapped($0).events } ?? []
        return CalendarDeltaResult(
            export: export, state: state, changes: Self.changes(from: before, to: export.events),
            fullReadReason: reason)
    }

    /// The units mapped as a full export maps them.
    static func mapped(_ state: CalendarDeltaState) -> ExportResult {
        var mapper = ExportMapper(keepValues: true)
        let entries = state.units.compactMap { unit -> ExportEntry? in
            switch unit.kind {
            case .single: unit.values.first.map { mapper.single($0).entry }
            case .series: unit.values.isEmpty ? nil : mapper.series(unit.values).entry
            }
        }
        return ExportResult(entries: entries, timeZone: state.timeZone)
    }

    /// Events added, changed and removed, keyed by UID and RECURRENCE-ID.
    static func changes(from before: [Event], to after: [Event]) -> [EventChange] {
        func key(_ event: Event) -> String { event.uid + "\u{0}" + "\(String(describing: event.recurrenceID))" }
        let old = Dictionary(before.map { (key($0), $0) }, uniquingKeysWith: { first, _ in first })
        let new = Set(after.map(key))
        var changes: [EventChange] = []
        for event in after {
            switch old[key(event)] {
            case nil: changes.append(EventChange(kind: .added, event: event))
            case let earlier? where earlier != event: changes.append(EventChange(kind: .updated, event: event))
            default: break
            }
        }
        changes += before.filter { !new.contains(key($0)) }.map { EventChange(kind: .removed, event: $0) }
        return changes
    }
}
