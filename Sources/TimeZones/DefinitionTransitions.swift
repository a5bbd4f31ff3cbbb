import CalendarModel

/// The transitions a VTIMEZONE's STANDARD and DAYLIGHT observances define (RFC 5545 §3.6.5).
struct DefinitionTransitions: TransitionSource {
    /// An onset of one observance.
    struct Onset {
        let utcSeconds: Int
        let offsetFrom: Int
        let offsetTo: Int
        let isDaylightSaving: Bool
    }

    let observances: [TimeZoneObservance]

    func transitions(in range: Range<Int>) -> [ZoneTransition] {
        let all = onsets(in: range)
        var result: [ZoneTransition] = []
        var previous = all.last { $0.utcSeconds < range.lowerBound }.map(\.offsetTo)
        for onset in all where range.contains(onset.utcSeconds) {
            let before = previous ?? onset.offsetFrom
            if before != onset.offsetTo {
                let transition = ZoneTransition(
                    utcSeconds: onset.utcSeconds, offsetBefore: before, offsetAfter: onset.offsetTo,
                    isDaylightSaving: onset.isDaylightSaving)
                result.append(transition)
            }
            previous = onset.offsetTo
        }
        return result
    }

    func offset(atUTCSeconds seconds: Int) -> Int {
        let all = onsets(in: seconds..<(seconds + 1))
        if let last = all.last(where: { $0.utcSeconds <= seconds }) { return last.offsetTo }
        // Before the first onset the zone keeps the offset that onset changes from.
        return all.first?.offsetFrom ?? observances.first?.offsetFrom ?? 0
    }

    /// Every onset that can matter for `range`, sorted: all in its years, those of the year before (so the
    /// offset in force at its start is known), each DTSTART and RDATE up to its end, and the first onset
    /// after it when the range holds none.
    private func onsets(in range: Range<Int>) -> [Onset] {
        let firstYear = YearBounds.year(at: range.lowerBound) - 1
        let lastYear = YearBounds.year(at: range.upperBound - 1) + 1
        var result: [Onset] = []
        for observance in observances {
            let isDaylight = observance.kind == .daylight
            var locals = [observance.start] + observance.dates
            if let rule = observance.rule {
                let evaluator = YearlyRuleEvaluator(
                    rule: rule, start: observance.start, offsetFrom: observance.offsetFrom)
                locals += evaluator.occurrences(in: firstYear...lastYear)
            }
            result += locals.map { local in
                Onset(
                    utcSeconds: local.secondsSinceEpoch - observance.offsetFrom, offsetFrom: observance.offsetFrom,
                    offsetTo: observance.offsetTo, isDaylightSaving: isDaylight)
            }
        }
        return result.sorted { $0.utcSeconds < $1.utcSeconds }
    }
}
