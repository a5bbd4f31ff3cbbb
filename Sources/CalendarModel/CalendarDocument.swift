/// A whole calendar: its own properties, its events, the time zones it defines, and every other
/// component it holds.
public struct CalendarDocument: Hashable, Sendable {
    /// The product that wrote the calendar (PRODID).
    public var productID: String?
    /// The iTIP method (METHOD, RFC 5546), e.g. `REQUEST` or `CANCEL`; nil for a plain calendar.
    public var method: String?
    /// The calendar's display name (X-WR-CALNAME or RFC 7986 NAME).
    public var name: String?
    /// The zone a calendar without TZIDs means (X-WR-TIMEZONE).
    public var timeZoneHint: String?
    /// The colour clients show the calendar in: a CSS3 colour name or `#rrggbb` (RFC 7986 COLOR).
    public var colour: String?
    /// What the calendar is for (RFC 7986 DESCRIPTION or X-WR-CALDESC).
    public var description: String?
    /// How often a subscriber should fetch the calendar again (RFC 7986 REFRESH-INTERVAL or X-PUBLISHED-TTL).
    public var refreshInterval: EventDuration?
    /// Where the calendar can be fetched again (RFC 7986 SOURCE).
    public var sourceURL: String?
    /// Calendar properties the model does not interpret, in order.
    public var extraProperties: [ExtraProperty]
    /// Events in source order: series masters and their overrides alike.
    public var events: [Event]
    /// The VTIMEZONEs the calendar defines, in source order.
    public var timeZones: [TimeZoneDefinition]
    /// Components other than events and time zones (VTODO, VJOURNAL, VFREEBUSY, …).
    public var otherComponents: [ExtraComponent]

    /// A calendar with these properties, events, zones and other components.
    public init(
        productID: String? = nil, method: String? = nil, name: String? = nil, timeZoneHint: String? = nil,
        extraProperties: [ExtraProperty] = [], events: [Event] = [], timeZones: [TimeZoneDefinition] = [],
        otherComponents: [ExtraComponent] = []
    ) {
        self.productID = productID
        self.method = method
        self.name = name
        self.timeZoneHint = timeZoneHint
        self.extraProperties = extraProperties
        self.events = events
        self.timeZones = timeZones
        self.otherComponents = otherComponents
    }

    /// The time zone definition with this TZID, if the document has one.
    public func timeZone(named identifier: String) -> TimeZoneDefinition? {
        timeZones.first { $0.identifier == identifier }
    }

    /// Events grouped by UID: each series' master (if present) with its overrides, in first-seen order.
    ///
    /// An event without a UID is a series of its own, and so is an event without RECURRENCE-ID under
    /// a UID whose series already has a master: a duplicate is not an override, and linking it to
    /// the first as one would turn it into an occurrence of a series it does not belong to.
    public var series: [EventSeries] {
        var all: [EventSeries] = []
        all.reserveCapacity(events.count)
        /// Where the first series of each UID is: overrides join it. Sized at once: grown from
        /// empty, rehashing was a fifth of grouping a calendar read whole.
        var firstOfUID: [String: Int] = [:]
        firstOfUID.reserveCapacity(events.count)
        for event in events {
            let isOverride = !event.recurrenceID.isNil
            if !event.uid.isEmpty, let first = firstOfUID[event.uid] {
                if isOverride {
                    all[first].overrides.append(event)
                    continue
                }
                if all[first].master.isNil {
                    all[first].master = event
                    continue
                }
            } else if !event.uid.isEmpty {
                firstOfUID[event.uid] = all.count
            }
            all.append(EventSeries(alone: event))
        }
        return all
    }
}

/// A recurring series (or a single event): the master and the overrides that share its UID.
public struct EventSeries: Hashable, Sendable {
    /// The UID the series members share.
    public var uid: String
    /// The VEVENT without RECURRENCE-ID: the series master or a single event; nil when only overrides are present.
    public var master: Event?
    /// The VEVENTs with a RECURRENCE-ID: occurrences the master's rule makes, changed.
    public var overrides: [Event]

    /// A series of these members.
    public init(uid: String, master: Event? = nil, overrides: [Event] = []) {
        self.uid = uid
        self.master = master
        self.overrides = overrides
    }

    /// The members: the master (when there is one) first, then the overrides.
    public var events: [Event] { (master.map { [$0] } ?? []) + overrides }

    /// The series of `event` alone: it is the master, or the only override.
    public init(alone event: Event) {
        let isOverride = !event.recurrenceID.isNil
        self.init(uid: event.uid, master: isOverride ? nil : event, overrides: isOverride ? [event] : [])
    }
}
