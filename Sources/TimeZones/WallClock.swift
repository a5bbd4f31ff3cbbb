import CalendarModel

/// Date-time arithmetic that follows the wall clock where RFC 5545 says it should.
public enum WallClock {
    /// Start + duration, RFC 5545 §3.3.6: nominal part on the wall clock, exact part on the timeline.
    ///
    /// A zoned result is the wall time actually shown then: adding days onto a spring-forward gap lands
    /// after the gap, and onto a fall-back fold on its first occurrence. Without `rules` a zoned time is
    /// computed as floating. A date plus an exact part becomes a floating date-time, since a date cannot
    /// hold a time of day.
    public static func adding(_ duration: EventDuration, to time: CalendarTime, rules: ZoneRules?) -> CalendarTime {
        let moved = time.localDateTime.adding(seconds: duration.nominalDays * 86_400)
        switch time {
        case .date:
            guard duration.exactSeconds != 0 else { return .date(moved.date) }
            return .floating(moved.adding(seconds: duration.exactSeconds))
        case .floating, .utc:
            return time.withLocalDateTime(moved.adding(seconds: duration.exactSeconds))
        case .zoned:
            guard let rules else { return time.withLocalDateTime(moved.adding(seconds: duration.exactSeconds)) }
            let instant = rules.utcSeconds(for: moved) + duration.exactSeconds
            return time.withLocalDateTime(rules.localDateTime(atUTCSeconds: instant))
        }
    }
}
