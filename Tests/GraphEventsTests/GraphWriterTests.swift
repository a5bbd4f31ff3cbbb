import CalendarModel
import Testing

@testable import GraphEvents

/// A daily 08:00 Pacific stand-up with one moved and one cancelled occurrence.
private func standUp() -> [Event] {
    var master = Event(uid: "calport-standup@example.com")
    master.summary = "Stand-up"
    master.start = .zoned(
        LocalDateTime(year: 2026, month: 11, day: 30, hour: 8),
        TimeZoneReference(name: "America/Los_Angeles", ianaIdentifier: "America/Los_Angeles"))
    master.end = .duration(EventDuration(minutes: 15))
    master.recurrenceRules = [
        RecurrenceRule(
            frequency: .daily, byDay: [.monday, .tuesday, .wednesday, .thursday, .friday].map { WeekdayNumber($0) })
    ]
    master.exceptionDates = [utc(2026, 12, 3, 16)]
    var moved = master
    moved.recurrenceRules = []
    moved.exceptionDates = []
    moved.recurrenceID = RecurrenceIdentifier(
        time: master.start!.withLocalDateTime(LocalDateTime(year: 2026, month: 12, day: 2, hour: 8)))
    moved.start = master.start!.withLocalDateTime(LocalDateTime(year: 2026, month: 12, day: 2, hour: 10))
    return [master, moved]
}

@Suite struct GraphWriterTests {
    @Test func transactionIDsMatchAnIndependentSHA256() {
        // Python: hashlib.sha256(key.encode()).digest()[:16], version nibble 8, variant 10xx.
        #expect(GraphTransactionID.make(uid: "") == "E3B0C442-98FC-8C14-9AFB-F4C8996FB924")
        #expect(GraphTransactionID.make(uid: "abc") == "BA7816BF-8F01-8FEA-8141-40DE5DAE2223")
        #expect(GraphTransactionID.make(uid: "calport-standup@example.com") == "20474004-0351-8289-AB58-E73979D291E2")
        #expect(
            GraphTransactionID.make(uid: "calport-standup@example.com", recurrenceID: "20261202T160000Z")
                == "C293177E-0557-8D7C-88F1-3C817AB56E41")
    }

    @Test func postWritesMasterOverrideAndCancellationEntries() {
        let result = GraphEventWriter(style: .post).write(standUp())
        #expect(result.diagnostics == [])
        #expect(result.output.count == 3)
        let master = result.output[0]
        #expect(master["transactionId"] == "20474004-0351-8289-AB58-E73979D291E2")
        #expect(master["start"] == ["dateTime": "2026-11-30T08:00:00", "timeZone": "Pacific Standard Time"])
        #expect(master["end"] == ["dateTime": "2026-11-30T08:15:00", "timeZone": "Pacific Standard Time"])
        #expect(
            master["recurrence"]?["pattern"] == [
                "type": "weekly", "interval": 1,
                "daysOfWeek": ["monday", "tuesday", "wednesday", "thursday", "friday"], "firstDayOfWeek": "monday",
            ])
        #expect(master["iCalUId"] == nil && master["id"] == nil && master["cancelledOccurrences"] == nil)
        let moved = result.output[1]
        #expect(moved["transactionId"] == "C293177E-0557-8D7C-88F1-3C817AB56E41")
        #expect(moved[GraphEventWriter.seriesMasterAnnotation] == "20474004-0351-8289-AB58-E73979D291E2")
        #expect(moved["originalStart"] == "2026-12-02T16:00:00Z")
        #expect(moved["start"]?["dateTime"] == "2026-12-02T10:00:00")
        #expect(
            result.output[2] == [
                "isCancelled": true, "@calport.seriesMasterTransactionId": "20474004-0351-8289-AB58-E73979D291E2",
                "originalStart": "2026-12-03T16:00:00Z",
            ])
    }

    @Test func fullWritesCancelledOccurrencesAndExceptions() {
        let result = GraphEventWriter(style: .full).write(standUp())
        #expect(result.output.count == 2)
        #expect(result.output[0]["type"] == "seriesMaster")
        #expect(result.output[0]["iCalUId"] == "calport-standup@example.com")
        #expect(result.output[0]["cancelledOccurrences"] == ["OID.calport-standup@example.com.2026-12-03"])
        #expect(result.output[0]["start"]?["dateTime"] == "2026-11-30T08:00:00.0000000")
        #expect(result.output[1]["type"] == "exception")
        #expect(result.output[1]["seriesMasterId"] == "calport-standup@example.com")
        #expect(result.output[1]["originalStart"] == "2026-12-02T16:00:00Z")
    }

    @Test func modelToGraphToModelKeepsWhatGraphHolds() throws {
        let result = GraphEventWriter(style: .full).write(standUp())
        let back = readGraph(JSONWriter().string(.array(result.output))).events
        #expect(back.count == 2)
        let original = standUp()
        #expect(back[0].start?.graphUTC() == original[0].start?.graphUTC())
        #expect(back[0].start?.timeZone?.name == "Pacific Standard Time")  // written as the Windows name
        #expect(
            back[0].recurrenceRules == [
                RecurrenceRule(
                    frequency: .weekly,
                    byDay: [.monday, .tuesday, .wednesday, .thursday, .friday].map { WeekdayNumber($0) },
                    weekStart: .monday)
            ])
        #expect(back[0].exceptionDates.map { $0.graphUTC() } == [utc(2026, 12, 3, 16).graphUTC()])
        #expect(back[1].recurrenceID?.time.graphUTC() == original[1].recurrenceID?.time.graphUTC())
        #expect(back[1].uid == original[0].uid)
    }

    @Test func allDayOverridesAreTiedAtMidnightInTheSeriesZone() throws {
        // An all-day series read with Prefer: Pacific; its exception's originalStart is Pacific
        // midnight (08:00 UTC), which must name the same day both ways.
        let json = """
            [{"id": "M", "type": "seriesMaster", "isAllDay": true, "originalStartTimeZone": "Pacific Standard Time",
              "start": {"dateTime": "2026-11-30T00:00:00", "timeZone": "Pacific Standard Time"},
              "end": {"dateTime": "2026-12-01T00:00:00", "timeZone": "Pacific Standard Time"},
              "recurrence": {"pattern": {"type": "daily", "interval": 1}, "range": {"type": "numbered", "startDate": "2026-11-30", "numberOfOccurrences": 5}}},
             {"id": "X", "type": "exception", "seriesMasterId": "M", "isAllDay": true, "subject": "moved", "originalStart": "2026-12-02T08:00:00Z",
              "start": {"dateTime": "2026-12-05T00:00:00", "timeZone": "Pacific Standard Time"},
              "end": {"dateTime": "2026-12-06T00:00:00", "timeZone": "Pacific Standard Time"}}]
            """
        let events = readGraph(json).events
        #expect(events.count == 2)
        #expect(events[1].recurrenceID == RecurrenceIdentifier(time: .date(date(2026, 12, 2))))
        let written = GraphEventWriter(style: .full).write(events).output
        #expect(written[1]["originalStart"] == "2026-12-02T08:00:00Z")
        #expect(
            written[0]["start"] == ["dateTime": "2026-11-30T00:00:00.0000000", "timeZone": "Pacific Standard Time"])
    }

    @Test func propertiesAndWhatIsLost() throws {
        var event = Event(uid: "p")
        event.summary = "Review"
        event.description = "Plain"
        event.htmlDescription = "<p>Plain</p>"
        event.start = .date(date(2026, 12, 1))
        event.end = .end(.date(date(2026, 12, 2)))
        event.transparency = .transparent
        event.classification = .confidential
        event.priority = 2
        event.status = .cancelled
        event.alarms = [.minutesBeforeStart(10), .minutesBeforeStart(60)]
        event.attendees = [
            Attendee(participant: Participant(address: "mailto:room@contoso.com", commonName: "Room"), userType: .room)
        ]
        event.conferences = [Conference(uri: "https://meet.example/1")]
        event.locations = [
            Location(name: "A"), Location(name: "B", coordinates: GeoCoordinate(latitude: 1.5, longitude: -2)),
        ]
        let result = GraphEventWriter(style: .post).write([event])
        let json = try #require(result.output.first)
        #expect(json["isAllDay"] == true)
        #expect(json["start"] == ["dateTime": "2026-12-01T00:00:00", "timeZone": "UTC"])
        #expect(json["end"] == ["dateTime": "2026-12-02T00:00:00", "timeZone": "UTC"])
        #expect(json["body"] == ["contentType": "html", "content": "<p>Plain</p>"])
        #expect(json["showAs"] == "free" && json["sensitivity"] == "confidential" && json["importance"] == "high")
        #expect(json["isReminderOn"] == true && json["reminderMinutesBeforeStart"] == 10)
        #expect(
            json["attendees"] == [
                ["type": "resource", "emailAddress": ["name": "Room", "address": "room@contoso.com"]]
            ])
        #expect(json["location"] == ["displayName": "A; B"])
        #expect(
            json["locations"] == [
                ["displayName": "A"], ["displayName": "B", "coordinates": ["latitude": 1.5, "longitude": -2]],
            ])
        #expect(json["isCancelled"] == nil && json["onlineMeeting"] == nil)
        var located = event
        located.locations = [
            Location(
                name: "Hall",
                parameters: [
                    Parameter("X-CALPORT-GRAPH-UNIQUE-ID", "Hall"),
                    Parameter("X-CALPORT-GRAPH-LOCATION-TYPE", "default"),
                ])
        ]
        #expect(
            GraphEventWriter(style: .post).write([located]).output.first?["location"] == [
                "displayName": "Hall", "locationType": "default",
            ])
        #expect(
            GraphEventWriter(style: .full).write([located]).output.first?["location"] == [
                "displayName": "Hall", "locationType": "default", "uniqueId": "Hall",
            ])
        #expect(
            result.diagnostics.map(\.message) == [
                "Graph keeps one reminder before the start; 1 other alarm(s) left out",
                "a POST cannot create a cancelled event; STATUS:CANCELLED is lost",
                "a POST cannot set a meeting link; https://meet.example/1 is lost",
                "Graph has no place for PRIORITY:2; left out",
            ])
    }

    @Test func whatNoGraphMemberHoldsIsListed() {
        var event = Event(uid: "l")
        event.start = utc(2026, 12, 1, 9)
        event.sequence = 2
        event.priority = 3
        event.url = "https://example.com/e"
        event.attachments = [Attachment(content: .uri("https://example.com/a.pdf"))]
        event.extraProperties = [
            ExtraProperty(name: "X-FOO", value: "1"), ExtraProperty(name: "X-FOO", value: "2"),
            ExtraProperty(name: "X-CALPORT-GRAPH-IS-DRAFT", value: "FALSE"),
        ]
        event.extraComponents = [ExtraComponent(name: "X-THING")]
        let post = GraphEventWriter(style: .post).write([event]).diagnostics
        #expect(
            post.map(\.message) == [
                "Graph has no SEQUENCE (revision number); left out",
                "Graph has no place for ATTACH, PRIORITY:3, URL, X-FOO, X-THING; left out",
            ])
        #expect(post.map(\.code) == ["graph-sequence-lost", "graph-properties-lost"])
        #expect(post.allSatisfy { $0.severity == .warning })
        #expect(GraphEventWriter(style: .full).write([event]).output.first?["webLink"] == "https://example.com/e")
    }
}

/// Written as text (`write(_:appendingTo:separatesFirst:)`, what `convert --to graph` writes), the
/// entries are the values `write(_:)` makes, as `JSONWriter` writes them, with `,\n` between them:
/// a refused series leaves nothing, an override without its master and an event without a UID are
/// written as they are there, and the diagnostics are the same.
@Test(arguments: [GraphOutputStyle.post, .full], [false, true])
func entriesWrittenAsTextAreTheValuesWritten(style: GraphOutputStyle, separatesFirst: Bool) {
    var refused = Event(uid: "refused@example.com")
    refused.start = .utc(LocalDateTime(year: 2026, month: 12, day: 1, hour: 9))
    refused.recurrenceRules = [RecurrenceRule(frequency: .hourly)]
    var orphan = standUp()[1]
    orphan.uid = "orphan@example.com"
    var meeting = Event(uid: "")
    meeting.summary = "Review \"Q4\"\n(draft)"
    meeting.description = "Agenda:\n1. Figures\t2. Risks"
    meeting.start = .date(CalendarDate(year: 2026, month: 12, day: 4))
    meeting.locations = [Location(name: "Room 1"), Location(name: "Room 2")]
    meeting.organizer = Participant(address: "MAILTO:ana@example.com", commonName: "Ana")
    meeting.attendees = [
        Attendee(participant: Participant(address: "mailto:bo@example.com"), role: .optional),
        Attendee(participant: Participant(address: "urn:uuid:room-1", commonName: "Room 1"), userType: .room),
    ]
    let events = standUp() + [refused, orphan, meeting]
    let writer = GraphEventWriter(style: style, annotatesIdentity: style == .post)
    let values = writer.write(events)
    var bytes = Array("[\n".utf8)
    let text = writer.write(events, appendingTo: &bytes, separatesFirst: separatesFirst)
    let expected =
        "[\n" + (separatesFirst ? ",\n" : "") + values.output.map { JSONWriter().string($0) }.joined(separator: ",\n")
    // The stand-up's master, its moved occurrence and (a POST's) its cancelled one; the orphan; the meeting.
    #expect(values.output.count == (style == .post ? 5 : 4))
    #expect(text.output == values.output.count)
    #expect(String(decoding: bytes, as: UTF8.self) == expected)
    #expect(text.diagnostics == values.diagnostics)
    #expect(text.diagnostics.contains { $0.uid == "refused@example.com" && $0.severity == .error })
}

/// An entry far longer than what an event usually makes (a 200 KB description, escapes throughout,
/// and a 40 KB location), between two short ones, is written as text whole and in its place: the
/// text's memory grows under it, inside the nested `body` and `location` objects, without losing
/// what was written before.
@Test func aLongEntryIsWrittenAsTextWhole() {
    var long = Event(uid: "long@example.com")
    long.start = .date(CalendarDate(year: 2026, month: 12, day: 7))
    long.description = String(repeating: "Line \"quoted\"\tand\u{1} é\n", count: 8_000)
    long.locations = [Location(name: String(repeating: "Room \\ 1, ", count: 4_000))]
    var short = Event(uid: "short@example.com")
    short.start = .date(CalendarDate(year: 2026, month: 12, day: 8))
    short.summary = "Short"
    var after = short
    after.uid = "after@example.com"
    let events = [short, long, after]
    let writer = GraphEventWriter(style: .post)
    var bytes: [UInt8] = []
    let text = writer.write(events, appendingTo: &bytes, separatesFirst: false)
    #expect(text.output == 3)
    let expected = writer.write(events).output.map { JSONWriter().string($0) }.joined(separator: ",\n")
    #expect(bytes.count > 200_000)
    #expect(String(decoding: bytes, as: UTF8.self) == expected)
    // The description reads back as it was, each escape undone (RFC 8259 §7).
    let entries = try? JSONParser.parse(Array(("[" + String(decoding: bytes, as: UTF8.self) + "]").utf8))
    guard case .array(let values)? = entries, values.count == 3 else {
        Issue.record("the entries are not a JSON array of three")
        return
    }
    #expect(values[1]["body"]?["content"] == .string(long.description!))
    #expect(values[1]["location"]?["displayName"] == .string(long.locations[0].name))
}
