import CalendarModel
import Foundation
import GraphEvents
import ICalendar
import TimeZones

/// What `convert --to` writes.
public struct OutputFormat: Equatable, Sendable {
    /// The shape written.
    public enum Kind: String, Sendable {
        /// iCalendar (RFC 5545), every component kept.
        case iCalendar = "ics"
        /// Graph events as the service returns them, as a `{"value": [...]}` page, one event per line.
        case graph
        /// Bodies for `POST /me/events`, a JSON array, one per line.
        case graphPost = "graph-post"
        /// The model, one event per line (docs/ndjson.md).
        case ndjson
    }

    /// The shape written.
    public var kind: Kind
    /// For Graph output: the window in which series Graph cannot hold are written as single events.
    public var expansion: ExpansionWindow?
    /// For `expansion`: the cap on single events per series (`--max-occurrences`).
    public var expansionOptions = ExpansionOptions(maximumOccurrencesPerSeries: 100_000)

    /// iCalendar.
    public static let iCalendar = OutputFormat(kind: .iCalendar)
    /// Graph events as the service returns them.
    public static let graph = OutputFormat(kind: .graph)
    /// Bodies for `POST /me/events`.
    public static let graphPost = OutputFormat(kind: .graphPost)

    /// Output of `kind`; for Graph, series Graph cannot hold become single events in `expansion`.
    public init(kind: Kind, expansion: ExpansionWindow? = nil) {
        self.kind = kind
        self.expansion = expansion
    }

    /// The extension of files written in this format.
    public var fileExtension: String {
        switch kind {
        case .iCalendar: return "ics"
        case .graph, .graphPost: return "json"
        case .ndjson: return "ndjson"
        }
    }

    /// The format `calport convert --to` names `rawValue` (`ics`, `graph`, `graph-post`, `ndjson`).
    public init?(rawValue: String) {
        guard let kind = Kind(rawValue: rawValue) else { return nil }
        self.init(kind: kind)
    }

    /// The calendar in this format, and what writing it lost or refused. The document is taken, not
    /// borrowed: .ics output renames zones in its events, and events no one else holds are renamed
    /// without a copy.
    public func write(_ document: consuming CalendarDocument) -> (bytes: [UInt8], diagnostics: [Diagnostic]) {
        guard kind != .iCalendar else { return (ICalendarSerializer().serialize(consume document), []) }
        return entries(of: document)
    }

    /// The calendar as JSON entries (Graph JSON or NDJSON).
    private func entries(of document: CalendarDocument) -> (bytes: [UInt8], diagnostics: [Diagnostic]) {
        var output = EntryOutput(self, header: document, timeZones: document.timeZones)
        var diagnostics: [Diagnostic] = []
        if kind == .ndjson {
            diagnostics += output.add(document.events)
        } else {
            for series in document.series { diagnostics.collect(output.add(series)) }
        }
        return (output.finish(), diagnostics)
    }

    /// What this format cannot hold of a file's non-event components (VTODO, VJOURNAL, VFREEBUSY…):
    /// one warning per kind with its count, none for .ics, which keeps them all; `keptBy` names what
    /// would keep them, when the user has the choice.
    public func leftOut(_ componentNames: [String], file: String, keptBy: String? = "--to ics") -> [Diagnostic] {
        guard kind != .iCalendar else { return [] }
        var counts: [(name: String, count: Int)] = []
        for name in componentNames {
            if let index = counts.firstIndex(where: { $0.name == name }) {
                counts[index].count += 1
            } else {
                counts.append((name, 1))
            }
        }
        let target = kind == .ndjson ? "calport's event NDJSON" : "Graph event JSON"
        return counts.map { entry in
            Diagnostic(
                .warning, code: "component-left-out",
                message: "\(entry.count.grouped) × \(entry.name) left out: \(target) holds events only"
                    + (keptBy.map { " (\($0) keeps them)" } ?? ""),
                location: SourceLocation(file: file))
        }
    }

    /// Graph has no floating time: a calendar that names its zone (X-WR-TIMEZONE, as Google and
    /// Apple write) means its floating times in that zone; nil when it names none that resolves.
    public static func floatingZone(of header: CalendarDocument) -> TimeZoneReference? {
        guard let hint = header.timeZoneHint, let iana = TimeZoneResolver().resolve(hint).ianaIdentifier else {
            return nil
        }
        return TimeZoneReference(name: hint, ianaIdentifier: iana)
    }

    /// With a window, a series whose recurrence Graph refuses becomes its occurrences in the window,
    /// as single events; the refusal becomes a warning that says so. Nil for a series written as it is.
    fileprivate func expandingWhatGraphRefuses(_ series: EventSeries, timeZones: [TimeZoneDefinition]) -> (
        [Event], [Diagnostic]
    )? {
        guard let window = expansion, let master = series.master, var refusal = master.graphRecurrenceRefusal
        else { return nil }
        var events: [Event] = []
        var occurrences = DocumentOccurrences(
            document: CalendarDocument(events: series.events, timeZones: timeZones), window: window,
            options: expansionOptions)
        var count = 0
        while let occurrence = occurrences.next() {
            var single = occurrence.standaloneEvent
            single.uid = "\(master.uid)-\(occurrence.recurrenceID.iCalendarText)"
            single.recurrenceID = nil
            events.append(single)
            count += 1
        }
        refusal.severity = .warning
        refusal.code = "graph-series-expanded"
        refusal.message = refusal.message.replacingOccurrences(
            of: "the series is left out",
            with: "written instead as its \(count) occurrences in the window, as single events")
        return (events, occurrences.diagnostics + [refusal])
    }
}

/// Graph JSON or NDJSON written series by series (or event by event), so that a calendar read as a
/// stream is written as `OutputFormat.write` writes it read whole.
public struct EntryOutput {
    /// What is written.
    public let format: OutputFormat
    /// What is written and not yet taken.
    public private(set) var bytes: [UInt8]
    private var entries = 0
    private let floatingZone: TimeZoneReference?
    private let timeZones: [TimeZoneDefinition]

    /// Output for a calendar with these properties and VTIMEZONEs (the zones expansion reads times in).
    public init(_ format: OutputFormat, header: CalendarDocument, timeZones: [TimeZoneDefinition]) {
        self.format = format
        floatingZone = OutputFormat.floatingZone(of: header)
        self.timeZones = timeZones
        switch format.kind {
        case .graph: bytes = Array("{\"value\":[\n".utf8)
        case .graphPost: bytes = Array("[\n".utf8)
        case .ndjson, .iCalendar: bytes = []
        }
    }

    /// Output for the entries after those another `EntryOutput` of the same list writes first: no
    /// opening, and a separator before its first entry (`firstSeparator` says how long).
    package init(continuing format: OutputFormat, header: CalendarDocument, timeZones: [TimeZoneDefinition]) {
        self.init(format, header: header, timeZones: timeZones)
        bytes = []
        continues = true
    }

    /// Whether the output continues a list another output began.
    private var continues = false

    /// How many Graph entries were added.
    package var entryCount: Int { entries }

    /// The separator a continuing output writes before its first entry, to drop when the output it
    /// continues wrote none.
    package static let firstSeparator = GraphEventWriter.entrySeparator

    /// Adds events: NDJSON lines, or Graph entries series by series; what writing lost is returned.
    public mutating func add(_ events: [Event]) -> [Diagnostic] {
        guard format.kind == .ndjson else {
            return CalendarDocument(events: events).series.flatMap { add($0) }
        }
        for event in events {
            JSONWriter().write(EventJSON.object(event), into: &bytes)
            bytes.append(0x0A)
        }
        return []
    }

    /// Adds the entries of one series (Graph); what writing lost is returned.
    public mutating func add(_ series: consuming EventSeries) -> [Diagnostic] {
        guard format.kind != .ndjson else { return add(series.events) }
        if let zone = floatingZone {
            func zoned(_ event: inout Event) {
                event.mapTimes { time in
                    if case .floating(let local) = time { return .zoned(local, zone) }
                    return time
                }
            }
            if !series.master.isNil { zoned(&series.master!) }
            for index in series.overrides.indices { zoned(&series.overrides[index]) }
        }
        let writer = GraphEventWriter(style: format.kind == .graph ? .full : .post)
        var notes: [Diagnostic] = []
        let written: GraphMapping<Int>
        let separatesFirst = entries > 0 || continues
        if let (expanded, expansionNotes) = format.expandingWhatGraphRefuses(series, timeZones: timeZones) {
            notes = expansionNotes
            written = writer.write(expanded, appendingTo: &bytes, separatesFirst: separatesFirst)
        } else {
            written = writer.write(series, appendingTo: &bytes, separatesFirst: separatesFirst)
        }
        entries += written.output
        notes.collect(written.diagnostics)
        return notes
    }

    /// Hands over what is written so far.
    public mutating func take() -> [UInt8] {
        defer { bytes.removeAll(keepingCapacity: true) }
        return bytes
    }

    /// What is left, with the closing of the list.
    public mutating func finish() -> [UInt8] {
        switch format.kind {
        case .graph: bytes += Array("\n]}\n".utf8)
        case .graphPost: bytes += Array("\n]\n".utf8)
        case .ndjson, .iCalendar: break
        }
        return take()
    }
}

extension CalendarDocument {
    /// This calendar, taken out and an empty one left in its place: what a caller hands to
    /// `OutputFormat.write` when it is done with it, so that .ics output names zones in place in
    /// events no one else holds rather than copying each one whole (every event of a Graph
    /// calendar). `consume` does not reach a variable some closure captures, nor a tuple's member.
    package mutating func handedOver() -> CalendarDocument {
        var taken = CalendarDocument()
        swap(&taken, &self)
        return taken
    }
}
