/// A length of time as RFC 5545 §3.3.6 defines it: a nominal part (weeks, days) that follows the
/// wall clock across DST changes, and an exact part (hours, minutes, seconds) that does not.
public struct EventDuration: Hashable, Sendable, Codable {
    /// Whether the duration goes back in time (`-PT15M`, an alarm before the start).
    public var isNegative: Bool
    /// Nominal weeks.
    public var weeks: Int
    /// Nominal days: calendar days, 23 or 25 hours long across a DST change.
    public var days: Int
    /// Exact hours.
    public var hours: Int
    /// Exact minutes.
    public var minutes: Int
    /// Exact seconds.
    public var seconds: Int

    /// A duration of these parts; all zero is `PT0S`.
    public init(
        isNegative: Bool = false, weeks: Int = 0, days: Int = 0, hours: Int = 0, minutes: Int = 0, seconds: Int = 0
    ) {
        self.isNegative = isNegative
        self.weeks = weeks
        self.days = days
        self.hours = hours
        self.minutes = minutes
        self.seconds = seconds
    }

    /// The nominal part in days, signed.
    public var nominalDays: Int { (weeks * 7 + days) * (isNegative ? -1 : 1) }

    /// The exact part in seconds, signed.
    public var exactSeconds: Int { (hours * 3_600 + minutes * 60 + seconds) * (isNegative ? -1 : 1) }

    /// A duration of exact seconds, split into hours, minutes and seconds.
    public init(exactSeconds total: Int) {
        let magnitude = abs(total)
        self.init(
            isNegative: total < 0, hours: magnitude / 3_600, minutes: magnitude % 3_600 / 60, seconds: magnitude % 60)
    }

    /// A duration of whole days, written in weeks when it divides evenly.
    public init(nominalDays total: Int) {
        let magnitude = abs(total)
        if magnitude % 7 == 0 && magnitude > 0 {
            self.init(isNegative: total < 0, weeks: magnitude / 7)
        } else {
            self.init(isNegative: total < 0, days: magnitude)
        }
    }

    /// Whether every part is zero.
    public var isZero: Bool { weeks == 0 && days == 0 && hours == 0 && minutes == 0 && seconds == 0 }
}
