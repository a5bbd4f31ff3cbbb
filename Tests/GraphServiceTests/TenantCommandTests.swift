import Foundation
import GraphEvents
import Testing

@testable import GraphService

/// Other people's mailboxes and whole tenants: app-only sign-in, `--user`, `calport calendars`
/// and calendars by name, run as a user runs them against the emulator.
@Suite struct TenantCommandTests {
    static let secret = "app-secret-Q7wz-value"

    /// A temporary directory, removed when the value goes.
    final class Scratch: @unchecked Sendable {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("calport-tenant-\(UUID().uuidString)")
        init() throws { try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true) }
        deinit { try? FileManager.default.removeItem(at: url) }
        func path(_ name: String) -> String { url.appendingPathComponent(name).path }
    }

    /// `count` one-hour events on consecutive days of January 2027, as iCalendar.
    static func calendar(_ count: Int, summary: String = "Board meeting") -> String {
        var text = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//t//EN\r\n"
        for day in 1...count {
            let date = String(format: "202701%02dT", day % 28 + 1)
            text +=
                "BEGIN:VEVENT\r\nUID:event-\(day)@calport.test\r\nDTSTAMP:20270101T000000Z\r\nDTSTART:\(date)100000Z\r\n"
                + "DTEND:\(date)110000Z\r\nSUMMARY:\(summary) \(day)\r\nEND:VEVENT\r\n"
        }
        return text + "END:VCALENDAR\r\n"
    }

    /// Two mailboxes and app `app-1` registered with `Self.secret` and `certificate`.
    static func appEmulator(_ certificate: TestCertificate) throws -> GraphEmulator {
        try GraphEmulator([
            "--mailboxes", "2", "--app-client-id", "app-1", "--app-secret", secret, "--app-certificate",
            certificate.certificatePath,
        ])
    }

    /// The environment of an app-only run: the emulator's Graph and authority, tenant, client id,
    /// and a configuration directory of its own (the token cache).
    static func environment(_ emulator: GraphEmulator, home: String) -> [String: String] {
        [
            "CALPORT_GRAPH_URL": emulator.graphURL.absoluteString,
            "CALPORT_AUTHORITY_URL": emulator.authorityURL.absoluteString, "CALPORT_TENANT": "contoso",
            "CALPORT_CLIENT_ID": "app-1", "XDG_CONFIG_HOME": home,
        ]
    }

    @Test func exportAndImportWorkAppOnlyWithASecretAndWithACertificate() async throws {
        let certificate = try TestCertificate()
        let emulator = try Self.appEmulator(certificate)
        let calport = try CalportBinary()
        let scratch = try Scratch()
        try Self.calendar(3).write(toFile: scratch.path("in.ics"), atomically: true, encoding: .utf8)
        var bySecret = Self.environment(emulator, home: scratch.path("secret-home"))
        bySecret["CALPORT_CLIENT_SECRET"] = Self.secret
        let imported = try await calport.run(
            ["import", "--quiet", "--user", "user2@example.com", scratch.path("in.ics")], environment: bySecret)
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(try await emulator.state(mailbox: "user2@example.com")["events"]?.arrayValue?.count == 3)
        #expect(try await emulator.state()["events"]?.arrayValue?.isEmpty == true, "nothing in the first mailbox")
        let cache = scratch.path("secret-home/calport/app-tokens/contoso.app-1.json")
        #expect(try FileManager.default.attributesOfItem(atPath: cache)[.posixPermissions] as? Int == 0o600)

        let window = ["export", "--user", "user-2", "--start", "2027-01-01", "--end", "2027-02-01"]
        let byCertificate = Self.environment(emulator, home: scratch.path("certificate-home"))
        let keys = ["--certificate", certificate.certificatePath, "--private-key", certificate.keyPath]
        let exported = try await calport.run(window + keys, environment: byCertificate)
        #expect(exported.status == 0, "\(exported.stderr)")
        #expect(exported.stdout.components(separatedBy: "SUMMARY:Board meeting").count == 4)
        #expect(try await emulator.state()["appTokensIssued"] == 2)
        // The cached token serves the next run: no new sign-in.
        let again = try await calport.run(window + keys, environment: byCertificate)
        #expect(again.status == 0)
        #expect(try await emulator.state()["appTokensIssued"] == 2)
    }

    @Test func aWrongSecretAnExpiredAssertionAndAMissingPermissionEachSayOneLineAndExit3() async throws {
        let certificate = try TestCertificate()
        let emulator = try Self.appEmulator(certificate)
        let calport = try CalportBinary()
        let scratch = try Scratch()
        let window = ["export", "--user", "user2@example.com", "--start", "2027-01-01", "--end", "2027-02-01"]

        var wrong = Self.environment(emulator, home: scratch.path("a"))
        wrong["CALPORT_CLIENT_SECRET"] = "not-the-secret"
        let mine = try await calport.run(["calendars"], environment: wrong)
        #expect(mine.status == 2 && mine.stderr.contains("give --user"), "an app has no /me")
        let refused = try await calport.run(window, environment: wrong)
        #expect(refused.status == 3)
        #expect(refused.stderr.split(separator: "\n").count == 1, "\(refused.stderr)")
        #expect(refused.stderr.contains("AADSTS7000215 wrong client secret"))

        try await emulator.configure(["clock_skew": 3600])
        let keys = ["--certificate", certificate.certificatePath, "--private-key", certificate.keyPath]
        let expired = try await calport.run(
            window + keys, environment: Self.environment(emulator, home: scratch.path("b")))
        #expect(expired.status == 3)
        #expect(expired.stderr.split(separator: "\n").count == 1, "\(expired.stderr)")
        #expect(expired.stderr.contains("AADSTS700024") && expired.stderr.contains("clock"))

        try await emulator.configure(["clock_skew": 0, "app_roles": "MailboxSettings.Read"])
        let unpermitted = try await calport.run(
            window + keys, environment: Self.environment(emulator, home: scratch.path("c")))
        #expect(unpermitted.status == 3)
        #expect(unpermitted.stderr.split(separator: "\n").count == 1, "\(unpermitted.stderr)")
        #expect(unpermitted.stderr.contains("HTTP 403 ErrorAccessDenied"))
        #expect(unpermitted.stderr.contains("Calendars.ReadWrite application permission"))
    }

    @Test func calendarsAreListedAndFoundByName() async throws {
        let emulator = try GraphEmulator(["--mailboxes", "2", "--delegate", "user2@example.com"])
        let calport = try CalportBinary()
        let scratch = try Scratch()
        try Self.calendar(2, summary: "Planning").write(
            toFile: scratch.path("in.ics"), atomically: true, encoding: .utf8)
        let environment = [
            "CALPORT_GRAPH_URL": emulator.graphURL.absoluteString, "CALPORT_TOKEN": GraphEmulator.token,
            "XDG_CONFIG_HOME": scratch.path("home"),
        ]
        let user = ["--user", "user2@example.com"]
        // A dry run creates nothing, not even the calendar.
        let dry = try await calport.run(
            ["import", "--dry-run", "--create-calendar", "Team"] + user + [scratch.path("in.ics")],
            environment: environment)
        #expect(dry.status == 0, "\(dry.stderr)")
        #expect(dry.stderr.contains("'Team' does not exist yet; the dry run plans into the default calendar"))
        #expect(try await emulator.state(mailbox: "user2@example.com")["calendars"]?.arrayValue?.count == 2)
        // Created once, found again (without regard to case) when run again, as a resumed import is.
        for name in ["Team", "team"] {
            let run = try await calport.run(
                ["import", "--quiet", "--create-calendar", name] + user + [scratch.path("in.ics")],
                environment: environment)
            #expect(run.status == 0, "\(run.stderr)")
        }
        let second = try await emulator.state(mailbox: "user2@example.com")
        #expect(second["calendars"]?.arrayValue?.map { $0["name"] } == ["Calendar", "Second", "Team"])
        let team = try #require(second["calendars"]?.arrayValue?.last?["id"]?.stringValue)
        #expect(second["events"]?.arrayValue?.allSatisfy { $0["calendar"]?.stringValue == team } == true)
        #expect(second["events"]?.arrayValue?.count == 2)

        let csv = try await calport.run(["calendars", "--format", "csv"] + user, environment: environment)
        #expect(csv.status == 0, "\(csv.stderr)")
        // The emulator's calendars: the default (colour "auto", no hexColor), Second (lightBlue,
        // #a6d1f5 as Outlook shows it) and the one made above.
        #expect(
            csv.stdout.components(separatedBy: "\r\n") == [
                "id,name,owner,color,canEdit,isDefault", "AAMkU2Default,Calendar,user2@example.com,auto,yes,yes",
                "AAMkU2Second,Second,user2@example.com,#a6d1f5,yes,no", "\(team),Team,user2@example.com,auto,yes,no",
                "",
            ])
        let json = try await calport.run(["calendars", "--format", "json"] + user, environment: environment)
        let listed = try JSONParser.parse(Array(json.stdout.utf8))
        #expect(listed.arrayValue?.map { $0["isDefault"] } == [true, false, false])
        let names = try await calport.run(["calendars", "--names"] + user, environment: environment)
        #expect(names.stdout == "Calendar\nSecond\nTeam\n")

        let window = ["export", "--start", "2027-01-01", "--end", "2027-02-01"] + user
        let byName = try await calport.run(window + ["--calendar", "TEAM"], environment: environment)
        #expect(byName.status == 0, "\(byName.stderr)")
        #expect(byName.stdout.components(separatedBy: "SUMMARY:Planning").count == 3)
        let byID = try await calport.run(window + ["--calendar", "AAMkU2Second"], environment: environment)
        #expect(byID.status == 0 && !byID.stdout.contains("SUMMARY:Planning"))
        let unknown = try await calport.run(window + ["--calendar", "Holidays"], environment: environment)
        #expect(unknown.status == 2)
        #expect(unknown.stderr.contains("'Calendar', 'Second', 'Team'"), "\(unknown.stderr)")

        // Not signed in, the completion helper prints nothing and fails.
        let signedOut = try await calport.run(
            ["calendars", "--names"], environment: ["XDG_CONFIG_HOME": scratch.path("empty")])
        #expect(signedOut.status != 0 && signedOut.stdout.isEmpty && signedOut.stderr.isEmpty)
    }

    @Test func aNameIsFoundExactlyThenWithoutCaseAndAnAmbiguousOneIsAnError() throws {
        // A mailbox's own "Team" and one shared with the user by a colleague, and "Holidays".
        let calendars = [
            CalendarInfo(id: "A1", name: "Team", ownerAddress: "me@example.com"),
            CalendarInfo(id: "B2", name: "team", ownerAddress: "ann@example.com"),
            CalendarInfo(id: "C3", name: "Holidays", ownerAddress: "me@example.com"),
            CalendarInfo(id: "D4", name: "Rota", ownerAddress: "me@example.com"),
            CalendarInfo(id: "E5", name: "rota", ownerAddress: "bob@example.com"),
        ]
        #expect(try MailboxCalendars.resolve("Team", in: calendars).id == "A1", "exact first")
        #expect(try MailboxCalendars.resolve("team", in: calendars).id == "B2", "exact first")
        #expect(try MailboxCalendars.resolve("HOLIDAYS", in: calendars).id == "C3", "then without case")
        #expect(try MailboxCalendars.resolve("C3", in: calendars).id == "C3", "an id")
        #expect {
            _ = try MailboxCalendars.resolve("ROTA", in: calendars)
        } throws: { error in
            guard case .invalidConfiguration(let message) = error as? GraphServiceError else { return false }
            return message.contains("2 calendars match") && message.contains("'Rota' (owner me@example.com) id D4")
                && message.contains("'rota' (owner bob@example.com) id E5")
        }
        #expect {
            _ = try MailboxCalendars.resolve("Birthdays", in: calendars)
        } throws: { error in
            guard case .invalidConfiguration(let message) = error as? GraphServiceError else { return false }
            return message.contains("'Team', 'team', 'Holidays', 'Rota', 'rota'")
        }
    }

    @Test func appTokensAreCachedAndRenewedFiveMinutesBeforeTheyExpire() async throws {
        let scratch = try Scratch()
        for (lifetime, expected) in [(3600, 1), (240, 3)] {
            let emulator = try GraphEmulator([
                "--app-client-id", "app-1", "--app-secret", Self.secret, "--token-lifetime", String(lifetime),
            ])
            var endpoints = emulator.endpoints
            endpoints.tenant = "contoso"
            endpoints.clientID = "app-1"
            let cache = TokenCache(path: scratch.path("\(lifetime)/calport/app-tokens/t.json"))
            let provider = try AppTokenProvider(
                credential: .secret(Secret(Self.secret)), endpoints: endpoints, cache: cache,
                transport: HelperTransport())
            // Four requests at once share the first sign-in; then two more, one at a time.
            try await withThrowingTaskGroup(of: Secret.self) { group in
                for _ in 0..<4 { group.addTask { try await provider.accessToken(refresh: false) } }
                for try await _ in group {}
            }
            _ = try await provider.accessToken(refresh: false)
            _ = try await provider.accessToken(refresh: false)
            // 240 s left is within the five minutes: each later call signs in again.
            #expect(try await emulator.state()["appTokensIssued"] == .number(Double(expected)), "lifetime \(lifetime)")
            #expect(try FileManager.default.attributesOfItem(atPath: cache.path)[.posixPermissions] as? Int == 0o600)
        }
        #expect(throws: GraphServiceError.self) {
            _ = try AppTokenProvider(
                credential: .secret(Secret("x")), endpoints: GraphEndpoints(),
                cache: TokenCache(path: scratch.path("none")), transport: HelperTransport())
        }
    }

    @Test func theThumbprintIsOpenSSLsSHA1FingerprintInBase64URL() throws {
        let certificate = try TestCertificate()
        let loaded = try ClientCertificate(
            certificatePath: certificate.certificatePath, privateKeyPath: certificate.keyPath)
        #expect(loaded.thumbprint == (try certificate.opensslThumbprint()))
        let other = try TestCertificate()
        #expect {
            _ = try ClientCertificate(certificatePath: certificate.certificatePath, privateKeyPath: other.keyPath)
        } throws: { error in
            guard case .storage(_, let reason) = error as? GraphServiceError else { return false }
            return reason.contains("does not belong")
        }
    }
}
