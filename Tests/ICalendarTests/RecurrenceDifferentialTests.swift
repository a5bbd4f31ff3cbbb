import CalendarModel
import Foundation
import Testing

@testable import ICalendar

/// Random rules (fixed seed) expanded by calport's `RecurrenceRuleIterator`, by libical's
/// `icalrecur_iterator` and, when scripts/.venv exists, by python-dateutil: the agreement is counted
/// and every disagreement must fall in a class docs/recurrence.md explains. Wall times only, from a
/// floating DTSTART; instances before 2027 (at most 150 a rule). DTSTART itself is left out of the
/// comparison: calport lists it first whatever the rule says (§3.8.5.1), the peers only when it matches.
struct RecurrenceDifferentialTests {
    static let ruleCount = 200
    static let horizon = LocalDateTime(year: 2027, month: 1, day: 1)
    static let perRule = 60

    /// A SplitMix64 generator, so that the rules are the same on every machine and run.
    struct Seeded: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    /// One generated case: the RRULE text and DTSTART.
    struct Case {
        var rule: String
        var start: LocalDateTime
    }

    /// The generated cases calport finds instances for. A rule with none before the horizon is left
    /// out: libical and dateutil check UNTIL only on an instance they found, so for such a rule they
    /// search on to their own limits (seconds each); calport's bound on empty periods is tested apart.
    static func comparable() -> [Case] {
        cases().filter { calport($0).map { !$0.isEmpty } ?? false }
    }

    static func cases() -> [Case] {
        var random = Seeded(state: 19)
        let days = ["MO", "TU", "WE", "TH", "FR", "SA", "SU"]
        func some(_ values: [Int], _ most: Int) -> String {
            values.shuffled(using: &random).prefix(Int.random(in: 1...most, using: &random)).map(String.init)
                .joined(separator: ",")
        }
        return (0..<ruleCount).map { _ in
            let frequency = ["YEARLY", "MONTHLY", "WEEKLY", "DAILY"].randomElement(using: &random)!
            var parts = ["FREQ=\(frequency)"]
            let chance = { (p: Double) in Double.random(in: 0..<1, using: &random) < p }
            if chance(0.4) { parts.append("INTERVAL=\(Int.random(in: 1...3, using: &random))") }
            if chance(0.35) { parts.append("BYMONTH=" + some(Array(1...12), 3)) }
            var weekNumbers = false
            if frequency == "YEARLY" && chance(0.2) {
                parts.append("BYWEEKNO=" + some([1, 2, 10, 20, 26, 52, 53, -1], 2))
                weekNumbers = true
            }
            if frequency == "YEARLY" && !weekNumbers && chance(0.2) {
                parts.append("BYYEARDAY=" + some([1, 2, 32, 60, 100, 200, 365, 366, -1, -100], 3))
            }
            if frequency != "WEEKLY" && !weekNumbers && chance(0.35) {
                parts.append("BYMONTHDAY=" + some([1, 2, 13, 15, 28, 29, 30, 31, -1, -2], 3))
            }
            let numbered = (frequency == "MONTHLY" || frequency == "YEARLY") && !weekNumbers
            if weekNumbers || chance(0.5) {
                let chosen = days.shuffled(using: &random).prefix(Int.random(in: 1...3, using: &random))
                parts.append(
                    "BYDAY="
                        + chosen.map { day in
                            numbered && chance(0.4) ? "\([1, 2, 3, -1, -2].randomElement(using: &random)!)\(day)" : day
                        }.joined(separator: ","))
            }
            if chance(0.2) { parts.append("BYHOUR=" + some([0, 9, 13, 23], 2)) }
            if parts.count > 1 && chance(0.2) { parts.append("BYSETPOS=" + some([1, 2, -1], 1)) }
            if chance(0.2) { parts.append("WKST=" + days.randomElement(using: &random)!) }
            if chance(0.3) { parts.append("UNTIL=20\(Int.random(in: 24...26, using: &random))0601T000000") }
            let start = LocalDateTime(
                year: Int.random(in: 2020...2024, using: &random), month: Int.random(in: 1...12, using: &random),
                day: Int.random(in: 1...28, using: &random), hour: 9)
            return Case(rule: parts.joined(separator: ";"), start: start)
        }
    }

    /// calport's instances after DTSTART.
    static func calport(_ item: Case) -> [LocalDateTime]? {
        guard let rule = RecurrenceRule(iCalendarText: item.rule) else { return nil }
        var until: LocalDateTime?
        if case .until(let time) = rule.end { until = time.localDateTime }
        let iterator = RecurrenceRuleIterator(rule: rule, start: item.start, until: until, horizon: horizon)
        return Array(iterator.dropFirst().prefix { $0 < horizon }.prefix(perRule))
    }

    /// libical's instances after DTSTART; nil when libical refuses the rule.
    static func libical(_ item: Case) -> [LocalDateTime]? {
        // libical searches up to its own far limit for a rule with no more instances: an UNTIL at the
        // horizon (the generated UNTILs all come before it) stops it there.
        let bounded = item.rule.contains("UNTIL=") ? item.rule : item.rule + ";UNTIL=20270101T000000"
        guard let iterator = LibicalRuleIterator(rule: bounded, start: item.start) else { return nil }
        // libical lists a day's BYHOUR times in the order written (BYHOUR=23,13): a day's worth more is
        // read and sorted, as §3.3.10 orders a set, before the cut.
        var found: [LocalDateTime] = []
        while found.count < perRule + 24, let next = iterator.next(), next < horizon {
            if next > item.start { found.append(next) }
        }
        return Array(found.sorted().prefix(perRule))
    }

    /// Why calport and a peer may differ on a rule, as docs/recurrence.md's table of peer bugs explains;
    /// nil for none.
    static func knownDifference(_ rule: String, peer: String) -> String? {
        let parts = Dictionary(
            rule.split(separator: ";").map { part -> (String, String) in
                let pair = part.split(separator: "=", maxSplits: 1).map(String.init)
                return (pair[0], pair.count > 1 ? pair[1] : "")
            }, uniquingKeysWith: { first, _ in first })
        let frequency = parts["FREQ"] ?? ""
        let byDay = parts["BYDAY"]?.split(separator: ",") ?? []
        let mixedByDay =
            byDay.contains { $0.first?.isNumber == true || $0.first == "-" }
            && byDay.contains { $0.first?.isLetter == true }
        switch peer {
        case "libical":
            if parts["BYWEEKNO"] != nil { return "libical's BYWEEKNO (libical/libical#794)" }
            if parts["BYSETPOS"] != nil && frequency != "MONTHLY" && frequency != "YEARLY" {
                return "libical ignores BYSETPOS below MONTHLY"
            }
            if parts["BYMONTHDAY"] != nil && frequency == "DAILY" { return "libical's BYMONTHDAY with DAILY" }
            if parts["BYMONTHDAY"] != nil && frequency == "YEARLY" && parts["BYMONTH"] == nil {
                return "libical reads YEARLY;BYMONTHDAY in DTSTART's month only"
            }
            if parts["BYMONTHDAY"] != nil && !byDay.isEmpty { return "libical's BYMONTHDAY with BYDAY" }
            if frequency == "WEEKLY" && parts["INTERVAL"] != nil && parts["BYMONTH"] != nil {
                return "libical restarts a WEEKLY INTERVAL after months BYMONTH leaves out"
            }
            if parts["BYSETPOS"] != nil && parts["BYHOUR"] != nil { return "libical applies BYSETPOS before BYHOUR" }
        default:
            if parts["BYSETPOS"] != nil { return "dateutil cuts the first period at DTSTART" }
            if mixedByDay { return "dateutil lists nothing for numbered and plain BYDAY together" }
            if parts["BYWEEKNO"]?.contains("53") == true { return "dateutil's week 53 in early January" }
        }
        return nil
    }

    /// Runs `work` on a thread of its own: seconds of libical or of waiting for Python on one of the
    /// test runner's few cooperative threads would starve the tests running beside these.
    static func offThePool<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread { continuation.resume(with: Result { try work() }) }
        }
    }

    @Test func agreesWithLibical() async throws {
        let pairs = try await Self.offThePool {
            Self.comparable().map { item in (item, Self.calport(item), Self.libical(item)) }
        }
        var compared = 0
        var agreed = 0
        var unexplained: [String] = []
        for (item, ours, theirs) in pairs {
            guard let ours, let theirs else { continue }
            compared += 1
            if ours == theirs {
                agreed += 1
            } else if Self.knownDifference(item.rule, peer: "libical") == nil {
                unexplained.append("\(item.rule) from \(text(.floating(item.start)))")
            }
        }
        print("differential libical: \(agreed)/\(compared) rules agree; \(unexplained.count) unexplained")
        #expect(compared > Self.ruleCount / 2)
        #expect(unexplained.isEmpty, "\(unexplained.joined(separator: "\n"))")
    }

    @Test func agreesWithDateutil() async throws {
        let cases = Self.comparable()
        let script = """
            import sys, json
            from datetime import datetime
            from dateutil.rrule import rrulestr
            out = []
            for line in sys.stdin:
                rule, start = json.loads(line)
                try:
                    found = []
                    dtstart = datetime.strptime(start, "%Y%m%dT%H%M%S")
                    r = rrulestr("RRULE:" + rule, dtstart=dtstart)
                    # An UNTIL stops dateutil's search for rules that give nothing more before 2027.
                    r = r.replace(until=min(r._until or datetime(2027, 1, 1), datetime(2027, 1, 1)))
                    for d in r:
                        if d >= datetime(2027, 1, 1) or len(found) >= \(Self.perRule): break
                        if d > dtstart: found.append(d.strftime("%Y%m%dT%H%M%S"))
                    out.append(found)
                except Exception:
                    out.append(None)
            print(json.dumps(out))
            """
        let lines = cases.map { "[\"\($0.rule)\", \"\(text(.floating($0.start)))\"]\n" }.joined()
        guard let answers = try await PythonPeer.run(script, input: lines) else {
            print("differential dateutil: skipped, no scripts/.venv")
            return
        }
        var compared = 0
        var agreed = 0
        var unexplained: [String] = []
        for (item, answer) in zip(cases, answers) {
            guard let theirs = answer as? [String], let ours = Self.calport(item) else { continue }
            // dateutil lists all seven days of a BYWEEKNO week without BYDAY; every generated one has a BYDAY.
            compared += 1
            let mine = ours.map { text(.floating($0)) }
            if mine == theirs {
                agreed += 1
            } else if Self.knownDifference(item.rule, peer: "dateutil") == nil {
                unexplained.append(
                    "\(item.rule) from \(text(.floating(item.start))): \(mine.prefix(3)) / \(theirs.prefix(3))")
            }
        }
        print("differential dateutil: \(agreed)/\(compared) rules agree; \(unexplained.count) unexplained")
        #expect(compared > Self.ruleCount / 2)
        #expect(unexplained.isEmpty, "\(unexplained.joined(separator: "\n"))")
    }
}
