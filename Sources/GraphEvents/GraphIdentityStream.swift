import CalendarModel

/// One event a Graph input gives once mapped, as far as finding its series needs: its UID and the
/// year its start names.
public struct GraphEventIdentity: Hashable, Sendable {
    /// The event's UID.
    public var uid: String
    /// The year of its start; nil when it has none.
    public var year: Int?
}

/// Reads Graph event JSON fed in chunks as `GraphEventStream` does, but names the events mapping
/// would make of each object instead of mapping them: for a first pass that only needs to know
/// which UIDs occur more than once (`SeriesIndex`), at the cost of the JSON and a few members.
///
/// Each UID mapping would give is named at least as often as mapping gives it, sometimes more:
/// which event an exception becomes (an override of its master, or an event of its own when the
/// master has no recurrence) depends on the master, so both are named. Syntax errors end the
/// names where they end the events; diagnostics are left to the reading that maps.
public struct GraphIdentityStream: Sendable {
    private var stream: GraphObjectStream<GraphIdentityCollector>

    /// A stream holding its input to `limits`.
    public init(limits: JSONLimits = JSONLimits()) {
        stream = GraphObjectStream(file: nil, limits: limits)
    }

    /// Adds the next chunk of input and hands the identities it completes to `each`.
    public mutating func append(_ chunk: some Sequence<UInt8>, each: (GraphEventIdentity) -> Void) {
        stream.append(chunk, each: each)
    }

    /// Ends the input and hands over the identities that remain.
    public mutating func finish(each: (GraphEventIdentity) -> Void) {
        _ = stream.finish(each: each)
    }
}

/// Names the events `GraphSeriesAssembler` would make of each object, following its rules: an
/// object's own event, and one for each of its `exceptionOccurrences`; an instance also under the
/// UID of the master it names, once that master has come, or at the end.
struct GraphIdentityCollector: GraphObjectSink {
    /// The UID of each event that can have instances, by the names instances use for it (the first
    /// one named so, as the assembler keeps it).
    private var masters: [String: String] = [:]
    /// Instances read before their master: the name they give it and the year they start in.
    private var waiting: [(master: String, year: Int?)] = []

    var diagnostics: [Diagnostic] { [] }

    /// What naming an event never reads (`name`, `add`, the times and recurrence they decode): the
    /// larger part of most events' bytes, and of their tokens (a benchmark event's attendees are
    /// half of both).
    static let passedOverMembers: [JSONKey] = [
        "attendees", "body", "bodyPreview", "organizer", "location", "locations", "subject", "categories",
        "onlineMeeting", "responseStatus", "webLink", "attachments",
    ]

    /// An event with no identity of its own is named by a digest of all of its content
    /// (`GraphEventMapper.uid(of:_:at:)`), so it is read whole.
    static func needsWholeObject(_ object: JSONNode) -> Bool {
        object["iCalUId"]?.stringValue == nil && object["id"]?.stringValue == nil
            && object["transactionId"]?.stringValue == nil
    }

    mutating func add(_ item: GraphInputItem, _ each: (GraphEventIdentity) -> Void) {
        guard let object = item.object.objectValue else { return }
        let own = Self.name(object, each)
        if item.isInstance {
            guard let name = item.object["seriesMasterId"]?.stringValue else { return }
            if let uid = masters[name] {
                each(GraphEventIdentity(uid: uid, year: own.year))
            } else {
                waiting.append((name, own.year))
            }
            return
        }
        // As `GraphSeriesAssembler.canHaveInstances` asks of the object's first event, its own (an
        // event without a start is left out).
        guard own.year != nil,
            own.repeats || item.type?.isString("seriesMaster") == true || item.object["exceptionOccurrences"] != nil
        else { return }
        for name in [item.object["id"]?.stringValue, item.object["iCalUId"]?.stringValue] {
            if let name, masters[name] == nil { masters[name] = own.uid }
        }
    }

    mutating func finish(_ each: (GraphEventIdentity) -> Void) {
        for (name, year) in waiting {
            if let uid = masters[name] { each(GraphEventIdentity(uid: uid, year: year)) }
        }
        waiting = []
    }

    /// Names the event `object` maps to and, for each of its exceptions, both the override of it and
    /// the exception's own events; returns the object's UID, start year (nil without a start) and
    /// whether it repeats (has a recurrence the mapping reads).
    private static func name(_ object: JSONNode, _ each: (GraphEventIdentity) -> Void)
        -> (uid: String, year: Int?, repeats: Bool)
    {
        var decoder = GraphDecoder(location: SourceLocation())
        decoder.index(object)
        let uid = GraphEventMapper.uid(of: object, &decoder, at: "$")
        // The start's zone is not looked up (a third of the cost) unless the recurrence needs it:
        // the year its wall time names is the mapped start's. An event is made only then.
        let year = decoder.object("start", of: object, at: "$").flatMap { start in
            decoder.stringNode("dateTime", of: start, at: "$.start").flatMap(GraphDateTime.parse)
        }?.local.date.year
        var repeats = false
        if year != nil, decoder.object("recurrence", of: object, at: "$") != nil {
            var event = Event(uid: uid)
            event.decodeGraphTimes(object, at: "$", &decoder)
            event.decodeGraphRecurrence(object, at: "$", &decoder)
            repeats = event.isRecurring
        }
        each(GraphEventIdentity(uid: uid, year: year))
        for exception in decoder.array("exceptionOccurrences", of: object, at: "$") {
            guard let exception = exception.objectValue else { continue }
            let override = name(exception, each)
            each(GraphEventIdentity(uid: uid, year: override.year))
        }
        return (uid, year, repeats)
    }
}
