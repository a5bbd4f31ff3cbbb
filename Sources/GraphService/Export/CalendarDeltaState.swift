import Foundation
import GraphEvents

/// What `export --delta` keeps between runs: Graph's `@odata.deltaLink` for the window, the window
/// itself (fixed by the first call: the link encodes it), and the Graph objects the output was made
/// from, so that a later run changes only what Graph says changed and writes the rest as it was.
public struct CalendarDeltaState: Sendable, Hashable {
    /// The version of the state file's layout; a file of another version is refused, not guessed at.
    public static let formatVersion = 1

    /// The link that asks Graph for the changes since the run that wrote this state.
    public var deltaLink: String
    /// The window's start as sent to Graph (`YYYY-MM-DDTHH:MM:SS`, or with an offset).
    public var start: String
    /// The window's end, in the same form.
    public var end: String
    /// The calendar id; nil for the default calendar.
    public var calendarID: String?
    /// The zone the times are in.
    public var timeZone: String
    /// The single events and series of the window, in output order.
    var units: [DeltaUnit]

    /// Reads the state at `path`; nil when there is no file there yet (a first run).
    public static func read(_ path: String) throws(GraphServiceError) -> CalendarDeltaState? {
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw .storage(path: path, reason: "cannot read the delta state")
        }
        let json: JSONValue
        do {
            json = try JSONParser.parse(Array(data))
        } catch {
            throw .storage(path: path, reason: "not a calport delta state: \(error)")
        }
        guard json["calport"]?.stringValue == "delta-state",
            json["version"]?.numberValue == Double(formatVersion),
            let deltaLink = json["deltaLink"]?.stringValue, let start = json["start"]?.stringValue,
            let end = json["end"]?.stringValue, let zone = json["timeZone"]?.stringValue,
            let units = json["units"]?.arrayValue?.compactMap(DeltaUnit.init(json:))
        else {
            throw .storage(
                path: path, reason: "not a calport delta state of version \(formatVersion); remove it for a full export"
            )
        }
        return CalendarDeltaState(
            deltaLink: deltaLink, start: start, end: end, calendarID: json["calendar"]?.stringValue, timeZone: zone,
            units: units)
    }

    /// Writes the state to `path` durably (fsync, then rename), readable by its owner only: the
    /// deltaLink reads the calendar's changes for whoever is signed in.
    public func write(to path: String) throws(GraphServiceError) {
        let json: JSONValue = .object(
            JSONObject([
                JSONMember("calport", "delta-state"), JSONMember("version", .number(Double(Self.formatVersion))),
                JSONMember("deltaLink", .string(deltaLink)), JSONMember("start", .string(start)),
                JSONMember("end", .string(end)), JSONMember("calendar", calendarID.map { .string($0) } ?? .null),
                JSONMember("timeZone", .string(timeZone)), JSONMember("units", .array(units.map(\.json))),
            ]))
        do throws(DurableFile.Failure) {
            try DurableFile.replace(path, with: Array((JSONWriter().string(json) + "\n").utf8), mode: 0o600)
        } catch {
            throw .storage(path: path, reason: "cannot write the delta state: \(error.reason)")
        }
    }

    /// Refuses a request for another window, calendar or zone than the state's: Graph's deltaLink
    /// encodes the first call's window, so another one needs a new state file.
    func check(_ request: ExportRequest, start: String, end: String) throws(GraphServiceError) {
        var differences: [String] = []
        if start != self.start || end != self.end {
            differences.append("the window \(start) to \(end) (the state's: \(self.start) to \(self.end))")
        }
        if request.calendarID != calendarID {
            differences.append("calendar \(request.calendarID ?? "default") (the state's: \(calendarID ?? "default"))")
        }
        if let zone = request.timeZone, zone != timeZone {
            differences.append("--tz \(zone) (the state's: \(timeZone))")
        }
        guard differences.isEmpty else {
            throw .invalidConfiguration(
                "--delta: the state was made for another request: \(differences.joined(separator: ", ")); "
                    + "Graph fixes the window at the first call, so use another state file for it")
        }
    }
}

/// One single event or one series of the window, with the Graph objects it was exported from.
struct DeltaUnit: Sendable, Hashable {
    enum Kind: String, Sendable { case single, series }
    var kind: Kind
    /// The event's id, or the series master's.
    var id: String
    /// The ids of the calendar view's instances that belong to it: Graph's `@removed` names an
    /// instance, and only this tells which series it was in.
    var instances: [String]
    /// The single event, or the master (with `cancelledOccurrences`) followed by its exceptions,
    /// as `CalendarExporter` reads them.
    var values: [JSONValue]

    init(kind: Kind, id: String, instances: [String], values: [JSONValue]) {
        self.kind = kind
        self.id = id
        self.instances = instances
        self.values = values
    }

    init?(json: JSONValue) {
        guard let kind = json["kind"]?.stringValue.flatMap(Kind.init(rawValue:)), let id = json["id"]?.stringValue,
            let instances = json["instances"]?.arrayValue?.compactMap(\.stringValue),
            let values = json["values"]?.arrayValue
        else { return nil }
        self.init(kind: kind, id: id, instances: instances, values: values)
    }

    var json: JSONValue {
        .object(
            JSONObject([
                JSONMember("kind", .string(kind.rawValue)), JSONMember("id", .string(id)),
                JSONMember("instances", .array(instances.map { .string($0) })), JSONMember("values", .array(values)),
            ]))
    }
}
