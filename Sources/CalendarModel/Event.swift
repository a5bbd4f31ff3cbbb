/// A calendar event: the one shape every format converts through.
///
/// Optional members are nil when the source did not say; everything the model does not
/// interpret is kept in `extraProperties`, `extraComponents` and `propertyParameters` so that a
/// round trip through the same format loses nothing.
public struct Event: Hashable, Sendable {
    public var uid: String
    public var sequence: Int?
    public var summary: String?
    /// The plain-text description.
    public var description: String?
    /// An HTML version of the description, when the source had one.
    public var htmlDescription: String?
    public var start: CalendarTime?
    public var end: EventEnd?
    public var locations: [Location]
    public var organizer: Participant?
    public var attendees: [Attendee]
    public var status: EventStatus?
    public var transparency: Transparency?
    /// Outlook's finer free/busy state, beside the two-valued transparency.
    public var busyStatus: BusyStatus?
    public var classification: Classification?
    /// 0 (undefined) to 9 (lowest); 1 is highest.
    public var priority: Int?
    public var importance: Importance?
    public var categories: [String]
    public var alarms: [Alarm]
    public var url: String?
    public var conferences: [Conference]
    public var recurrenceRules: [RecurrenceRule]
    public var exceptionRules: [RecurrenceRule]
    public var recurrenceDates: [RecurrenceDate]
    public var exceptionDates: [CalendarTime]
    /// Set on an override: which occurrence of its series it replaces.
    public var recurrenceID: RecurrenceIdentifier?
    public var created: CalendarTime?
    public var lastModified: CalendarTime?
    public var timestamp: CalendarTime?
    public var attachments: [Attachment]
    /// Whether invitees may propose another time; nil when the source did not say.
    public var allowsNewTimeProposals: Bool?
    /// Parameters of modelled single-valued properties that the model does not interpret,
    /// keyed by upper-case property name (`SUMMARY` → `LANGUAGE=en`).
    public var propertyParameters: [String: [Parameter]]
    public var extraProperties: [ExtraProperty]
    public var extraComponents: [ExtraComponent]

    public init(uid: String) {
        self.uid = uid
        locations = []
        attendees = []
        categories = []
        alarms = []
        conferences = []
        recurrenceRules = []
        exceptionRules = []
        recurrenceDates = []
        exceptionDates = []
        attachments = []
        propertyParameters = [:]
        extraProperties = []
        extraComponents = []
    }

    /// Whether the event repeats (it has a rule or extra dates).
    public var isRecurring: Bool { !recurrenceRules.isEmpty || !recurrenceDates.isEmpty }

    /// Whether the event is a whole-day event.
    public var isAllDay: Bool { start?.isDate ?? false }
}

/// How an event's end is given: an end time, or a duration from the start.
public enum EventEnd: Hashable, Sendable {
    case end(CalendarTime)
    case duration(EventDuration)
}

/// The state of an event (STATUS).
public enum EventStatus: Hashable, Sendable {
    case tentative, confirmed, cancelled
    case other(String)
}

/// Whether an event blocks time (TRANSP).
public enum Transparency: Hashable, Sendable {
    case opaque, transparent
}

/// Outlook's and Graph's free/busy state (`showAs`).
public enum BusyStatus: Hashable, Sendable {
    case free, tentative, busy, outOfOffice, workingElsewhere, unknown
}

/// Who may see an event (CLASS / Graph `sensitivity`).
public enum Classification: Hashable, Sendable {
    case `public`, `private`, confidential
    /// Graph's `personal`, which iCalendar has no class for.
    case personal
    case other(String)
}

/// Outlook's three-level importance.
public enum Importance: Hashable, Sendable {
    case low, normal, high
}

/// A place where an event happens.
public struct Location: Hashable, Sendable {
    public var name: String
    public var address: PostalAddress?
    public var coordinates: GeoCoordinate?
    public var uri: String?
    /// Parameters the model does not interpret (ALTREP, LANGUAGE, X-…), kept verbatim.
    public var parameters: [Parameter]

    public init(
        name: String, address: PostalAddress? = nil, coordinates: GeoCoordinate? = nil, uri: String? = nil,
        parameters: [Parameter] = []
    ) {
        self.name = name
        self.address = address
        self.coordinates = coordinates
        self.uri = uri
        self.parameters = parameters
    }
}

/// A postal address, in the parts Graph and vCard use.
public struct PostalAddress: Hashable, Sendable {
    public var street: String?
    public var city: String?
    public var state: String?
    public var postalCode: String?
    public var country: String?

    public init(
        street: String? = nil, city: String? = nil, state: String? = nil, postalCode: String? = nil,
        country: String? = nil
    ) {
        self.street = street
        self.city = city
        self.state = state
        self.postalCode = postalCode
        self.country = country
    }
}

/// A point on the Earth in decimal degrees (WGS 84).
public struct GeoCoordinate: Hashable, Sendable {
    public var latitude: Double
    public var longitude: Double

    public init(latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
    }
}

/// A link to join an online meeting (RFC 7986 CONFERENCE, Graph `onlineMeeting`).
public struct Conference: Hashable, Sendable {
    public var uri: String
    public var label: String?
    /// FEATURE values: AUDIO, VIDEO, CHAT, PHONE, SCREEN, MODERATOR, FEED.
    public var features: [String]
    public var parameters: [Parameter]

    public init(uri: String, label: String? = nil, features: [String] = [], parameters: [Parameter] = []) {
        self.uri = uri
        self.label = label
        self.features = features
        self.parameters = parameters
    }
}

/// A file attached to an event, by reference or inline.
public struct Attachment: Hashable, Sendable {
    public enum Content: Hashable, Sendable {
        case uri(String)
        /// Base64 text, as carried inline.
        case base64(String)
    }

    public var content: Content
    public var mediaType: String?
    public var parameters: [Parameter]

    public init(content: Content, mediaType: String? = nil, parameters: [Parameter] = []) {
        self.content = content
        self.mediaType = mediaType
        self.parameters = parameters
    }
}

/// A reminder attached to an event (VALARM).
public struct Alarm: Hashable, Sendable {
    public enum Action: Hashable, Sendable {
        case audio, display, email
        case other(String)
    }

    /// When the alarm fires: relative to the start (or end) of the event, or at an instant.
    public enum Trigger: Hashable, Sendable {
        case relative(EventDuration, relatedToEnd: Bool)
        case absolute(CalendarTime)
    }

    public var action: Action
    public var trigger: Trigger
    public var summary: String?
    public var description: String?
    public var repeatCount: Int?
    public var repeatInterval: EventDuration?
    public var attendees: [Participant]
    public var attachments: [Attachment]
    public var propertyParameters: [String: [Parameter]]
    public var extraProperties: [ExtraProperty]
    public var extraComponents: [ExtraComponent]

    public init(action: Action, trigger: Trigger) {
        self.action = action
        self.trigger = trigger
        attendees = []
        attachments = []
        propertyParameters = [:]
        extraProperties = []
        extraComponents = []
    }

    /// A display reminder `minutes` minutes before the start, as Outlook and Graph set them.
    public static func minutesBeforeStart(_ minutes: Int) -> Alarm {
        var alarm = Alarm(
            action: .display, trigger: .relative(EventDuration(exactSeconds: -minutes * 60), relatedToEnd: false))
        // RFC 5545 §3.6.6 requires DESCRIPTION in a DISPLAY alarm; "Reminder" is what Outlook writes.
        alarm.description = "Reminder"
        return alarm
    }
}
