import CalendarModel

/// RDATE periods (`RDATE;VALUE=PERIOD:19970101T180000Z/PT5H`) written in the form every reader
/// takes: the start as a DATE-TIME RDATE and, where the period lasts otherwise than the event, an
/// override VEVENT for that occurrence (RECURRENCE-ID its start, DTEND or DURATION the period's).
///
/// RFC 5545 §3.8.5.2 allows periods, but Radicale (vobject 0.9.9) refuses any object holding one,
/// khal 0.10.5 crashes on it and imports nothing, and vobject's expansion skips it; an override is
/// read by all of them and by libical and Python icalendar alike, and it means the same occurrence
/// (§3.8.4.4). A period of dates, which §3.3.9 does not allow, is written as read: calport does not
/// guess the time it meant.
struct RecurrencePeriodSplit {
    /// The event with each period's start as a DATE-TIME RDATE.
    var master: Event
    /// One override per period whose length is not the event's own.
    var overrides: [Event]

    /// Whether `event` is a master with a period of times to split.
    static func applies(to event: Event) -> Bool {
        event.recurrenceID.isNil && event.recurrenceDates.contains { periodEnd(of: $0) != nil }
    }

    /// The split of `event`; nil when it has no period with a time to split. Borrowed: most events
    /// have none, and are not copied to be asked.
    init?(_ event: borrowing Event) {
        guard Self.applies(to: event) else { return nil }
        master = copy event
        overrides = []
        for (index, date) in event.recurrenceDates.enumerated() {
            guard let end = Self.periodEnd(of: date) else { continue }
            master.recurrenceDates[index] = .time(date.start)
            // One override an occurrence: a period listed twice is one instance (§3.8.5.3), the first wins.
            if end != event.end, !overrides.contains(where: { $0.start == date.start }) {
                overrides.append(Self.override(of: event, at: date.start, ending: end))
            }
        }
    }

    /// `events` with every period split, each override after its master, none for an occurrence
    /// the events override themselves; `events` itself when none has a period to split.
    static func splitting(_ events: [Event]) -> [Event] {
        guard events.contains(where: Self.applies) else { return events }
        let overridden = Set(events.lazy.compactMap(OverrideKey.init))
        var split: [Event] = []
        var made = SplitCopies()
        split.reserveCapacity(events.count)
        for event in events {
            guard let parts = Self(event) else {
                split.append(event)
                continue
            }
            if made.insert(parts.master) { split.append(parts.master) }
            split += parts.overrides.filter { OverrideKey($0).map(overridden.contains) == false && made.insert($0) }
        }
        return split
    }

    /// How a period entry ends, when it is a period of times; nil for a plain time and for a period
    /// of dates.
    private static func periodEnd(of date: RecurrenceDate) -> EventEnd? {
        switch date {
        case .time: return nil
        case .period(let start, let end):
            guard !start.isDate, !end.isDate else { return nil }
            return .end(end)
        case .periodWithDuration(let start, let duration):
            guard !start.isDate else { return nil }
            return .duration(duration)
        }
    }

    /// The occurrence at `start` as an override: the master's properties, its own times, no
    /// recurrence of its own.
    private static func override(of event: Event, at start: CalendarTime, ending end: EventEnd) -> Event {
        var occurrence = event
        occurrence.recurrenceID = RecurrenceIdentifier(time: start)
        occurrence.start = start
        occurrence.end = end
        occurrence.recurrenceRules = []
        occurrence.exceptionRules = []
        occurrence.recurrenceDates = []
        occurrence.exceptionDates = []
        for name in ["RRULE", "EXRULE", "RDATE", "EXDATE", "DTSTART", "DTEND", "DURATION"] {
            occurrence.propertyParameters[name] = nil
        }
        return occurrence
    }
}

/// The masters and overrides made by splitting periods so far. Two versions of one master that
/// tie (different, so both kept, as `EventVersions` keeps them) can be the same once split: the
/// same master when they differed only in the periods' ends, the same override when they share a
/// period. Written twice, the copies would be read back as one, so a copy of one made is left out.
/// Only split events are held, a few in most calendars.
struct SplitCopies {
    private var made: [Key: [Event]] = [:]

    private struct Key: Hashable {
        var uid: String
        var recurrenceID: CalendarTime?
    }

    /// Whether `event` is new (and now noted), false for a copy of one made.
    mutating func insert(_ event: Event) -> Bool {
        let key = Key(uid: event.uid, recurrenceID: event.recurrenceID?.time)
        if made[key]?.contains(event) == true { return false }
        made[key, default: []].append(event)
        return true
    }

    /// Notes the copies `other` made too.
    mutating func merge(_ other: SplitCopies) {
        made.merge(other.made) { mine, theirs in mine + theirs.filter { !mine.contains($0) } }
    }

    /// Forgets the override made for `key`.
    mutating func remove(_ key: OverrideKey) { made[Key(uid: key.uid, recurrenceID: key.time)] = nil }

    /// Whether an override is held for `key`.
    func holds(_ key: OverrideKey) -> Bool { made[Key(uid: key.uid, recurrenceID: key.time)] != nil }
}

/// The (UID, RECURRENCE-ID) of an override, to tell a written one from one calport would add.
struct OverrideKey: Hashable {
    var uid: String
    var time: CalendarTime

    init?(_ event: borrowing Event) {
        guard let identifier = event.recurrenceID else { return nil }
        uid = event.uid
        time = identifier.time
    }
}
