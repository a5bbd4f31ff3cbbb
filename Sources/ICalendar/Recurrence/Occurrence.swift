import CalendarModel
import Synchronization

/// One occurrence of an event in a window: when it happens and which VEVENT's properties apply, as the
/// engine worked it out (read-only).
///
/// The UID and the three times, some 280 bytes, are kept in one shared immutable object: an occurrence
/// passes through several iterators and a heap on its way out, and moving a reference costs far less than
/// moving those bytes each time. Instants stay inline, for ordering.
public struct Occurrence: Hashable, Sendable {
    private let times: Times

    /// The series' UID.
    public var uid: String { times.uid }
    /// The start the series gives this occurrence before any override: its RECURRENCE-ID.
    public var recurrenceID: CalendarTime { times.recurrenceID }
    /// `recurrenceID` as UTC seconds.
    public let recurrenceInstant: Int
    /// When the occurrence starts, in the form of its event's DTSTART (a date, floating, UTC, or in
    /// DTSTART's zone); an override's own DTSTART when it moved the occurrence.
    public var start: CalendarTime { times.start }
    /// When it ends, exclusive: the start plus the event's length (DTEND − DTSTART exactly, or DURATION
    /// with its days on the wall clock); a day after for a date without an end, the start itself for a
    /// time without one.
    public var end: CalendarTime { times.end }
    /// `start` and `end` as UTC seconds since 1970 (floating times and dates read in the expansion's zone).
    public let startInstant: Int
    /// `end` as UTC seconds since 1970, read as ``startInstant`` is.
    public let endInstant: Int
    /// The master, or the override that replaced this occurrence, shared by all the occurrences it supplies.
    public let source: SharedEvent
    /// Whether an override (RECURRENCE-ID, possibly THISANDFUTURE) supplied this occurrence.
    public let isOverride: Bool

    /// An occurrence of `source` with these times.
    init(
        uid: String, recurrenceID: CalendarTime, recurrenceInstant: Int, start: CalendarTime, end: CalendarTime,
        startInstant: Int, endInstant: Int, source: SharedEvent, isOverride: Bool
    ) {
        times = Times(uid: uid, recurrenceID: recurrenceID, start: start, end: end)
        self.recurrenceInstant = recurrenceInstant
        self.startInstant = startInstant
        self.endInstant = endInstant
        self.source = source
        self.isOverride = isOverride
    }

    /// The large values of an occurrence, never changed once made.
    private final class Times: Hashable, Sendable {
        let uid: String
        let recurrenceID: CalendarTime
        let start: CalendarTime
        let end: CalendarTime

        init(uid: String, recurrenceID: CalendarTime, start: CalendarTime, end: CalendarTime) {
            self.uid = uid
            self.recurrenceID = recurrenceID
            self.start = start
            self.end = end
        }

        static func == (lhs: Times, rhs: Times) -> Bool {
            lhs === rhs
                || (lhs.uid, lhs.recurrenceID, lhs.start, lhs.end) == (rhs.uid, rhs.recurrenceID, rhs.start, rhs.end)
        }

        func hash(into hasher: inout Hasher) {
            hasher.combine(uid)
            hasher.combine(recurrenceID)
            hasher.combine(start)
            hasher.combine(end)
        }
    }

    /// The master, or the override that replaced this occurrence.
    public var event: Event { source.event }

    /// Whether it belongs to a series (a recurring master or an override) rather than being a single event.
    public var isInstance: Bool { source.belongsToSeries }

    /// Whether it is a whole-day occurrence.
    public var isAllDay: Bool { start.isDate }

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
        belongsToSeries = event.isRecurring || event.recurrenceID != nil
        serial = Self.serials.add(1, ordering: .relaxed).newValue
    }

    public static func == (lhs: SharedEvent, rhs: SharedEvent) -> Bool { lhs === rhs || lhs.event == rhs.event }

    public func hash(into hasher: inout Hasher) { hasher.combine(event) }
}
