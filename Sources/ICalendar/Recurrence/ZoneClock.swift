import CalendarModel
import TimeZones

/// Converts between wall time and instants for one zone; UTC without any table.
public struct ZoneClock: Sendable {
    /// The zone's rules; nil for UTC.
    private let rules: ZoneRules?

    /// Coordinated Universal Time.
    public static let utc = ZoneClock(rules: nil)

    /// A clock following `rules`.
    public init(rules: ZoneRules?) {
        self.rules = rules
    }

    /// The instant a wall time names, with RFC 5545 §3.3.5's reading of gaps and folds.
    @inline(__always)
    public func instant(wallSeconds: Int) -> Int {
        guard let rules else { return wallSeconds }
        return rules.utcSeconds(for: LocalDateTime(secondsSinceEpoch: wallSeconds))
    }

    /// The instant a wall time names.
    public func instant(_ wall: LocalDateTime) -> Int {
        rules?.utcSeconds(for: wall) ?? wall.secondsSinceEpoch
    }

    /// The wall time at an instant.
    public func wall(at instant: Int) -> LocalDateTime {
        rules?.localDateTime(atUTCSeconds: instant) ?? LocalDateTime(secondsSinceEpoch: instant)
    }

    /// Seconds east of UTC at an instant.
    public func offset(at instant: Int) -> Int {
        rules?.offset(atUTCSeconds: instant) ?? 0
    }

    /// The zone's rules, for wall-clock arithmetic; nil for UTC.
    public var zoneRules: ZoneRules? { rules }
}
