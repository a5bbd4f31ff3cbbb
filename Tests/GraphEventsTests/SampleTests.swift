import CalendarModel
import Foundation
import Testing

@testable import GraphEvents

/// Samples/graph-work-week.json: the week of Monday 2026-11-30 as a calendarView in Pacific time.
@Suite struct SampleTests {
    private static func sample() throws -> GraphReadResult {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Samples/graph-work-week.json")
        let data = try #require(FileManager.default.contents(atPath: url.path))
        return GraphEventReader(file: "graph-work-week.json").read(Array(data))
    }

    @Test func theWeekMapsWithoutDiagnostics() throws {
        let result = try Self.sample()
        #expect(result.diagnostics == [])
        // The three plain stand-up occurrences come from the master's RRULE, so they are dropped; the
        // moved one, listed before its master, follows the others.
        #expect(
            result.events.map(\.summary) == [
                "Design review: calendar sync", "1:1 Megan / Dana", "Release freeze", "Daily stand-up",
                "Daily stand-up (after the all-hands)",
            ])
    }

    @Test func standUpSeriesWithAMovedAndACancelledOccurrence() throws {
        let events = try Self.sample().events
        let master = events[3]
        #expect(master.start == inPacific(2026, 11, 2, 9) && master.end == .end(inPacific(2026, 11, 2, 9, 15)))
        #expect(
            master.recurrenceRules == [
                RecurrenceRule(
                    frequency: .weekly,
                    byDay: [.monday, .tuesday, .wednesday, .thursday, .friday].map { WeekdayNumber($0) },
                    weekStart: .sunday)
            ])
        #expect(master.exceptionDates == [inPacific(2026, 12, 3, 9)])
        let moved = events[4]
        #expect(moved.uid == master.uid)
        // originalStart 17:00 UTC is 09:00 PST, the occurrence it replaces.
        #expect(moved.recurrenceID == RecurrenceIdentifier(time: inPacific(2026, 12, 2, 9)))
        #expect(moved.start == inPacific(2026, 12, 2, 11))
        #expect(master.description == "Yesterday, today, blockers. 15 minutes, please.")
    }

    @Test func teamsMeetingOrganisedInLondon() throws {
        let review = try Self.sample().events[0]
        #expect(review.start == inPacific(2026, 12, 1, 8))
        #expect(review.graphExtra(.originalStartTimeZone) == "GMT Standard Time")
        #expect(review.conferences.first?.uri.hasPrefix("https://teams.microsoft.com/l/meetup-join/") == true)
        #expect(review.extra("X-MICROSOFT-SKYPETEAMSMEETINGURL") == review.conferences.first?.uri)
        #expect(review.busyStatus == .tentative)
        #expect(review.organizer?.emailAddress == "oliver.bennett@contoso.co.uk")
        #expect(review.attendees.map(\.participationStatus) == [.accepted, .accepted, .tentative, .needsAction])
        #expect(
            review.description == "Agenda\n\nGraph export\nRecurrence edge cases & time zones\nRollout\n\n"
                + String(repeating: "_", count: 80)
                + "\nJoin the meeting now\nMeeting ID: 219 455 783 01\nPasscode: q7Hx2P")
    }

    @Test func allDayAndPrivateEvents() throws {
        let events = try Self.sample().events
        let freeze = events[2]
        #expect(freeze.start == .date(date(2026, 12, 4)) && freeze.end == .end(.date(date(2026, 12, 5))))
        #expect(freeze.busyStatus == .free && freeze.transparency == .transparent)
        #expect(freeze.categories == ["Release"] && freeze.alarms == [] && freeze.locations == [])
        let oneOnOne = events[1]
        #expect(oneOnOne.classification == .private && oneOnOne.importance == .high && oneOnOne.priority == 1)
        #expect(oneOnOne.description == "Career conversation.\r\nBring the notes from last time.")
        #expect(oneOnOne.locations.first?.coordinates == GeoCoordinate(latitude: 47.674, longitude: -122.1215))
    }

    @Test func theWeekRoundTripsThroughBothStyles() throws {
        let events = try Self.sample().events
        let full = GraphEventWriter(style: .full).write(events)
        #expect(full.diagnostics == [])
        // The writer puts each override after its master, so compare regardless of order.
        #expect(Set(readGraph(JSONWriter().string(.array(full.output))).events) == Set(events))
        let post = GraphEventWriter(style: .post).write(events)
        // Master, override and one cancellation entry for the stand-up; three single events.
        #expect(post.output.count == 6)
        #expect(post.output.allSatisfy { $0["transactionId"] != nil || $0["isCancelled"] == true })
        // Each event's webLink is the service's to set, and the Teams link is the service's to make.
        #expect(
            post.diagnostics.map(\.code) == ["graph-post-conference"]
                + Array(repeating: "graph-properties-lost", count: 5))
        #expect(post.diagnostics.last?.message == "Graph has no place for URL; left out")
    }
}
