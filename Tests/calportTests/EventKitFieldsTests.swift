import Testing

@testable import calport

/// The EventKit fields with no iCalendar or Graph counterpart travel as documented X- properties
/// (docs/mapping.md, EventKit table): kept through .ics, and reported as lost on the way to Graph.
@Test func eventKitConferenceAndSourceFieldsSurviveICalendarAndAreReportedForGraph() {
    let calendar = """
        BEGIN:VCALENDAR\r
        VERSION:2.0\r
        PRODID:-//example//EventKit export//EN\r
        X-CALPORT-CALENDAR-SOURCE;TYPE=exchange:Work\r
        BEGIN:VEVENT\r
        UID:ek@example.com\r
        DTSTAMP:20260101T000000Z\r
        DTSTART:20261201T090000Z\r
        DTEND:20261201T093000Z\r
        SUMMARY:Planning\r
        CONFERENCE;VALUE=URI;LABEL=Join:https://zoom.example/j/123\r
        X-CALPORT-CONFERENCE-TITLE:Zoom meeting\r
        X-CALPORT-CONFERENCE-DETAILS:Meeting ID 123\\, passcode 456\r
        END:VEVENT\r
        END:VCALENDAR\r

        """
    let ics = runCalport(["convert"], stdin: calendar)
    #expect(ics.status == .success)
    for line in [
        "X-CALPORT-CALENDAR-SOURCE;TYPE=exchange:Work", "X-CALPORT-CONFERENCE-TITLE:Zoom meeting",
        "X-CALPORT-CONFERENCE-DETAILS:Meeting ID 123\\, passcode 456",
        "CONFERENCE;VALUE=URI;LABEL=Join:https://zoom.example/j/123",
    ] {
        #expect(ics.output.contains(line + "\r\n"), "\(line)")
    }
    let graph = runCalport(["convert", "--to", "graph"], stdin: calendar)
    #expect(graph.output.contains("\"joinUrl\":\"https://zoom.example/j/123\""))
    #expect(graph.errors.contains("X-CALPORT-CONFERENCE-TITLE"))
    #expect(graph.errors.contains("X-CALPORT-CONFERENCE-DETAILS"))
    #expect(graph.errors.contains("[graph-properties-lost]"))
}
