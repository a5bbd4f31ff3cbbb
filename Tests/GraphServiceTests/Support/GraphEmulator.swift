import Foundation
import GraphEvents
import GraphService

/// The Python Graph emulator, started on an ephemeral 127.0.0.1 port for one test and stopped after.
/// `@unchecked`: `Process` is not Sendable, but after `init` it is only killed, once, in `deinit`.
final class GraphEmulator: @unchecked Sendable {
    /// A bearer token the emulator accepts without signing in.
    static let token = "emulator-static-token-7f3c9a"

    let port: Int
    private let process: Process

    /// Starts `graph_emulator.py` with `arguments` and waits for its `PORT n` line.
    init(_ arguments: [String] = []) throws {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Emulator/graph_emulator.py")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script.path, "--port", "0", "--token", Self.token] + arguments
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            line += chunk
        }
        guard let text = String(data: line, encoding: .utf8), text.hasPrefix("PORT "),
            let port = Int(text.dropFirst(5).trimmingCharacters(in: .whitespacesAndNewlines))
        else {
            process.terminate()
            throw EmulatorError(message: "the emulator did not start")
        }
        self.port = port
        self.process = process
    }

    deinit {
        // SIGKILL: a child of the test runner may start with SIGTERM blocked.
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    /// The Graph root (`CALPORT_GRAPH_URL`).
    var graphURL: URL { URL(string: "http://127.0.0.1:\(port)/v1.0")! }
    /// The authority (`CALPORT_AUTHORITY_URL`).
    var authorityURL: URL { URL(string: "http://127.0.0.1:\(port)")! }
    var endpoints: GraphEndpoints { GraphEndpoints(graphURL: graphURL, authorityURL: authorityURL) }

    /// A client that signs with the static token.
    func client(retry: RetryPolicy = RetryPolicy(baseDelay: 0.05)) -> GraphClient {
        GraphClient(endpoints: endpoints, tokens: StaticTokenProvider(token: Secret(Self.token)), retry: retry)
    }

    /// Every stored event, with `exceptions` (by original start) and `cancelled` original starts.
    /// `mailbox` (a userPrincipalName) picks another mailbox than the first.
    func state(mailbox: String? = nil) async throws -> JSONValue {
        try await control("GET", "state" + (mailbox.map { "?mailbox=" + $0 } ?? ""))
    }

    /// Changes settings (`fault_every`, `faults`, `page_size`, …) while running.
    func configure(_ settings: JSONValue) async throws {
        _ = try await control("POST", "config", body: settings)
    }

    /// Attaches the file at `path` to event `event` of the first mailbox, as stored (not through
    /// Graph's routes); `kind` `reference` or `item` stores that attachment type instead.
    func seedAttachment(event: String, name: String, contentType: String, path: String, kind: String = "file")
        async throws
    {
        _ = try await control(
            "POST", "attach",
            body: [
                "event": .string(event), "name": .string(name), "contentType": .string(contentType),
                "path": .string(path), "kind": .string(kind),
            ])
    }

    private func control(_ method: String, _ name: String, body: JSONValue? = nil) async throws -> JSONValue {
        let request = HTTPRequest(
            method: method, url: URL(string: "http://127.0.0.1:\(port)/_emulator/\(name)")!,
            body: body.map { Array(JSONWriter().string($0).utf8) } ?? [])
        let response = try await HelperTransport(timeout: 10).send(request)
        return try JSONParser.parse(response.body)
    }
}

/// The emulator could not be started.
struct EmulatorError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}
