import CalendarModel
import Foundation

/// Where a zone's transitions come from: tzdata through Foundation, or a VTIMEZONE's own rules.
protocol TransitionSource: Sendable {
    /// The transitions that change the offset, in order, with instants in `range`.
    func transitions(in range: Range<Int>) -> [ZoneTransition]
    /// The offset in force at an instant, computed without a precomputed table.
    func offset(atUTCSeconds seconds: Int) -> Int
}

/// tzdata rules as Foundation's `TimeZone` reads them.
struct FoundationTransitions: TransitionSource {
    let zone: TimeZone

    func transitions(in range: Range<Int>) -> [ZoneTransition] {
        var result: [ZoneTransition] = []
        var cursor = Date(timeIntervalSince1970: Double(range.lowerBound - 1))
        while let next = zone.nextDaylightSavingTimeTransition(after: cursor),
            next.timeIntervalSince1970 < Double(range.upperBound)
        {
            let seconds = Int(next.timeIntervalSince1970.rounded())
            let before = offset(atUTCSeconds: seconds - 1)
            let after = offset(atUTCSeconds: seconds)
            // Foundation also reports changes of name or DST flag alone; only offset changes matter here.
            if before != after {
                let transition = ZoneTransition(
                    utcSeconds: seconds, offsetBefore: before, offsetAfter: after,
                    isDaylightSaving: zone.isDaylightSavingTime(for: next))
                result.append(transition)
            }
            cursor = next
        }
        return result
    }

    func offset(atUTCSeconds seconds: Int) -> Int {
        zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(seconds)))
    }
}
