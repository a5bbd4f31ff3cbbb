import Foundation
import Testing

/// `calport login`, `logout`, `import` and `export` as a user runs them, against the emulator.
@Suite struct CommandLineTests {
    @Test func logsInExportsWithTheCachedTokenAndLogsOut() async throws {
        let emulator = try GraphEmulator(["--token-lifetime", "60"])
        let calport = try CalportBinary()
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("calport-home-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: home) }
        let environment = [
            "XDG_CONFIG_HOME": home.path, "CALPORT_GRAPH_URL": emulator.graphURL.absoluteString,
            "CALPORT_AUTHORITY_URL": emulator.authorityURL.absoluteString,
        ]
        let cache = home.appendingPathComponent("calport/token.json").path

        let login = try await calport.run(["login"], environment: environment)
        #expect(login.status == 0, "\(login.stderr)")
        #expect(login.stderr.contains("EMU-CODE"))
        #expect(try FileManager.default.attributesOfItem(atPath: cache)[.posixPermissions] as? Int == 0o600)

        let export = try await calport.run(
            ["export", "--start", "2027-01-01", "--end", "2027-01-08"], environment: environment)
        #expect(export.status == 0, "\(export.stderr)")
        #expect(export.stdout.hasPrefix("BEGIN:VCALENDAR"))

        let logout = try await calport.run(["logout"], environment: environment)
        #expect(logout.status == 0)
        #expect(!FileManager.default.fileExists(atPath: cache))
        let afterwards = try await calport.run(
            ["export", "--start", "2027-01-01", "--end", "2027-01-08"], environment: environment)
        #expect(afterwards.status == 3)
        #expect(afterwards.stderr.contains("not signed in"))

        let everything = [login, export, logout, afterwards].map { $0.stdout + $0.stderr }.joined()
        #expect(!everything.contains("emu-access") && !everything.contains("emu-refresh"), "a token was printed")
    }

    @Test func reportsEachFailureWithItsReasonAndExitsNonZero() async throws {
        let emulator = try GraphEmulator()
        let calport = try CalportBinary()
        let json = FileManager.default.temporaryDirectory.appendingPathComponent(
            "calport-bad-\(UUID().uuidString).json")
        let ics = FileManager.default.temporaryDirectory.appendingPathComponent(
            "calport-rdate-\(UUID().uuidString).ics")
        defer {
            try? FileManager.default.removeItem(at: json)
            try? FileManager.default.removeItem(at: ics)
        }
        // Graph refuses an unknown zone; calport itself refuses RDATE, which Graph cannot hold.
        try #"""
        [{"subject":"Bad zone","start":{"dateTime":"2027-01-04T10:00:00","timeZone":"Mars Standard Time"},"end":{"dateTime":"2027-01-04T11:00:00","timeZone":"Mars Standard Time"}},
         {"subject":"Good","start":{"dateTime":"2027-01-04T10:00:00","timeZone":"UTC"},"end":{"dateTime":"2027-01-04T11:00:00","timeZone":"UTC"}}]
        """#.write(to: json, atomically: true, encoding: .utf8)
        try """
        BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//t//EN\r\nBEGIN:VEVENT\r\nUID:rdate@calport.test\r\n\
        DTSTAMP:20270101T000000Z\r\nDTSTART:20270104T100000Z\r\nDTEND:20270104T110000Z\r\nRRULE:FREQ=DAILY;COUNT=3\r\n\
        RDATE:20270110T100000Z\r\nSUMMARY:Extra dates\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n
        """.write(to: ics, atomically: true, encoding: .utf8)
        let environment = ["CALPORT_GRAPH_URL": emulator.graphURL.absoluteString, "CALPORT_TOKEN": GraphEmulator.token]
        let run = try await calport.run(["import", "--quiet", json.path, ics.path], environment: environment)
        #expect(run.status == 1)
        // The report follows the diagnostics on standard error.
        let lines = run.stderr.split(separator: "\n").map(String.init).drop { !$0.hasPrefix("created: ") }
        #expect(lines.prefix(5) == ["created: 1", "updated: 0", "unchanged: 0", "deleted: 0", "failed: 2"])
        #expect(lines.last == "mail sent: 0")
        #expect(lines.contains { $0.hasPrefix("  rdate@calport.test: ") && $0.contains("RDATE") })
        #expect(lines.contains { $0.hasPrefix("  Bad zone: POST /me/events: HTTP 400 TimeZoneNotSupportedException") })
    }

    /// On a terminal, import counts the events it sends and export the events and series it reads;
    /// into a file or pipe neither writes a progress line.
    @Test func importAndExportShowProgressOnATerminalOnly() async throws {
        let emulator = try GraphEmulator()
        let calport = try CalportBinary()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("calport-progress-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        // 30 single events on 4–8 January 2027 and one weekly series with four Mondays in the window.
        var ics = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//t//EN\r\n"
        for index in 0..<30 {
            ics += "BEGIN:VEVENT\r\nUID:single-\(index)@calport.test\r\nDTSTAMP:20270101T000000Z\r\n"
            ics +=
                "DTSTART:2027010\(4 + index % 5)T\(10 + index / 5)0000Z\r\nDURATION:PT30M\r\nSUMMARY:S\(index)\r\nEND:VEVENT\r\n"
        }
        ics += "BEGIN:VEVENT\r\nUID:weekly@calport.test\r\nDTSTAMP:20270101T000000Z\r\nDTSTART:20270104T090000Z\r\n"
        ics += "DURATION:PT1H\r\nRRULE:FREQ=WEEKLY;COUNT=10\r\nSUMMARY:Weekly\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
        let input = directory.appendingPathComponent("in.ics")
        try ics.write(to: input, atomically: true, encoding: .utf8)
        let environment = ["CALPORT_GRAPH_URL": emulator.graphURL.absoluteString, "CALPORT_TOKEN": GraphEmulator.token]

        let imported = try await calport.runOnTerminal(
            ["import", input.path], stdoutPath: directory.appendingPathComponent("import.out").path,
            environment: environment)
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stderr.contains(" of 31 events"), "30 singles and one series: \(imported.stderr)")
        #expect(imported.stderr.contains("\r\u{1B}[K"), "the progress line is written over and cleared")

        let window = ["export", "--start", "2027-01-04", "--end", "2027-02-01"]
        let exported = try await calport.runOnTerminal(
            window, stdoutPath: directory.appendingPathComponent("export.ics").path, environment: environment)
        #expect(exported.status == 0, "\(exported.stderr)")
        #expect(exported.stdout.components(separatedBy: "BEGIN:VEVENT").count - 1 == 31)
        // The view holds the 30 singles and the series' 4 Mondays in January; then one series is read.
        #expect(exported.stderr.contains("calport: 34 events"), "\(exported.stderr)")
        #expect(exported.stderr.contains("34 events; 0 of 1 series"), "\(exported.stderr)")

        let piped = try await calport.run(window, environment: environment)
        #expect(piped.status == 0)
        #expect(!piped.stderr.contains("series") && !piped.stderr.contains("\u{1B}"), "\(piped.stderr)")
    }

    /// A subject holding a newline and an escape sequence is printed escaped in the report, so it
    /// cannot add a line of its own (`created: 999`) or clear the user's screen.
    @Test func anInputCannotForgeALineOfTheImportReport() async throws {
        let emulator = try GraphEmulator()
        let calport = try CalportBinary()
        let json = FileManager.default.temporaryDirectory.appendingPathComponent("calport-forge-\(UUID()).json")
        defer { try? FileManager.default.removeItem(at: json) }
        // JSON's \n and \u001b are a real newline and ESC in the subject; Graph refuses the zone.
        try #"""
        [{"subject":"Lunch\ncreated: 999\u001b[2J","start":{"dateTime":"2027-01-04T10:00:00","timeZone":"Mars Standard Time"},"end":{"dateTime":"2027-01-04T11:00:00","timeZone":"Mars Standard Time"}}]
        """#.write(to: json, atomically: true, encoding: .utf8)
        let environment = ["CALPORT_GRAPH_URL": emulator.graphURL.absoluteString, "CALPORT_TOKEN": GraphEmulator.token]
        let run = try await calport.run(["import", "--quiet", json.path], environment: environment)
        #expect(run.status == 1)
        let lines = run.stderr.split(separator: "\n").map(String.init)
        #expect(lines.filter { $0.hasPrefix("created: ") } == ["created: 0"], "\(run.stderr)")
        #expect(!run.stderr.contains("\u{1B}"))
        #expect(
            lines.contains { $0.hasPrefix(#"  Lunch\ncreated: 999\u{1B}[2J: POST /me/events: HTTP 400"#) },
            "\(run.stderr)")
    }

    @Test func aMissingHelperIsNamedAndTheRunFailsAtOnce() async throws {
        let calport = try CalportBinary()
        let run = try await calport.run(
            ["export", "--start", "2027-01-01", "--end", "2027-01-08"],
            environment: [
                "CALPORT_GRAPH_URL": "http://127.0.0.1:9/v1.0", "CALPORT_TOKEN": GraphEmulator.token,
                "CALPORT_HTTP_HELPER": "/nonexistent/calport-http",
            ])
        #expect(run.status == 3)
        #expect(
            run.stderr
                == "calport export: error: GET /v1.0/me/mailboxSettings: no response: CALPORT_HTTP_HELPER names /nonexistent/calport-http, which is not an executable file\n"
        )
    }

    @Test func aDryRunPrintsTheBatchAndSendsNothing() async throws {
        let calport = try CalportBinary()
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("calport-dry-\(UUID().uuidString).ics")
        defer { try? FileManager.default.removeItem(at: file) }
        try
            "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//t//EN\r\nBEGIN:VEVENT\r\nUID:dry@calport.test\r\nDTSTAMP:20270101T000000Z\r\nDTSTART:20270104T100000Z\r\nDTEND:20270104T110000Z\r\nSUMMARY:Dry\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
            .write(to: file, atomically: true, encoding: .utf8)
        // Port 9 (discard) on loopback: anything sent would fail the run.
        let run = try await calport.run(
            ["import", "--dry-run", file.path], environment: ["CALPORT_GRAPH_URL": "http://127.0.0.1:9/v1.0"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains(#""url": "/$batch""#))
        #expect(run.stdout.contains(#""subject": "Dry""#))
        #expect(run.stdout.contains(#""transactionId": ""#))
    }
}
