/// A whole calendar: its own properties, its events, the time zones it defines, and every other
/// component it holds.
public struct CalendarDocument: Hashable, Sendable {
    public var productID: String?
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
    public var timeZones: [TimeZoneDefinition]
    /// Components other than events and time zones (VTODO, VJOURNAL, VFREEBUSY, …).
    public var otherComponents: [ExtraComponent]

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
    public var series: [EventSeries] {
        var order: [String] = []
        var byUID: [String: EventSeries] = [:]
        for event in events {
            if byUID[event.uid] == nil {
                order.append(event.uid)
                byUID[event.uid] = EventSeries(uid: event.uid)
            }
            if event.recurrenceID == nil && byUID[event.uid]?.master == nil {
                byUID[event.uid]?.master = event
            } else {
                byUID[event.uid]?.overrides.append(event)
            }
        }
        return order.compactMap { byUID[$0] }
    }
}

/// A recurring series (or a single event): the master and the overrides that share its UID.
public struct EventSeries: Hashable, Sendable {
    public var uid: String
    public var master: Event?
    public var overrides: [Event]

    public init(uid: String, master: Event? = nil, overrides: [Event] = []) {
        self.uid = uid
        self.master = master
        self.overrides = overrides
    }
}
