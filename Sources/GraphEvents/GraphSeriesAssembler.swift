import CalendarModel

/// Maps event objects given in input order into records, tying instances to their series:
/// an exception becomes an override of its master, an occurrence of a master that is present is
/// left to the RRULE, and an instance whose master never comes stays a single event.
struct GraphSeriesAssembler: GraphObjectSink {
    private let mapper = GraphEventMapper()
    /// Events that can have instances, by the names instances use for them.
    private var masters: [String: Event] = [:]
    /// Instances read before their master, copied out of the buffer they were read from.
    private var waiting: [(object: JSONTapeDocument, location: SourceLocation)] = []
    private(set) var diagnostics: [Diagnostic] = []

    /// Maps one object, handing its events to `each` (an instance waits for its master).
    mutating func add(_ item: GraphInputItem, _ each: (GraphEventRecord) -> Void) {
        if item.isInstance {
            if let master = master(of: item) {
                mapInstance(item, master: master, each)
            } else {
                waiting.append((JSONTapeDocument(item.object), item.location))
            }
            return
        }
        var isFirst = true
        let mapper = mapper
        let mapped = mapper.events(from: item.object, location: item.location) { event in
            if isFirst {
                isFirst = false
                // Asked of its members: the event passed on whole was copied.
                if canHaveInstances(event.isRecurring || !event.exceptionDates.isEmpty, item) { remember(event, item) }
            }
            each(GraphEventRecord(event: event, location: item.location))
        }
        diagnostics.collect(mapped)
    }

    /// Hands over the instances still waiting, now that no master can come.
    mutating func finish(_ each: (GraphEventRecord) -> Void) {
        for (object, location) in waiting {
            object.withRoot { root in
                let item = GraphInputItem(object: root, location: location)
                mapInstance(item, master: master(of: item), each)
            }
        }
        waiting = []
    }

    private mutating func mapInstance(_ item: GraphInputItem, master: Event?, _ each: (GraphEventRecord) -> Void) {
        // A master without a recurrence has no series to hold an override (see `events(from:)`).
        if let master, !master.recurrenceRules.isEmpty {
            guard item.type?.isString("exception") == true else { return }
            let mapping = mapper.override(from: item.object, of: master, location: item.location)
            diagnostics.collect(mapping.diagnostics)
            if let event = mapping.output { each(GraphEventRecord(event: event, location: item.location)) }
            return
        }
        let mapped = mapper.events(from: item.object, location: item.location) {
            each(GraphEventRecord(event: $0, location: item.location))
        }
        diagnostics.collect(mapped)
        diagnostics.append(
            Diagnostic(
                .note, code: "graph-instance-without-master",
                message:
                    "an instance whose series master is not in the input, or has no recurrence, is kept as a single event",
                location: item.location, uid: item.object["id"]?.stringValue))
    }

    /// Remembers `event`, which can have instances, by the names instances use for it: an instance
    /// names its master by `id`; events written by calport without one use the iCalUId.
    private mutating func remember(_ event: Event, _ item: GraphInputItem) {
        for name in [item.object["id"]?.stringValue, item.object["iCalUId"]?.stringValue] {
            if let name, masters[name] == nil { masters[name] = event }
        }
    }

    /// Whether the first event read from `item` can have instances: a series master, or an event
    /// that `repeats` (has a recurrence or cancelled occurrences) or has exceptions.
    private func canHaveInstances(_ repeats: Bool, _ item: GraphInputItem) -> Bool {
        repeats || item.type?.isString("seriesMaster") == true || item.object["exceptionOccurrences"] != nil
    }

    private func master(of item: GraphInputItem) -> Event? {
        item.object["seriesMasterId"]?.stringValue.flatMap { masters[$0] }
    }
}
