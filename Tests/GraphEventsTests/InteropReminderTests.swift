import CalendarModel
import Testing

@testable import GraphEvents

/// A Graph reminder must become an alarm every iCalendar reader accepts.
@Test func graphReminderIsADisplayAlarmWithADescription() throws {
    let event = try #require(
        readGraph(
            #"""
            {"id": "r", "subject": "Review", "isReminderOn": true, "reminderMinutesBeforeStart": 15,
             "start": {"dateTime": "2026-12-01T09:00:00", "timeZone": "UTC"},
             "end": {"dateTime": "2026-12-01T10:00:00", "timeZone": "UTC"}}
            """#
        ).events.first)
    let alarm = try #require(event.alarms.first)
    #expect(alarm.action == .display)
    #expect(alarm.trigger == .relative(EventDuration(isNegative: true, minutes: 15), relatedToEnd: false))
    // RFC 5545 §3.6.6: a DISPLAY alarm has a DESCRIPTION; ics-py 0.7.3 refuses a file without one.
    #expect(alarm.description == "Reminder")
}
