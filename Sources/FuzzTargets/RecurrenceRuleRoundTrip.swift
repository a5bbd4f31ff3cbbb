import CalendarModel
import ICalendar

/// RRULE text → rule → text → rule: a rule libical accepted reads back equal from what calport wrote.
/// And the rule calport reads (in Swift, for the plain form) is the one libical reads, and is written
/// as libical writes it; so is a rule made in code of the same bytes (`madeInCode`), whose values
/// may be any Int, as a library user's may.
enum RecurrenceRuleRoundTrip {
    static func run(_ bytes: [UInt8]) throws(FuzzFinding) {
        let made = madeInCode(bytes)
        guard made.iCalendarText == made.libicalText else {
            throw FuzzFinding(
                target: .rrule, message: "\(made) is written '\(made.iCalendarText)', by libical '\(made.libicalText)'")
        }
        let input = String(decoding: bytes, as: UTF8.self)
        let read = RecurrenceRule(iCalendarText: input)
        guard read == RecurrenceRule(libicalText: input) else {
            throw FuzzFinding(target: .rrule, message: "'\(input)' reads otherwise than libical reads it")
        }
        guard let rule = read else { return }
        let text = rule.iCalendarText
        guard text == rule.libicalText else {
            throw FuzzFinding(
                target: .rrule, message: "'\(input)' is written '\(text)', by libical '\(rule.libicalText)'")
        }
        guard let again = RecurrenceRule(iCalendarText: text) else {
            throw FuzzFinding(target: .rrule, message: "calport wrote '\(text)', which it cannot read back")
        }
        guard again.iCalendarText == text else {
            throw FuzzFinding(target: .rrule, message: "'\(text)' reads back as '\(again.iCalendarText)'")
        }
    }

    /// A rule whose every part the bytes choose, values among them the extremes no reader makes
    /// (`Int.min`, a zero or huge ordinal, a list longer than libical's arrays).
    static func madeInCode(_ bytes: [UInt8]) -> RecurrenceRule {
        var reader = ByteChoices(bytes)
        let extremes = [0, 1, -1, 53, 54, 366, 367, Int(Int16.max), Int(Int16.max) + 1, Int(Int32.max) + 1, .min, .max]
        func value() -> Int {
            reader.next() < 200 ? Int(Int8(bitPattern: reader.next())) : extremes[Int(reader.next()) % extremes.count]
        }
        func list() -> [Int] { (0..<Int(reader.next() % 16)).map { _ in value() } }
        let frequencies = RecurrenceFrequency.allCases
        var rule = RecurrenceRule(frequency: frequencies[Int(reader.next()) % frequencies.count])
        rule.interval = reader.next() < 128 ? 1 + Int(reader.next() % 12) : value()
        switch reader.next() % 3 {
        case 0: rule.end = .count(value())
        case 1:
            let local = LocalDateTime(
                year: 1970 + Int(reader.next()), month: Int(reader.next() % 14), day: Int(reader.next() % 33),
                hour: Int(reader.next() % 25), minute: Int(reader.next() % 61), second: Int(reader.next() % 62))
            rule.end = .until([.date(local.date), .utc(local), .floating(local)][Int(reader.next()) % 3])
        default: break
        }
        rule.bySecond = list()
        rule.byMinute = list()
        rule.byHour = list()
        rule.byMonthDay = list()
        rule.byYearDay = list()
        rule.byWeekNumber = list()
        rule.byMonth = list()
        rule.bySetPosition = list()
        rule.byDay = (0..<Int(reader.next() % 16)).map { _ in
            WeekdayNumber(Weekday.allCases[Int(reader.next()) % 7], ordinal: reader.next() < 128 ? nil : value())
        }
        if reader.next() < 64 { rule.weekStart = Weekday.allCases[Int(reader.next()) % 7] }
        if reader.next() < 32 { rule.extraParts = [RecurrenceRulePart(name: "X-NAME", value: String(value()))] }
        return rule
    }
}

/// Bytes handed out one at a time, zeros once they run out.
private struct ByteChoices {
    private let bytes: [UInt8]
    private var index = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    mutating func next() -> UInt8 {
        defer { index += 1 }
        return index < bytes.count ? bytes[index] : 0
    }
}
