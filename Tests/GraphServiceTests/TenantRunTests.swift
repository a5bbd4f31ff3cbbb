import Foundation
import GraphEvents
import Testing

/// A tenant run as docs/tenant.md describes it: one calport process per mailbox on an existing
/// job runner (`xargs -P`), and what such runs must never show of their secrets.
@Suite struct TenantRunTests {
    typealias Scratch = TenantCommandTests.Scratch

    /// docs/tenant.md's xargs line, 20 mailboxes 8 at a time, app-only with a secret: every
    /// mailbox gets its events, and none ever has more than Graph's 4 operations in flight.
    @Test func twentyMailboxesImportAtOnceWithXargs() async throws {
        let emulator = try GraphEmulator([
            "--mailboxes", "20", "--app-client-id", "app-1", "--app-secret", TenantCommandTests.secret,
            "--operation-seconds", "0.02",
        ])
        let calport = try CalportBinary()
        let scratch = try Scratch()
        // 25 events: a batch of 20 (four items at a time) and one of 5.
        try TenantCommandTests.calendar(25).write(toFile: scratch.path("in.ics"), atomically: true, encoding: .utf8)
        let users = ["user@example.com"] + (2...20).map { "user\($0)@example.com" }
        try (users.joined(separator: "\n") + "\n").write(
            toFile: scratch.path("mailboxes.txt"), atomically: true, encoding: .utf8)
        try FileManager.default.createDirectory(atPath: scratch.path("runs"), withIntermediateDirectories: true)
        let environment = TenantCommandTests.environment(emulator, home: scratch.path("home"))
        try TenantCommandTests.secret.write(toFile: scratch.path("secret"), atomically: true, encoding: .utf8)
        chmod(scratch.path("secret"), 0o600)
        try FileManager.default.createDirectory(atPath: scratch.path("export"), withIntermediateDirectories: true)
        for user in users {
            try FileManager.default.copyItem(atPath: scratch.path("in.ics"), toPath: scratch.path("export/\(user).ics"))
        }
        // docs/tenant.md's line, with calport where the build put it and the secret file here.
        let script = """
            export PATH="\(calport.url.deletingLastPathComponent().path):$PATH"
            xargs -P 8 -I{} sh -c 'calport import --quiet --user "$1" --client-secret-file secret \\
              --journal "runs/$1.journal" --report "runs/$1.json" "export/$1.ics" 2>"runs/$1.log"' _ {} < mailboxes.txt
            """
        let run = try await Shell.run(script, directory: scratch.url, environment: environment)
        #expect(run.status == 0, "\(run.output)")
        var widest = 0.0
        for user in users {
            let state = try await emulator.state(mailbox: user)
            widest = max(widest, state["maxOperationsRequested"]?.numberValue ?? 0)
            #expect(state["events"]?.arrayValue?.count == 25, "\(user)")
            #expect(state["maxOperationsRequested"]?.numberValue ?? 99 <= 4, "\(user): more than 4 in flight")
            #expect(state["mailboxThrottled"] == 0, "\(user)")
            let report = try JSONParser.parse(
                Array(try Data(contentsOf: URL(fileURLWithPath: scratch.path("runs/\(user).json")))))
            #expect(report["created"] == 25 && report["mailbox"]?.stringValue == user, "\(user)")
        }
        #expect(widest == 4, "the batches ran four items at once")
        // The docs' jq line gathers the reports into one summary.
        let summary = try await Shell.run(
            #"jq -s '{mailboxes: length, created: (map(.created) | add), failed: (map(.failed | length) | add)}' runs/*.json"#,
            directory: scratch.url, environment: [:])
        let gathered = try JSONParser.parse(Array(summary.output.utf8))
        #expect(gathered == ["mailboxes": 20, "created": 500, "failed": 0])
    }

    /// Secrets and tokens never appear in output, journals, reports, process arguments
    /// (/proc/PID/cmdline) or the HTTP helper's environment (/proc/PID/environ).
    @Test func secretsAndTokensAreNeverShown() async throws {
        let emulator = try GraphEmulator([
            "--mailboxes", "2", "--app-client-id", "app-1", "--app-secret", TenantCommandTests.secret,
            "--operation-seconds", "0.2",
        ])
        let calport = try CalportBinary()
        let scratch = try Scratch()
        try TenantCommandTests.calendar(3).write(toFile: scratch.path("in.ics"), atomically: true, encoding: .utf8)
        var environment = TenantCommandTests.environment(emulator, home: scratch.path("home"))
        environment["CALPORT_CLIENT_SECRET"] = TenantCommandTests.secret
        let seen = ProcessSightings()
        let secrets = [TenantCommandTests.secret, "emu-app-access-", GraphEmulator.token]
        let watch: @Sendable () async -> Bool = {
            seen.look()
            return false
        }
        let imported = try await calport.run(
            [
                "import", "--user", "user2@example.com", "--journal", scratch.path("j"), "--report", scratch.path("r"),
                scratch.path("in.ics"),
            ], environment: environment, killWhen: watch)
        #expect(imported.status == 0, "\(imported.stderr)")
        let exported = try await calport.run(
            ["export", "--user", "user2@example.com", "--start", "2027-01-01", "--end", "2027-02-01"],
            environment: environment, killWhen: watch)
        #expect(exported.status == 0)
        // A delegated token from the environment, likewise.
        let delegated = try await calport.run(
            ["export", "--start", "2027-01-01", "--end", "2027-02-01"],
            environment: ["CALPORT_GRAPH_URL": emulator.graphURL.absoluteString, "CALPORT_TOKEN": GraphEmulator.token],
            killWhen: watch)
        #expect(delegated.status == 0)

        let files = try [scratch.path("j"), scratch.path("r")].map { try String(contentsOfFile: $0, encoding: .utf8) }
        let shown = [imported, exported, delegated].flatMap { [$0.stdout, $0.stderr] } + files
        for secret in secrets {
            #expect(!shown.contains { $0.contains(secret) }, "\(secret) was shown")
        }
        let sightings = seen.all
        #expect(sightings.helpers > 0, "the HTTP helper was never seen running")
        for secret in secrets {
            #expect(!sightings.arguments.contains { $0.contains(secret) }, "\(secret) in a command line")
            #expect(
                !sightings.helperEnvironments.contains { $0.contains(secret) }, "\(secret) in the helper's environment")
        }
    }
}

/// What /proc shows of running calport and calport-http processes: their command lines, and the
/// helpers' environments.
final class ProcessSightings: @unchecked Sendable {
    private let lock = NSLock()
    private var arguments: [String] = []
    private var helperEnvironments: [String] = []
    private var helpers = 0

    func look() {
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc") else { return }
        for pid in entries where pid.allSatisfy(\.isNumber) {
            guard let raw = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline"), !raw.isEmpty else { continue }
            let line = String(decoding: raw, as: UTF8.self).replacingOccurrences(of: "\0", with: " ")
            let program = line.split(separator: " ").first.map(String.init) ?? ""
            guard program.hasSuffix("/calport") || program.hasSuffix("/calport-http") else { continue }
            let environment =
                program.hasSuffix("/calport-http")
                ? FileManager.default.contents(atPath: "/proc/\(pid)/environ").map {
                    String(decoding: $0, as: UTF8.self)
                }
                : nil
            lock.withLock {
                arguments.append(line)
                if let environment {
                    helpers += 1
                    helperEnvironments.append(environment)
                }
            }
        }
    }

    var all: (arguments: [String], helperEnvironments: [String], helpers: Int) {
        lock.withLock { (arguments, helperEnvironments, helpers) }
    }
}

/// `sh -c SCRIPT` in `directory`, its output and error together.
enum Shell {
    struct Run {
        var status: Int32
        var output: String
    }

    static func run(_ script: String, directory: URL, environment: [String: String]) async throws -> Run {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", script]
        process.currentDirectoryURL = directory
        var base = ["PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"]
        base["HOME"] = ProcessInfo.processInfo.environment["HOME"]
        process.environment = base.merging(environment) { $1 }
        let log = directory.appendingPathComponent("shell-\(UUID().uuidString).log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        let handle = try FileHandle(forWritingTo: log)
        process.standardOutput = handle
        process.standardError = handle
        try process.run()
        await process.exited()
        try? handle.close()
        let output = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        try? FileManager.default.removeItem(at: log)
        return Run(status: process.terminationStatus, output: output)
    }
}
