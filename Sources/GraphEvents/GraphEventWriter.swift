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
        var written = GraphMapping<[JSONValue]>(output: [], diagnostics: [])
        for series in CalendarDocument(events: events).series { append(series, to: &written) }
        return written
    }

    /// The entries of one series, as `write(_:)` writes them.
    public func write(_ series: consuming EventSeries) -> GraphMapping<[JSONValue]> {
        var written = GraphMapping<[JSONValue]>(output: [], diagnostics: [])
        append(series, to: &written)
        return written
    }

    /// Appends the entries of `series` and what writing them reported. The master is moved out of
    /// the series, and the overrides are read where they lie: an event is a few dozen references to
    /// retain and release, and copying each was a tenth of writing it.
    private func append(_ series: consuming EventSeries, to written: inout GraphMapping<[JSONValue]>) {
        let mapper = GraphEventMapper()
        guard var master = series.master.take() else {
            for override in series.overrides {
                var encoder = GraphEncoder(style: style, uid: override.uid)
                encoder.report(
                    .warning, "graph-override-without-master",
                    "an override without its series is written as a single event")
                var single = identified(override, mapper)
                single.recurrenceID = nil
                if var object = mapper.encode(single, &encoder) {
                    finish(&object, for: single)
                    written.output.append(.object(object))
                }
                written.diagnostics += encoder.diagnostics
            }
            return
        }
        if master.uid.isEmpty { master = identified(master, mapper) }
        var encoder = GraphEncoder(style: style, uid: master.uid)
        guard var object = mapper.encode(master, &encoder) else {
            written.diagnostics += encoder.diagnostics
            return
        }
        if style == .full && !master.exceptionDates.isEmpty {
            let seriesID = master.graphExtra(.id) ?? master.uid
            object["cancelledOccurrences"] = .array(master.graphCancelledOccurrences(seriesID: seriesID))
        }
        finish(&object, for: master)
        written.output.append(.object(object))
        for index in series.overrides.indices {
            guard var entry = mapper.encode(series.overrides[index], &encoder) else { continue }
            link(&entry, originalStart: series.overrides[index].recurrenceID?.time, of: master, &encoder)
            finish(&entry, for: series.overrides[index])
            written.output.append(.object(entry))
        }
        if style == .post {
            for exdate in master.exceptionDates {
                var entry = JSONObject([JSONMember("isCancelled", true)])
                link(&entry, originalStart: exdate, of: master, &encoder)
                written.output.append(.object(entry))
            }
        }
        written.diagnostics += encoder.diagnostics
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
        _ entry: inout JSONObject, originalStart: CalendarTime?, of master: Event, _ encoder: inout GraphEncoder
    ) {
        if style == .post {
            entry[Self.seriesMasterAnnotation] = .string(transactionID(master))
        } else {
            entry["seriesMasterId"] = .string(master.graphExtra(.id) ?? master.uid)
        }
        if let utc = originalStart?.graphUTC(allDayZone: master.graphExtra(.originalStartTimeZone)) {
            entry["originalStart"] = .string(GraphDateTime.formatInstant(utc))
        } else {
            encoder.report(
                .warning, "unknown-time-zone",
                "an occurrence's original start is in an unknown zone; originalStart is left out")
        }
    }

    /// Adds the POST transactionId; a full event keeps the one it came with.
    private func finish(_ object: inout JSONObject, for event: Event) {
        switch style {
        case .post:
            object["transactionId"] = .string(transactionID(event))
            if annotatesIdentity { annotateIdentity(&object, of: event) }
        case .full: if let original = event.graphExtra(.transactionID) { object["transactionId"] = .string(original) }
        }
    }

    private func annotateIdentity(_ object: inout JSONObject, of event: Event) {
        object[IdentityAnnotation.uid.rawValue] = .string(event.uid)
        if let recurrenceID = event.recurrenceID {
            object[IdentityAnnotation.recurrenceID.rawValue] = .string(recurrenceID.time.transactionKey)
        }
        if let sequence = event.sequence { object[IdentityAnnotation.sequence.rawValue] = .number(Double(sequence)) }
        if let modified = event.lastModified {
            object[IdentityAnnotation.lastModified.rawValue] = .string(modified.transactionKey)
        }
        if event.status == .cancelled { object[IdentityAnnotation.cancelled.rawValue] = true }
    }

    private func transactionID(_ event: Event) -> String {
        GraphTransactionID.make(uid: event.uid, recurrenceID: event.recurrenceID?.time.transactionKey)
    }
}
