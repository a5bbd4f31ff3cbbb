import CalendarModel
import Testing

@testable import GraphEvents

/// A series keeps its wall-clock hours: a master is written in its recurrenceTimeZone whatever
/// zone its start came in, and its EXDATEs and RECURRENCE-IDs in the same zone.
@Suite struct SeriesZoneMappingTests {
    /// Weekly on Tuesday 09:00 Berlin from 9 March 2027, six times; 30 March cancelled and 6 April
    /// (07:00Z: Berlin is UTC+2 from 28 March) moved to the Wednesday. `start` and `end` are the
    /// master's, in whatever zone a dump has them.
    func series(start: String, end: String, zone: String) -> String {
        """
        {"value": [
         {"id": "S", "type": "seriesMaster", "subject": "Weekly",
          "start": {"dateTime": "\(start)", "timeZone": "\(zone)"}, "end": {"dateTime": "\(end)", "timeZone": "\(zone)"},
          "originalStartTimeZone": "W. Europe Standard Time",
          "recurrence": {"pattern": {"type": "weekly", "interval": 1, "daysOfWeek": ["tuesday"]},
                         "range": {"type": "numbered", "startDate": "2027-03-09", "numberOfOccurrences": 6,
                                   "recurrenceTimeZone": "W. Europe Standard Time"}},
          "cancelledOccurrences": ["OID.S.2027-03-30"]},
         {"id": "S.x", "type": "exception", "seriesMasterId": "S", "subject": "Moved",
          "originalStart": "2027-04-06T07:00:00Z",
          "start": {"dateTime": "2027-04-07T07:00:00", "timeZone": "UTC"},
          "end": {"dateTime": "2027-04-07T08:00:00", "timeZone": "UTC"}}
        ]}
        """
    }

    func berlin(_ month: Int, _ day: Int, _ hour: Int) -> (LocalDateTime, String?) {
        (LocalDateTime(year: 2027, month: month, day: day, hour: hour), "Europe/Berlin")
    }

    func wall(_ time: CalendarTime?) -> (LocalDateTime, String?)? {
        guard case .zoned(let local, let zone)? = time else { return nil }
        return (local, zone.ianaIdentifier)
    }

    @Test func aUTCStartAndAZonedStartGiveTheSameSeries() throws {
        // 08:00Z on 9 March is 09:00 in Berlin (UTC+1 until 28 March); 07:00 Pacific is 08:00Z too.
        let inputs = [
            series(start: "2027-03-09T08:00:00.0000000", end: "2027-03-09T09:00:00.0000000", zone: "UTC"),
            series(start: "2027-03-09T09:00:00", end: "2027-03-09T10:00:00", zone: "W. Europe Standard Time"),
            series(start: "2027-03-09T00:00:00", end: "2027-03-09T01:00:00", zone: "Pacific Standard Time"),
        ]
        for input in inputs {
            let result = readGraph(input)
            let master = try #require(result.events.first { $0.recurrenceID == nil })
            let moved = try #require(result.events.first { $0.recurrenceID != nil })
            #expect(wall(master.start) ?? berlin(1, 1, 0) == berlin(3, 9, 9), "DTSTART in the series' zone")
            if case .end(let end)? = master.end { #expect(wall(end) ?? berlin(1, 1, 0) == berlin(3, 9, 10)) }
            #expect(master.exceptionDates.count == 1)
            #expect(wall(master.exceptionDates.first) ?? berlin(1, 1, 0) == berlin(3, 30, 9), "EXDATE at 09:00 Berlin")
            #expect(
                wall(moved.recurrenceID?.time) ?? berlin(1, 1, 0) == berlin(4, 6, 9), "RECURRENCE-ID at 09:00 Berlin")
            #expect(master.recurrenceRules.first?.end == .count(6))
        }
        let fromUTC = readGraph(inputs[0]).diagnostics.map(\.code)
        #expect(fromUTC.contains("graph-series-zone"), "the move is reported")
    }

    @Test func anUnknownSeriesZoneIsReported() throws {
        let input = series(start: "2027-03-09T08:00:00", end: "2027-03-09T09:00:00", zone: "UTC")
            .replacingOccurrences(
                of: #""recurrenceTimeZone": "W. Europe Standard Time""#, with: #""recurrenceTimeZone": "Mars Time""#)
        let result = readGraph(input)
        #expect(result.diagnostics.contains { $0.code == "unknown-time-zone" && $0.message.contains("Mars Time") })
    }

    @Test func anAllDayOccurrenceIsMatchedByItsDateInTheSeriesZone() throws {
        // Graph gives the originalStart as the mailbox's midnight in UTC: 15:00Z the day before for a
        // Tokyo mailbox (UTC+9), 08:00Z for a Pacific one; both are 15 March in the series.
        for originalStart in ["2027-03-14T15:00:00Z", "2027-03-15T07:00:00Z"] {
            let input = """
                {"value": [
                 {"id": "A", "type": "seriesMaster", "isAllDay": true,
                  "start": {"dateTime": "2027-03-01T00:00:00", "timeZone": "UTC"},
                  "end": {"dateTime": "2027-03-02T00:00:00", "timeZone": "UTC"},
                  "originalStartTimeZone": "W. Europe Standard Time",
                  "recurrence": {"pattern": {"type": "weekly", "interval": 1, "daysOfWeek": ["monday"]},
                                 "range": {"type": "numbered", "startDate": "2027-03-01", "numberOfOccurrences": 6}}},
                 {"id": "A.x", "type": "exception", "seriesMasterId": "A", "isAllDay": true, "originalStart": "\(originalStart)",
                  "start": {"dateTime": "2027-03-16T00:00:00", "timeZone": "UTC"},
                  "end": {"dateTime": "2027-03-17T00:00:00", "timeZone": "UTC"}}
                ]}
                """
            let moved = try #require(readGraph(input).events.first { $0.recurrenceID != nil })
            #expect(moved.recurrenceID?.time == .date(CalendarDate(year: 2027, month: 3, day: 15)), "\(originalStart)")
        }
    }
}
