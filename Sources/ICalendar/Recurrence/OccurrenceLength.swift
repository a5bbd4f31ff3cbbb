import CalendarModel
import TimeZones

/// How long each occurrence of one VEVENT lasts, worked out once (RFC 5545 §3.8.5.3 and §3.3.6).
/// Indirect, so that the recurrence instances that carry one pass a reference, not its times.
indirect enum OccurrenceLength: Sendable {
    /// DTEND on an all-day event: a number of days.
    case days(Int)
    /// DTEND on a timed event: the same exact length for every occurrence, written in DTEND's form and
    /// read on DTEND's clock (looked up once, not per occurrence).
    case exact(seconds: Int, endForm: CalendarTime, endClock: ZoneClock)
    /// DURATION: nominal days on the wall clock, then exact time.
    case duration(EventDuration)

    /// The length `event` gives its occurrences: no end means a day for a date and nothing for a time.
    init(event: Event, start: CalendarTime, zones: ExpansionZones) {
        switch event.end {
        case .end(let end) where start.isDate && end.isDate:
            self = .days(end.date.daysSinceEpoch - start.date.daysSinceEpoch)
        case .end(let end):
            self = .exact(from: start, to: end, zones: zones)
        case .duration(let duration):
            self = .duration(duration)
        case nil:
            self = start.isDate ? .days(1) : .exact(from: start, to: start, zones: zones)
        }
    }

    /// The length of a PERIOD RDATE.
    init(period: RecurrenceDate, zones: ExpansionZones) {
        switch period {
        case .period(let start, let end): self = .exact(from: start, to: end, zones: zones)
        case .periodWithDuration(_, let duration): self = .duration(duration)
        case .time(let start): self = .exact(from: start, to: start, zones: zones)
        }
    }

    /// From `start` to `end` exactly, with the end written and read as `end` is.
    private static func exact(from start: CalendarTime, to end: CalendarTime, zones: ExpansionZones) -> Self {
        .exact(seconds: zones.instant(end) - zones.instant(start), endForm: end, endClock: zones.clock(for: end))
    }

    /// The end of an occurrence starting at `start` (`startInstant`), and its instant.
    func end(from start: CalendarTime, at startInstant: Int, zones: ExpansionZones) -> (CalendarTime, Int) {
        switch self {
        case .days(let days):
            let end = CalendarTime.date(start.date.adding(days: days))
            return (end, zones.instant(end))
        case .exact(let seconds, let form, let clock):
            let instant = startInstant + seconds
            let wall = clock.wall(at: instant)
            return (form.isDate ? .date(wall.date) : form.withLocalDateTime(wall), instant)
        case .duration(let duration):
            // The end is in the start's zone (or floating, for a date), so it is read on the start's clock:
            // one lookup, not two.
            let clock = zones.clock(for: start)
            let end = WallClock.adding(duration, to: start, rules: clock.zoneRules)
            return (end, clock.instant(end.localDateTime))
        }
    }

    /// `end(from:at:zones:)` for a start of `startForm`'s form at `startWall` (wall-clock seconds since
    /// 1970, a date's midnight), without making times: the end's wall-clock seconds, in the form `end`
    /// gives every start of that form, and its instant.
    func endWall(fromWall startWall: Int, at startInstant: Int, startForm: CalendarTime, zones: ExpansionZones)
        -> (wall: Int, instant: Int)
    {
        switch self {
        case .days(let days):
            let wall = (LocalDateTime.days(beforeSecondsSinceEpoch: startWall) + days) * 86_400
            return (wall, zones.floating.instant(wallSeconds: wall))
        case .exact(let seconds, let form, let clock):
            let instant = startInstant + seconds
            let wall = instant + clock.offset(at: instant)
            return (form.isDate ? LocalDateTime.days(beforeSecondsSinceEpoch: wall) * 86_400 : wall, instant)
        case .duration:
            let start = startForm.withLocalDateTime(LocalDateTime(secondsSinceEpoch: startWall))
            let (end, instant) = end(from: start, at: startInstant, zones: zones)
            return (end.localDateTime.secondsSinceEpoch, instant)
        }
    }

    /// Lengths from here on reach past the year 9999 from any start calport reads.
    static let longestSeconds = 10_000 * 366 * 86_400

    /// An upper bound of the length in seconds, for deciding how far before a window to start.
    var maximumSeconds: Int {
        switch self {
        case .days(let days): return abs(days) * 86_400 + 86_400
        case .exact(let seconds, _, _): return abs(seconds)
        case .duration(let duration): return abs(duration.nominalDays) * 86_400 + abs(duration.exactSeconds) + 3_600
        }
    }
}
