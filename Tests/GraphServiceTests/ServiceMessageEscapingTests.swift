import Foundation
import Testing

/// Graph's and the identity platform's error messages quote what they were sent, so a user id or a
/// client id holding a terminal escape sequence or a newline comes back in the message: calport
/// prints it escaped, on one line, where it would otherwise drive the terminal or forge a line of
/// the report.
@Suite struct ServiceMessageEscapingTests {
    /// Clears the screen, then starts a line that reads like the import report's.
    let hostile = "evil\u{1B}[2J\ncreated: 999"
    let escaped = #"evil\u{1B}[2J\ncreated: 999"#

    func expectEscaped(_ run: CalportBinary.Run) {
        #expect(run.status == 3, "\(run.stderr)")
        #expect(run.stderr.contains(escaped), "\(run.stderr)")
        #expect(!run.stderr.contains("\u{1B}"), "an escape character was printed raw")
        #expect(!run.stderr.split(separator: "\n").contains { $0.hasPrefix("created:") }, "\(run.stderr)")
    }

    /// The error of the listing an import starts with (404 ErrorInvalidUser quotes the user).
    @Test func anImportsServiceErrorIsPrintedEscaped() async throws {
        let emulator = try GraphEmulator()
        let calport = try CalportBinary()
        let input = FileManager.default.temporaryDirectory.appendingPathComponent(
            "calport-esc-\(UUID().uuidString).ics")
        defer { try? FileManager.default.removeItem(at: input) }
        try """
        BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//EN\r\nBEGIN:VEVENT\r\nUID:esc@calport.test\r\n\
        DTSTAMP:20270101T000000Z\r\nDTSTART:20270104T100000Z\r\nDTEND:20270104T110000Z\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n
        """.write(to: input, atomically: true, encoding: .utf8)
        let run = try await calport.run(
            ["import", "--user", hostile, input.path],
            environment: ["CALPORT_GRAPH_URL": emulator.graphURL.absoluteString, "CALPORT_TOKEN": GraphEmulator.token])
        expectEscaped(run)
        #expect(run.stderr.contains("ErrorInvalidUser"), "\(run.stderr)")
    }

    /// The error of signing an app in for export (AADSTS700016 quotes the client id).
    @Test func anExportsSignInErrorIsPrintedEscaped() async throws {
        let emulator = try GraphEmulator(["--app-client-id", "registered-app", "--app-secret", "s3cret"])
        let calport = try CalportBinary()
        let run = try await calport.run(
            [
                "export", "--start", "2027-01-01", "--end", "2027-01-08", "--user", "user@example.com", "--client-id",
                hostile,
            ],
            environment: [
                "CALPORT_GRAPH_URL": emulator.graphURL.absoluteString,
                "CALPORT_AUTHORITY_URL": emulator.authorityURL.absoluteString, "CALPORT_CLIENT_SECRET": "s3cret",
                "CALPORT_TENANT": "contoso.example",
            ])
        expectEscaped(run)
        #expect(run.stderr.contains("AADSTS700016"), "\(run.stderr)")
    }
}
