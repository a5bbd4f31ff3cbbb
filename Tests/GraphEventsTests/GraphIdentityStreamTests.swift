import CalendarModel
import Foundation
import Testing

@testable import GraphEvents

/// The names a first pass gives Graph events without mapping them: every UID the mapping gives
/// an event, at least as often, so that a series spread over the input is never missed.
@Suite struct GraphIdentityStreamTests {
    /// The UIDs named, with how often, feeding `text` in chunks of `chunk` bytes.
    private func names(_ text: String, chunk: Int = .max) -> [String: Int] {
        let bytes = Array(text.utf8)
        var stream = GraphIdentityStream()
        var counts: [String: Int] = [:]
        var position = 0
        while position < bytes.count {
            stream.append(bytes[position..<min(bytes.count, position + chunk)]) { counts[$0.uid, default: 0] += 1 }
            position += chunk
        }
        stream.finish { counts[$0.uid, default: 0] += 1 }
        return counts
    }

    private func mapped(_ text: String) -> [String: Int] {
        var counts: [String: Int] = [:]
        for event in readGraph(text).events { counts[event.uid, default: 0] += 1 }
        return counts
    }

    private static let weekly = """
        "start": {"dateTime": "2026-12-01T09:00:00", "timeZone": "UTC"}, "end": {"dateTime": "2026-12-01T10:00:00", "timeZone": "UTC"}, "recurrence": {"pattern": {"type": "weekly", "interval": 1, "daysOfWeek": ["tuesday"]}, "range": {"type": "numbered", "startDate": "2026-12-01", "numberOfOccurrences": 4}}
        """

    /// calendarView: instances name their master by its `id` and carry no iCalUId of their own, so
    /// each is named by its own `id` (what it maps to without its master) and, once the master is
    /// known, by the master's UID. The exception before the master is named so at the end.
    @Test func instancesAreNamedUnderTheirMastersUIDWhereverTheMasterIs() {
        let text = """
            {"value": [
            {"id": "x1", "type": "exception", "seriesMasterId": "m", "originalStart": "2026-12-08T09:00:00Z", "start": {"dateTime": "2026-12-08T11:00:00", "timeZone": "UTC"}},
            {"id": "m", "iCalUId": "series@example.com", "type": "seriesMaster", \(Self.weekly)},
            {"id": "o1", "type": "occurrence", "seriesMasterId": "m", "originalStart": "2026-12-15T09:00:00Z", "start": {"dateTime": "2026-12-15T09:00:00", "timeZone": "UTC"}},
            {"id": "x2", "type": "exception", "seriesMasterId": "m", "originalStart": "2026-12-22T09:00:00Z", "start": {"dateTime": "2026-12-22T14:00:00", "timeZone": "UTC"}},
            {"id": "s", "iCalUId": "single@example.com", "start": {"dateTime": "2026-12-02T12:00:00", "timeZone": "UTC"}}
            ]}
            """
        // The master, its two exceptions (its overrides) and the occurrence (which the RRULE makes,
        // so mapping drops it): four names for the three events mapping gives the series.
        let expected = ["series@example.com": 4, "x1": 1, "o1": 1, "x2": 1, "single@example.com": 1]
        #expect(names(text) == expected)
        #expect(names(text, chunk: 7) == expected)
        #expect(mapped(text) == ["series@example.com": 3, "single@example.com": 1])
    }

    /// An event's exceptionOccurrences are its overrides (its UID) when it repeats, and events of
    /// their own without a recurrence: both are named, since only the recurrence tells which.
    @Test func embeddedExceptionsAreNamedBothWays() {
        let exception = """
            {"id": "e1", "iCalUId": "own@example.com", "originalStart": "2026-12-08T09:00:00Z", "start": {"dateTime": "2026-12-08T11:00:00", "timeZone": "UTC"}}
            """
        let repeating = """
            {"id": "m", "iCalUId": "series@example.com", \(Self.weekly), "exceptionOccurrences": [\(exception)]}
            """
        #expect(names(repeating) == ["series@example.com": 2, "own@example.com": 1])
        #expect(mapped(repeating) == ["series@example.com": 2])
        let seriesless = """
            {"id": "m", "iCalUId": "series@example.com", "start": {"dateTime": "2026-12-01T09:00:00", "timeZone": "UTC"}, "exceptionOccurrences": [\(exception)]}
            """
        #expect(names(seriesless) == ["series@example.com": 2, "own@example.com": 1])
        #expect(mapped(seriesless) == ["series@example.com": 1, "own@example.com": 1])
    }

    /// The UID follows the mapping's rule: iCalUId (in any case), else id, else transactionId, else
    /// one derived from the content; a member of the wrong type is passed over.
    @Test func theUIDIsTheOneMappingGives() throws {
        let text = """
            {"ICALUID": "capitals@example.com", "start": {"dateTime": "2026-12-01T09:00:00"}}
            {"iCalUId": 5, "id": "AAMk1", "start": {"dateTime": "2026-12-01T09:00:00"}}
            {"transactionId": "tx-1", "start": {"dateTime": "2026-12-01T09:00:00"}}
            {"subject": "a POST body", "start": {"dateTime": "2026-12-01T09:00:00"}}
            """
        let named = names(text)
        #expect(named["capitals@example.com"] == 1)
        #expect(named["AAMk1"] == 1)
        #expect(named["tx-1"] == 1)
        #expect(named == mapped(text))
        #expect(named.count == 4, "the POST body's derived UID too")
    }

    /// A syntax error ends the names where it ends the events; the year is the start's.
    @Test func namesEndWhereReadingEnds() {
        let text = """
            [{"id": "a", "start": {"dateTime": "2025-12-31T23:00:00", "timeZone": "UTC"}},
             {"id": "b", "start": {"dateTime": "2026-01-01T09:00:00"}} {"id": "c"}]
            """
        var years: [String: Int?] = [:]
        var stream = GraphIdentityStream()
        stream.append(Array(text.utf8)) { years[$0.uid] = $0.year }
        stream.finish { years[$0.uid] = $0.year }
        #expect(years == ["a": 2025, "b": 2026])
        #expect(mapped(text) == ["a": 1, "b": 1])
    }
    /// The members naming never reads are passed over (`GraphIdentityCollector.passedOverMembers`),
    /// whatever they hold; an event without an identity of its own is read whole after all, since
    /// its UID is derived from all of its content. Fed whole and in small chunks, which end inside
    /// the members passed over.
    @Test func membersPassedOverChangeNoName() {
        let text = #"""
            {"value": [
            {"id": "a", "subject": "a \"quoted\" } ] subject \\", "body": {"contentType": "html", "content": "<p>{[\"x\"]}</p>"},
             "attendees": [{"emailAddress": {"name": "Team ]", "address": "t@example.com"}, "status": {"response": "none"}}],
             "organizer": null, "location": 5, "categories": [], "start": {"dateTime": "2026-12-01T09:00:00", "timeZone": "UTC"}},
            {"subject": "a POST body", "body": {"content": "no identity"}, "start": {"dateTime": "2026-12-02T09:00:00", "timeZone": "UTC"}},
            {"subject": "another POST body", "body": {"content": "no identity"}, "start": {"dateTime": "2026-12-02T09:00:00", "timeZone": "UTC"}},
            {"id": "m", "iCalUId": "series@example.com", "attendees": [], \#(Self.weekly)},
            {"id": "x1", "type": "exception", "seriesMasterId": "m", "subject": "}", "originalStart": "2026-12-08T09:00:00Z", "start": {"dateTime": "2026-12-08T11:00:00", "timeZone": "UTC"}}
            ]}
            """#
        let mapped = mapped(text)
        // The two POST bodies differ only in members passed over: their derived UIDs differ.
        #expect(mapped.count == 4 && mapped["a"] == 1 && mapped["series@example.com"] == 2)
        for chunk in [.max, 1, 5, 64] {
            let named = names(text, chunk: chunk)
            #expect(named.filter { $0.key != "x1" } == mapped, "in chunks of \(chunk)")
            #expect(named["x1"] == 1)
        }
    }
}
