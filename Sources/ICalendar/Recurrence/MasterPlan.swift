import CalendarModel

/// What turning a master's recurrence set into occurrences needs, fixed before iteration starts: EXDATE,
/// the instants overrides replace, THISANDFUTURE ranges, the length, and how far the set must be read.
///
/// A class, immutable once made, so that consulting it for every occurrence never copies it.
final class MasterPlan: Sendable {
    let uid: String
    let event: SharedEvent
    /// DTSTART, whose form the rules' instances have. `forms.start` too, but read from there it is
    /// copied for every occurrence (some 240 instructions an NDJSON occurrence); from here it is lent.
    let start: CalendarTime
    let length: OccurrenceLength
    /// The forms of the rules' instances' times, made once for all of them.
    let forms: OccurrenceForms
    let clock: ZoneClock
    let exceptInstants: Set<Int>
    let exceptDays: Set<CalendarDate>
    let replaced: ReplacedOccurrences
    /// THISANDFUTURE overrides, by RECURRENCE-ID instant ascending.
    let ranges: [RangeOverride]
    /// Base instances before `earliestUseful` cannot reach the window, nor any after `stopInstant`.
    let earliestUseful: Int
    let stopInstant: Int

    /// A plan for `master` (whose DTSTART is `start`) in `window`, given its overrides.
    init(
        master: Event, start: CalendarTime, length: OccurrenceLength, replaced: ReplacedOccurrences,
        ranges: [RangeOverride], window: ExpansionWindow, zones: ExpansionZones
    ) {
        uid = master.uid
        event = SharedEvent(master)
        self.start = start
        self.length = length
        forms = OccurrenceForms(
            uid: uid, recurrenceID: start, start: start,
            end: length.end(from: start, at: zones.instant(start), zones: zones).0, areExact: false)
        clock = zones.clock(for: start)
        self.replaced = replaced
        self.ranges = ranges.sorted { $0.instant < $1.instant }
        let longest = ([length.maximumSeconds] + ranges.map(\.length.maximumSeconds)).max() ?? 0
        let earliestShift = Swift.min(0, ranges.map(\.shift).min() ?? 0)
        let latestShift = Swift.max(0, ranges.map(\.shift).max() ?? 0)
        // A day of slack covers offsets between the wall clock and UTC either way.
        earliestUseful = window.start - longest - latestShift - 86_400
        stopInstant = window.end - earliestShift + 86_400
        var instants: Set<Int> = []
        var days: Set<CalendarDate> = []
        for date in master.exceptionDates {
            // A DATE EXDATE on a DATE-TIME series (as Exchange writes them) removes that day's occurrence.
            if date.isDate || start.isDate { days.insert(date.date) } else { instants.insert(zones.instant(date)) }
        }
        exceptInstants = instants
        exceptDays = days
    }

    /// The occurrence a base instance becomes; nil when EXDATE or an override removes it or it ends too
    /// early to matter.
    func occurrence(for base: BaseInstance, zones: ExpansionZones) -> Occurrence? {
        guard base.instant >= earliestUseful, !replaced.instants.contains(base.instant),
            !exceptInstants.contains(base.instant)
        else { return nil }
        if !exceptDays.isEmpty || !replaced.days.isEmpty {
            let day = clock.wall(at: base.instant).date
            if exceptDays.contains(day) || replaced.days.contains(day) { return nil }
        }
        if let range = ranges.last(where: { $0.instant <= base.instant }) {
            let time = base.time(start: start)
            let start = range.start.withLocalDateTime(time.localDateTime.adding(seconds: range.shift))
            let startInstant = zones.instant(start)
            let (end, endInstant) = range.length.end(from: start, at: startInstant, zones: zones)
            return Occurrence(
                uid: uid, recurrenceID: time, recurrenceInstant: base.instant, start: start, end: end,
                startInstant: startInstant, endInstant: endInstant, source: range.event, isOverride: true)
        }
        if let date = base.date {
            let (end, endInstant) = (date.periodLength ?? length).end(from: date.start, at: base.instant, zones: zones)
            return Occurrence(
                uid: uid, recurrenceID: date.start, recurrenceInstant: base.instant, start: date.start, end: end,
                startInstant: base.instant, endInstant: endInstant, source: event, isOverride: false)
        }
        let end = length.endWall(fromWall: base.wall, at: base.instant, startForm: start, zones: zones)
        return Occurrence(
            forms: forms, recurrenceWall: base.wall, recurrenceInstant: base.instant, startWall: base.wall,
            startInstant: base.instant, endWall: end.wall, endInstant: end.instant, source: event, isOverride: false)
    }
}

/// The occurrences overrides name, by instant, or by day where RECURRENCE-ID is a DATE on a DATE-TIME
/// series (or the reverse).
struct ReplacedOccurrences: Sendable {
    var instants: Set<Int> = []
    var days: Set<CalendarDate> = []
}

/// A RANGE=THISANDFUTURE override: from its RECURRENCE-ID on, occurrences take its properties, its
/// length and its shift of the wall-clock start (RFC 5545 §3.8.4.4).
struct RangeOverride: Sendable {
    var instant: Int
    var shift: Int
    var event: SharedEvent
    var start: CalendarTime
    var length: OccurrenceLength
}
