import CalendarModel

/// A recurrence rule made ready for expansion from one DTSTART: RFC 5545 §3.3.10's defaults filled in
/// from DTSTART, parts that do not apply to the frequency dropped, out-of-range values removed, and the
/// times of day each period expands to precomputed.
struct RulePlan: Sendable {
    let frequency: RecurrenceFrequency
    let interval: Int
    /// Allowed months, indexed 1...12; nil when any month is.
    let months: [Bool]?
    let weekNumbers: [Int]
    let yearDays: [Int]
    let monthDays: [Int]
    /// Weekdays allowed without an ordinal, as a bit set with Sunday as bit 0.
    let plainWeekdays: UInt8
    /// `(ordinal, weekday index)` pairs such as `(-1, 0)` for the last Sunday.
    let ordinalWeekdays: [(ordinal: Int, weekday: Int)]
    /// Whether BYDAY ordinals count within the month (MONTHLY, or YEARLY with BYMONTH) or the year.
    let ordinalsCountInMonth: Bool
    let setPositions: [Int]
    /// WKST as a weekday index, Sunday 0.
    let weekStart: Int
    /// Seconds after the period's start at which each matching day (or hour, or minute) has instances,
    /// ascending: the product of the expanding BYHOUR, BYMINUTE and BYSECOND lists.
    let timeOffsets: [Int]
    /// BYHOUR, BYMINUTE and BYSECOND where they limit rather than expand (sub-daily frequencies).
    let hourLimit: [Int]
    let minuteLimit: [Int]
    let secondLimit: [Int]
    /// Whether any day-level part limits the days a sub-daily or daily rule runs on.
    let hasDayFilter: Bool

    init(rule: RecurrenceRule, start: LocalDateTime) {
        frequency = rule.frequency
        interval = max(1, rule.interval)
        let isYearly = rule.frequency == .yearly
        let hasDayParts = !rule.byDay.isEmpty || !rule.byMonthDay.isEmpty || !rule.byYearDay.isEmpty
        var byMonth = rule.byMonth.filter { (1...12).contains($0) }
        var byMonthDay = rule.byMonthDay.filter { $0 != 0 && (-31...31).contains($0) }
        var byDay = rule.byDay
        let byWeekNumber = isYearly ? rule.byWeekNumber.filter { $0 != 0 && (-53...53).contains($0) } : []
        // RFC 5545 §3.3.10: parts the rule leaves out are taken from DTSTART.
        switch rule.frequency {
        case .yearly where !hasDayParts && byWeekNumber.isEmpty:
            byMonthDay = [start.date.day]
            if byMonth.isEmpty { byMonth = [start.date.month] }
        case .yearly where !hasDayParts:
            // BYWEEKNO names weeks and no day within them: the day is DTSTART's weekday, as §3.3.10's
            // own example derives the day of "FREQ=YEARLY;BYMONTH=1" from DTSTART (docs/recurrence.md).
            byDay = [WeekdayNumber(start.date.weekday)]
        case .monthly where rule.byDay.isEmpty && rule.byMonthDay.isEmpty:
            byMonthDay = [start.date.day]
        case .weekly where rule.byDay.isEmpty:
            byDay = [WeekdayNumber(start.date.weekday)]
        default:
            break
        }
        if byMonth.isEmpty {
            months = nil
        } else {
            var mask = [Bool](repeating: false, count: 13)
            for month in byMonth { mask[month] = true }
            months = mask
        }
        weekNumbers = byWeekNumber
        // BYYEARDAY is not allowed with DAILY, WEEKLY or MONTHLY; BYMONTHDAY not with WEEKLY.
        let yearDayApplies = ![.daily, .weekly, .monthly].contains(rule.frequency)
        yearDays = yearDayApplies ? rule.byYearDay.filter { $0 != 0 && (-366...366).contains($0) } : []
        monthDays = rule.frequency == .weekly ? [] : byMonthDay
        // Ordinals only mean something for MONTHLY and YEARLY; elsewhere the weekday alone counts.
        let ordinalsApply = (rule.frequency == .monthly || isYearly) && byWeekNumber.isEmpty
        var plain: UInt8 = 0
        var ordinals: [(ordinal: Int, weekday: Int)] = []
        for day in byDay {
            let index = RulePlan.index(of: day.weekday)
            if let ordinal = day.ordinal, ordinal != 0, ordinalsApply {
                ordinals.append((ordinal, index))
            } else {
                plain |= 1 << UInt8(index)
            }
        }
        plainWeekdays = plain
        ordinalWeekdays = ordinals
        ordinalsCountInMonth = rule.frequency == .monthly || !byMonth.isEmpty
        setPositions = rule.bySetPosition.filter { $0 != 0 && (-366...366).contains($0) }
        weekStart = RulePlan.index(of: rule.weekStart ?? .monday)
        hasDayFilter =
            months != nil || !weekNumbers.isEmpty || !yearDays.isEmpty || !monthDays.isEmpty
            || !byDay.isEmpty
        let hours = Set(rule.byHour.filter { (0...23).contains($0) }).sorted()
        let minutes = Set(rule.byMinute.filter { (0...59).contains($0) }).sorted()
        let seconds = Set(rule.bySecond.filter { (0...60).contains($0) }).sorted()
        // Table of §3.3.10: BYHOUR expands from DAILY up, BYMINUTE from HOURLY, BYSECOND from MINUTELY.
        let expandsHours = ![.hourly, .minutely, .secondly].contains(rule.frequency)
        let expandsMinutes = expandsHours || rule.frequency == .hourly
        let expandsSeconds = rule.frequency != .secondly
        let hourSteps = expandsHours ? (rule.byHour.isEmpty ? [start.hour] : hours).map { $0 * 3_600 } : [0]
        let minuteSteps = expandsMinutes ? (rule.byMinute.isEmpty ? [start.minute] : minutes).map { $0 * 60 } : [0]
        let secondSteps = expandsSeconds ? (rule.bySecond.isEmpty ? [start.second] : seconds) : [0]
        timeOffsets = hourSteps.flatMap { hour in
            minuteSteps.flatMap { minute in secondSteps.map { hour + minute + $0 } }
        }
        hourLimit = expandsHours ? [] : hours
        minuteLimit = expandsMinutes ? [] : minutes
        secondLimit = expandsSeconds ? [] : seconds
    }

    /// Sunday 0 … Saturday 6, the order of `Weekday.allCases`.
    static func index(of weekday: Weekday) -> Int {
        switch weekday {
        case .sunday: return 0
        case .monday: return 1
        case .tuesday: return 2
        case .wednesday: return 3
        case .thursday: return 4
        case .friday: return 5
        case .saturday: return 6
        }
    }

    /// The weekday index of a day counted from 1970-01-01 (a Thursday).
    @inline(__always)
    static func weekday(ofDay days: Int) -> Int {
        ((days % 7) + 11) % 7
    }
}
