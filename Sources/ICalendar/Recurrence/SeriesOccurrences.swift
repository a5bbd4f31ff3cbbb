import CalendarModel

/// The occurrences of one series (a master and its overrides) that overlap a window, produced lazily in
/// start order.
///
/// RRULE, RDATE (PERIODs keep their own end) and DTSTART make the set; EXDATE removes from it, compared as
/// instants, or by day for a DATE EXDATE on a DATE-TIME series; an override replaces the occurrence its
/// RECURRENCE-ID names (RANGE=THISANDFUTURE: that one and every later one, shifted as the override
/// shifts its own), wherever either lies, and a cancelled override removes it.
public struct SeriesOccurrences: IteratorProtocol, Sequence, Sendable {
    private let window: ExpansionWindow
    private let zones: ExpansionZones
    private let cap: Int?
    private let uid: String
    private let plan: MasterPlan?
    /// The master's recurrence set, read as far as the window needs; nil once exhausted.
    private var instances: SeriesInstances?
    /// Overrides of single occurrences that overlap the window, in start order.
    private let movedIn: [Occurrence]
    private var movedInIndex = 0
    private var masterHead: Occurrence?
    private var produced = 0
    private var finished = false
    /// Problems met: the occurrence cap, a master without DTSTART, rules not expanded.
    public private(set) var diagnostics: [Diagnostic] = []

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
        var replaced = ReplacedOccurrences()
        let masterIsDate = series.master?.start?.isDate ?? false
        for override in series.overrides {
            guard let id = override.recurrenceID else { continue }
            if id.time.isDate != masterIsDate {
                replaced.days.insert(id.time.date)
            } else {
                replaced.instants.insert(zones.instant(id.time))
            }
            if override.status == .cancelled { continue }
            let start = override.start ?? id.time
            let shared = SharedEvent(override)
            let length = OccurrenceLength(event: override, start: start, zones: zones)
            if id.thisAndFuture {
                let shift = start.localDateTime.secondsSinceEpoch - id.time.localDateTime.secondsSinceEpoch
                ranges.append(
                    RangeOverride(
                        instant: zones.instant(id.time), shift: shift, event: shared, start: start,
                        length: length))
            }
            let startInstant = zones.instant(start)
            let (end, endInstant) = length.end(from: start, at: startInstant, zones: zones)
            if window.overlaps(start: startInstant, end: endInstant) {
                moved.append(
                    Occurrence(
                        uid: series.uid, recurrenceID: id.time, recurrenceInstant: zones.instant(id.time), start: start,
                        end: end, startInstant: startInstant, endInstant: endInstant, source: shared,
                        isOverride: true))
            }
        }
        movedIn = moved.sorted { $0.startInstant < $1.startInstant }
        guard var master = series.master, let start = master.start else {
            if !series.master.isNil {
                diagnostics.append(
                    Diagnostic(
                        .error, code: "missing-dtstart",
                        message: "series master has no DTSTART; only its overrides are listed", uid: series.uid))
            }
            plan = nil
            return
        }
        let length = OccurrenceLength(event: master, start: start, zones: zones)
        // RFC 5545 §3.3.5 writes years with four digits: an end beyond 9999 is not a time, only an overflow.
        guard length.maximumSeconds < OccurrenceLength.longestSeconds else {
            diagnostics.append(
                Diagnostic(
                    .error, code: "invalid-duration",
                    message: "the event lasts longer than a DATE-TIME can express; its occurrences are left out",
                    uid: series.uid))
            plan = nil
            return
        }
        if let unsupported = master.recurrenceRules.first(where: { !$0.isGregorian }) {
            // RFC 7529 calendars other than the Gregorian are not computed; DTSTART stays the first instance.
            master.recurrenceRules.removeAll { !$0.isGregorian }
            diagnostics.append(
                Diagnostic(
                    .warning, code: "unsupported-rscale",
                    message:
                        "RRULE with RSCALE=\(unsupported.scale) or SKIP (RFC 7529) is not expanded; DTSTART and RDATEs are listed",
                    uid: series.uid))
        }
        let plan = MasterPlan(
            master: master, start: start, length: length, replaced: replaced, ranges: ranges, window: window,
            zones: zones)
        self.plan = plan
        instances = SeriesInstances(
            master: master, start: start, clock: plan.clock, zones: zones,
            skipTo: plan.clock.wall(at: plan.earliestUseful), horizon: plan.clock.wall(at: plan.stopInstant + 86_400))
    }

    public mutating func next() -> Occurrence? {
        guard !finished else { return nil }
        if masterHead.isNil {
            // With no occurrence moved in still to come, the master's next is handed on as it comes,
            // not held: an optional occurrence stored and taken back goes through value witnesses,
            // 130 instructions an occurrence.
            guard movedInIndex < movedIn.count else {
                guard let occurrence = nextFromMaster() else {
                    finished = true
                    return nil
                }
                return producing() ? occurrence : nil
            }
            masterHead = nextFromMaster()
        }
        // Occurrences are moved out of their slots, never copied: they are large values.
        let headStart = masterHead?.startInstant
        let fromMovedIn =
            movedInIndex < movedIn.count && (headStart.map { movedIn[movedInIndex].startInstant <= $0 } ?? true)
        guard fromMovedIn || headStart != nil else {
            finished = true
            return nil
        }
        guard producing() else { return nil }
        guard fromMovedIn else { return masterHead.take() }
        movedInIndex += 1
        return movedIn[movedInIndex - 1]
    }

    /// Counts one more occurrence handed on; false, the series finished and the cap reported, when
    /// the cap is reached.
    private mutating func producing() -> Bool {
        if let cap, produced >= cap {
            finished = true
            diagnostics.append(
                Diagnostic(
                    .warning, code: "occurrence-cap",
                    message:
                        "stopped after \(cap) occurrences in the window; later ones were left out (raise the cap to list them)",
                    uid: uid))
            return false
        }
        produced += 1
        return true
    }

    /// The next master occurrence that survives EXDATE and overrides and overlaps the window.
    private mutating func nextFromMaster() -> Occurrence? {
        guard let stop = plan?.stopInstant else { return nil }
        // `instances` is advanced in place through optional chaining, so its buffers are never copied.
        while let base = instances?.next() {
            if base.instant > stop { break }
            guard let occurrence = plan?.occurrence(for: base, zones: zones) else { continue }
            // RFC 5545 §3.3.4 writes four-digit years: an occurrence ending after 9999-12-31 cannot be written.
            if occurrence.endWall >= Self.year10000 {
                report(
                    "beyond-year-9999",
                    "an occurrence starting \(DateTimeText.format(occurrence.start)) ends after 9999-12-31, the last day iCalendar can write; it and any later ones are left out"
                )
                break
            }
            if window.overlaps(start: occurrence.startInstant, end: occurrence.endInstant) { return occurrence }
        }
        for (reason, produced, count) in instances?.unusualStops ?? [] {
            let short = count.map { " after \(produced) of its COUNT=\($0) instances" } ?? ""
            switch reason {
            case .endOfCalendar:
                report(
                    "beyond-year-9999",
                    "the rule reaches 9999-12-31, the last day iCalendar can write, and stops there\(short)")
            case .emptyPeriods:
                report(
                    "rule-produces-nothing",
                    "no instance in \(RecurrenceRuleIterator.emptyPeriodLimit) consecutive periods of the rule; expansion stopped\(short)"
                )
            case .ended: break
            }
        }
        instances = nil
        return nil
    }

    /// 10000-01-01 as wall-clock seconds since 1970: an end there or later is past 9999-12-31.
    private static let year10000 = CalendarDate(year: 10_000, month: 1, day: 1).daysSinceEpoch * 86_400

    private mutating func report(_ code: String, _ message: String) {
        guard !diagnostics.contains(where: { $0.code == code }) else { return }
        diagnostics.append(Diagnostic(.warning, code: code, message: message, uid: uid))
    }
}
