import CalendarModel

/// The occurrences of one series (a master and its overrides) that overlap a window, produced lazily in
/// start order.
///
/// RRULE, RDATE (PERIODs keep their own end) and DTSTART make the set; EXDATE removes from it, compared as
/// instants, or by day for a DATE EXDATE on a DATE-TIME series; an override replaces the occurrence its
/// RECURRENCE-ID names (RANGE=THISANDFUTURE: that one and every later one, shifted as the override
/// shifts its own), wherever either lies, and a cancelled override removes it.
public struct SeriesOccurrences: IteratorProtocol, Sequence, Sendable {
    private let uid: String
    private let window: ExpansionWindow
    private let zones: ExpansionZones
    private let cap: Int?
    private var master: MasterState?
    /// Overrides of single occurrences that overlap the window, in start order.
    private let movedIn: [Occurrence]
    private var movedInIndex = 0
    private var masterHead: Occurrence?
    private var produced = 0
    private var finished = false
    /// Problems met: the occurrence cap, a master without DTSTART.
    public private(set) var diagnostics: [Diagnostic] = []

    /// What iterating the master needs.
    private struct MasterState: Sendable {
        var event: Event
        var start: CalendarTime
        var instances: SeriesInstances
        var length: OccurrenceLength
        var exceptInstants: Set<Int>
        var exceptDays: Set<CalendarDate>
        var clock: ZoneClock
        /// Overrides by the instant (or, across DATE and DATE-TIME, the day) of their RECURRENCE-ID.
        var replacedInstants: Set<Int>
        var replacedDays: Set<CalendarDate>
        /// THISANDFUTURE overrides, by RECURRENCE-ID instant ascending.
        var ranges: [RangeOverride]
        /// Base instances after this instant cannot reach the window.
        var stopInstant: Int
        var earliestUseful: Int
    }

    /// A RANGE=THISANDFUTURE override: from its RECURRENCE-ID on, occurrences take its properties,
    /// its length and its shift of the wall-clock start.
    private struct RangeOverride: Sendable {
        var instant: Int
        var shift: Int
        var event: Event
        var start: CalendarTime
        var length: OccurrenceLength
    }

    /// The occurrences of `series` overlapping `window`, reading times with `zones`.
    public init(
        series: EventSeries, window: ExpansionWindow, zones: ExpansionZones, options: ExpansionOptions = .init()
    ) {
        uid = series.uid
        self.window = window
        self.zones = zones
        cap = options.maximumOccurrencesPerSeries
        var moved: [Occurrence] = []
        var ranges: [RangeOverride] = []
        var replacedInstants: Set<Int> = []
        var replacedDays: Set<CalendarDate> = []
        let masterIsDate = series.master?.start?.isDate ?? false
        for override in series.overrides {
            guard let id = override.recurrenceID else { continue }
            if id.time.isDate != masterIsDate {
                replacedDays.insert(id.time.date)
            } else {
                replacedInstants.insert(zones.instant(id.time))
            }
            if override.status == .cancelled { continue }
            let start = override.start ?? id.time
            let length = OccurrenceLength(event: override, start: start, zones: zones)
            if id.thisAndFuture {
                let shift = start.localDateTime.secondsSinceEpoch - id.time.localDateTime.secondsSinceEpoch
                ranges.append(
                    RangeOverride(
                        instant: zones.instant(id.time), shift: shift, event: override, start: start, length: length))
            }
            let startInstant = zones.instant(start)
            let (end, endInstant) = length.end(from: start, at: startInstant, zones: zones)
            if window.overlaps(start: startInstant, end: endInstant) {
                moved.append(
                    Occurrence(
                        uid: series.uid, recurrenceID: id.time, recurrenceInstant: zones.instant(id.time), start: start,
                        end: end, startInstant: startInstant,
                        endInstant: endInstant, event: override, isOverride: true))
            }
        }
        movedIn = moved.sorted { $0.startInstant < $1.startInstant }
        guard var master = series.master else { return }
        guard let start = master.start else {
            diagnostics.append(
                Diagnostic(
                    .error, code: "missing-dtstart",
                    message: "series master has no DTSTART; only its overrides are listed",
                    uid: series.uid))
            return
        }
        let clock = zones.clock(for: start)
        let length = OccurrenceLength(event: master, start: start, zones: zones)
        // RFC 5545 §3.3.5 writes years with four digits: an end beyond 9999 is not a time, only an overflow.
        guard length.maximumSeconds < OccurrenceLength.longestSeconds else {
            diagnostics.append(
                Diagnostic(
                    .error, code: "invalid-duration",
                    message: "the event lasts longer than a DATE-TIME can express; its occurrences are left out",
                    uid: series.uid))
            return
        }
        let unsupported = master.recurrenceRules.filter { !$0.isGregorian }
        if !unsupported.isEmpty {
            // RFC 7529 calendars other than the Gregorian are not computed; DTSTART stays the first instance.
            master.recurrenceRules.removeAll { !$0.isGregorian }
            diagnostics.append(
                Diagnostic(
                    .warning, code: "unsupported-rscale",
                    message:
                        "RRULE with RSCALE=\(unsupported[0].scale) or SKIP (RFC 7529) is not expanded; DTSTART and RDATEs are listed",
                    uid: series.uid))
        }
        let longest = ([length.maximumSeconds] + ranges.map(\.length.maximumSeconds)).max() ?? 0
        let earliestShift = Swift.min(0, ranges.map(\.shift).min() ?? 0)
        let latestShift = Swift.max(0, ranges.map(\.shift).max() ?? 0)
        // A day of slack covers offsets between the wall clock and UTC either way.
        let earliestUseful = window.start - longest - latestShift - 86_400
        let stopInstant = window.end - earliestShift + 86_400
        var exceptInstants: Set<Int> = []
        var exceptDays: Set<CalendarDate> = []
        for date in master.exceptionDates {
            // A DATE EXDATE on a DATE-TIME series (as Exchange writes them) removes that day's occurrence.
            if date.isDate || start.isDate {
                exceptDays.insert(date.date)
            } else {
                exceptInstants.insert(zones.instant(date))
            }
        }
        self.master = MasterState(
            event: master, start: start,
            instances: SeriesInstances(
                master: master, start: start, clock: clock, zones: zones, skipTo: clock.wall(at: earliestUseful),
                horizon: clock.wall(at: stopInstant + 86_400)),
            length: length, exceptInstants: exceptInstants, exceptDays: exceptDays, clock: clock,
            replacedInstants: replacedInstants, replacedDays: replacedDays,
            ranges: ranges.sorted { $0.instant < $1.instant }, stopInstant: stopInstant, earliestUseful: earliestUseful)
    }

    public mutating func next() -> Occurrence? {
        guard !finished else { return nil }
        if masterHead == nil { masterHead = nextFromMaster() }
        let nextOccurrence: Occurrence
        if movedInIndex < movedIn.count,
            masterHead.map({ movedIn[movedInIndex].startInstant <= $0.startInstant }) ?? true
        {
            nextOccurrence = movedIn[movedInIndex]
            movedInIndex += 1
        } else if let head = masterHead {
            nextOccurrence = head
            masterHead = nil
        } else {
            finished = true
            return nil
        }
        if let cap, produced >= cap {
            finished = true
            diagnostics.append(
                Diagnostic(
                    .warning, code: "occurrence-cap",
                    message:
                        "stopped after \(cap) occurrences in the window; later ones were left out (raise the cap to list them)",
                    uid: uid))
            return nil
        }
        produced += 1
        return nextOccurrence
    }

    /// The next master occurrence that survives EXDATE and overrides and overlaps the window.
    private mutating func nextFromMaster() -> Occurrence? {
        guard var state = master else { return nil }
        // Moved out while iterating so that its buffers are not copied on write.
        master = nil
        while let base = state.instances.next() {
            if base.instant > state.stopInstant { break }
            if base.instant < state.earliestUseful { continue }
            if state.replacedInstants.contains(base.instant) { continue }
            if !state.exceptInstants.isEmpty && state.exceptInstants.contains(base.instant) { continue }
            if !state.exceptDays.isEmpty || !state.replacedDays.isEmpty {
                let day = state.clock.wall(at: base.instant).date
                if state.exceptDays.contains(day) || state.replacedDays.contains(day) { continue }
            }
            let occurrence = makeOccurrence(base, state: state)
            if window.overlaps(start: occurrence.startInstant, end: occurrence.endInstant) {
                master = state
                return occurrence
            }
        }
        return nil
    }

    private func makeOccurrence(_ base: BaseInstance, state: MasterState) -> Occurrence {
        if let range = state.ranges.last(where: { $0.instant <= base.instant }) {
            let start = range.start.withLocalDateTime(base.time.localDateTime.adding(seconds: range.shift))
            let startInstant = zones.instant(start)
            let (end, endInstant) = range.length.end(from: start, at: startInstant, zones: zones)
            return Occurrence(
                uid: uid, recurrenceID: base.time, recurrenceInstant: base.instant, start: start, end: end,
                startInstant: startInstant,
                endInstant: endInstant, event: range.event, isOverride: true)
        }
        let length = base.period.map { OccurrenceLength(period: $0, zones: zones) } ?? state.length
        let (end, endInstant) = length.end(from: base.time, at: base.instant, zones: zones)
        return Occurrence(
            uid: uid, recurrenceID: base.time, recurrenceInstant: base.instant, start: base.time, end: end,
            startInstant: base.instant,
            endInstant: endInstant, event: state.event, isOverride: false)
    }
}
