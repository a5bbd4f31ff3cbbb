import CalendarModel

/// Writes events as Graph JSON objects, series by series.
public struct GraphEventWriter: Sendable {
    /// Whether POST bodies or full events (as Graph returns them) are written.
    public var style: GraphOutputStyle
    /// Whether each POST entry also carries `identityAnnotations` (for the importer, which strips
    /// them): what the POST body itself cannot say about the source event.
    public var annotatesIdentity: Bool

    /// A writer of POST bodies or of full events.
    public init(style: GraphOutputStyle, annotatesIdentity: Bool = false) {
        self.style = style
        self.annotatesIdentity = annotatesIdentity
    }

    /// The source event's identity and version, on each POST entry when `annotatesIdentity`:
    /// UID, RECURRENCE-ID (basic format, UTC or a date), SEQUENCE, LAST-MODIFIED (basic format,
    /// UTC) and whether its STATUS is CANCELLED.
    public enum IdentityAnnotation: String, CaseIterable, Sendable {
        /// The source event's UID.
        case uid = "@calport.uid"
        /// Its RECURRENCE-ID, for an override.
        case recurrenceID = "@calport.recurrenceId"
        /// Its SEQUENCE.
        case sequence = "@calport.sequence"
        /// Its LAST-MODIFIED.
        case lastModified = "@calport.lastModified"
        /// Whether its STATUS is CANCELLED.
        case cancelled = "@calport.cancelled"
    }

    /// Annotation that ties a POST override or cancellation entry to its master's `transactionId`;
    /// the importer creates the master first, then patches or deletes the instance at `originalStart`.
    public static let seriesMasterAnnotation = "@calport.seriesMasterTransactionId"

    /// One JSON object per Graph entry: each master (or single event), then its overrides and, for
    /// a POST, one `isCancelled` entry per EXDATE (a full event lists them in `cancelledOccurrences`).
    /// A series whose recurrence Graph cannot hold is left out with an error diagnostic.
    public func write(_ events: [Event]) -> GraphMapping<[JSONValue]> {
        var entries = EntryValues()
        var diagnostics: [Diagnostic] = []
        for series in CalendarDocument(events: events).series { append(series, to: &entries, &diagnostics) }
        return GraphMapping(output: entries.values, diagnostics: diagnostics)
    }

    /// The entries of one series, as `write(_:)` writes them.
    public func write(_ series: consuming EventSeries) -> GraphMapping<[JSONValue]> {
        var entries = EntryValues()
        var diagnostics: [Diagnostic] = []
        append(series, to: &entries, &diagnostics)
        return GraphMapping(output: entries.values, diagnostics: diagnostics)
    }

    /// What `write(_:appendingTo:separatesFirst:)` writes between two entries.
    public static let entrySeparator = Array(",\n".utf8)

    /// The entries `write(_:)` makes of `events`, written as JSON text (as `JSONWriter` writes them)
    /// at the end of `bytes`, `,\n` between them, and before the first too when `separatesFirst`
    /// (the list goes on from entries written before): how many were written, and what writing
    /// them reported. No tree is made, nor freed: an event's was most of writing it.
    public func write(
        _ events: [Event], appendingTo bytes: inout [UInt8], separatesFirst: Bool
    ) -> GraphMapping<Int> {
        var entries = EntryText(taking: &bytes, separatesFirst: separatesFirst)
        var diagnostics: [Diagnostic] = []
        for series in CalendarDocument(events: events).series { append(series, to: &entries, &diagnostics) }
        entries.give(into: &bytes)
        return GraphMapping(output: entries.count, diagnostics: diagnostics)
    }

    /// The entries of one series, written as `write(_:appendingTo:separatesFirst:)` writes them.
    public func write(
        _ series: consuming EventSeries, appendingTo bytes: inout [UInt8], separatesFirst: Bool
    ) -> GraphMapping<Int> {
        var entries = EntryText(taking: &bytes, separatesFirst: separatesFirst)
        var diagnostics: [Diagnostic] = []
        append(series, to: &entries, &diagnostics)
        entries.give(into: &bytes)
        return GraphMapping(output: entries.count, diagnostics: diagnostics)
    }

    /// Adds the entries of `series` and what writing them reported. The master is moved out of
    /// the series, and the overrides are read where they lie: an event is a few dozen references to
    /// retain and release, and copying each was a tenth of writing it.
    private func append(
        _ series: consuming EventSeries, to entries: inout some GraphEntries, _ diagnostics: inout [Diagnostic]
    ) {
        let mapper = GraphEventMapper()
        let overrides = series.overrides
        func writeAlone(_ overrides: [Event]) {
            for override in overrides {
                var encoder = GraphEncoder(style: style, uid: override.uid)
                encoder.report(
                    .warning, "graph-override-without-master",
                    "an override without its series is written as a single event")
                var single = identified(override, mapper)
                single.recurrenceID = nil
                entries.add { object in
                    guard mapper.encode(single, &encoder, into: &object) else { return false }
                    finish(&object, for: single)
                    return true
                }
                diagnostics.collect(encoder.diagnostics)
            }
        }
        guard var master = series.master.take() else { return writeAlone(overrides) }
        if master.uid.isEmpty { master = identified(master, mapper) }
        var encoder = GraphEncoder(style: style, uid: master.uid)
        var cancelled: [CalendarTime] = []
        let written = entries.add { object in
            guard mapper.encode(master, &encoder, into: &object) else { return false }
            if !master.exceptionDates.isEmpty { cancelled = master.graphCancelledStarts(&encoder) }
            if style == .full && !cancelled.isEmpty {
                let seriesID = master.graphExtra(.id) ?? master.uid
                object.set(
                    "cancelledOccurrences", .array(master.graphCancelledOccurrences(cancelled, seriesID: seriesID)))
            }
            finish(&object, for: master)
            return true
        }
        guard written else {
            diagnostics.collect(encoder.diagnostics)
            // A master without DTSTART is left out (Graph requires a start), not its overrides, each
            // of which says when it happens: written as a missing master's are.
            if master.start.isNil { writeAlone(overrides) }
            return
        }
        for index in overrides.indices {
            if let recurrenceID = overrides[index].recurrenceID, recurrenceID.thisAndFuture {
                encoder.report(
                    .warning, "graph-this-and-future-lost",
                    "the override of \(recurrenceID.time.transactionKey) has RANGE=THISANDFUTURE; Graph changes only "
                        + "that occurrence, not the ones after it")
            }
            entries.add { entry in
                guard mapper.encode(overrides[index], &encoder, into: &entry) else { return false }
                link(&entry, originalStart: overrides[index].recurrenceID?.time, of: master, &encoder)
                finish(&entry, for: overrides[index])
                return true
            }
        }
        if style == .post {
            for exdate in cancelled {
                entries.add { entry in
                    entry.set("isCancelled", true)
                    link(&entry, originalStart: exdate, of: master, &encoder)
                    return true
                }
            }
        }
        diagnostics.collect(encoder.diagnostics)
    }

    /// `event`, or, when it has no UID (RFC 5545 requires one, not every producer writes one), the
    /// event with a UID derived from its content, as the reader derives one for a Graph object
    /// without identity: its `iCalUId` and `transactionId` are then its own, and two such events are
    /// not one event twice to an importer.
    private func identified(_ event: Event, _ mapper: GraphEventMapper) -> Event {
        guard event.uid.isEmpty else { return event }
        var encoder = GraphEncoder(style: .full, uid: event.uid)
        var identified = event
        identified.uid = GraphTransactionID.derivedUID(
            content: mapper.encode(event, &encoder).map(JSONValue.object) ?? .null)
        return identified
    }

    /// Adds what ties an entry to its series: `originalStart`, and the master's transactionId
    /// (POST) or `seriesMasterId` (full). In place: an object passed in and returned changed was
    /// copied, its members array and every reference in it.
    private func link(
        _ entry: inout some JSONMemberSink, originalStart: CalendarTime?, of master: Event,
        _ encoder: inout GraphEncoder
    ) {
        if style == .post {
            entry.set(named: Self.seriesMasterAnnotation, .string(GraphTransactionID.make(for: master)))
        } else {
            entry.set("seriesMasterId", .string(master.graphExtra(.id) ?? master.uid))
        }
        if let utc = originalStart?.graphUTC(allDayZone: master.graphExtra(.originalStartTimeZone)) {
            entry.set("originalStart", .string(GraphDateTime.formatInstant(utc)))
        } else {
            encoder.report(
                .warning, "unknown-time-zone",
                "an occurrence's original start is in an unknown zone; originalStart is left out")
        }
    }

    /// Adds the POST transactionId; a full event keeps the one it came with.
    private func finish(_ object: inout some JSONMemberSink, for event: Event) {
        switch style {
        case .post:
            GraphTransactionID.withID(for: event) { object.set("transactionId", utf8: $0) }
            if annotatesIdentity { annotateIdentity(&object, of: event) }
        case .full:
            if let original = event.graphExtra(.transactionID) { object.set("transactionId", .string(original)) }
        }
    }

    private func annotateIdentity(_ object: inout some JSONMemberSink, of event: Event) {
        object.set(named: IdentityAnnotation.uid.rawValue, .string(event.uid))
        if let recurrenceID = event.recurrenceID {
            object.set(named: IdentityAnnotation.recurrenceID.rawValue, .string(recurrenceID.time.transactionKey))
        }
        if let sequence = event.sequence {
            object.set(named: IdentityAnnotation.sequence.rawValue, .number(Double(sequence)))
        }
        if let modified = event.lastModified {
            object.set(named: IdentityAnnotation.lastModified.rawValue, .string(modified.transactionKey))
        }
        if event.status == .cancelled { object.set(named: IdentityAnnotation.cancelled.rawValue, true) }
    }
}

/// Where a writer puts the entries it makes: JSON values, or their text.
private protocol GraphEntries {
    associatedtype Object: JSONMemberSink
    /// Adds the entry whose members `make` puts, unless it returns false (Graph refuses the event),
    /// when nothing of it is kept: whether it was added.
    @discardableResult
    mutating func add(_ make: (inout Object) -> Bool) -> Bool
}

/// Entries as JSON values, for callers that read or change them (the importer).
private struct EntryValues: GraphEntries {
    var values: [JSONValue] = []

    mutating func add(_ make: (inout JSONObject) -> Bool) -> Bool {
        var object = JSONObject()
        object.reserveCapacity(GraphEventMapper.eventMembers)
        guard make(&object) else { return false }
        values.append(.object(object))
        return true
    }
}

/// Entries as JSON text, one after another.
private struct EntryText: GraphEntries {
    private var bytes: [UInt8] = []
    private(set) var count = 0
    private let separatesFirst: Bool
    /// Where an entry is written before it is appended to `bytes`, whole: the entry's many small
    /// writes go to memory without an array's checks (`JSONText`), and one copy follows. One for
    /// each call that writes entries (each series, when a file is streamed), reused by its entries.
    private let entry = JSONTextStorage(capacity: 1 << 12)

    /// Entries after `bytes`, which it takes, leaving them empty.
    init(taking bytes: inout [UInt8], separatesFirst: Bool) {
        swap(&self.bytes, &bytes)
        self.separatesFirst = separatesFirst
    }

    /// Gives the text back to `bytes`.
    mutating func give(into bytes: inout [UInt8]) {
        swap(&self.bytes, &bytes)
    }

    mutating func add(_ make: (inout JSONObjectText) -> Bool) -> Bool {
        var text = JSONText(writingInto: entry)
        var object = JSONObjectText(continuing: text)
        guard make(&object) else { return false }
        object.close(into: &text)
        if count > 0 || separatesFirst { bytes += GraphEventWriter.entrySeparator }
        bytes.append(contentsOf: text.bytes)
        count += 1
        return true
    }
}
