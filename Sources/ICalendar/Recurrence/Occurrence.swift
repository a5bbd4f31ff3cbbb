import CalendarModel
import Synchronization

/// One occurrence of an event in a window: when it happens and which VEVENT's properties apply, as the
/// engine worked it out (read-only).
///
/// An occurrence holds its three times as wall-clock seconds beside their instants, and shares their
/// forms (date, floating, UTC or a zone) and its UID with the other occurrences of its series in one
/// immutable object: a rule's instances all have DTSTART's form, so an expansion makes that object once
/// per series, not once per occurrence, and writers read the seconds without making a `CalendarTime`
/// (issue 24: making, copying and destroying those was a sixth of an NDJSON occurrence).
public struct Occurrence: Hashable, Sendable {
    private let forms: OccurrenceForms

    /// The series' UID.
    public var uid: String { forms.uid }
    /// The start the series gives this occurrence before any override: its RECURRENCE-ID.
    public var recurrenceID: CalendarTime { forms.time(forms.recurrenceID, at: recurrenceWall) }
    /// `recurrenceID` as UTC seconds.
    public let recurrenceInstant: Int
    /// When the occurrence starts, in the form of its event's DTSTART (a date, floating, UTC, or in
    /// DTSTART's zone); an override's own DTSTART when it moved the occurrence.
    public var start: CalendarTime { forms.time(forms.start, at: startWall) }
    /// When it ends, exclusive: the start plus the event's length (DTEND − DTSTART exactly, or DURATION
    /// with its days on the wall clock); a day after for a date without an end, the start itself for a
    /// time without one.
    public var end: CalendarTime { forms.time(forms.end, at: endWall) }
    /// `start` and `end` as UTC seconds since 1970 (floating times and dates read in the expansion's zone).
    public let startInstant: Int
    /// `end` as UTC seconds since 1970, read as ``startInstant`` is.
    public let endInstant: Int
    /// The wall-clock readings of `recurrenceID`, `start` and `end` as seconds since 1970 (a date's
    /// midnight), for writers that need no `CalendarTime`.
    package let recurrenceWall: Int
    package let startWall: Int
    package let endWall: Int
    /// The master, or the override that replaced this occurrence, shared by all the occurrences it supplies.
    public let source: SharedEvent
    /// Whether an override (RECURRENCE-ID, possibly THISANDFUTURE) supplied this occurrence.
    public let isOverride: Bool

    /// An occurrence of `source` with these times, forms of its own.
    init(
        uid: String, recurrenceID: CalendarTime, recurrenceInstant: Int, start: CalendarTime, end: CalendarTime,
        startInstant: Int, endInstant: Int, source: SharedEvent, isOverride: Bool
    ) {
        self.init(
            forms: OccurrenceForms(uid: uid, recurrenceID: recurrenceID, start: start, end: end, areExact: true),
            recurrenceWall: recurrenceID.localDateTime.secondsSinceEpoch, recurrenceInstant: recurrenceInstant,
            startWall: start.localDateTime.secondsSinceEpoch, startInstant: startInstant,
            endWall: end.localDateTime.secondsSinceEpoch, endInstant: endInstant, source: source,
            isOverride: isOverride)
    }

    /// An occurrence whose times have `forms`' forms at these wall-clock seconds.
    init(
        forms: OccurrenceForms, recurrenceWall: Int, recurrenceInstant: Int, startWall: Int, startInstant: Int,
        endWall: Int, endInstant: Int, source: SharedEvent, isOverride: Bool
    ) {
        self.forms = forms
        self.recurrenceWall = recurrenceWall
        self.recurrenceInstant = recurrenceInstant
        self.startWall = startWall
        self.startInstant = startInstant
        self.endWall = endWall
        self.endInstant = endInstant
        self.source = source
        self.isOverride = isOverride
    }

    /// Whether `recurrenceID`, `start` and `end` are dates, read without making them.
    package var recurrenceIDIsDate: Bool { forms.recurrenceIDIsDate }
    package var startIsDate: Bool { forms.startIsDate }
    package var endIsDate: Bool { forms.endIsDate }

    /// The object holding the forms of the occurrence's times, shared by the occurrences whose times
    /// have the same (a master's rule instances): a writer that keeps it knows another occurrence's
    /// times differ from one it wrote only in their wall-clock seconds. Nil for an occurrence whose
    /// times are its own (an override's, an RDATE's), which its seconds may not give back exactly
    /// (a leap second, `T235960Z`, is the next minute's in seconds).
    package var timeForms: AnyObject? { forms.areExact ? nil : forms }

    /// The object holding the occurrence's UID, the forms of its times and its start's zone name,
    /// shared as `timeForms` is but also when exact: a writer that keeps it (and compares
    /// `formsIdentity` with its identity) knows another occurrence's UID and zone are the same, and
    /// with `timeForms` kept, its times' forms, without comparing them or taking a reference: a
    /// writer asks it of each occurrence while the thread expanding them holds the same object, and
    /// taking one there costs atomic operations on memory both threads write.
    package var sharedForms: AnyObject { forms }
    package var formsIdentity: ObjectIdentifier { ObjectIdentifier(forms) }

    /// The zone of the start by its IANA identifier where known, else as the calendar names it; nil for a
    /// date, a floating or a UTC time.
    package var startZoneName: String? { forms.startZoneName }

    public static func == (lhs: Occurrence, rhs: Occurrence) -> Bool {
        (lhs.recurrenceInstant, lhs.startInstant, lhs.endInstant, lhs.isOverride)
            == (rhs.recurrenceInstant, rhs.startInstant, rhs.endInstant, rhs.isOverride)
            && lhs.source == rhs.source
            && (lhs.uid, lhs.recurrenceID, lhs.start, lhs.end) == (rhs.uid, rhs.recurrenceID, rhs.start, rhs.end)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(uid)
        hasher.combine(recurrenceID)
        hasher.combine(start)
        hasher.combine(end)
        hasher.combine(recurrenceInstant)
        hasher.combine(startInstant)
        hasher.combine(endInstant)
        hasher.combine(source)
        hasher.combine(isOverride)
    }

    /// The master, or the override that replaced this occurrence.
    public var event: Event { source.event }

    /// Whether it belongs to a series (a recurring master or an override) rather than being a single event.
    public var isInstance: Bool { source.belongsToSeries }

    /// Whether it is a whole-day occurrence.
    public var isAllDay: Bool { forms.startIsDate }

    /// The occurrence as a standalone VEVENT: its own start and end, no recurrence, and a RECURRENCE-ID
    /// naming the occurrence it is when it belongs to a series (so that a consumer can still tell the
    /// instances of one series apart).
    public var standaloneEvent: Event {
        var single = source.event
        single.start = start
        single.end = .end(end)
        single.recurrenceRules = []
        single.exceptionRules = []
        single.recurrenceDates = []
        single.exceptionDates = []
        single.recurrenceID = isInstance ? RecurrenceIdentifier(time: recurrenceID) : nil
        return single
    }
}

/// An occurrence's UID and the forms of its three times, shared by the occurrences that have the same:
/// every instance of a master's rules (DTSTART's form, and the end's). Immutable once made.
final class OccurrenceForms: Sendable {
    let uid: String
    let recurrenceID: CalendarTime
    let start: CalendarTime
    let end: CalendarTime
    /// Whether the three are one occurrence's times as they are (an override's, an RDATE's, which may
    /// hold what no wall-clock seconds give back, a leap second), rather than forms whose wall time the
    /// occurrence supplies.
    let areExact: Bool
    let recurrenceIDIsDate: Bool
    let startIsDate: Bool
    let endIsDate: Bool
    let startZoneName: String?

    /// Forms of these times; `areExact` when they are one occurrence's own.
    init(uid: String, recurrenceID: CalendarTime, start: CalendarTime, end: CalendarTime, areExact: Bool) {
        self.uid = uid
        self.recurrenceID = recurrenceID
        self.start = start
        self.end = end
        self.areExact = areExact
        recurrenceIDIsDate = recurrenceID.isDate
        startIsDate = start.isDate
        endIsDate = end.isDate
        startZoneName = start.timeZone.map { $0.ianaIdentifier ?? $0.name }
    }

    /// `form` at `wall` seconds, or `form` itself where the forms are exact.
    func time(_ form: CalendarTime, at wall: Int) -> CalendarTime {
        areExact ? form : form.withLocalDateTime(LocalDateTime(secondsSinceEpoch: wall))
    }
}

/// An event shared, not copied, by the occurrences it supplies: copying a whole `Event` per occurrence
/// would cost more than computing the occurrence.
public final class SharedEvent: Hashable, Sendable {
    /// The VEVENT (a master or an override) whose properties the occurrences it supplies have.
    public let event: Event
    /// Whether the event is a recurring master or an override, worked out once for all its occurrences.
    public let belongsToSeries: Bool
    /// A number no other shared event of the process has, before or after: a key for what is worked
    /// out once per event (`calport expand`'s templates) that, unlike an `ObjectIdentifier`, is not
    /// another event's once this one is gone.
    package let serial: Int

    private static let serials = Atomic<Int>(0)

    /// Wraps `event` for sharing among the occurrences it supplies.
    public init(_ event: Event) {
        self.event = event
        belongsToSeries = event.isRecurring || !event.recurrenceID.isNil
        serial = Self.serials.add(1, ordering: .relaxed).newValue
    }

    public static func == (lhs: SharedEvent, rhs: SharedEvent) -> Bool { lhs === rhs || lhs.event == rhs.event }

    public func hash(into hasher: inout Hasher) { hasher.combine(event) }
}
