import CalendarModel
import Foundation

/// A zone's offset rules: from an IANA id (Foundation's TimeZone / tzdata) or from a VTIMEZONE definition.
///
/// The transitions of a window of years are computed once, when the rules are made, so that offsets for
/// many events cost a binary search; instants outside the window are computed from the source directly.
public struct ZoneRules: Sendable {
    /// The years whose transitions are precomputed unless an initializer is told otherwise.
    public static let defaultYears = 1970...2037

    private let source: any TransitionSource
    /// The UTC instants the table covers.
    private let window: Range<Int>
    /// The offset-changing transitions in `window`, in order.
    private let table: [ZoneTransition]
    private let offsetAtWindowStart: Int

    /// Rules of the IANA zone `ianaIdentifier`, or nil when tzdata does not know it.
    public init?(ianaIdentifier: String) {
        self.init(ianaIdentifier: ianaIdentifier, years: ZoneRules.defaultYears)
    }

    /// Rules of an IANA zone, with transitions precomputed for `years`.
    public init?(ianaIdentifier: String, years: ClosedRange<Int>) {
        guard let zone = TimeZone(identifier: ianaIdentifier) else { return nil }
        self.init(source: FoundationTransitions(zone: zone), years: years)
    }

    /// Rules a VTIMEZONE defines.
    public init(definition: TimeZoneDefinition) {
        self.init(definition: definition, years: ZoneRules.defaultYears)
    }

    /// Rules a VTIMEZONE defines, with transitions precomputed for `years`.
    public init(definition: TimeZoneDefinition, years: ClosedRange<Int>) {
        self.init(source: DefinitionTransitions(observances: definition.observances), years: years)
    }

    private init(source: any TransitionSource, years: ClosedRange<Int>) {
        self.source = source
        window = YearBounds.range(years)
        table = source.transitions(in: window)
        offsetAtWindowStart = table.first?.offsetBefore ?? source.offset(atUTCSeconds: window.lowerBound)
    }

    /// Seconds east of UTC at that instant.
    public func offset(atUTCSeconds seconds: Int) -> Int {
        guard window.contains(seconds) else { return source.offset(atUTCSeconds: seconds) }
        // The last transition at or before `seconds`.
        var low = 0
        var high = table.count
        while low < high {
            let middle = (low + high) / 2
            if table[middle].utcSeconds <= seconds { low = middle + 1 } else { high = middle }
        }
        return low == 0 ? offsetAtWindowStart : table[low - 1].offsetAfter
    }

    /// The wall time at an instant.
    public func localDateTime(atUTCSeconds seconds: Int) -> LocalDateTime {
        LocalDateTime(secondsSinceEpoch: seconds + offset(atUTCSeconds: seconds))
    }

    /// The instant a wall time names, by RFC 5545 §3.3.5: a time in a spring-forward gap is read with the
    /// offset before the gap (02:30 in a 02:00→03:00 gap is 03:30), an ambiguous one as its first occurrence.
    public func utcSeconds(for local: LocalDateTime) -> Int {
        let wall = local.secondsSinceEpoch
        // A day either side brackets any single transition near the wall time, whatever the offsets.
        let earlier = offset(atUTCSeconds: wall - 86_400)
        let later = offset(atUTCSeconds: wall + 86_400)
        let first = wall - earlier
        if offset(atUTCSeconds: first) == earlier { return first }
        let second = wall - later
        if offset(atUTCSeconds: second) == later { return second }
        return first
    }

    /// The offset-changing transitions whose instants lie in the UTC years `years`, in order.
    public func transitions(in years: ClosedRange<Int>) -> [ZoneTransition] {
        let range = YearBounds.range(years)
        if range.lowerBound >= window.lowerBound && range.upperBound <= window.upperBound {
            return table.filter { range.contains($0.utcSeconds) }
        }
        return source.transitions(in: range)
    }
}
