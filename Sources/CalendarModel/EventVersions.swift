/// Versions of one event: components with the same UID and RECURRENCE-ID are one event (RFC 5545
/// §3.8.4.7, §3.8.4.4), of which a calendar shows the newest, as Google, Outlook and Python
/// icalendar's peers do.
public enum EventVersions {
    /// Whether `candidate` is a newer version than `kept`: the higher SEQUENCE (RFC 5545 §3.8.7.4,
    /// none counting as 0), then the later LAST-MODIFIED, then the later DTSTAMP; on a tie, `kept` stays.
    public static func isNewer(_ candidate: Event, than kept: Event) -> Bool {
        let (new, old) = (candidate.sequence ?? 0, kept.sequence ?? 0)
        if new != old { return new > old }
        if let order = later(candidate.lastModified, kept.lastModified) { return order }
        return later(candidate.timestamp, kept.timestamp) ?? false
    }

    /// Whether `a` is later than `b`, nil when they are equal or either is missing. Both are UTC
    /// in practice (RFC 5545 §3.8.7.2, §3.8.7.3 require it), so wall times compare.
    private static func later(_ a: CalendarTime?, _ b: CalendarTime?) -> Bool? {
        guard let a, let b, a.localDateTime != b.localDateTime else { return nil }
        return a.localDateTime > b.localDateTime
    }

    /// Two versions of one event met in reading: `earlier` and `later` index the events given to
    /// `resolve`; `kept` is the one kept, nil when neither is newer (the same SEQUENCE,
    /// LAST-MODIFIED and DTSTAMP) and both are kept, for their reader to report.
    public struct Conflict: Hashable, Sendable {
        /// The version met first.
        public var earlier: Int
        /// The version met second.
        public var later: Int
        /// The version kept of the two, nil when both are.
        public var kept: Int?
    }

    /// Which of `events` are kept, by index in input order (each event at the place of its first
    /// version), and the conflicts that need a warning; identical copies need none.
    public static func resolve(_ events: [Event]) -> (kept: [Int], conflicts: [Conflict]) {
        var kept: [Int?] = []
        kept.reserveCapacity(events.count)
        // Where in `kept` each event's first version is, and the others while versions tie; a
        // newer version then replaces them all, so that reading the result again keeps the same
        // events. (Each event's positions in an array of their own, grown with the table, were
        // 2,000 instructions of each event read whole.)
        var slots: [Key: Int] = [:]
        slots.reserveCapacity(events.count)
        var ties: [Int: [Int]] = [:]
        var conflicts: [Conflict] = []
        for (index, event) in events.enumerated() {
            let key = Key(event)
            // One hash of the key for a first version (a lookup, then an insert, hashed it twice).
            guard let first = slots.updateValue(kept.count, forKey: key), !event.uid.isEmpty else {
                kept.append(index)
                continue
            }
            slots[key] = first
            let positions = [first] + (ties[first] ?? [])
            let current = positions.compactMap { kept[$0] }
            guard !current.contains(where: { events[$0] == event }), let head = current.first else { continue }
            if isNewer(event, than: events[head]) {
                for position in positions {
                    if let old = kept[position] { conflicts.append(Conflict(earlier: old, later: index, kept: index)) }
                    kept[position] = nil
                }
                kept[first] = index
                ties[first] = nil
            } else if isNewer(events[head], than: event) {
                conflicts.append(Conflict(earlier: head, later: index, kept: head))
            } else {
                conflicts.append(Conflict(earlier: head, later: index, kept: nil))
                ties[first, default: []].append(kept.count)
                kept.append(index)
            }
        }
        return (kept.compactMap { $0 }, conflicts)
    }

    /// The warning for a conflict, naming where both versions are and which was kept.
    public static func diagnostic(
        _ conflict: Conflict, of event: Event, earlier: SourceLocation, later: SourceLocation
    ) -> Diagnostic {
        let instance = event.recurrenceID.map { " (RECURRENCE-ID \(text($0.time)))" } ?? ""
        let outcome =
            conflict.kept.map { kept in
                "the one at \(kept == conflict.earlier ? earlier : later) was kept "
                    + "(higher SEQUENCE, then later LAST-MODIFIED, then DTSTAMP)"
            } ?? "neither is newer (the same SEQUENCE, LAST-MODIFIED and DTSTAMP), so both were kept"
        return Diagnostic(
            .warning, code: "duplicate-version",
            message: "UID \(event.uid)\(instance) has two versions, at \(earlier) and \(later); \(outcome)",
            location: later, uid: event.uid)
    }

    /// Whether two of `events` are versions of one event (the same UID and RECURRENCE-ID).
    package static func includeTwoVersions(_ events: [Event]) -> Bool {
        var keys = Set<Key>()
        return events.contains { !keys.insert(Key($0)).inserted }
    }

    /// `events` with one version of each event, at the place of its first version, and the
    /// location of each version kept. Identical copies merge silently; different ones with a warning
    /// naming both places (`locations`, one for each event) and the version kept.
    public static func merge(
        _ events: [Event], locations: [SourceLocation]
    ) -> (events: [Event], diagnostics: [Diagnostic], locations: [SourceLocation]) {
        let (kept, conflicts) = resolve(events)
        let place = { (index: Int) in index < locations.count ? locations[index] : SourceLocation() }
        let diagnostics = conflicts.map { conflict in
            diagnostic(
                conflict, of: events[conflict.later], earlier: place(conflict.earlier), later: place(conflict.later))
        }
        // Every event kept is every event in order (a version dropped makes the list shorter), and
        // the array is handed back as it is rather than built again.
        let keptEvents = kept.count == events.count ? events : kept.map { events[$0] }
        return (keptEvents, diagnostics, kept.map(place))
    }

    /// A time as `2026-01-05 10:00:00`, for messages.
    private static func text(_ time: CalendarTime) -> String {
        func pad(_ value: Int, _ width: Int) -> String {
            String(repeating: "0", count: max(0, width - String(value).count)) + String(value)
        }
        let local = time.localDateTime
        let day = "\(pad(local.date.year, 4))-\(pad(local.date.month, 2))-\(pad(local.date.day, 2))"
        if case .date = time { return day }
        return day + " \(pad(local.hour, 2)):\(pad(local.minute, 2)):\(pad(local.second, 2))"
    }

    /// What tells an event's versions apart: its UID and RECURRENCE-ID.
    package struct Key: Hashable {
        package var uid: String
        package var recurrenceID: CalendarTime?

        package init(_ event: Event) {
            uid = event.uid
            recurrenceID = event.recurrenceID?.time
        }
    }
}
