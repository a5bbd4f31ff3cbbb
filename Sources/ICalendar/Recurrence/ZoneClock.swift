import CalendarModel
import Synchronization
import TimeZones

/// Converts between wall time and instants for one zone; UTC without any table.
///
/// The zone's transitions from 1900 to 2100 are read once into flat arrays, so that the millions of
/// conversions an expansion makes are a binary search each, with no Foundation call; instants outside
/// that span are left to `ZoneRules`.
public struct ZoneClock: Sendable {
    /// The zone's rules and transitions; nil for UTC. One reference, so that a clock costs one retain to
    /// copy however many occurrences are read with it.
    private let table: Table?

    /// The tabulated transitions of one zone.
    private final class Table: Sendable {
        let rules: ZoneRules
        /// Transition instants, ascending, and the offsets before and after each.
        let instants: [Int]
        let offsetsBefore: [Int]
        let offsetsAfter: [Int]
        /// `instant + min(before, after)`: where each transition's gap or fold starts on the wall clock.
        let wallStarts: [Int]
        let covered: Range<Int>
        /// The largest and smallest offsets the zone has in the tabulated years.
        let offsets: ClosedRange<Int>

        init(rules: ZoneRules) {
            self.rules = rules
            let transitions = rules.transitions(in: ZoneClock.years)
            instants = transitions.map(\.utcSeconds)
            offsetsBefore = transitions.map(\.offsetBefore)
            offsetsAfter = transitions.map(\.offsetAfter)
            wallStarts = transitions.map { $0.utcSeconds + min($0.offsetBefore, $0.offsetAfter) }
            let first = CalendarDate(year: ZoneClock.years.lowerBound, month: 1, day: 2).daysSinceEpoch * 86_400
            let last = CalendarDate(year: ZoneClock.years.upperBound, month: 12, day: 30).daysSinceEpoch * 86_400
            covered = transitions.isEmpty ? 0..<0 : first..<last
            let all = offsetsBefore + offsetsAfter
            offsets = (all.min() ?? 0)...(all.max() ?? 0)
        }
    }

    /// The years whose transitions are tabulated.
    static let years = 1900...2100

    /// Coordinated Universal Time.
    public static let utc = ZoneClock(rules: nil)

    /// A clock following `rules`.
    public init(rules: ZoneRules?) {
        table = rules.map(Table.init)
    }

    /// The clock of an IANA zone, with rules tabulated over `years`; built once per process and zone, since
    /// reading tzdata through Foundation costs far more than any expansion.
    public static func iana(_ identifier: String) -> ZoneClock? {
        if let known = cache.withLock({ $0[identifier] }) { return known }
        guard let rules = ZoneRules(ianaIdentifier: identifier, years: years) else { return nil }
        let clock = ZoneClock(rules: rules)
        cache.withLock { $0[identifier] = clock }
        return clock
    }

    private static let cache = Mutex<[String: ZoneClock]>([:])

    /// The instant a wall time (as seconds) names, with RFC 5545 §3.3.5's reading of gaps and folds: a
    /// time in a gap or a fold is read with the offset before the change.
    @inline(__always)
    public func instant(wallSeconds wall: Int) -> Int {
        guard let table else { return wall }
        guard table.covered.contains(wall) else {
            return table.rules.utcSeconds(for: LocalDateTime(secondsSinceEpoch: wall))
        }
        let low = Self.countNotAfter(wall, in: table.wallStarts)
        guard low > 0 else { return wall - table.offsetsBefore[0] }
        let index = low - 1
        let before = table.offsetsBefore[index]
        let after = table.offsetsAfter[index]
        return wall < table.instants[index] + max(before, after) ? wall - before : wall - after
    }

    /// The instant a wall time names.
    public func instant(_ wall: LocalDateTime) -> Int {
        instant(wallSeconds: wall.secondsSinceEpoch)
    }

    /// The wall time at an instant.
    public func wall(at instant: Int) -> LocalDateTime {
        LocalDateTime(secondsSinceEpoch: instant + offset(at: instant))
    }

    /// Seconds east of UTC at an instant.
    public func offset(at instant: Int) -> Int {
        guard let table else { return 0 }
        guard table.covered.contains(instant) else { return table.rules.offset(atUTCSeconds: instant) }
        let low = Self.countNotAfter(instant, in: table.instants)
        return low == 0 ? table.offsetsBefore[0] : table.offsetsAfter[low - 1]
    }

    /// How many of the ascending `values` are at or before `value`: the index of the first later one.
    @inline(__always)
    private static func countNotAfter(_ value: Int, in values: [Int]) -> Int {
        var low = 0
        var high = values.count
        while low < high {
            let middle = (low + high) >> 1
            if values[middle] <= value { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// The offsets, seconds east of UTC, the zone has had between 1900 and 2100; 0...0 for UTC. A wall
    /// time's instant lies between it minus the upper bound and it minus the lower one.
    var offsetRange: ClosedRange<Int> { table?.offsets ?? 0...0 }

    /// The zone's rules, for wall-clock arithmetic; nil for UTC.
    public var zoneRules: ZoneRules? { table?.rules }
}
