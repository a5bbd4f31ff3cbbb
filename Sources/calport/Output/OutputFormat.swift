import CalendarModel
import Foundation
import GraphEvents
import ICalendar
import TimeZones

/// What `convert --to` writes.
struct OutputFormat: Equatable {
    enum Kind: String {
        case iCalendar = "ics"
        /// Graph events as the service returns them, as a `{"value": [...]}` page, one event per line.
        case graph
        /// Bodies for `POST /me/events`, a JSON array, one per line.
        case graphPost = "graph-post"
        /// The model, one event per line (docs/ndjson.md).
        case ndjson
    }

    var kind: Kind
    /// For Graph output: the window in which series Graph cannot hold are written as single events.
    var expansion: ExpansionWindow?

    static let iCalendar = OutputFormat(kind: .iCalendar)
    static let graph = OutputFormat(kind: .graph)
    static let graphPost = OutputFormat(kind: .graphPost)

    init(kind: Kind, expansion: ExpansionWindow? = nil) {
        self.kind = kind
        self.expansion = expansion
    }

    /// The extension of files written in this format.
    var fileExtension: String {
        switch kind {
        case .iCalendar: return "ics"
        case .graph, .graphPost: return "json"
        case .ndjson: return "ndjson"
        }
    }

    init?(rawValue: String) {
        guard let kind = Kind(rawValue: rawValue) else { return nil }
        self.init(kind: kind)
    }

    /// The calendar in this format, and what writing it lost or refused.
    func write(_ document: CalendarDocument) -> (bytes: [UInt8], diagnostics: [Diagnostic]) {
        switch kind {
        case .iCalendar:
            return (ICalendarSerializer().serialize(document), [])
        case .ndjson:
            var bytes: [UInt8] = []
            for event in document.events {
                JSONWriter().write(EventJSON.object(event), into: &bytes)
                bytes.append(0x0A)
            }
            return (bytes, [])
        case .graph, .graphPost:
            let (events, expansionNotes) = expandingWhatGraphRefuses(OutputFormat.anchoringFloatingTimes(document))
            let written = GraphEventWriter(style: kind == .graph ? .full : .post).write(events)
            var bytes = Array((kind == .graph ? "{\"value\":[\n" : "[\n").utf8)
            for (index, value) in written.output.enumerated() {
                if index > 0 { bytes += Array(",\n".utf8) }
                JSONWriter().write(value, into: &bytes)
            }
            bytes += Array((kind == .graph ? "\n]}\n" : "\n]\n").utf8)
            return (bytes, expansionNotes + written.diagnostics)
        }
    }

    /// Graph has no floating time: a calendar that names its zone (X-WR-TIMEZONE, as Google and
    /// Apple write) means its floating times in that zone.
    static func anchoringFloatingTimes(_ document: CalendarDocument) -> CalendarDocument {
        guard let hint = document.timeZoneHint, let iana = TimeZoneResolver().resolve(hint).ianaIdentifier else {
            return document
        }
        var anchored = document
        let zone = TimeZoneReference(name: hint, ianaIdentifier: iana)
        for index in anchored.events.indices {
            anchored.events[index].mapTimes { time in
                if case .floating(let local) = time { return .zoned(local, zone) }
                return time
            }
        }
        return anchored
    }

    /// With a window, each series whose recurrence Graph refuses becomes its occurrences in the
    /// window, as single events; the refusal becomes a warning that says so.
    private func expandingWhatGraphRefuses(_ document: CalendarDocument) -> ([Event], [Diagnostic]) {
        guard let window = expansion else { return (document.events, []) }
        var events: [Event] = []
        var diagnostics: [Diagnostic] = []
        for series in document.series {
            let members = (series.master.map { [$0] } ?? []) + series.overrides
            guard let master = series.master, var refusal = master.graphRecurrenceRefusal else {
                events += members
                continue
            }
            var occurrences = DocumentOccurrences(
                document: CalendarDocument(events: members, timeZones: document.timeZones), window: window)
            var count = 0
            while let occurrence = occurrences.next() {
                var single = occurrence.standaloneEvent
                single.uid = "\(master.uid)-\(occurrence.recurrenceID.iCalendarText)"
                single.recurrenceID = nil
                events.append(single)
                count += 1
            }
            diagnostics += occurrences.diagnostics
            refusal.severity = .warning
            refusal.code = "graph-series-expanded"
            refusal.message = refusal.message.replacingOccurrences(
                of: "the series is left out",
                with: "written instead as its \(count) occurrences in the window, as single events")
            diagnostics.append(refusal)
        }
        return (events, diagnostics)
    }
}

/// One input read into the model, whatever its format.
enum CalendarInput {
    static func read(_ input: InputFile, as format: InputFile.Format, limits: InputLimits) -> (
        document: CalendarDocument, diagnostics: [Diagnostic], dropped: Int
    ) {
        guard let bytes = input.completeBytes(limit: limits.maximumInputSize) else {
            return (CalendarDocument(), [limits.inputTooLarge(input.name)], 1)
        }
        switch format {
        case .iCalendar:
            let result = ICalendarParser(limits: limits.iCalendar).parse(bytes, file: input.name)
            return (result.document, result.diagnostics, result.droppedComponents)
        case .ndjson:
            let result = EventJSONReader.read(bytes, file: input.name)
            return (CalendarDocument(events: result.events), result.diagnostics, result.diagnostics.count)
        case .graph:
            let result = GraphEventReader(file: input.name, limits: limits.json).read(bytes)
            let dropped = result.diagnostics.filter { $0.severity == .error }.count
            return (CalendarDocument(events: result.events), result.diagnostics, dropped)
        }
    }
}
