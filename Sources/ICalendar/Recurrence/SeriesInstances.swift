import CalendarModel

/// One start a series' recurrence set holds, before EXDATE and overrides.
struct BaseInstance: Sendable {
    var instant: Int
    /// The start's wall-clock reading in seconds since 1970 (a date's midnight), in DTSTART's form for
    /// DTSTART and the rules' instances: no `CalendarTime` is made for those.
    var wall: Int
    /// The RDATE that supplied it; nil for DTSTART and the rules' instances.
    var date: RecurrenceDateEntry?

    /// The start as the series writes it, DTSTART being `start`.
    func time(start: CalendarTime) -> CalendarTime {
        date?.start ?? start.withLocalDateTime(LocalDateTime(secondsSinceEpoch: wall))
    }
}

/// An RDATE of a series: its instant, its start in its own form, and the length of a PERIOD, which
/// has its own end. A class, so that a base instance holds a reference at most: one of a rule, which
/// holds none, is dropped without a call. As a `(CalendarTime, OccurrenceLength?)?` in each base
/// instance, it was destroyed through value witnesses, 130 instructions an instance.
final class RecurrenceDateEntry: Sendable {
    let instant: Int
    let start: CalendarTime
    let periodLength: OccurrenceLength?

    init(instant: Int, start: CalendarTime, periodLength: OccurrenceLength?) {
        self.instant = instant
        self.start = start
        self.periodLength = periodLength
    }
}

/// The recurrence set of a master (RFC 5545 §3.8.5): DTSTART, every RRULE and every RDATE merged in
/// time order, an instant listed once however many of them produce it, minus EXRULE instances.
struct SeriesInstances: Sendable {
    private let start: CalendarTime
    private let clock: ZoneClock
    private var rules: [RecurrenceRuleIterator]
    /// Each rule's next instance as (instant, wall seconds); nil when it has no more.
    private var heads: [(instant: Int, wall: Int)?]
    /// DTSTART's instance when no rule makes the rule part of the set, until it is handed out.
    private var startOnly: (instant: Int, wall: Int)?
    private var exclusions: [RecurrenceRuleIterator]
    private var exclusionHeads: [Int?]
    /// RDATEs by instant.
    private let dates: [RecurrenceDateEntry]
    private var dateIndex = 0
    private var lastInstant = Int.min
    /// Each rule's instances read ahead, in instant order. A wall time in a gap names the instant of
    /// the wall time a gap later (§3.3.5), so in a zone with changes of offset a rule's instants can
    /// come out of wall-time order: sub-hourly steps across a spring-forward gap, BYHOUR=2,3 on its day.
    private var ahead: [InstantQueue]

    /// The set of `master`, whose DTSTART is `start`, read on `clock`. `until` converts UNTIL to a wall
    /// time on the same clock; rules without COUNT skip straight to `skipTo`, and nothing after `horizon`
    /// is produced.
    init(
        master: Event, start: CalendarTime, clock: ZoneClock, zones: ExpansionZones, skipTo: LocalDateTime,
        horizon: LocalDateTime
    ) {
        self.start = start
        self.clock = clock
        let wall = start.localDateTime
        // Without a rule, DTSTART alone is the rule part of the set.
        // Rules as RFC 5545 §3.3.10 lets them be read (RecurrenceRuleCheck, as reading applies it too):
        // BYHOUR and the like ignored on a DATE DTSTART, forbidden parts left out, meaningless rules dropped.
        let checked = { (rules: [RecurrenceRule]) in
            rules.compactMap { RecurrenceRuleCheck($0, startIsDate: start.isDate).usableRule }
        }
        let usable = checked(master.recurrenceRules)
        func iterator(_ rule: RecurrenceRule, startIsInstance: Bool) -> RecurrenceRuleIterator {
            var iterator = RecurrenceRuleIterator(
                rule: rule, start: wall,
                until: SeriesInstances.untilWall(rule.end, start: start, clock: clock, zones: zones),
                horizon: horizon, startIsInstance: startIsInstance)
            iterator.skip(to: skipTo)
            return iterator
        }
        if usable.isEmpty {
            // Most events: DTSTART alone, handed out as a rule's instance would be, with no iterator
            // made for it (that was a third of expanding a single event).
            startOnly = (clock.instant(wallSeconds: wall.secondsSinceEpoch), wall.secondsSinceEpoch)
            rules = []
        } else {
            rules = usable.map { iterator($0, startIsInstance: true) }
        }
        // An EXRULE removes DTSTART only when DTSTART is one of its own instances.
        exclusions = checked(master.exceptionRules).map { iterator($0, startIsInstance: false) }
        heads = []
        ahead = Array(repeating: InstantQueue(), count: rules.count)
        exclusionHeads = []
        dates = master.recurrenceDates.map { date in
            RecurrenceDateEntry(
                instant: zones.instant(date.start), start: date.start,
                periodLength: date.isPeriod ? OccurrenceLength(period: date, zones: zones) : nil)
        }.sorted { $0.instant < $1.instant }
        for index in rules.indices { heads.append(advance(rule: index)) }
        for index in exclusions.indices {
            exclusionHeads.append(exclusions[index].nextWallSeconds().map(clock.instant(wallSeconds:)))
        }
    }

    /// UNTIL as a wall time on the series' clock: a UTC (or other-zone) UNTIL is converted, a DATE UNTIL
    /// on a DATE-TIME series includes that whole day.
    private static func untilWall(_ end: RecurrenceEnd, start: CalendarTime, clock: ZoneClock, zones: ExpansionZones)
        -> LocalDateTime?
    {
        guard case .until(let until) = end else { return nil }
        switch until {
        case .date(let date):
            return start.isDate
                ? LocalDateTime(date: date) : LocalDateTime(date: date, hour: 23, minute: 59, second: 59)
        case .floating(let local):
            return local
        case .zoned(let local, let zone) where zone == start.timeZone:
            return local
        case .utc, .zoned:
            let wall = clock.wall(at: zones.instant(until))
            // An all-day series ends on the day UNTIL falls on.
            return start.isDate ? LocalDateTime(date: wall.date) : wall
        }
    }

    /// The rules that stopped for a reason the caller should hear of (9999-12-31, empty periods), with
    /// how many instances each gave and its COUNT.
    var unusualStops: [(stop: RecurrenceRuleIterator.Stop, produced: Int, count: Int?)] {
        rules.compactMap { rule in
            guard let stop = rule.stop, stop != .ended else { return nil }
            return (stop, rule.producedCount, rule.countLimit)
        }
    }

    private mutating func advance(rule index: Int) -> (instant: Int, wall: Int)? {
        let offsets = clock.offsetRange
        guard offsets.lowerBound < offsets.upperBound else {
            guard let wall = rules[index].nextWallSeconds() else { return nil }
            return (clock.instant(wallSeconds: wall), wall)
        }
        // Read on until no later wall time can name an earlier instant than the earliest held: every
        // wall time w' after the last one read names an instant of at least w' minus the largest offset.
        while !ahead[index].isExhausted {
            if let first = ahead[index].first, let last = ahead[index].lastWall,
                last - offsets.upperBound > first.instant
            {
                break
            }
            guard let wall = rules[index].nextWallSeconds() else {
                ahead[index].isExhausted = true
                break
            }
            ahead[index].insert((clock.instant(wallSeconds: wall), wall))
        }
        return ahead[index].popFirst()
    }

    /// The next start in time order, or nil when the set is exhausted (or past the horizon).
    mutating func next() -> BaseInstance? {
        while true {
            var best: Int?
            for index in heads.indices {
                if let head = heads[index], best.map({ head.instant < heads[$0]!.instant }) ?? true { best = index }
            }
            let ruleInstant = startOnly?.instant ?? best.map { heads[$0]!.instant }
            let candidate: BaseInstance
            // On a tie a PERIOD, which carries its own end, wins over the rule; the rule wins over a plain RDATE.
            if dateIndex < dates.count,
                ruleInstant.map({
                    dates[dateIndex].instant < $0
                        || (dates[dateIndex].instant == $0 && dates[dateIndex].periodLength != nil)
                }) ?? true
            {
                let entry = dates[dateIndex]
                dateIndex += 1
                candidate = BaseInstance(
                    instant: entry.instant, wall: entry.start.localDateTime.secondsSinceEpoch, date: entry)
            } else if let head = startOnly {
                startOnly = nil
                candidate = BaseInstance(instant: head.instant, wall: head.wall)
            } else if let best, let head = heads[best] {
                heads[best] = advance(rule: best)
                candidate = BaseInstance(instant: head.instant, wall: head.wall)
            } else {
                return nil
            }
            // An RDATE equal to a rule instance is one instance (RFC 5545 §3.8.5.2: a set has no duplicates).
            if candidate.instant == lastInstant { continue }
            lastInstant = candidate.instant
            if isExcluded(candidate.instant) { continue }
            return candidate
        }
    }

    private mutating func isExcluded(_ instant: Int) -> Bool {
        var excluded = false
        for index in exclusionHeads.indices {
            while let head = exclusionHeads[index], head < instant {
                exclusionHeads[index] = exclusions[index].nextWallSeconds().map(clock.instant(wallSeconds:))
            }
            if exclusionHeads[index] == instant { excluded = true }
        }
        return excluded
    }
}

/// A rule's instances read ahead of the one handed out, kept in instant order: they nearly always
/// arrive in order, so an insertion is nearly always an append.
struct InstantQueue: Sendable {
    private var items: [(instant: Int, wall: Int)] = []
    private var head = 0
    /// The wall time of the instance read last.
    private(set) var lastWall: Int?
    /// Whether the rule has no more instances to read.
    var isExhausted = false

    var first: (instant: Int, wall: Int)? { head < items.count ? items[head] : nil }

    mutating func insert(_ item: (instant: Int, wall: Int)) {
        lastWall = item.wall
        var index = items.count
        while index > head, items[index - 1].instant > item.instant { index -= 1 }
        items.insert(item, at: index)
    }

    mutating func popFirst() -> (instant: Int, wall: Int)? {
        guard head < items.count else { return nil }
        defer {
            head += 1
            // Handed-out items are dropped in blocks, so that a pop costs no shift of the array.
            if head >= 256, head * 2 >= items.count {
                items.removeFirst(head)
                head = 0
            }
        }
        return items[head]
    }
}

extension RecurrenceDate {
    /// Whether the entry is a PERIOD rather than a bare start.
    var isPeriod: Bool {
        if case .time = self { return false }
        return true
    }
}
