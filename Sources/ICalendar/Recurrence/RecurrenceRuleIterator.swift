import CalendarModel

/// The wall times one RRULE produces from its DTSTART, in order and lazily (RFC 5545 §3.3.10).
///
/// Works on the wall clock only: zones, RDATE, EXDATE and overrides are the series' business. DTSTART
/// is always the first instance and counts towards COUNT (§3.8.5.3); invalid dates such as February 30
/// are never produced. Each period (year, month, week, day, hour, minute or second, every INTERVAL) is
/// expanded on its own and BYSETPOS picks from it, so memory stays one period's worth.
public struct RecurrenceRuleIterator: IteratorProtocol, Sequence, Sendable {
    /// Why an iterator produced no more instances.
    public enum Stop: Hashable, Sendable {
        /// COUNT instances were produced, UNTIL was passed, or the caller's horizon was reached.
        case ended
        /// The rule was still short of its COUNT at 9999-12-31, the last day iCalendar can write.
        case endOfCalendar
        /// `emptyPeriodLimit` periods in a row held no instance: a rule such as
        /// `FREQ=SECONDLY;BYSECOND=1;BYSETPOS=2` that can never produce one is not searched for ever.
        case emptyPeriods
    }

    /// How many consecutive empty periods end the search for the next instance. The sparsest rules
    /// that do produce (29 February on a Monday, FREQ=SECONDLY on one second a day) leave far fewer.
    public static let emptyPeriodLimit = 100_000
    /// The last wall time iCalendar can write (RFC 5545 §3.3.4: four-digit years).
    static let lastWritable = LocalDateTime(year: 9999, month: 12, day: 31, hour: 23, minute: 59, second: 59)

    private let plan: RulePlan
    private let start: Int
    private let count: Int?
    /// The last wall time (as seconds) the rule may produce: UNTIL, read on DTSTART's wall clock.
    private let until: Int?
    /// Periods starting after this wall time are not expanded: the caller needs nothing later.
    private let horizon: Int
    /// Where periods are counted from: DTSTART's year, month, week, day, hour, minute or second.
    private let periodBase: Int
    private var periodIndex = 0
    private var pending: [Int] = []
    private var pendingIndex = 0
    private var dayBuffer: [Int] = []
    private var produced = 0
    private var startDone = false
    private var finished = false
    /// Whether DTSTART is an instance whatever the rule says: true for RRULE (§3.8.5.1), false for
    /// EXRULE, whose instances are only those the rule itself gives.
    private let startIsInstance: Bool
    /// Periods expanded since the last one that held an instance.
    private var emptyRun = 0
    private let userHorizon: Int
    /// Why the iterator stopped, once `next()` has returned nil.
    public private(set) var stop: Stop?
    /// How many instances have been produced, DTSTART included.
    public var producedCount: Int { produced }
    /// COUNT, when the rule has one.
    public var countLimit: Int? { count }

    /// An iterator over `rule` from `start`; `until` is UNTIL as a wall time on DTSTART's clock, and
    /// nothing after `horizon` (default: the end of 9999-12-31) is produced. `startIsInstance` false
    /// (for an EXRULE) makes DTSTART an instance only when the rule gives it.
    public init(
        rule: RecurrenceRule, start: LocalDateTime, until: LocalDateTime? = nil, horizon: LocalDateTime? = nil,
        startIsInstance: Bool = true
    ) {
        plan = RulePlan(rule: rule, start: start)
        self.startIsInstance = startIsInstance
        self.start = start.secondsSinceEpoch
        if case .count(let limit) = rule.end { count = limit } else { count = nil }
        self.until = until?.secondsSinceEpoch
        userHorizon = horizon?.secondsSinceEpoch ?? .max
        self.horizon = Swift.min(userHorizon, Self.lastWritable.secondsSinceEpoch)
        let startDay = start.date.daysSinceEpoch
        switch plan.frequency {
        case .yearly: periodBase = start.date.year
        case .monthly: periodBase = start.date.year * 12 + start.date.month - 1
        case .weekly: periodBase = startDay - (RulePlan.weekday(ofDay: startDay) - plan.weekStart + 7) % 7
        case .daily: periodBase = startDay
        case .hourly: periodBase = self.start - start.minute * 60 - start.second
        case .minutely: periodBase = self.start - start.second
        case .secondly: periodBase = self.start
        }
    }

    /// Skips the periods that end before `wall`, when COUNT does not need them counted; later calls to
    /// `next()` may still return a few times before `wall` from the period that holds it.
    public mutating func skip(to wall: LocalDateTime) {
        guard count == nil, wall.secondsSinceEpoch > start else { return }
        startDone = true
        let target: Int
        switch plan.frequency {
        case .yearly: target = (wall.date.year - periodBase) / plan.interval
        case .monthly: target = (wall.date.year * 12 + wall.date.month - 1 - periodBase) / plan.interval
        case .weekly: target = (wall.date.daysSinceEpoch - periodBase) / (7 * plan.interval)
        case .daily: target = (wall.date.daysSinceEpoch - periodBase) / plan.interval
        case .hourly, .minutely, .secondly: target = (wall.secondsSinceEpoch - periodBase) / step
        }
        if target > periodIndex {
            periodIndex = target
            pending.removeAll(keepingCapacity: true)
            pendingIndex = 0
        }
    }

    public mutating func next() -> LocalDateTime? {
        guard let wall = nextWallSeconds() else { return nil }
        return LocalDateTime(secondsSinceEpoch: wall)
    }

    /// The next instance as wall-clock seconds since 1970-01-01T00:00:00.
    public mutating func nextWallSeconds() -> Int? {
        while !finished {
            if let count, produced >= count { break }
            if !startDone {
                startDone = true
                // DTSTART is the first instance even when UNTIL comes before it (§3.8.5.1: "The
                // DTSTART property defines the first instance"), as `validate` says.
                if startIsInstance {
                    produced += 1
                    return start
                }
            }
            guard pendingIndex < pending.count else {
                if emptyRun >= Self.emptyPeriodLimit {
                    stop = .emptyPeriods
                    break
                }
                if !expandNextPeriod() {
                    noteCalendarEnd()
                    break
                }
                emptyRun = pending.isEmpty ? emptyRun + 1 : 0
                continue
            }
            let candidate = pending[pendingIndex]
            pendingIndex += 1
            if startIsInstance ? candidate <= start : candidate < start { continue }
            if candidate > horizon {
                noteCalendarEnd()
                break
            }
            if let until, candidate > until { break }
            produced += 1
            return candidate
        }
        finished = true
        if stop == nil { stop = .ended }
        return nil
    }

    /// Records that the rule still had instances to give when 9999-12-31 (not the caller's horizon,
    /// nor UNTIL) ended it.
    private mutating func noteCalendarEnd() {
        let last = Self.lastWritable.secondsSinceEpoch
        if userHorizon >= last && (until ?? .max) > last { stop = .endOfCalendar }
    }

    /// Seconds between sub-daily periods.
    private var step: Int {
        switch plan.frequency {
        case .hourly: return 3_600 * plan.interval
        case .minutely: return 60 * plan.interval
        default: return plan.interval
        }
    }

    /// Fills `pending` with the next period's instances; false once periods pass the horizon.
    private mutating func expandNextPeriod() -> Bool {
        pending.removeAll(keepingCapacity: true)
        pendingIndex = 0
        let index = periodIndex
        periodIndex += 1
        switch plan.frequency {
        case .yearly, .monthly, .weekly, .daily:
            return expandDayPeriod(index)
        case .hourly, .minutely, .secondly:
            return expandTimePeriod(index)
        }
    }

    private mutating func expandDayPeriod(_ index: Int) -> Bool {
        dayBuffer.removeAll(keepingCapacity: true)
        let firstDay: Int
        switch plan.frequency {
        case .yearly:
            let year = periodBase + index * plan.interval
            firstDay = CalendarDate(year: year, month: 1, day: 1).daysSinceEpoch
            guard firstDay * 86_400 <= horizon else { return false }
            for month in 1...12 { plan.collectDays(year: year, month: month, into: &dayBuffer) }
        case .monthly:
            let months = periodBase + index * plan.interval
            let (year, month) = (months >= 0 ? months / 12 : (months - 11) / 12, (months % 12 + 12) % 12 + 1)
            firstDay = CalendarDate(year: year, month: month, day: 1).daysSinceEpoch
            guard firstDay * 86_400 <= horizon else { return false }
            plan.collectDays(year: year, month: month, into: &dayBuffer)
        case .weekly:
            firstDay = periodBase + index * 7 * plan.interval
            guard firstDay * 86_400 <= horizon else { return false }
            plan.collectDays(from: firstDay, count: 7, into: &dayBuffer)
        default:
            firstDay = periodBase + index * plan.interval
            guard firstDay * 86_400 <= horizon else { return false }
            plan.collectDays(from: firstDay, count: 1, into: &dayBuffer)
        }
        for day in dayBuffer {
            for offset in plan.timeOffsets { pending.append(day * 86_400 + offset) }
        }
        applySetPositions()
        return true
    }

    private mutating func expandTimePeriod(_ index: Int) -> Bool {
        let periodStart = periodBase + index * step
        guard periodStart <= horizon else { return false }
        // A period the limits reject skips ahead to the next day, hour or minute that could pass.
        if let boundary = rejectionBoundary(periodStart) {
            periodIndex = Swift.max(periodIndex, (boundary - periodBase + step - 1) / step)
            return true
        }
        for offset in plan.timeOffsets { pending.append(periodStart + offset) }
        applySetPositions()
        return true
    }

    /// Where the next possibly kept sub-daily period starts when the one at `wall` fails a limit; nil when it passes.
    private func rejectionBoundary(_ wall: Int) -> Int? {
        let day = wall >= 0 ? wall / 86_400 : -((-wall + 86_399) / 86_400)
        if plan.hasDayFilter {
            let date = CalendarDate(daysSinceEpoch: day)
            if !plan.keeps(days: day, year: date.year, month: date.month, day: date.day) { return (day + 1) * 86_400 }
        }
        let secondOfDay = wall - day * 86_400
        if !plan.hourLimit.isEmpty && !plan.hourLimit.contains(secondOfDay / 3_600) {
            return wall - secondOfDay % 3_600 + 3_600
        }
        if !plan.minuteLimit.isEmpty && !plan.minuteLimit.contains(secondOfDay % 3_600 / 60) {
            return wall - secondOfDay % 60 + 60
        }
        if !plan.secondLimit.isEmpty && !plan.secondLimit.contains(secondOfDay % 60) { return wall + 1 }
        return nil
    }

    /// BYSETPOS: keeps the n-th (or n-th from last) of the period's instances, in time order.
    private mutating func applySetPositions() {
        guard !plan.setPositions.isEmpty, !pending.isEmpty else { return }
        let total = pending.count
        let chosen = Set(
            plan.setPositions.compactMap { position -> Int? in
                let index = position > 0 ? position - 1 : total + position
                return (0..<total).contains(index) ? index : nil
            })
        pending = chosen.sorted().map { pending[$0] }
    }
}
