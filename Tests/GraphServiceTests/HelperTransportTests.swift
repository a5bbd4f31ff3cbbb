import Foundation
import GraphEvents
import Testing

@testable import GraphService

/// Requests sent through calport-http child processes, and each way a helper can be missing or fail.
@Suite struct HelperTransportTests {
    let request = HTTPRequest(method: "GET", url: URL(string: "http://127.0.0.1:9/v1.0/me")!)

    /// A shell script standing in for the helper, in a directory removed when `body` returns.
    func withScript<T>(_ script: String, _ body: (String) async throws -> T) async throws -> T {
        try await withExecutable("#!/bin/sh\n" + script + "\n", body)
    }

    /// An executable file holding `contents`, in a directory removed when `body` returns.
    func withExecutable<T>(_ contents: String, _ body: (String) async throws -> T) async throws -> T {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("calport-helper-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("calport-http").path
        // Written through a close-on-exec descriptor: one that a helper spawned meanwhile by another
        // test inherited would keep the file open for writing, and its exec "Text file busy".
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o755)
        guard descriptor >= 0 else { throw EmulatorError(message: "cannot create \(path)") }
        let bytes = Array(contents.utf8)
        let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        close(descriptor)
        guard written == bytes.count else { throw EmulatorError(message: "cannot write \(path)") }
        return try await body(path)
    }

    func failure(of transport: HelperTransport) async -> TransportError? {
        do {
            _ = try await transport.send(request)
            return nil
        } catch {
            return error
        }
    }

    @Test func theHelperIsFoundBesideTheRunningProgram() throws {
        let running = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        let expected = URL(fileURLWithPath: running).deletingLastPathComponent().appendingPathComponent("calport-http")
        #expect(try HelperLocation(environment: [:]).path.get() == expected.path)
    }

    @Test func aMissingHelperSaysWhatIsMissingAndWhereItLooked() async {
        let beside = HelperLocation(environment: [:], executable: "/opt/calport/bin/calport")
        #expect(
            await failure(of: HelperTransport(helper: beside))
                == TransportError(
                    request: "GET /v1.0/me",
                    reason:
                        "the HTTP helper calport-http is missing: there is no executable /opt/calport/bin/calport-http; install calport-http beside /opt/calport/bin/calport, or set CALPORT_HTTP_HELPER to its path",
                    isRetryable: false))
        let named = HelperLocation(environment: ["CALPORT_HTTP_HELPER": "/nonexistent/calport-http"])
        #expect(
            await failure(of: HelperTransport(helper: named))?.reason
                == "CALPORT_HTTP_HELPER names /nonexistent/calport-http, which is not an executable file")
        let directory = HelperLocation(environment: ["CALPORT_HTTP_HELPER": "/tmp"])
        #expect(
            await failure(of: HelperTransport(helper: directory))?.reason.hasPrefix("CALPORT_HTTP_HELPER names /tmp,")
                == true)
    }

    @Test func aMissingHelperFailsAtOnceInsteadOfBeingRetried() async {
        let retries = LockedList<String>()
        let client = GraphClient(
            endpoints: GraphEndpoints(graphURL: URL(string: "http://127.0.0.1:9/v1.0")!),
            tokens: StaticTokenProvider(token: Secret("t")),
            transport: HelperTransport(helper: HelperLocation(environment: ["CALPORT_HTTP_HELPER": "/nonexistent"])),
            retry: RetryPolicy(baseDelay: 0.01), onRetry: { request, _, _ in retries.append(request) })
        await #expect(throws: GraphServiceError.self) { try await client.send("GET", client.endpoints.graph("/me")) }
        #expect(retries.all.isEmpty)
    }

    @Test func aHelperThatFailsIsReportedWithItsOwnWords() async throws {
        let cases: [(script: String, reason: (String) -> String)] = [
            ("exit 0", { "calport-http (\($0)) exited without answering" }),
            (
                "echo 'calport-http: cannot go on' >&2\nexit 2",
                { "calport-http (\($0)) failed with exit status 2: calport-http: cannot go on" }
            ),
            (
                "echo 'Fatal error: boom' >&2\nkill -SEGV $$",
                { "calport-http (\($0)) crashed with signal 11: Fatal error: boom" }
            ),
            (
                "printf 'HTTP/1.1 200 OK\\r\\n\\r\\n'",
                { "calport-http (\($0)) answered with a malformed reply: not a calport-http frame" }
            ),
            // Echoing the request back: a request frame where a reply belongs.
            ("cat", { "calport-http (\($0)) answered with a malformed reply: unexpected frame kind 81" }),
        ]
        for (script, reason) in cases {
            try await withScript(script) { path in
                let transport = HelperTransport(helper: HelperLocation(environment: ["CALPORT_HTTP_HELPER": path]))
                #expect(
                    await failure(of: transport)
                        == TransportError(request: "GET /v1.0/me", reason: reason(path), isRetryable: false))
            }
        }
    }

    @Test func theHelperNeverSeesTheTokenInItsEnvironment() async throws {
        // The token travels in the request frame on stdin; the environment is built without it.
        let environment = ChildProcess.environment(
            without: ChildProcess.secretVariables, from: ["CALPORT_TOKEN": "eyJ.secret", "CALPORT_KEEP": "1"])
        #expect(environment == ["CALPORT_KEEP=1"])
        let printed = try await withScript("env") { path in
            try await ChildProcess(executable: path, limit: 30, environment: environment).run(input: []).output
        }
        let lines = String(decoding: printed, as: UTF8.self).split(separator: "\n")
        #expect(lines.contains("CALPORT_KEEP=1"))
        #expect(!lines.contains { $0.hasPrefix("CALPORT_TOKEN=") })
    }

    @Test func aHelperThatCannotBeStartedSaysWhy() async throws {
        try await withExecutable("neither a program nor a script\n") { path in
            let transport = HelperTransport(helper: HelperLocation(environment: ["CALPORT_HTTP_HELPER": path]))
            #expect(
                await failure(of: transport)
                    == TransportError(
                        request: "GET /v1.0/me", reason: "cannot start calport-http (\(path)): Exec format error",
                        isRetryable: false))
        }
    }

    @Test func theHelperRefusesAFrameOfAnotherVersion() async throws {
        let helper = try HelperLocation(environment: [:]).path.get()
        var frame = try HelperRequest(request: request, timeout: 1).frame()
        frame[12] = 2
        let outcome = try await ChildProcess(executable: helper, limit: 30).run(input: frame)
        #expect(outcome.ending == .exited(2))
        #expect(outcome.output.isEmpty)
        #expect(
            String(decoding: outcome.errorOutput, as: UTF8.self)
                == "calport-http: the request on stdin is unusable: protocol version 2, not 1: calport and calport-http come from different builds\n"
        )
    }

    @Test func aHungHelperIsKilledAtItsLimit() async throws {
        // The helper would sleep 300 s: ending as outlived well before that shows the watchdog killed
        // it. The bound is wide because on a loaded machine the test's own task may resume late.
        try await withScript("exec sleep 300") { path in
            let started = ContinuousClock.now
            let outcome = try await ChildProcess(executable: path, limit: 0.5).run(input: [])
            #expect(outcome.ending == .outlived)
            #expect(ContinuousClock.now - started < .seconds(120))
        }
    }

    @Test func megabytesEachWayDoNotDeadlock() async throws {
        // cat writes while it reads: both buffers fill unless input and output move together.
        let input = (0..<(8 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        let outcome = try await ChildProcess(executable: "/bin/cat", limit: 60).run(input: input)
        #expect(outcome.ending == .exited(0))
        #expect(outcome.output == input)
    }

    @Test func concurrentRequestsEachGetTheirOwnHelper() async throws {
        let emulator = try GraphEmulator()
        let transport = HelperTransport()
        let me = HTTPRequest(
            method: "GET", url: emulator.endpoints.graph("/me"),
            headers: ["Authorization": "Bearer \(GraphEmulator.token)"])
        // Four at once, Graph's limit of concurrent requests to one mailbox (the emulator's
        // MAILBOX_CONCURRENCY, cited there): eight overlapped on a loaded machine, and the fifth was
        // answered 429 ApplicationThrottled, as the service would.
        let names = try await withThrowingTaskGroup(of: JSONValue?.self) { group in
            for _ in 0..<4 {
                group.addTask { try JSONParser.parse(try await transport.send(me).body)["displayName"] }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(names == Array(repeating: "Emulated User", count: 4))
    }
}
