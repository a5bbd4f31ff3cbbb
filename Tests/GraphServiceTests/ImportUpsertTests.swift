import CalendarModel
import Foundation
import GraphEvents
import GraphService
import ICalendar
import Testing

/// The safe-import acceptance tests: no mail unless asked, the source identity kept in Graph and
/// given back by export, and a re-import that updates, deletes and never duplicates.
@Suite struct ImportUpsertTests {
    /// Three meetings and a plain event; attendees and organizers written by hand, counted below.
    static let meetings = """
        BEGIN:VCALENDAR\r
        VERSION:2.0\r
        PRODID:-//calport tests//meetings//EN\r
        BEGIN:VEVENT\r
        UID:standup@calport.test\r
        DTSTAMP:20261201T000000Z\r
        SUMMARY:Standup\r
        DESCRIPTION:Daily notes\r
        DTSTART:20270104T090000Z\r
        DTEND:20270104T091500Z\r
        ORGANIZER;CN=Olga Organiser:mailto:olga@old.example\r
        ATTENDEE;CN=Ann;ROLE=REQ-PARTICIPANT:mailto:ann@old.example\r
        ATTENDEE;CN=Bert;ROLE=OPT-PARTICIPANT:mailto:bert@partner.test\r
        END:VEVENT\r
        BEGIN:VEVENT\r
        UID:review@calport.test\r
        DTSTAMP:20261201T000000Z\r
        SUMMARY:Review\r
        DTSTART:20270105T140000Z\r
        DTEND:20270105T150000Z\r
        ORGANIZER:mailto:olga@old.example\r
        ATTENDEE:mailto:ann@old.example\r
        ATTENDEE:mailto:cleo@example.com\r
        ATTENDEE:mailto:dan@partner.test\r
        END:VEVENT\r
        BEGIN:VEVENT\r
        UID:weekly@calport.test\r
        DTSTAMP:20261201T000000Z\r
        SUMMARY:Weekly\r
        DTSTART:20270106T100000Z\r
        DTEND:20270106T110000Z\r
        RRULE:FREQ=WEEKLY;COUNT=4\r
        EXDATE:20270120T100000Z\r
        ATTENDEE:mailto:ann@old.example\r
        END:VEVENT\r
        BEGIN:VEVENT\r
        UID:weekly@calport.test\r
        DTSTAMP:20261201T000000Z\r
        RECURRENCE-ID:20270113T100000Z\r
        SUMMARY:Weekly (moved)\r
        DTSTART:20270114T100000Z\r
        DTEND:20270114T110000Z\r
        ATTENDEE:mailto:ann@old.example\r
        END:VEVENT\r
        BEGIN:VEVENT\r
        UID:plain@calport.test\r
        DTSTAMP:20261201T000000Z\r
        SUMMARY:Dentist\r
        DTSTART:20270107T080000Z\r
        DTEND:20270107T090000Z\r
        END:VEVENT\r
        END:VCALENDAR\r

        """

    struct Setup {
        let emulator: GraphEmulator
        let calport: CalportBinary
        let directory: URL
        var environment: [String: String] {
            ["CALPORT_GRAPH_URL": emulator.graphURL.absoluteString, "CALPORT_TOKEN": GraphEmulator.token]
        }

        init() throws {
            emulator = try GraphEmulator()
            calport = try CalportBinary()
            directory = FileManager.default.temporaryDirectory.appendingPathComponent("calport-upsert-\(UUID())")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        }

        func write(_ text: String, _ name: String) throws -> String {
            let url = directory.appendingPathComponent(name)
            try text.write(to: url, atomically: true, encoding: .utf8)
            return url.path
        }

        func events(calendar: String = "AAMkDefault") async throws -> [JSONValue] {
            (try await emulator.state()["events"]?.arrayValue ?? []).filter { $0["calendar"]?.stringValue == calendar }
        }

        /// The report's lines, after whatever was printed before it.
        func report(_ run: CalportBinary.Run) -> [String] {
            Array(run.stderr.split(separator: "\n").map(String.init).drop { !$0.hasPrefix("created: ") })
        }
    }

    @Test(.timeLimit(.minutes(1))) func sendsNoMailByDefaultAndKeepsWhatExportGivesBack() async throws {
        let setup = try Setup()
        defer { try? FileManager.default.removeItem(at: setup.directory) }
        let file = try setup.write(Self.meetings, "meetings.ics")
        let run = try await setup.calport.run(["import", file], environment: setup.environment)
        #expect(run.status == 0, "\(run.stderr)")
        // 4 events; the series' moved occurrence and its cancellation count with it.
        #expect(
            setup.report(run) == [
                "created: 6", "updated: 0", "unchanged: 0", "deleted: 0", "failed: 0", "mail sent: 0",
            ])
        let events = try await setup.events()
        #expect(events.count == 4)
        for event in events {
            // Graph invites exactly the attendees it receives, and makes the owner the organizer.
            #expect(event["attendees"] == nil, "\(event["subject"] ?? "")")
            #expect(event["organizer"]?["emailAddress"]?["address"] == "user@example.com")
        }
        #expect(try await setup.emulator.state()["mail"]?.arrayValue == [], "Graph sent no mail")
        let standup = try #require(events.first { $0["subject"] == "Standup" })
        #expect(
            standup["body"]?["content"]?.stringValue?.hasPrefix(
                "Daily notes\n\n-- calport: participants kept from the import; no invitation was sent --\n"
                    + "Organizer: Olga Organiser <olga@old.example>\nRequired: Ann <ann@old.example>\n"
                    + "Optional: Bert <bert@partner.test>") == true)

        let exported = setup.directory.appendingPathComponent("back.ics")
        let export = try await setup.calport.run(
            ["export", "--start", "2027-01-01", "--end", "2027-02-01", "--tz", "UTC", "-o", exported.path],
            environment: setup.environment)
        #expect(export.status == 0, "\(export.stderr)")
        let original = ICalendarParser().parse(Array(Self.meetings.utf8), file: "meetings").document
        let back = ICalendarParser().parse(Array(try Data(contentsOf: exported)), file: "back").document
        func identity(_ event: Event) -> String {
            let attendees = event.attendees.map { $0.participant.emailAddress ?? "" }.sorted()
            return [
                event.uid, event.recurrenceID.map { "\($0.time)" } ?? "-", event.summary ?? "",
                event.organizer?.emailAddress ?? "-", attendees.joined(separator: ","), event.description ?? "-",
            ].joined(separator: " | ")
        }
        #expect(back.events.map(identity).sorted() == original.events.map(identity).sorted())

        // Again, without a journal: nothing changes.
        let again = try await setup.calport.run(["import", file], environment: setup.environment)
        #expect(
            setup.report(again) == [
                "created: 0", "updated: 0", "unchanged: 6", "deleted: 0", "failed: 0", "mail sent: 0",
            ])
        #expect(try await setup.events().count == 4)
    }

    @Test(.timeLimit(.minutes(1))) func invitesEachAttendeeOnceWhenAskedAndSaysSoFirst() async throws {
        let setup = try Setup()
        defer { try? FileManager.default.removeItem(at: setup.directory) }
        let file = try setup.write(Self.meetings, "meetings.ics")
        let arguments = [
            "import", "--attendees", "invite", "--map-address", "old.example=example.com", "--report",
            setup.directory.appendingPathComponent("report.json").path, file,
        ]
        // Standup 2, Review 3, Weekly 1: 6 invitations to ann, bert, cleo and dan at example.com
        // (after the mapping) and partner.test; the mailbox (user@example.com) is at example.com.
        let expected = "6 invitations to 4 addresses (2 outside example.com)"
        let dry = try await setup.calport.run(
            ["import", "--dry-run"] + arguments.dropFirst(), environment: setup.environment)
        #expect(dry.stderr.contains("mail to be sent: \(expected)\n"), "\(dry.stderr)")
        #expect(try await setup.events().isEmpty, "a dry run sends nothing")

        let run = try await setup.calport.run(arguments, environment: setup.environment)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(setup.report(run).last == "mail sent: \(expected)")
        let events = try await setup.events()
        let invited = Dictionary(
            events.map { event in
                (
                    event["subject"]?.stringValue ?? "",
                    (event["attendees"]?.arrayValue ?? []).compactMap { $0["emailAddress"]?["address"]?.stringValue }
                )
            }, uniquingKeysWith: { first, _ in first })
        #expect(invited["Standup"] == ["ann@example.com", "bert@partner.test"])
        #expect(invited["Review"] == ["ann@example.com", "cleo@example.com", "dan@partner.test"])
        #expect(invited["Weekly"] == ["ann@example.com"])
        #expect(invited["Dentist"] == [])
        // What Graph sent: one message to each attendee of each event. A series gets its attendees
        // in the PATCH that finishes it (after its occurrences are in place), which Graph sends
        // them as it sends any change of a meeting (docs-contrib issues #7911, #6637).
        let mail = try await setup.emulator.state()["mail"]?.arrayValue ?? []
        let pairs = mail.map { "\($0["eventId"]?.stringValue ?? "") \($0["to"]?.stringValue ?? "")" }
        #expect(mail.count == 6 && Set(pairs).count == 6, "\(mail)")
        let singles = Set(events.filter { $0["type"] == "singleInstance" }.compactMap { $0["id"]?.stringValue })
        #expect(
            mail.filter { singles.contains($0["eventId"]?.stringValue ?? "") }.allSatisfy { $0["kind"] == "invitation" }
        )
        let weekly = try #require(events.first { $0["subject"] == "Weekly" })
        #expect(weekly["exceptions"]?.objectValue?.members.count == 1)
        #expect(weekly["cancelled"]?.arrayValue == ["2027-01-20T10:00:00Z"])
        let report = try JSONParser.parse(
            Array(try Data(contentsOf: setup.directory.appendingPathComponent("report.json"))))
        #expect(report["mail"]?["invitations"] == 6)
        #expect(report["mail"]?["outsideDomain"] == 2)
        #expect(report["created"] == 6)

        // An edited meeting is PATCHed, which Graph sends its 3 attendees; a pruned one cancelled.
        let edited = Self.meetings.replacingOccurrences(of: "SUMMARY:Review\r\n", with: "SUMMARY:Review (moved)\r\n")
            .replacingOccurrences(of: "UID:standup@calport.test", with: "UID:standup-2@calport.test")
        _ = try setup.write(edited, "meetings.ics")
        let again = try await setup.calport.run(
            ["import", "--prune"] + arguments.dropFirst().filter { $0 != "--report" && !$0.hasSuffix(".json") },
            environment: setup.environment)
        #expect(again.status == 0, "\(again.stderr)")
        // Review: 3 updates; the new Standup: 2 invitations; the old one, pruned: 2 cancellations.
        #expect(
            setup.report(again).last
                == "mail sent: 2 invitations, 3 updates, 2 cancellations to 4 addresses (2 outside example.com)")
        let sent = try await setup.emulator.state()["mail"]?.arrayValue ?? []
        #expect(sent.count == 6 + 7, "\(sent.dropFirst(6))")
    }

    @Test(.timeLimit(.minutes(1))) func aPruningReimportUpdatesTheEditedAndDeletesTheRemoved() async throws {
        let setup = try Setup()
        defer { try? FileManager.default.removeItem(at: setup.directory) }
        let file = try setup.write(Self.meetings, "feed.ics")
        _ = try await setup.calport.run(["import", file], environment: setup.environment)
        var edited = Self.meetings.replacingOccurrences(of: "SUMMARY:Review\r\n", with: "SUMMARY:Review (new room)\r\n")
        let dentist = try #require(edited.range(of: "BEGIN:VEVENT\r\nUID:plain@calport.test"))
        let dentistEnd = try #require(edited.range(of: "END:VEVENT\r\n", range: dentist.upperBound..<edited.endIndex))
        edited.removeSubrange(dentist.lowerBound..<dentistEnd.upperBound)
        _ = try setup.write(edited, "feed.ics")
        let run = try await setup.calport.run(["import", "--prune", file], environment: setup.environment)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(
            setup.report(run) == [
                // Standup, and Weekly with its moved and its cancelled occurrence.
                "created: 0", "updated: 1", "unchanged: 4", "deleted: 1", "failed: 0", "mail sent: 0",
            ])
        let subjects = try await setup.events().compactMap { $0["subject"]?.stringValue }.sorted()
        #expect(subjects == ["Review (new room)", "Standup", "Weekly"])

        // An event edited in the calendar since is reported, not overwritten, unless --force.
        let review = try #require(try await setup.events().first { $0["subject"] == "Review (new room)" })
        let id = try #require(review["id"]?.stringValue)
        _ = try await setup.emulator.client().json(
            "PATCH", setup.emulator.endpoints.graph("/me/events/\(id)"), body: ["subject": "Review (moved by hand)"])
        _ = try setup.write(edited.replacingOccurrences(of: "(new room)", with: "(room 2)"), "feed.ics")
        let kept = try await setup.calport.run(["import", file], environment: setup.environment)
        #expect(kept.status == 1)
        #expect(kept.stderr.contains("edited in the calendar since the last import; --force overwrites it"))
        let forced = try await setup.calport.run(["import", "--force", file], environment: setup.environment)
        #expect(setup.report(forced).first == "created: 0")
        #expect(setup.report(forced).dropFirst().first == "updated: 1")
        #expect(try await setup.events().contains { $0["subject"] == "Review (room 2)" })

        // An event deleted in the calendar is created again, though Graph holds its transactionId
        // (a repeat with the event gone is ErrorDuplicateTransactionId).
        let standup = try #require(try await setup.events().first { $0["subject"] == "Standup" })
        let response = try await setup.emulator.client().send(
            "DELETE", setup.emulator.endpoints.graph("/me/events/\(standup["id"]?.stringValue ?? "")"))
        #expect(response.status == 204)
        let restored = try await setup.calport.run(["import", file], environment: setup.environment)
        #expect(restored.status == 0, "\(restored.stderr)")
        #expect(setup.report(restored).first == "created: 1")
        #expect(try await setup.events().contains { $0["subject"] == "Standup" })
    }

    @Test(.timeLimit(.minutes(1))) func theSameUIDFromTwoSourcesOrInTwoCalendarsIsTwoEvents() async throws {
        let setup = try Setup()
        defer { try? FileManager.default.removeItem(at: setup.directory) }
        func calendar(_ summary: String) -> String {
            "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//t//EN\r\nBEGIN:VEVENT\r\nUID:1\r\nDTSTAMP:20270101T000000Z\r\n"
                + "DTSTART:20270104T100000Z\r\nDTEND:20270104T110000Z\r\nSUMMARY:\(summary)\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
        }
        let a = try setup.write(calendar("From a"), "a.ics")
        let b = try setup.write(calendar("From b"), "b.ics")
        let run = try await setup.calport.run(["import", a, b], environment: setup.environment)
        #expect(setup.report(run).first == "created: 2")
        let second = try await setup.calport.run(
            ["import", "--calendar", "AAMkSecond", a], environment: setup.environment)
        #expect(setup.report(second).first == "created: 1")
        #expect(try await setup.events().count == 2)
        #expect(try await setup.events(calendar: "AAMkSecond").count == 1)

        // Two different events with one UID in one source: one is imported, the other reported.
        let twice = try setup.write(
            calendar("First").replacingOccurrences(of: "END:VCALENDAR\r\n", with: "")
                + calendar("Second").components(separatedBy: "PRODID:-//t//t//EN\r\n")[1], "twice.ics")
        let both = try await setup.calport.run(["import", twice], environment: setup.environment)
        #expect(both.status == 1)
        #expect(both.stderr.contains("another event in twice.ics has the UID 1"))
    }

    @Test(.timeLimit(.minutes(1))) func aCancellationDeletesWhatItNames() async throws {
        let setup = try Setup()
        defer { try? FileManager.default.removeItem(at: setup.directory) }
        let file = try setup.write(Self.meetings, "meetings.ics")
        _ = try await setup.calport.run(["import", file], environment: setup.environment)
        let cancel = Self.meetings.replacingOccurrences(of: "VERSION:2.0\r\n", with: "VERSION:2.0\r\nMETHOD:CANCEL\r\n")
        _ = try setup.write(cancel, "meetings.ics")
        let run = try await setup.calport.run(["import", file], environment: setup.environment)
        #expect(setup.report(run).prefix(4) == ["created: 0", "updated: 0", "unchanged: 0", "deleted: 4"])
        #expect(try await setup.events().isEmpty)
    }

    @Test(.timeLimit(.minutes(3))) func aDryRunReadsASeriesAtATimeAndPlansWhatARunWould() async throws {
        let setup = try Setup()
        defer { try? FileManager.default.removeItem(at: setup.directory) }
        let fixture = ImportFixture()
        let file = try setup.write(fixture.text, "calendar.ics")
        // Without a token: nothing is read or sent, every event is planned as new.
        let offline = try await setup.calport.run(
            ["import", "--dry-run", file], environment: ["CALPORT_GRAPH_URL": setup.emulator.graphURL.absoluteString])
        #expect(offline.status == 0, "\(offline.stderr)")
        let streamed = try JSONParser.parse(Array(offline.stdout.utf8)).arrayValue ?? []
        // The same plan made from the whole document, through the library.
        let events = ICalendarParser().parse(Array(fixture.text.utf8), file: "calendar.ics").document.events
        let written = GraphEventWriter(style: .post, annotatesIdentity: true).write(events)
        let importer = CalendarImporter(client: setup.emulator.client())
        let whole = importer.requests(
            for: try await importer.prepare(
                [ImportSource(name: "calendar.ics", plan: ImportPlan(entries: written.output))], lookUp: false))
        #expect(
            streamed.count == 24 + 40 + 20, "24 batches for 480 events, 40 occurrence changes, 20 finishing PATCHes")
        #expect(streamed == whole.arrayValue ?? [], "the same requests in the same order")
        #expect(try await setup.emulator.state()["requests"] == 0, "a dry run without a token sends nothing")

        // After the import, a dry run that reads the calendar plans nothing.
        _ = try await setup.calport.run(["import", file], environment: setup.environment)
        let after = try await setup.calport.run(["import", "--dry-run", file], environment: setup.environment)
        #expect(after.stdout == "[]\n", "\(after.stdout.prefix(500))")
    }

    @Test(.timeLimit(.minutes(3))) func aKilledImportWithoutAJournalEndsWithEveryEventOnce() async throws {
        let setup = try Setup()
        defer { try? FileManager.default.removeItem(at: setup.directory) }
        let fixture = ImportFixture()
        let file = try setup.write(fixture.text, "calendar.ics")
        for threshold in [60, 200, 470] {
            _ = try await setup.calport.run(["import", file], environment: setup.environment) {
                ((try? await setup.emulator.state())?["events"]?.arrayValue?.count ?? 0) >= threshold
            }
        }
        let last = try await setup.calport.run(["import", file], environment: setup.environment)
        #expect(last.status == 0, "\(last.stderr)")
        let again = try await setup.calport.run(["import", file], environment: setup.environment)
        #expect(setup.report(again).prefix(2) == ["created: 0", "updated: 0"])
        try ImportKillResumeTests().checkEmulator(try await setup.emulator.state(), against: fixture)
    }
}
