/// What RFC 5545 §3.3.10 says about one recurrence rule on one DTSTART: every MUST and MUST NOT it
/// breaks, naming the rule part and the sentence, and the rule expansion uses instead.
///
/// One policy everywhere (docs/recurrence.md): a part the RFC forbids, or values out of its range, are
/// left out of expansion with a warning; a rule with nothing left to mean (every value of a part out
/// of range) is not expanded, and DTSTART stays the one instance, since §3.8.5.1 makes it the first
/// instance of the set. `validate` reports each finding as an error.
public struct RecurrenceRuleCheck: Sendable {
    /// One broken requirement.
    public struct Finding: Hashable, Sendable {
        /// The rule part, as written in RRULE text (`BYDAY`, `BYWEEKNO`, `COUNT`).
        public var part: String
        /// What is wrong and what expansion does about it, quoting the RFC's sentence.
        public var reason: String
        /// Whether expansion can go on with the part left out (false: only DTSTART is an instance).
        public var ruleKept: Bool
        /// Whether the RFC itself says to ignore the part (BYHOUR on a DATE DTSTART): a note, not a warning.
        public var ignoredAsTheRFCSays: Bool
    }

    /// Every finding, in rule part order.
    public private(set) var findings: [Finding] = []
    /// The rule as expansion reads it: forbidden parts and out-of-range values removed; nil when
    /// nothing meaningful is left and DTSTART alone is the instance.
    public private(set) var usableRule: RecurrenceRule?

    /// Checks `rule` for a series whose DTSTART is a DATE when `startIsDate`.
    public init(_ rule: RecurrenceRule, startIsDate: Bool) {
        var usable = rule
        var meaningful = true
        let frequency = rule.frequency
        let sentence = "RFC 5545 §3.3.10:"

        /// A MUST NOT broken: `part` is left out of expansion, unless `consequence` says what is.
        func forbid(
            _ part: String, _ quote: String, consequence: String? = nil, clear: (inout RecurrenceRule) -> Void
        ) {
            let said = consequence ?? "\(part) is left out of expansion"
            findings.append(
                Finding(
                    part: part, reason: "\(sentence) \"\(quote)\"; \(said)", ruleKept: true, ignoredAsTheRFCSays: false)
            )
            clear(&usable)
        }
        // A numbered weekday where numbers are forbidden keeps its weekday (as dateutil reads it).
        let numbersLeftOut = "the numbers in BYDAY are left out of expansion, its weekdays kept"
        /// Keeps the values of a list in `range` (never 0); all of them out of range leaves no rule.
        func limit(_ part: String, _ values: [Int], _ range: ClosedRange<Int>, allowsZero: Bool = false) -> [Int] {
            let kept = values.filter { range.contains($0) && ($0 != 0 || allowsZero) }
            guard kept.count < values.count else { return kept }
            let bad = values.filter { !kept.contains($0) }.map(String.init).joined(separator: ",")
            let bounds = allowsZero ? "\(range.lowerBound) to \(range.upperBound)" : "±1 to \(range.upperBound)"
            let empty = kept.isEmpty
            if empty { meaningful = false }
            findings.append(
                Finding(
                    part: part,
                    reason:
                        "\(sentence) \(part) values are \(bounds); \(bad) "
                        + (empty
                            ? "leaves the rule no meaning, so DTSTART is its only instance"
                            : "is left out of expansion"),
                    ruleKept: !empty, ignoredAsTheRFCSays: false))
            return kept
        }

        usable.byMonth = limit("BYMONTH", rule.byMonth, 1...12)
        usable.byMonthDay = limit("BYMONTHDAY", rule.byMonthDay, -31...31)
        usable.byYearDay = limit("BYYEARDAY", rule.byYearDay, -366...366)
        usable.byWeekNumber = limit("BYWEEKNO", rule.byWeekNumber, -53...53)
        usable.byHour = limit("BYHOUR", rule.byHour, 0...23, allowsZero: true)
        usable.byMinute = limit("BYMINUTE", rule.byMinute, 0...59, allowsZero: true)
        usable.bySecond = limit("BYSECOND", rule.bySecond, 0...60, allowsZero: true)
        usable.bySetPosition = limit("BYSETPOS", rule.bySetPosition, -366...366)
        let badOrdinals = rule.byDay.filter { $0.ordinal.map { $0 == 0 || abs($0) > 53 } ?? false }
        if !badOrdinals.isEmpty {
            usable.byDay.removeAll { badOrdinals.contains($0) }
            let empty = usable.byDay.isEmpty
            if empty { meaningful = false }
            let written = badOrdinals.map { "\($0.ordinal ?? 0)\($0.weekday.code)" }.joined(
                separator: ",")
            findings.append(
                Finding(
                    part: "BYDAY",
                    reason:
                        "\(sentence) an ordinal week day is +1 to +53 or -1 to -53 (ordwk); \(written) "
                        + (empty
                            ? "leaves the rule no meaning, so DTSTART is its only instance"
                            : "is left out of expansion"),
                    ruleKept: !empty, ignoredAsTheRFCSays: false))
        }
        if rule.interval < 1 {
            findings.append(
                Finding(
                    part: "INTERVAL",
                    reason: "\(sentence) INTERVAL is a positive integer; \(rule.interval) is read as 1",
                    ruleKept: true, ignoredAsTheRFCSays: false))
            usable.interval = 1
        }

        let numbered = usable.byDay.contains { $0.ordinal != nil }
        if numbered && frequency != .monthly && frequency != .yearly {
            forbid(
                "BYDAY",
                "The BYDAY rule part MUST NOT be specified with a numeric value when the FREQ rule part is not set to MONTHLY or YEARLY",
                consequence: numbersLeftOut
            ) { rule in rule.byDay = rule.byDay.map { WeekdayNumber($0.weekday) } }
        }
        if numbered && frequency == .yearly && !usable.byWeekNumber.isEmpty {
            forbid(
                "BYDAY",
                "the BYDAY rule part MUST NOT be specified with a numeric value with the FREQ rule part set to YEARLY when the BYWEEKNO rule part is specified",
                consequence: numbersLeftOut
            ) { rule in rule.byDay = rule.byDay.map { WeekdayNumber($0.weekday) } }
        }
        if !usable.byMonthDay.isEmpty && frequency == .weekly {
            forbid(
                "BYMONTHDAY",
                "The BYMONTHDAY rule part MUST NOT be specified when the FREQ rule part is set to WEEKLY"
            ) { $0.byMonthDay = [] }
        }
        if !usable.byYearDay.isEmpty && [.daily, .weekly, .monthly].contains(frequency) {
            forbid(
                "BYYEARDAY",
                "The BYYEARDAY rule part MUST NOT be specified when the FREQ rule part is set to DAILY, WEEKLY, or MONTHLY"
            ) { $0.byYearDay = [] }
        }
        if !usable.byWeekNumber.isEmpty && frequency != .yearly {
            forbid(
                "BYWEEKNO",
                "This rule part MUST NOT be used when the FREQ rule part is set to anything other than YEARLY"
            ) { $0.byWeekNumber = [] }
        }
        if !usable.bySetPosition.isEmpty && !usable.hasByPartOtherThanSetPosition {
            forbid("BYSETPOS", "It MUST only be used in conjunction with another BYxxx rule part") {
                $0.bySetPosition = []
            }
        }
        if startIsDate {
            for (part, values) in [
                ("BYHOUR", usable.byHour), ("BYMINUTE", usable.byMinute), ("BYSECOND", usable.bySecond),
            ]
            where !values.isEmpty {
                findings.append(
                    Finding(
                        part: part,
                        reason:
                            "\(sentence) \"The BYSECOND, BYMINUTE and BYHOUR rule parts MUST NOT be specified when the associated \"DTSTART\" property has a DATE value type. These rule parts MUST be ignored\"; \(part) is ignored",
                        ruleKept: true, ignoredAsTheRFCSays: true))
            }
            usable.byHour = []
            usable.byMinute = []
            usable.bySecond = []
        }
        usableRule = meaningful ? usable : nil
    }
}

extension RecurrenceRule {
    /// Whether a BYxxx part other than BYSETPOS is given (§3.3.10: BYSETPOS needs one).
    var hasByPartOtherThanSetPosition: Bool {
        !(bySecond.isEmpty && byMinute.isEmpty && byHour.isEmpty && byDay.isEmpty && byMonthDay.isEmpty
            && byYearDay.isEmpty && byWeekNumber.isEmpty && byMonth.isEmpty)
    }
}
