import CalendarModel

/// VTIMEZONE definitions of IANA zones, truncated to the years a calendar's events cover.
public enum VTimeZoneBuilder {
    /// A compact, Outlook-safe definition of an IANA zone for the given years (TZID = the IANA id).
    ///
    /// Transitions that recur in consecutive years on one pattern become one STANDARD or DAYLIGHT with a
    /// yearly RRULE (with UNTIL when it stops within the years); others become dated components. A zone
    /// without transitions in the years gets one STANDARD.
    public static func definition(forIANA id: String, years: ClosedRange<Int>) -> TimeZoneDefinition? {
        guard let rules = ZoneRules(ianaIdentifier: id, years: years) else { return nil }
        return definition(identifier: id, rules: rules, years: years)
    }

    /// The definition, under `identifier`, of any zone's rules over `years`.
    public static func definition(identifier: String, rules: ZoneRules, years: ClosedRange<Int>) -> TimeZoneDefinition {
        let transitions = rules.transitions(in: years)
        guard !transitions.isEmpty else {
            let offset = rules.offset(atUTCSeconds: YearBounds.start(of: years.lowerBound))
            let start = LocalDateTime(year: min(1970, years.lowerBound), month: 1, day: 1)
            return TimeZoneDefinition(
                identifier: identifier,
                observances: [TimeZoneObservance(kind: .standard, start: start, offsetFrom: offset, offsetTo: offset)])
        }
        let lastYearCount = transitions.filter { $0.localOnset.date.year == years.upperBound }.count
        let observances = TransitionRun.runs(of: transitions).map { run in
            // A rule is in force at the end if it still recurs then, alongside its counterpart.
            let inForce = run.lastYear == years.upperBound && (run.transitions.count > 1 || lastYearCount > 1)
            return run.observance(inForce: inForce)
        }
        return TimeZoneDefinition(identifier: identifier, observances: observances)
    }
}

/// Transitions of one kind that recur on one yearly pattern in consecutive years.
struct TransitionRun {
    /// What the transitions of a run share.
    struct Key: Hashable {
        let isDaylightSaving: Bool
        let offsetBefore: Int
        let offsetAfter: Int
        let month: Int
        let weekday: Weekday
        let secondOfDay: Int

        init(_ transition: ZoneTransition) {
            let onset = transition.localOnset
            isDaylightSaving = transition.isDaylightSaving
            offsetBefore = transition.offsetBefore
            offsetAfter = transition.offsetAfter
            month = onset.date.month
            weekday = onset.date.weekday
            secondOfDay = onset.hour * 3_600 + onset.minute * 60 + onset.second
        }
    }

    let key: Key
    private(set) var transitions: [ZoneTransition]
    /// What the run's dates say of their pattern, kept up to date so that each transition is
    /// checked against the run in constant time.
    private var evidence: YearlyPattern.Evidence
    private(set) var pattern: YearlyPattern?

    init(_ transition: ZoneTransition) {
        key = Key(transition)
        transitions = [transition]
        evidence = YearlyPattern.Evidence(transition.localOnset.date)
        pattern = nil
    }

    var lastYear: Int { transitions[transitions.count - 1].localOnset.date.year }

    /// Transitions grouped into runs, in order of each run's first transition.
    static func runs(of transitions: [ZoneTransition]) -> [TransitionRun] {
        var runs: [TransitionRun] = []
        var latestRun: [Key: Int] = [:]  // the last run of each key, the only one a transition may join
        for transition in transitions {
            let key = Key(transition)
            if let index = latestRun[key], let pattern = runs[index].patternAdding(transition) {
                runs[index].append(transition, pattern: pattern)
            } else {
                latestRun[key] = runs.count
                runs.append(TransitionRun(transition))
            }
        }
        return runs
    }

    /// The run's pattern with `transition` added, nil when it does not continue the run: it falls
    /// in another year than the next, or no pattern names all the dates.
    private func patternAdding(_ transition: ZoneTransition) -> YearlyPattern? {
        guard transition.localOnset.date.year == lastYear + 1 else { return nil }
        return evidence.adding(transition.localOnset.date).pattern
    }

    private mutating func append(_ transition: ZoneTransition, pattern: YearlyPattern) {
        evidence.add(transition.localOnset.date)
        self.pattern = pattern
        transitions.append(transition)
    }

    /// The STANDARD or DAYLIGHT component: recurring when the run spans several years or is in force at
    /// the end, dated otherwise.
    func observance(inForce: Bool) -> TimeZoneObservance {
        let first = transitions[0]
        var rule: RecurrenceRule?
        if let pattern = pattern ?? (inForce ? YearlyPattern.Evidence(first.localOnset.date).pattern : nil) {
            let last = transitions[transitions.count - 1]
            let end: RecurrenceEnd = inForce ? .never : .until(.utc(LocalDateTime(secondsSinceEpoch: last.utcSeconds)))
            rule = pattern.rule(month: key.month, weekday: key.weekday, end: end)
        }
        return TimeZoneObservance(
            kind: key.isDaylightSaving ? .daylight : .standard, start: first.localOnset, offsetFrom: first.offsetBefore,
            offsetTo: first.offsetAfter, rule: rule)
    }
}
