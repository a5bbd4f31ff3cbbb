import CalendarModel
import Testing

@testable import GraphEvents

/// Input shapes and what goes wrong in them.
@Suite struct GraphReaderTests {
    private let one =
        #"{"id": "a", "subject": "A", "start": {"dateTime": "2026-12-01T10:00:00"}, "end": {"dateTime": "2026-12-01T11:00:00"}}"#
    private let two =
        #"{"id": "b", "subject": "B", "start": {"dateTime": "2026-12-02T10:00:00"}, "end": {"dateTime": "2026-12-02T11:00:00"}}"#

    @Test func everyInputShapeGivesTheSameEvents() {
        let shapes = [
            "[\(one), \(two)]",
            "\(one)\n\(two)\n",
            #"{"value": [\#(one)], "@odata.nextLink": "https://next"}{"@odata.context": "c", "value": [\#(two)]}"#,
        ]
        for shape in shapes {
            let result = readGraph(shape)
            #expect(result.events.map(\.summary) == ["A", "B"], "\(shape)")
            #expect(result.diagnostics == [])
        }
        #expect(readGraph(one).events.map(\.uid) == ["a"])
    }

    @Test func ndjsonRecordsKnowTheirLines() {
        let result = readGraph("\(one)\n\(two)\n")
        #expect(result.records.map(\.location.line) == [1, 2])
        #expect(result.records.map(\.location.jsonPath) == ["$", "$"])
    }

    @Test func absentZoneIsUTCAndNamesKeepTheirResolvedZone() throws {
        let events = readGraph(
            #"{"start": {"dateTime": "2026-12-01T10:00:00.0000000"}, "end": {"dateTime": "2026-12-01T11:00:00", "timeZone": "America/New_York"}}"#
        ).events
        let event = try #require(events.first)
        #expect(event.start == utc(2026, 12, 1, 10))
        #expect(
            event.end
                == .end(
                    .zoned(
                        LocalDateTime(year: 2026, month: 12, day: 1, hour: 11),
                        TimeZoneReference(name: "America/New_York", ianaIdentifier: "America/New_York"))))
    }

    /// The end reuses the start's zone only when its name is the same, byte for byte: a name one
    /// letter longer or shorter, escaped, or unknown twice is resolved (and reported) on its own.
    @Test func anEndNamesItsOwnZone() throws {
        func zones(_ start: String, _ end: String) throws -> (TimeZoneReference?, TimeZoneReference?, [String]) {
            let result = readGraph(
                #"{"start": {"dateTime": "2026-12-01T10:00:00", "timeZone": "\#(start)"}, "#
                    + #""end": {"dateTime": "2026-12-01T11:00:00", "timeZone": "\#(end)"}}"#)
            let event = try #require(result.events.first)
            guard case .end(let end)? = event.end else { return (event.start?.timeZone, nil, []) }
            return (event.start?.timeZone, end.timeZone, result.diagnostics.map { $0.location.jsonPath ?? "" })
        }
        let berlin = TimeZoneReference(name: "W. Europe Standard Time", ianaIdentifier: "Europe/Berlin")
        #expect(try zones("W. Europe Standard Time", "W. Europe Standard Time") == (berlin, berlin, []))
        #expect(try zones("W. Europe Standard Time", "Pacific Standard Time") == (berlin, pacific, []))
        #expect(try zones("Pacific Standard Time", "Pacific Standard Tim").1?.ianaIdentifier == nil)
        #expect(try zones("Pacific Standard Tim", "Pacific Standard Time").1 == pacific)
        #expect(try zones("W. Europe Standard Time", #"\u0057. Europe Standard Time"#).1 == berlin)
        #expect(try zones("Mars", "Mars").2 == ["$.start.timeZone", "$.end.timeZone"])
    }

    @Test func outlookDisplayNamesResolve() throws {
        let json =
            #"{"start": {"dateTime": "2026-12-01T10:00:00", "timeZone": "(UTC-08:00) Pacific Time (US & Canada)"}}"#
        let event = try #require(readGraph(json).events.first)
        #expect(event.start?.timeZone?.ianaIdentifier == "America/Los_Angeles")
        #expect(event.start?.timeZone?.name == "(UTC-08:00) Pacific Time (US & Canada)")
        // Written back to Graph as the Windows id.
        #expect(
            GraphEventWriter(style: .post).write([event]).output.first?["start"]?["timeZone"] == "Pacific Standard Time"
        )
    }

    @Test func unknownZoneIsKeptAndReported() throws {
        let result = readGraph(
            #"[{"id": "z", "start": {"dateTime": "2026-12-01T10:00:00", "timeZone": "Mars Standard Time"}}]"#)
        let event = try #require(result.events.first)
        #expect(
            event.start
                == .zoned(
                    LocalDateTime(year: 2026, month: 12, day: 1, hour: 10),
                    TimeZoneReference(name: "Mars Standard Time")))
        #expect(result.diagnostics.map(\.code) == ["unknown-time-zone"])
        #expect(result.diagnostics.first?.location.jsonPath == "$[0].start.timeZone")
    }

    @Test func aWrongTypeIsReportedWithPathAndIDAndTheEventsStillConvert() throws {
        let result = readGraph(
            "[\(one),\n"
                + #"{"id": "bad", "subject": 5, "isAllDay": "no", "attendees": [3], "start": {"dateTime": "2026-12-03T10:00:00"}}, "#
                + "\(two)]")
        #expect(result.events.map(\.uid) == ["a", "bad", "b"])
        #expect(result.diagnostics.map(\.code) == ["graph-wrong-type", "graph-wrong-type", "graph-wrong-type"])
        #expect(result.diagnostics.map(\.location.jsonPath) == ["$[1].subject", "$[1].isAllDay", "$[1].attendees[0]"])
        #expect(result.diagnostics.allSatisfy { $0.uid == "bad" && $0.location.line == 2 })
        #expect(result.diagnostics[0].message == "subject should be a string, found number; ignored")
    }

    @Test func aSyntaxErrorStopsReadingButKeepsWhatCameBefore() {
        let result = GraphEventReader(file: "in.json").read(Array("\(one)\n{\"id\": \"c\",,}\n\(two)".utf8))
        #expect(result.events.map(\.uid) == ["a"])
        #expect(
            result.diagnostics.map(\.description) == [
                "in.json:2:12: error: unexpected ',', expected a member name; reading stops here [json-syntax]"
            ])
    }

    @Test func duplicateKeysAreReported() {
        let result = readGraph(
            #"[{"id": "d", "subject": "x", "subject": "y", "start": {"dateTime": "2026-12-01T10:00:00"}}]"#)
        #expect(result.events.first?.summary == "y")
        #expect(result.diagnostics.map(\.code) == ["json-duplicate-key"])
    }

    /// RFC 5545 §3.3.4 gives DATE-TIME a four-digit year: an offset that carries an instant past
    /// 9999-12-31 in UTC makes a time iCalendar cannot write, so it is reported and left out.
    @Test func instantsPastTheYear9999InUTCAreReportedNotWrittenWithFiveDigits() {
        let result = readGraph(
            """
            [{"id": "late", "createdDateTime": "9999-12-31T23:30:00-01:00",
              "lastModifiedDateTime": "9999-12-31T23:30:00+01:00",
              "start": {"dateTime": "9999-12-31T22:00:00"}},
             {"id": "later", "start": {"dateTime": "9999-12-31T23:00:00-05:00"}}]
            """)
        // 23:30 at −01:00 is 00:30 on 10000-01-01 in UTC; 23:30 at +01:00 is 22:30 on 9999-12-31.
        #expect(result.events.map(\.uid) == ["late"])
        #expect(result.events.first?.created == nil)
        #expect(result.events.first?.lastModified == utc(9999, 12, 31, 22, 30))
        #expect(
            result.diagnostics.map { "\($0.code) \($0.location.jsonPath ?? "")" } == [
                "graph-invalid-date-time $[0].createdDateTime", "graph-invalid-date-time $[1].start.dateTime",
                "graph-missing-start $[1].start",
            ])
    }

    @Test func escapedMemberNamesAreTheNamesTheyDecodeTo() {
        // "subj\u0065ct" is "subject" (RFC 8259 §7); repeated in escaped form, the last value wins.
        let result = readGraph(
            #"{"id": "e", "subj\u0065ct": "x", "\u0073ubject": "y", "start": {"dateTime": "2026-12-01T10:00:00"}}"#)
        #expect(result.events.first?.summary == "y")
        #expect(result.diagnostics.map(\.code) == ["json-duplicate-key"])
    }

    @Test func notAnEventAndNotJSON() {
        #expect(readGraph("[1]").diagnostics.map(\.code) == ["graph-not-an-event"])
        #expect(readGraph("\"x\"").diagnostics.map(\.code) == ["json-syntax"])
        #expect(readGraph("").events.isEmpty)
    }

    @Test func statusFieldsTheWayOutlookWritesThem() throws {
        let json = #"""
            {"start": {"dateTime": "2026-12-01T10:00:00"}, "showAs": "free", "sensitivity": "private", "importance": "high",
             "isCancelled": true, "allowNewTimeProposals": false, "isReminderOn": false, "reminderMinutesBeforeStart": 15,
             "attendees": [{"type": "resource", "status": {"response": "accepted"}, "emailAddress": {"name": "Room 1", "address": "room1@contoso.com"}},
                           {"type": "optional", "status": {"response": "declined"}, "emailAddress": {"address": "x@contoso.com"}}],
             "body": {"contentType": "text", "content": "line 1\nline 2"}}
            """#
        let event = try #require(readGraph(json).events.first)
        #expect(event.busyStatus == .free && event.transparency == .transparent)
        #expect(event.classification == .private)
        #expect(event.importance == .high && event.priority == 1)
        #expect(event.status == .cancelled)
        #expect(event.allowsNewTimeProposals == false)
        #expect(event.alarms == [])
        #expect(event.attendees.map(\.role) == [.nonParticipant, .optional])
        #expect(event.attendees.map(\.userType) == [.resource, nil])
        #expect(event.attendees.map(\.participationStatus) == [.accepted, .declined])
        #expect(event.description == "line 1\nline 2" && event.htmlDescription == nil)
    }

    @Test func extraPropertiesAreICalendarText() throws {
        let event = try #require(
            readGraph(#"{"start": {"dateTime": "2026-12-01T10:00:00"}, "originalStartTimeZone": "a,b;c\\d\ne"}"#).events
                .first)
        #expect(event.extra("X-CALPORT-GRAPH-ORIGINAL-START-TZ") == #"a\,b\;c\\d\ne"#)
        #expect(event.graphExtra(.originalStartTimeZone) == "a,b;c\\d\ne")
    }
}
