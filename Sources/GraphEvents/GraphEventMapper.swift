import CalendarModel

/// Events mapped from Graph JSON, or Graph JSON mapped from events, with what the mapping reported.
public struct GraphMapping<Output: Sendable>: Sendable {
    /// What the mapping made.
    public var output: Output
    /// What it lost, refused or had to guess, each naming the event's UID.
    public var diagnostics: [Diagnostic]

    /// A mapping's outcome.
    public init(output: Output, diagnostics: [Diagnostic]) {
        self.output = output
        self.diagnostics = diagnostics
    }
}

/// Maps one Graph `event` object to model events and one model event to a Graph object.
public struct GraphEventMapper: Sendable {
    /// A mapper; it holds no state.
    public init() {}

    /// The event `value` describes, then an override for each of its `exceptionOccurrences`; empty
    /// when it is not an event (the diagnostics say why). `location` locates the object in its input.
    public func events(from value: JSONValue, location: SourceLocation = SourceLocation()) -> GraphMapping<[Event]> {
        var mapped: [Event] = []
        let diagnostics = JSONTapeDocument(value).withRoot {
            events(from: $0, location: location) { mapped.append($0) }
        }
        return GraphMapping(output: mapped, diagnostics: diagnostics)
    }

    /// An exception instance (`type: exception`) as an override of `master`: same UID, and a
    /// RECURRENCE-ID in the master's form from `originalStart` (or the date in `occurrenceId`).
    public func override(from value: JSONValue, of master: Event, location: SourceLocation = SourceLocation())
        -> GraphMapping<Event?>
    {
        JSONTapeDocument(value).withRoot { override(from: $0, of: master, location: location) }
    }

    /// The events of `events(from:location:)` handed to `each` in the same order, each moved rather
    /// than collected into an array first (an array for every event, and a copy into it and out);
    /// returns the diagnostics.
    func events(from value: JSONNode, location: SourceLocation, _ each: (consuming Event) -> Void) -> [Diagnostic] {
        let path = location.jsonPath ?? "$"
        guard let object = value.objectValue else { return [notAnEvent(value, location)] }
        var decoder = GraphDecoder(location: location)
        var master = decode(object, &decoder)
        master.decodeGraphRecurrence(object, at: path, &decoder)
        let exceptions = decoder.array("exceptionOccurrences", of: object, at: path)
        // Without a recurrence there is no series for an EXDATE to remove from or a RECURRENCE-ID to
        // replace in (calcurse refuses such a file, khal cannot find the instance): the cancelled
        // occurrences are dropped, and each exception, an occurrence someone will attend, is an event
        // of its own, as an instance whose master is not in the input is.
        let seriesless = master.recurrenceRules.isEmpty
        let cancelled = decoder.array("cancelledOccurrences", of: object, at: path).count
        if seriesless && (exceptions.count > 0 || cancelled > 0) {
            decoder.report(
                .warning, "graph-missing-recurrence",
                "the event has \(exceptions.count) exceptions and \(cancelled) cancelled occurrences but no recurrence (was it left out by $select?); the cancelled occurrences are dropped and each exception is kept as a single event",
                at: path)
        }
        var overrides: [Event] = []
        var overrideDiagnostics: [Diagnostic] = []
        for (position, exception) in exceptions.enumerated() {
            var itemLocation = location
            itemLocation.jsonPath = "\(path).exceptionOccurrences[\(position)]"
            if seriesless {
                overrideDiagnostics += events(from: exception, location: itemLocation) { overrides.append($0) }
            } else {
                let mapped = override(from: exception, of: master, location: itemLocation)
                if let event = mapped.output { overrides.append(event) }
                overrideDiagnostics += mapped.diagnostics
            }
        }
        // Without a start the master is left out; its exceptions, which need its start, were too.
        // Moved, not copied: an event is a few dozen references to retain and release.
        if !master.start.isNil { each(consume master) }
        for event in overrides { each(event) }
        return decoder.diagnostics + overrideDiagnostics
    }

    func override(from value: JSONNode, of master: Event, location: SourceLocation) -> GraphMapping<Event?> {
        let path = location.jsonPath ?? "$"
        guard let object = value.objectValue else {
            return GraphMapping(output: nil, diagnostics: [notAnEvent(value, location)])
        }
        var decoder = GraphDecoder(location: location)
        var event = decode(object, &decoder)
        event.uid = master.uid
        event.recurrenceID = decoder.recurrenceID(object, at: path, master: master).map {
            RecurrenceIdentifier(time: $0)
        }
        guard !event.recurrenceID.isNil, !event.start.isNil else {
            decoder.report(
                .error, "graph-exception-without-original-start",
                "the exception names no original start of its series' occurrence; left out", at: path)
            return GraphMapping(output: nil, diagnostics: decoder.diagnostics)
        }
        return GraphMapping(output: event, diagnostics: decoder.diagnostics)
    }

    /// The Graph object for one event in `style`: without series context (the writer adds
    /// override and cancellation entries). Nil when Graph cannot hold its recurrence.
    public func json(for event: Event, style: GraphOutputStyle) -> GraphMapping<JSONValue?> {
        var encoder = GraphEncoder(style: style, uid: event.uid)
        let object = encode(event, &encoder)
        return GraphMapping(output: object.map(JSONValue.object), diagnostics: encoder.diagnostics)
    }

    /// Every facet but recurrence, in the order the service writes them. The decoder, made by the
    /// caller, is passed in rather than returned with the event: returned, it was copied.
    private func decode(_ object: JSONNode, _ decoder: inout GraphDecoder) -> Event {
        // The path reaches the ~70 member reads of an event by address: captured as a `String`,
        // it was retained and released around each of them, for the rare diagnostic that uses it.
        withUnsafePointer(to: decoder.location.jsonPath ?? "$") { path in
            decode(object, &decoder, at: path.pointee)
        }
    }

    private func decode(_ object: JSONNode, _ decoder: inout GraphDecoder, at path: @autoclosure () -> String)
        -> Event
    {
        decoder.index(object)
        let uid = Self.uid(of: object, &decoder, at: path())
        var event = Event(uid: uid)
        event.decodeGraphExtras(object, at: path(), &decoder)
        event.decodeGraphProperties(object, at: path(), &decoder)
        event.decodeGraphBody(object, at: path(), &decoder)
        event.decodeGraphTimes(object, at: path(), &decoder)
        event.decodeGraphLocations(object, at: path(), &decoder)
        event.decodeGraphParticipants(object, at: path(), &decoder)
        event.decodeGraphStatus(object, at: path(), &decoder)
        event.decodeGraphReminder(object, at: path(), &decoder)
        event.decodeGraphOnlineMeeting(object, at: path(), &decoder)
        return event
    }

    /// The UID of the event `object` describes, which also names it in the decoder's diagnostics.
    /// The one rule for it: `GraphIdentityCollector` names events by it without mapping them.
    static func uid(of object: JSONNode, _ decoder: inout GraphDecoder, at path: @autoclosure () -> String) -> String {
        let id = decoder.string("id", of: object, at: path())
        decoder.eventID = id
        let uid =
            decoder.string("iCalUId", of: object, at: path()) ?? id ?? decoder.string(
                "transactionId", of: object, at: path())
            // A POST body has no identity at all: derive one from its content, so it is stable.
            ?? GraphTransactionID.derivedUID(content: object.value)
        if decoder.eventID == nil { decoder.eventID = uid }
        return uid
    }

    func encode(_ event: Event, _ encoder: inout GraphEncoder) -> JSONObject? {
        var object = JSONObject()
        object.reserveCapacity(Self.eventMembers)
        return encode(event, &encoder, into: &object) ? object : nil
    }

    /// Room for an event's members at once: a full event has about forty.
    static let eventMembers = 48

    /// Puts the members of `event`'s Graph object into `object`: false, with some of them put,
    /// when Graph refuses the event (a recurrence it cannot hold), which `encoder` then reports.
    func encode(_ event: Event, _ encoder: inout GraphEncoder, into object: inout some JSONMemberSink) -> Bool {
        if encoder.style == .full {
            if let id = event.graphExtra(.id) { object.set("id", .string(id)) }
            object.set("iCalUId", .string(event.uid))
        }
        event.encodeGraphProperties(into: &object, encoder)
        event.encodeGraphExtras(into: &object, encoder)
        event.encodeGraphReminder(into: &object, &encoder)
        event.encodeGraphStatus(into: &object, &encoder)
        event.encodeGraphBody(into: &object)
        guard event.encodeGraphTimes(into: &object, &encoder) else { return false }
        event.encodeGraphLocations(into: &object, encoder)
        do {
            let recurrence = try event.graphRecurrence(&encoder)
            if let recurrence {
                object.setObject("recurrence") { recurrence.encode(style: encoder.style, into: &$0) }
            }
        } catch {
            let refusal = event.graphRefusalDiagnostic(error)
            encoder.report(refusal.severity, refusal.code, refusal.message)
            return false
        }
        event.encodeGraphParticipants(into: &object, encoder)
        event.encodeGraphOnlineMeeting(into: &object, &encoder)
        if event.sequence != nil {
            // Graph keeps its own revision (changeKey): a loss of every event from iCalendar, which
            // calport's CLI shows as a note unless --strict (docs/mapping.md).
            encoder.report(.warning, "graph-sequence-lost", "Graph has no SEQUENCE (revision number); left out")
        }
        let lost = event.graphLosses(style: encoder.style)
        if !lost.isEmpty {
            encoder.report(
                .warning, "graph-properties-lost", "Graph has no place for \(lost.joined(separator: ", ")); left out")
        }
        if encoder.style == .full {
            object.set(
                "type",
                .string(!event.recurrenceID.isNil ? "exception" : event.isRecurring ? "seriesMaster" : "singleInstance")
            )
        }
        return true
    }

    private func notAnEvent(_ value: JSONNode, _ location: SourceLocation) -> Diagnostic {
        Diagnostic(
            .error, code: "graph-not-an-event", message: "expected an event object, found \(value.typeName)",
            location: location)
    }
}

extension GraphDecoder {
    /// The RECURRENCE-ID of an exception, in the form of its master's DTSTART.
    mutating func recurrenceID(_ object: JSONNode, at path: @autoclosure () -> String, master: Event) -> CalendarTime? {
        guard let masterStart = master.start else { return nil }
        if case .utc(let utc)? = instant("originalStart", of: object, at: path()) {
            let allDayZone = master.graphExtra(.originalStartTimeZone)
            // Graph gives an all-day occurrence's originalStart as a midnight in UTC — the mailbox's
            // midnight, whatever the event's zone: its date is the nearest midnight in the series' zone.
            let instant = masterStart.isDate ? utc.adding(seconds: 12 * 3_600) : utc
            if let time = masterStart.sameForm(atUTC: instant, allDayZone: allDayZone) { return time }
            report(
                .warning, "unknown-time-zone", "the series' zone is unknown; RECURRENCE-ID is written in UTC",
                at: "\(path()).originalStart")
            return .utc(utc)
        }
        guard let occurrence = string("occurrenceId", of: object, at: path()),
            let date = GraphDateTime.parseDate(String(occurrence.suffix(10)))
        else { return nil }
        let clock = masterStart.localDateTime
        return masterStart.withLocalDateTime(
            LocalDateTime(date: date, hour: clock.hour, minute: clock.minute, second: clock.second))
    }
}
