import CalendarModel
import ICalendar

/// RRULE text → rule → text → rule: a rule libical accepted reads back equal from what calport wrote.
enum RecurrenceRuleRoundTrip {
    static func run(_ bytes: [UInt8]) throws(FuzzFinding) {
        guard let rule = RecurrenceRule(iCalendarText: String(decoding: bytes, as: UTF8.self)) else { return }
        let text = rule.iCalendarText
        guard let again = RecurrenceRule(iCalendarText: text) else {
            throw FuzzFinding(target: .rrule, message: "calport wrote '\(text)', which it cannot read back")
        }
        guard again.iCalendarText == text else {
            throw FuzzFinding(target: .rrule, message: "'\(text)' reads back as '\(again.iCalendarText)'")
        }
    }
}
