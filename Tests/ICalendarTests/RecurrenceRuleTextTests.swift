import CalendarModel
import Foundation
import Testing

@testable import ICalendar

/// RRULE text of the plain form is read in Swift (`PlainRecurrenceText`); libical's own reading
/// (`Libical.libicalRecurrence`) is the oracle for every string, plain or not.
@Suite struct RecurrenceRuleTextTests {
    @Test(arguments: [
        "FREQ=WEEKLY;BYDAY=MO,WE,FR;COUNT=44", "FREQ=DAILY;INTERVAL=2;COUNT=132", "FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU",
        "FREQ=MONTHLY;BYDAY=2TU;UNTIL=20261231T235959Z", "FREQ=WEEKLY;UNTIL=20261231;WKST=SU;BYDAY=SA,SU",
        "FREQ=MONTHLY;BYMONTHDAY=-1,1,15;UNTIL=20261231T090000", "FREQ=WEEKLY;BYDAY=FR,MO",
        "WKST=SU;BYDAY=MO,SU;FREQ=WEEKLY",
        "FREQ=WEEKLY;BYDAY=2MO,1MO,MO,-1MO;WKST=TU", "FREQ=YEARLY;BYDAY=20MO", "FREQ=YEARLY;BYDAY=53MO,-53SU",
        "FREQ=DAILY;BYHOUR=23,0;BYMINUTE=59,0;BYSECOND=60,0", "FREQ=YEARLY;BYYEARDAY=-366,366;BYWEEKNO=-53,53",
        "FREQ=YEARLY;BYMONTH=12,1;BYSETPOS=-366,1", "FREQ=DAILY;INTERVAL=32767", "FREQ=DAILY;COUNT=999999999",
        "FREQ=DAILY;COUNT=010",
        // Left to libical, each for its own reason.
        "freq=weekly;byday=mo", "FREQ=DAILY;COUNT=0", "FREQ=DAILY;INTERVAL=0", "FREQ=DAILY;INTERVAL=70000",
        "FREQ=DAILY;COUNT=3;UNTIL=20250101", "FREQ=DAILY;UNTIL=20250230", "FREQ=DAILY;UNTIL=20250101T250000Z",
        "FREQ=DAILY;BYHOUR=24", "FREQ=MONTHLY;BYMONTH=13", "FREQ=DAILY;FREQ=WEEKLY", "FREQ=DAILY;", "FREQ=DAILY;BYDAY=",
        "FREQ=YEARLY;BYDAY=+2MO", "FREQ=YEARLY;BYDAY=0MO", "FREQ=YEARLY;BYDAY=54MO", "FREQ=DAILY;BYMONTHDAY=1,,2",
        "FREQ=DAILY;COUNT=2147483648", "FREQ=DAILY;INTERVAL=-2", "FREQ=MONTHLY;BYMONTHDAY=0", "BYDAY=MO",
        "FREQ=YEARLY;RSCALE=GREGORIAN;SKIP=FORWARD", "FREQ=DAILY;X-NAME=1", "FREQ=DAILY; COUNT=2", "",
        "FREQ=MINUTELY;BYMINUTE=0,1,2,3,4,5,6,7,8,9,10,11,12,13", "FREQ=DAILY;UNTIL=20261231T120000z",
        // Fourteen BYMONTH values fill libical's array and its end marker lands on BYSETPOS, lost.
        "FREQ=YEARLY;BYSETPOS=1;BYMONTH=1,2,3,4,5,6,7,8,9,10,11,12,1,2",
    ])
    func aRuleReadsAsLibicalReadsIt(_ text: String) {
        #expect(Libical.parseRecurrence(text) == Libical.libicalRecurrence(text))
    }

    /// The plain form read in Swift, each part as RFC 5545 §3.3.10 gives it, BYDAY in libical's order
    /// (by weekday from WKST's Sunday: RFC 5545 sets no order).
    @Test func plainRulesAreReadInSwift() throws {
        let text = Array("FREQ=MONTHLY;INTERVAL=2;BYDAY=-1FR,2TU;UNTIL=20261231T235959Z;WKST=SU".utf8)
        let rule = try #require(text.withUnsafeBufferPointer(PlainRecurrenceText.rule))
        #expect(rule.frequency == .monthly)
        #expect(rule.interval == 2)
        #expect(
            rule.end == .until(.utc(LocalDateTime(year: 2026, month: 12, day: 31, hour: 23, minute: 59, second: 59))))
        #expect(rule.weekStart == .sunday)
        #expect(rule.byDay == [WeekdayNumber(.tuesday, ordinal: 2), WeekdayNumber(.friday, ordinal: -1)])
        for unplain in ["freq=daily", "FREQ=DAILY;RSCALE=GREGORIAN", "FREQ=YEARLY;BYDAY=+1MO", "FREQ=DAILY;COUNT=0"] {
            #expect(Array(unplain.utf8).withUnsafeBufferPointer(PlainRecurrenceText.rule) == nil, "\(unplain)")
        }
    }

    /// Rules of every part in random order and length, most plain, some bent out of the plain form:
    /// a lower-case name, a `+`, a zero or out-of-range value, a part twice, an empty part, COUNT with
    /// UNTIL, a list too long, a space.
    /// More on demand: `CALPORT_RULE_TEXT_COUNT=1000000 CALPORT_RULE_TEXT_SEED=7 swift test --filter
    /// RecurrenceRuleText`.
    @Test func randomRulesReadAsLibicalReadsThem() {
        let environment = ProcessInfo.processInfo.environment
        let count = Int(environment["CALPORT_RULE_TEXT_COUNT"] ?? "") ?? 20_000
        var random = RecurrenceDifferentialTests.Seeded(
            state: UInt64(environment["CALPORT_RULE_TEXT_SEED"] ?? "") ?? 0x5252)
        var plain = 0
        for _ in 0..<count {
            let text = Self.randomRule(using: &random)
            if Array(text.utf8).withUnsafeBufferPointer(PlainRecurrenceText.rule) != nil { plain += 1 }
            #expect(Libical.parseRecurrence(text) == Libical.libicalRecurrence(text), "\(text)")
        }
        #expect(plain > count / 4, "most rules take the Swift path")
    }

    /// Every RRULE of the corpus (there when ../shared is beside the checkout) reads alike, and its rule
    /// is written alike.
    @Test func corpusRulesReadAsLibicalReadsThem() throws {
        guard let (corpus, files) = try corpusCalendars() else { return }
        var rules = 0
        for file in files {
            let text = String(decoding: try Data(contentsOf: corpus.appendingPathComponent(file)), as: UTF8.self)
            for line in unfoldedLines(text) where line.uppercased().hasPrefix("RRULE:") {
                let value = String(line.dropFirst("RRULE:".count))
                #expect(Libical.parseRecurrence(value) == Libical.libicalRecurrence(value), "\(file): \(value)")
                if let rule = Libical.parseRecurrence(value) {
                    #expect(
                        Libical.formatRecurrence(rule, untilText: "20301231T235959Z")
                            == Libical.libicalFormat(rule, untilText: "20301231T235959Z"), "\(file): \(value)")
                }
                rules += 1
            }
        }
        #expect(rules > 100)
    }

    /// libical 3.0.16 writes the parts in this order (a C program's `icalrecurrencetype_as_string_r`
    /// of the same rule), calport adding UNTIL, WKST and the parts libical does not know after it.
    @Test func aRuleIsWrittenInLibicalsOrder() {
        let rule = RecurrenceRule(
            frequency: .yearly, interval: 2, end: .count(5), bySecond: [1], byMinute: [2], byHour: [3],
            byDay: [WeekdayNumber(.monday), WeekdayNumber(.friday, ordinal: -1)], byMonthDay: [4], byYearDay: [5],
            byWeekNumber: [6], byMonth: [7], bySetPosition: [1], weekStart: .sunday)
        let written =
            "FREQ=YEARLY;COUNT=5;INTERVAL=2;BYSECOND=1;BYMINUTE=2;BYHOUR=3;BYDAY=MO,-1FR;BYMONTHDAY=4;"
            + "BYYEARDAY=5;BYWEEKNO=6;BYMONTH=7;BYSETPOS=1;WKST=SU"
        #expect(PlainRecurrenceText.text(of: rule, untilText: nil) == written)
        #expect(Libical.libicalFormat(rule, untilText: nil) == written)
        var until = rule
        until.end = .until(.date(CalendarDate(year: 2030, month: 1, day: 1)))
        until.extraParts = [RecurrenceRulePart(name: "X-NAME", value: "1")]
        #expect(
            Libical.formatRecurrence(until, untilText: "20300101")
                == "FREQ=YEARLY;INTERVAL=2;BYSECOND=1;BYMINUTE=2;BYHOUR=3;BYDAY=MO,-1FR;BYMONTHDAY=4;BYYEARDAY=5;"
                + "BYWEEKNO=6;BYMONTH=7;BYSETPOS=1;UNTIL=20300101;WKST=SU;X-NAME=1")
    }

    /// Rules made in code (as Graph's patterns and the library's users make them), most of the plain
    /// form, some not (an interval or COUNT out of range, a value outside RFC 5545's or any Int's
    /// extremes, a zero or too large ordinal, a list too long, an UNTIL text with a `;`): each written
    /// as libical writes it, and none traps.
    @Test func randomRulesAreWrittenAsLibicalWritesThem() {
        var random = RecurrenceDifferentialTests.Seeded(state: 0x5752_4954_45)
        func chance(_ percent: Int) -> Bool { Int.random(in: 0..<100, using: &random) < percent }
        func list(_ range: ClosedRange<Int>, signed: Bool) -> [Int] {
            guard chance(25) else { return [] }
            let count = chance(5) ? Int.random(in: 12...16, using: &random) : Int.random(in: 1...4, using: &random)
            return (0..<count).map { _ in
                if chance(3) {
                    return [0, range.upperBound + 1, 5000, -5000, .min, .max].randomElement(using: &random)!
                }
                let value = Int.random(in: range, using: &random)
                return signed && chance(30) ? -value : value
            }
        }
        var plain = 0
        let count = 20_000
        for _ in 0..<count {
            var rule = RecurrenceRule(frequency: RecurrenceFrequency.allCases.randomElement(using: &random)!)
            rule.interval =
                chance(5)
                ? [0, -1, 32767, 32768, 70000].randomElement(using: &random)! : Int.random(in: 1...12, using: &random)
            var untilText: String?
            switch Int.random(in: 0..<3, using: &random) {
            case 0:
                rule.end = .count(
                    chance(5)
                        ? [0, -3, Int(Int32.max), Int(Int32.max) + 1].randomElement(using: &random)!
                        : Int.random(in: 1...500, using: &random))
            case 1:
                rule.end = .until(.utc(LocalDateTime(year: 2030, month: 1, day: 1)))
                // The text callers give (DateTimeText's), or one a `;` would split where libical's is.
                untilText =
                    chance(5)
                    ? ["20300101;", "a;;b", "x;WKST=SU", ";"].randomElement(using: &random)! : "20300101T000000Z"
            default: break
            }
            rule.bySecond = list(0...60, signed: false)
            rule.byMinute = list(0...59, signed: false)
            rule.byHour = list(0...23, signed: false)
            rule.byMonthDay = list(1...31, signed: true)
            rule.byYearDay = list(1...366, signed: true)
            rule.byWeekNumber = list(1...53, signed: true)
            rule.byMonth = list(1...12, signed: false)
            rule.bySetPosition = list(1...366, signed: true)
            if chance(50) {
                let days = chance(5) ? Int.random(in: 12...16, using: &random) : Int.random(in: 1...5, using: &random)
                rule.byDay = (0..<days).map { _ in
                    let ordinal: Int? =
                        chance(50)
                        ? nil
                        : chance(5)
                            ? [0, 54, -60, 5000, .min, .max].randomElement(using: &random)!
                            : Int.random(in: 1...53, using: &random) * (chance(40) ? -1 : 1)
                    return WeekdayNumber(Weekday.allCases.randomElement(using: &random)!, ordinal: ordinal)
                }
            }
            if chance(25) { rule.weekStart = Weekday.allCases.randomElement(using: &random)! }
            if chance(3) { rule.extraParts = [RecurrenceRulePart(name: "RSCALE", value: "GREGORIAN")] }
            if PlainRecurrenceText.text(of: rule, untilText: untilText) != nil { plain += 1 }
            #expect(
                Libical.formatRecurrence(rule, untilText: untilText)
                    == Libical.libicalFormat(rule, untilText: untilText),
                "\(rule)")
        }
        #expect(plain > count / 4, "most rules are written in Swift")
    }

    private static let frequencies = ["SECONDLY", "MINUTELY", "HOURLY", "DAILY", "WEEKLY", "MONTHLY", "YEARLY"]
    private static let weekdays = ["SU", "MO", "TU", "WE", "TH", "FR", "SA"]

    private static func randomRule(using random: inout some RandomNumberGenerator) -> String {
        func chance(_ percent: Int) -> Bool { Int.random(in: 0..<100, using: &random) < percent }
        func number(_ range: ClosedRange<Int>, outside: Int = 3) -> String {
            if chance(outside) {
                return String([0, range.upperBound + 1, -range.upperBound - 1].randomElement(using: &random)!)
            }
            return String(Int.random(in: range, using: &random))
        }
        func list(_ range: ClosedRange<Int>, signed: Bool) -> String {
            let count = chance(5) ? Int.random(in: 12...16, using: &random) : Int.random(in: 1...4, using: &random)
            return (0..<count).map { _ in
                let value = number(range)
                return signed && chance(30) && !value.hasPrefix("-") ? "-" + value : value
            }.joined(separator: ",")
        }
        func weekdayNumber() -> String {
            let day = weekdays.randomElement(using: &random)!
            guard chance(40) else { return day }
            let sign = chance(40) ? "-" : chance(3) ? "+" : ""
            return sign + number(1...53) + day
        }
        func until() -> String {
            let date = String(
                format: "%04d%02d%02d", Int.random(in: 1990...2040, using: &random),
                Int.random(in: chance(3) ? 0...13 : 1...12, using: &random),
                Int.random(in: chance(5) ? 0...32 : 1...28, using: &random))
            switch Int.random(in: 0..<3, using: &random) {
            case 0: return date
            case 1:
                return date
                    + String(
                        format: "T%02d%02d%02d", Int.random(in: 0...24, using: &random),
                        Int.random(in: 0...59, using: &random), Int.random(in: 0...60, using: &random))
            default:
                return date
                    + String(
                        format: "T%02d%02d%02dZ", Int.random(in: 0...23, using: &random),
                        Int.random(in: 0...59, using: &random), Int.random(in: 0...59, using: &random))
            }
        }
        var parts: [String] = []
        if !chance(3) { parts.append("FREQ=" + frequencies.randomElement(using: &random)!) }
        if chance(40) { parts.append("INTERVAL=" + (chance(3) ? "40000" : number(1...12))) }
        if chance(40) { parts.append("COUNT=" + (chance(2) ? "9999999999" : number(1...500))) }
        if chance(30) { parts.append("UNTIL=" + until()) }
        if chance(25) { parts.append("WKST=" + weekdays.randomElement(using: &random)!) }
        if chance(50) {
            let count = chance(5) ? Int.random(in: 12...16, using: &random) : Int.random(in: 1...5, using: &random)
            parts.append("BYDAY=" + (0..<count).map { _ in weekdayNumber() }.joined(separator: ","))
        }
        if chance(15) { parts.append("BYSECOND=" + list(0...60, signed: false)) }
        if chance(15) { parts.append("BYMINUTE=" + list(0...59, signed: false)) }
        if chance(15) { parts.append("BYHOUR=" + list(0...23, signed: false)) }
        if chance(20) { parts.append("BYMONTHDAY=" + list(1...31, signed: true)) }
        if chance(10) { parts.append("BYYEARDAY=" + list(1...366, signed: true)) }
        if chance(10) { parts.append("BYWEEKNO=" + list(1...53, signed: true)) }
        if chance(20) { parts.append("BYMONTH=" + list(1...12, signed: false)) }
        if chance(10) { parts.append("BYSETPOS=" + list(1...366, signed: true)) }
        if chance(3), let part = parts.randomElement(using: &random) { parts.append(part) }
        if chance(2) { parts.append(["RSCALE=GREGORIAN", "X-NAME=1", "SKIP=BACKWARD"].randomElement(using: &random)!) }
        parts.shuffle(using: &random)
        if chance(3), !parts.isEmpty { parts[0] = parts[0].lowercased() }
        var text = parts.joined(separator: ";")
        if chance(2) { text += ";" }
        if chance(2) { text = text.replacingOccurrences(of: ";", with: "; ") }
        return text
    }
}
