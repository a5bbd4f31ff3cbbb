/// A calendar event: the one shape every format converts through.
///
/// Optional members are nil when the source did not say; everything the model does not
/// interpret is kept in `extraProperties`, `extraComponents` and `propertyParameters` so that a
/// round trip through the same format loses nothing.
public struct Event: Hashable, @unchecked Sendable, Codable {
    /// The members, held once by every copy of the event until one copy is changed (copy on
    /// write): an event is passed from reader to writer and grouped into series, and as a plain
    /// struct each copy retained and released a few dozen references and each move copied some
    /// 600 bytes. Sendable unchecked for this reference alone: the members are `Sendable`
    /// (`EventFields`), and storage is changed only when no other event holds it.
    @usableFromInline var storage: EventStorage

    /// The event's identifier (UID, RFC 5545 §3.8.4.7), shared by a series' master and its overrides.
    /// From Graph it is `iCalUId`, else `id`, else `transactionId`; a VEVENT or Graph object without any
    /// is given `calport-` and a UUID derived from its content, so reading it twice gives the same UID.
    /// An empty UID is not written.
    @inlinable public var uid: String {
        get { storage.fields.pointee.uid }
        _modify { yield &uniqueFields.pointee.uid }
    }
    /// The revision number (SEQUENCE, RFC 5545 §3.8.7.4), raised by the organizer on each significant
    /// change; nil when not given, which RFC 5545 reads as 0. Graph has no such member
    /// (`graph-sequence-lost` when writing Graph JSON).
    @inlinable public var sequence: Int? {
        get { storage.fields.pointee.sequence }
        _modify { yield &uniqueFields.pointee.sequence }
    }
    /// The title (SUMMARY, RFC 5545 §3.8.1.12; `subject` in Graph), unescaped plain text; nil when
    /// the source had none.
    @inlinable public var summary: String? {
        get { storage.fields.pointee.summary }
        _modify { yield &uniqueFields.pointee.summary }
    }
    /// The plain-text description.
    @inlinable public var description: String? {
        get { storage.fields.pointee.description }
        _modify { yield &uniqueFields.pointee.description }
    }
    /// An HTML version of the description, when the source had one.
    @inlinable public var htmlDescription: String? {
        get { storage.fields.pointee.htmlDescription }
        _modify { yield &uniqueFields.pointee.htmlDescription }
    }
    /// When the event begins (DTSTART, RFC 5545 §3.8.2.4; `start` and `isAllDay` in Graph): a date
    /// for an all-day event, else a floating, UTC or zoned time. For a series it is the first occurrence
    /// and gives the time of day and zone every occurrence repeats in. nil when the VEVENT had no DTSTART
    /// (RFC 5545 allows that only with a METHOD); a Graph object without a usable `start` is left out.
    @inlinable public var start: CalendarTime? {
        get { storage.fields.pointee.start }
        _modify { yield &uniqueFields.pointee.start }
    }
    /// When the event ends: DTEND (RFC 5545 §3.8.2.2, exclusive) or DURATION (§3.8.2.5), whichever the
    /// source gave; `end` in Graph. nil when neither was given: a timed event then lasts no time
    /// (§3.6.1); a date start without either is read as lasting one day, so it gets the next day's date.
    @inlinable public var end: EventEnd? {
        get { storage.fields.pointee.end }
        _modify { yield &uniqueFields.pointee.end }
    }
    /// Where the event happens, first place first. The first is LOCATION (with GEO for its
    /// coordinates, RFC 5545 §3.8.1.7 and §3.8.1.6); iCalendar holds one, so further places are written
    /// as `X-CALPORT-LOCATION`. Graph's `locations` (or `location` when there are none). Empty when the
    /// source named no place.
    @inlinable public var locations: [Location] {
        get { storage.fields.pointee.locations }
        _modify { yield &uniqueFields.pointee.locations }
    }
    /// Who organizes the meeting (ORGANIZER, RFC 5545 §3.8.4.3; `organizer.emailAddress` in Graph);
    /// nil for an event that is not a meeting, or one whose organizer had no address.
    @inlinable public var organizer: Participant? {
        get { storage.fields.pointee.organizer }
        _modify { yield &uniqueFields.pointee.organizer }
    }
    /// The invitees (ATTENDEE, RFC 5545 §3.8.4.1; `attendees` in Graph), in source order, with their
    /// role, reply and kind.
    @inlinable public var attendees: [Attendee] {
        get { storage.fields.pointee.attendees }
        _modify { yield &uniqueFields.pointee.attendees }
    }
    /// Whether the event is tentative, confirmed or cancelled (STATUS, RFC 5545 §3.8.1.11); nil when
    /// not given. Graph says only `isCancelled`, which is `.cancelled` when true.
    @inlinable public var status: EventStatus? {
        get { storage.fields.pointee.status }
        _modify { yield &uniqueFields.pointee.status }
    }
    /// Whether the event blocks time in free/busy searches (TRANSP, RFC 5545 §3.8.2.7); nil when
    /// not given, which RFC 5545 reads as opaque. From Graph's `showAs`: `free` is transparent,
    /// `unknown` nil, anything else opaque. See ``busyStatus`` for the finer state.
    @inlinable public var transparency: Transparency? {
        get { storage.fields.pointee.transparency }
        _modify { yield &uniqueFields.pointee.transparency }
    }
    /// Outlook's finer free/busy state, beside the two-valued transparency.
    @inlinable public var busyStatus: BusyStatus? {
        get { storage.fields.pointee.busyStatus }
        _modify { yield &uniqueFields.pointee.busyStatus }
    }
    /// Who may see the event's details (CLASS, RFC 5545 §3.8.1.3; `sensitivity` in Graph); nil when
    /// not given, which RFC 5545 reads as public.
    @inlinable public var classification: Classification? {
        get { storage.fields.pointee.classification }
        _modify { yield &uniqueFields.pointee.classification }
    }
    /// 0 (undefined) to 9 (lowest); 1 is highest.
    @inlinable public var priority: Int? {
        get { storage.fields.pointee.priority }
        _modify { yield &uniqueFields.pointee.priority }
    }
    /// Outlook's importance (`importance` in Graph; X-MICROSOFT-CDO-IMPORTANCE 0/1/2 in iCalendar);
    /// nil when not given. Reading Graph sets ``priority`` too (high 1, normal 5, low 9); writing Graph
    /// without it derives it from ``priority``.
    @inlinable public var importance: Importance? {
        get { storage.fields.pointee.importance }
        _modify { yield &uniqueFields.pointee.importance }
    }
    /// Tags such as "Work" (CATEGORIES, RFC 5545 §3.8.1.2; `categories` in Graph), unescaped, in
    /// source order; several CATEGORIES lines are joined and written back as one.
    @inlinable public var categories: [String] {
        get { storage.fields.pointee.categories }
        _modify { yield &uniqueFields.pointee.categories }
    }
    /// The reminders (VALARM components, RFC 5545 §3.6.6). Graph holds one: `isReminderOn` with
    /// `reminderMinutesBeforeStart` is a display alarm that many minutes before the start
    /// (``Alarm/minutesBeforeStart(_:)``); other alarms are lost there (`graph-alarms-lost`).
    @inlinable public var alarms: [Alarm] {
        get { storage.fields.pointee.alarms }
        _modify { yield &uniqueFields.pointee.alarms }
    }
    /// A link to the event's page (URL, RFC 5545 §3.8.4.6; `webLink` in Graph), kept as written
    /// without checking it is a valid URI; nil when none.
    @inlinable public var url: String? {
        get { storage.fields.pointee.url }
        _modify { yield &uniqueFields.pointee.url }
    }
    /// Links to join the meeting online (CONFERENCE, RFC 7986 §5.11; `onlineMeeting.joinUrl` in
    /// Graph). Teams, Zoom and Meet links found in DESCRIPTION, LOCATION or X-GOOGLE-CONFERENCE are added
    /// here when no CONFERENCE has them.
    @inlinable public var conferences: [Conference] {
        get { storage.fields.pointee.conferences }
        _modify { yield &uniqueFields.pointee.conferences }
    }
    /// The rules the event repeats by (RRULE, RFC 5545 §3.8.5.3; `recurrence` in Graph), counted
    /// from ``start``. Usually none or one: RFC 5545 says an event SHOULD have at most one, and Graph
    /// holds one (`graph-multiple-rrules`).
    @inlinable public var recurrenceRules: [RecurrenceRule] {
        get { storage.fields.pointee.recurrenceRules }
        _modify { yield &uniqueFields.pointee.recurrenceRules }
    }
    /// Rules whose occurrences are removed from the series (EXRULE, RFC 2445 §4.8.5.2). RFC 5545
    /// deprecates EXRULE, but old files have it, so it is read and written back; Graph cannot hold it
    /// (`graph-unsupported-exrule`).
    @inlinable public var exceptionRules: [RecurrenceRule] {
        get { storage.fields.pointee.exceptionRules }
        _modify { yield &uniqueFields.pointee.exceptionRules }
    }
    /// Extra occurrences beside those of the rules (RDATE, RFC 5545 §3.8.5.2), one entry per value;
    /// Graph cannot hold them (`graph-unsupported-rdate`).
    @inlinable public var recurrenceDates: [RecurrenceDate] {
        get { storage.fields.pointee.recurrenceDates }
        _modify { yield &uniqueFields.pointee.recurrenceDates }
    }
    /// Occurrences removed from the series (EXDATE, RFC 5545 §3.8.5.1), each matching an occurrence's
    /// start in the form of ``start`` (a date for an all-day series); `cancelledOccurrences` in Graph,
    /// where each is written as an `isCancelled` entry of a POST.
    @inlinable public var exceptionDates: [CalendarTime] {
        get { storage.fields.pointee.exceptionDates }
        _modify { yield &uniqueFields.pointee.exceptionDates }
    }
    /// Set on an override: which occurrence of its series it replaces.
    @inlinable public var recurrenceID: RecurrenceIdentifier? {
        get { storage.fields.pointee.recurrenceID }
        _modify { yield &uniqueFields.pointee.recurrenceID }
    }
    /// When the event was first created in a calendar store (CREATED, RFC 5545 §3.8.7.1, a UTC time;
    /// `createdDateTime` in Graph); nil when not given.
    @inlinable public var created: CalendarTime? {
        get { storage.fields.pointee.created }
        _modify { yield &uniqueFields.pointee.created }
    }
    /// When the event was last changed in a calendar store (LAST-MODIFIED, RFC 5545 §3.8.7.3, a UTC
    /// time; `lastModifiedDateTime` in Graph); nil when not given.
    @inlinable public var lastModified: CalendarTime? {
        get { storage.fields.pointee.lastModified }
        _modify { yield &uniqueFields.pointee.lastModified }
    }
    /// When this copy of the event was written (DTSTAMP, RFC 5545 §3.8.7.2, a UTC time, required in
    /// a VEVENT); from Graph it is `lastModifiedDateTime`. nil when the source had none, and then none
    /// is written.
    @inlinable public var timestamp: CalendarTime? {
        get { storage.fields.pointee.timestamp }
        _modify { yield &uniqueFields.pointee.timestamp }
    }
    /// Files attached to the event (ATTACH, RFC 5545 §3.8.1.1), by URI or inline. Graph's
    /// `attachments` is a relationship that event JSON does not contain, so these are lost there.
    @inlinable public var attachments: [Attachment] {
        get { storage.fields.pointee.attachments }
        _modify { yield &uniqueFields.pointee.attachments }
    }
    /// Whether invitees may propose another time; nil when the source did not say.
    @inlinable public var allowsNewTimeProposals: Bool? {
        get { storage.fields.pointee.allowsNewTimeProposals }
        _modify { yield &uniqueFields.pointee.allowsNewTimeProposals }
    }
    /// Parameters of modelled single-valued properties that the model does not interpret,
    /// keyed by upper-case property name (`SUMMARY` → `LANGUAGE=en`).
    @inlinable public var propertyParameters: [String: [Parameter]] {
        get { storage.fields.pointee.propertyParameters }
        _modify { yield &uniqueFields.pointee.propertyParameters }
    }
    /// VEVENT properties the model does not interpret (X-…, IANA properties, `X-CALPORT-GRAPH-…`
    /// for Graph members without an iCalendar property), in source order, written back after the
    /// modelled ones.
    @inlinable public var extraProperties: [ExtraProperty] {
        get { storage.fields.pointee.extraProperties }
        _modify { yield &uniqueFields.pointee.extraProperties }
    }
    /// Sub-components of the VEVENT other than VALARM (X- components, RFC 9073's VLOCATION, …), kept
    /// whole and written back after the alarms.
    @inlinable public var extraComponents: [ExtraComponent] {
        get { storage.fields.pointee.extraComponents }
        _modify { yield &uniqueFields.pointee.extraComponents }
    }

    /// An event with the identifier `uid` and nothing else: every optional member nil and every list
    /// empty. Set ``start`` (and usually ``end`` and ``summary``) for an event a calendar can show.
    public init(uid: String) {
        storage = .holding(EventFields(uid: uid))
    }

    /// The members, for changing: the storage is copied first when another event shares it.
    @inlinable var uniqueFields: UnsafeMutablePointer<EventFields> {
        mutating get {
            if !isKnownUniquelyReferenced(&storage) { storage = .holding(storage.fields.pointee) }
            return storage.fields
        }
    }

    /// Whether two events have equal members (at once when they share them).
    public static func == (a: Event, b: Event) -> Bool {
        a.storage === b.storage || a.storage.fields.pointee == b.storage.fields.pointee
    }

    /// Hashes the members.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(storage.fields.pointee)
    }

    /// An event decoded from the keys its members are named by.
    public init(from decoder: any Decoder) throws {
        storage = .holding(try EventFields(from: decoder))
    }

    /// Encodes the members under their names, as a struct of them would be.
    public func encode(to encoder: any Encoder) throws {
        try storage.fields.pointee.encode(to: encoder)
    }

    /// Whether the event repeats (it has a rule or extra dates).
    public var isRecurring: Bool { !recurrenceRules.isEmpty || !recurrenceDates.isEmpty }

    /// Whether the event is a whole-day event.
    public var isAllDay: Bool { start?.isDate ?? false }
}

/// The members of an `Event`, one for each of its properties, documented there.
@usableFromInline struct EventFields: Hashable, Sendable, Codable {
    @usableFromInline var uid: String
    @usableFromInline var sequence: Int?
    @usableFromInline var summary: String?
    @usableFromInline var description: String?
    @usableFromInline var htmlDescription: String?
    @usableFromInline var start: CalendarTime?
    @usableFromInline var end: EventEnd?
    @usableFromInline var locations: [Location] = []
    @usableFromInline var organizer: Participant?
    @usableFromInline var attendees: [Attendee] = []
    @usableFromInline var status: EventStatus?
    @usableFromInline var transparency: Transparency?
    @usableFromInline var busyStatus: BusyStatus?
    @usableFromInline var classification: Classification?
    @usableFromInline var priority: Int?
    @usableFromInline var importance: Importance?
    @usableFromInline var categories: [String] = []
    @usableFromInline var alarms: [Alarm] = []
    @usableFromInline var url: String?
    @usableFromInline var conferences: [Conference] = []
    @usableFromInline var recurrenceRules: [RecurrenceRule] = []
    @usableFromInline var exceptionRules: [RecurrenceRule] = []
    @usableFromInline var recurrenceDates: [RecurrenceDate] = []
    @usableFromInline var exceptionDates: [CalendarTime] = []
    @usableFromInline var recurrenceID: RecurrenceIdentifier?
    @usableFromInline var created: CalendarTime?
    @usableFromInline var lastModified: CalendarTime?
    @usableFromInline var timestamp: CalendarTime?
    @usableFromInline var attachments: [Attachment] = []
    @usableFromInline var allowsNewTimeProposals: Bool?
    @usableFromInline var propertyParameters: [String: [Parameter]] = [:]
    @usableFromInline var extraProperties: [ExtraProperty] = []
    @usableFromInline var extraComponents: [ExtraComponent] = []
}

/// Where an `Event`'s members live: one allocation, reached through a pointer so that reading a
/// member costs no exclusivity check (a class's stored property would be checked at run time on
/// every access).
@usableFromInline final class EventStorage: ManagedBuffer<EventFields, Never> {
    /// Storage holding `fields`.
    @inlinable static func holding(_ fields: EventFields) -> EventStorage {
        unsafeDowncast(create(minimumCapacity: 0) { _ in fields }, to: EventStorage.self)
    }

    /// The members; the header, which the buffer destroys with itself.
    @inlinable var fields: UnsafeMutablePointer<EventFields> { withUnsafeMutablePointerToHeader { $0 } }
}

/// How an event's end is given: an end time, or a duration from the start.
public enum EventEnd: Hashable, Sendable, Codable {
    /// An end time (DTEND), exclusive: an all-day event on one day ends on the next day's date. Graph
    /// always gives an end this way.
    case end(CalendarTime)
    /// A length from the start (DURATION, RFC 5545 §3.3.6), whose weeks and days follow the wall
    /// clock of the start's zone across DST changes. Graph JSON is written with the end it gives.
    case duration(EventDuration)
}

/// The state of an event (STATUS).
public enum EventStatus: Hashable, Sendable, Codable {
    /// TENTATIVE, CONFIRMED and CANCELLED, the VEVENT statuses of RFC 5545 §3.8.1.11. Only
    /// `cancelled` reaches Graph (`isCancelled`); a POST cannot create a cancelled event.
    case tentative, confirmed, cancelled
    /// A STATUS value RFC 5545 does not define for a VEVENT (an X- name, or a to-do's
    /// NEEDS-ACTION), kept as written so that it is written back unchanged.
    case other(String)
}

/// Whether an event blocks time (TRANSP).
public enum Transparency: Hashable, Sendable, Codable {
    /// OPAQUE (the time is busy) and TRANSPARENT (it stays free), RFC 5545 §3.8.2.7. Written to
    /// Graph without a ``Event/busyStatus``, they become `showAs` `busy` and `free`.
    case opaque, transparent
}

/// Outlook's and Graph's free/busy state (`showAs`).
public enum BusyStatus: Hashable, Sendable, Codable {
    /// Graph's `showAs` values `free`, `tentative`, `busy`, `oof`, `workingElsewhere` and `unknown`,
    /// written to iCalendar as X-MICROSOFT-CDO-BUSYSTATUS FREE, TENTATIVE, BUSY, OOF, WORKINGELSEWHERE
    /// and UNKNOWN; an unrecognised iCalendar value reads as `unknown`.
    case free, tentative, busy, outOfOffice, workingElsewhere, unknown
}

/// Who may see an event (CLASS / Graph `sensitivity`).
public enum Classification: Hashable, Sendable, Codable {
    /// CLASS PUBLIC, PRIVATE and CONFIDENTIAL (RFC 5545 §3.8.1.3), which are Graph's `sensitivity`
    /// `normal`, `private` and `confidential`.
    case `public`, `private`, confidential
    /// Graph's `personal`, which iCalendar has no class for.
    case personal
    /// A CLASS value RFC 5545 does not define (an X- or IANA name), kept as written; Graph has no
    /// sensitivity for it (`graph-unsupported-class`).
    case other(String)
}

/// Outlook's three-level importance.
public enum Importance: Hashable, Sendable, Codable {
    /// Graph's `importance` `low`, `normal` and `high`; X-MICROSOFT-CDO-IMPORTANCE 0, 1 and 2 in
    /// iCalendar, whose PRIORITY they set to 9, 5 and 1 when read from Graph.
    case low, normal, high
}

/// A place where an event happens.
public struct Location: Hashable, Sendable, Codable {
    /// The place's name as people read it (LOCATION's text; `displayName` in Graph); empty for a
    /// place known only by its GEO coordinates.
    public var name: String
    /// The street address (Graph's `address`); iCalendar has no property for it, so it travels as
    /// `X-CALPORT-STREET`, `-CITY`, `-STATE`, `-POSTALCODE` and `-COUNTRY` parameters of LOCATION. nil
    /// when the source gave none.
    public var address: PostalAddress?
    /// Where the place is on the map (GEO, RFC 5545 §3.8.1.6, for the first location, else an
    /// `X-CALPORT-GEO` parameter; `coordinates` in Graph; read from X-APPLE-STRUCTURED-LOCATION when
    /// GEO gave none); nil when unknown.
    public var coordinates: GeoCoordinate?
    /// A link about the place (Graph's `locationUri`; an `X-CALPORT-URI` parameter of LOCATION); nil
    /// when none.
    public var uri: String?
    /// Parameters the model does not interpret (ALTREP, LANGUAGE, X-…), kept verbatim.
    public var parameters: [Parameter]

    /// A place called `name`, with the address, coordinates, link and uninterpreted parameters given.
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
public struct PostalAddress: Hashable, Sendable, Codable {
    /// The street and house number (Graph's `street`); nil when not given.
    public var street: String?
    /// The city or town (Graph's `city`); nil when not given.
    public var city: String?
    /// The state or province (Graph's `state`); nil when not given.
    public var state: String?
    /// The postal or ZIP code (Graph's `postalCode`), as text since many have letters; nil when not given.
    public var postalCode: String?
    /// The country or region as written, a name or a code (Graph's `countryOrRegion`); nil when not
    /// given.
    public var country: String?

    /// An address of the parts given; those left out are nil.
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
public struct GeoCoordinate: Hashable, Sendable, Codable {
    /// Degrees north of the equator, -90 to 90 (south is negative); GEO's first value.
    public var latitude: Double
    /// Degrees east of Greenwich, -180 to 180 (west is negative); GEO's second value.
    public var longitude: Double

    /// The point at `latitude` and `longitude`, in decimal degrees.
    public init(latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
    }
}

/// A link to join an online meeting (RFC 7986 CONFERENCE, Graph `onlineMeeting`).
public struct Conference: Hashable, Sendable, Codable {
    /// The link that joins the meeting (CONFERENCE's value, RFC 7986 §5.11: `https:` for Teams, Zoom
    /// or Meet, `tel:` for a dial-in), as written.
    public var uri: String
    /// What a client shows for the link (LABEL); when the source has none, the provider's name
    /// for a known link ("Microsoft Teams Meeting", "Zoom Meeting", "Google Meet"), else nil.
    public var label: String?
    /// FEATURE values: AUDIO, VIDEO, CHAT, PHONE, SCREEN, MODERATOR, FEED.
    public var features: [String]
    /// Parameters the model does not interpret (LANGUAGE, `X-CALPORT-GRAPH-CONFERENCE-ID`, …), kept
    /// verbatim.
    public var parameters: [Parameter]

    /// A conference link `uri` with its label, FEATURE values and uninterpreted parameters.
    public init(uri: String, label: String? = nil, features: [String] = [], parameters: [Parameter] = []) {
        self.uri = uri
        self.label = label
        self.features = features
        self.parameters = parameters
    }
}

/// A file attached to an event, by reference or inline.
public struct Attachment: Hashable, Sendable, Codable {
    /// Where an attachment's bytes are: at a URI, or inline in the property.
    public enum Content: Hashable, Sendable, Codable {
        /// A reference to the file (ATTACH's default URI value), as written.
        case uri(String)
        /// Base64 text, as carried inline.
        case base64(String)
    }

    /// The file, by reference or inline.
    public var content: Content
    /// The file's media type (FMTTYPE, e.g. `application/pdf`); nil when not given.
    public var mediaType: String?
    /// Parameters the model does not interpret (FILENAME, X-…), kept verbatim; ENCODING and VALUE
    /// follow from ``content``.
    public var parameters: [Parameter]

    /// An attachment of `content`, with its media type and uninterpreted parameters.
    public init(content: Content, mediaType: String? = nil, parameters: [Parameter] = []) {
        self.content = content
        self.mediaType = mediaType
        self.parameters = parameters
    }
}

/// A reminder attached to an event (VALARM).
public struct Alarm: Hashable, Sendable, Codable {
    /// What the alarm does when it fires (ACTION, RFC 5545 §3.8.6.1).
    public enum Action: Hashable, Sendable, Codable {
        /// AUDIO plays a sound, DISPLAY shows ``Alarm/description``, EMAIL sends ``Alarm/summary`` and
        /// ``Alarm/description`` to ``Alarm/attendees``. Graph's reminder is a display alarm.
        case audio, display, email
        /// An X- or IANA action (PROCEDURE, which RFC 5545 deprecates), kept as written.
        case other(String)
    }

    /// When the alarm fires: relative to the start (or end) of the event, or at an instant.
    public enum Trigger: Hashable, Sendable, Codable {
        /// A signed duration from the event's start, or its end when `relatedToEnd` (RELATED=END);
        /// negative is before: `-PT15M` is 15 minutes before.
        case relative(EventDuration, relatedToEnd: Bool)
        /// At a fixed time (`TRIGGER;VALUE=DATE-TIME`, a UTC time in RFC 5545).
        case absolute(CalendarTime)
    }

    /// What the alarm does (ACTION).
    public var action: Action
    /// When it fires (TRIGGER, RFC 5545 §3.8.6.3).
    public var trigger: Trigger
    /// The subject of an EMAIL alarm's message (SUMMARY); nil when not given.
    public var summary: String?
    /// The text a DISPLAY alarm shows or an EMAIL alarm's body (DESCRIPTION, which RFC 5545 requires
    /// for both); nil when not given.
    public var description: String?
    /// How many more times the alarm fires after the first (REPEAT, RFC 5545 §3.8.6.2), each
    /// ``repeatInterval`` after the previous; nil when it fires once.
    public var repeatCount: Int?
    /// The delay between repeats (the alarm's DURATION); RFC 5545 requires it together with
    /// ``repeatCount``. nil when the alarm does not repeat.
    public var repeatInterval: EventDuration?
    /// Who an EMAIL alarm is sent to (ATTENDEE); empty for other actions.
    public var attendees: [Participant]
    /// The sound an AUDIO alarm plays or the files an EMAIL alarm sends (ATTACH).
    public var attachments: [Attachment]
    /// Parameters of the alarm's single-valued properties that the model does not interpret, keyed
    /// by upper-case property name (`DESCRIPTION` → `LANGUAGE=de`), put back on them when written.
    public var propertyParameters: [String: [Parameter]]
    /// VALARM properties the model does not interpret (X-WR-ALARMUID, ACKNOWLEDGED, X-…), in source
    /// order, written back after the modelled ones.
    public var extraProperties: [ExtraProperty]
    /// Sub-components of the VALARM (RFC 9074's VLOCATION, X- components), kept whole.
    public var extraComponents: [ExtraComponent]

    /// An alarm doing `action` at `trigger`, with no text, repeats or recipients; a DISPLAY alarm
    /// needs a ``description`` to be valid iCalendar.
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
