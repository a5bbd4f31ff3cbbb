import CalendarModel
import ICalendar

/// RRULE text → rule → text → rule: a rule libical accepted reads back equal from what calport wrote.
/// And the rule calport reads (in Swift, for the plain form) is the one libical reads, and is written
/// as libical writes it.
enum RecurrenceRuleRoundTrip {
    static func run(_ bytes: [UInt8]) throws(FuzzFinding) {
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
}
