import Foundation
import Testing

@testable import GraphService

/// calport-http follows a redirect only within the request's origin, so the bearer token never
/// travels to a host a redirect names (the same-host rule that @odata.nextLink already had).
@Suite struct RedirectTests {
    /// `Emulator/redirect_server.py` on an ephemeral port, killed when `body` returns.
    func withRedirectServer<T>(_ body: (Int) async throws -> T) async throws -> T {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("Emulator/redirect_server.py")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script.path]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        defer {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            line += chunk
        }
        let port = try #require(
            Int(String(decoding: line, as: UTF8.self).dropFirst(5).trimmingCharacters(in: .whitespacesAndNewlines)))
        return try await body(port)
    }

    func get(_ url: String) -> HTTPRequest {
        HTTPRequest(method: "GET", url: URL(string: url)!, headers: ["Authorization": "Bearer eyJ.secret"])
    }

    @Test func aRedirectWithinTheOriginIsFollowedWithTheToken() async throws {
        try await withRedirectServer { port in
            let response = try await HelperTransport(timeout: 20).send(get("http://127.0.0.1:\(port)/same"))
            #expect(response.status == 200)
            #expect(String(decoding: response.body, as: UTF8.self) == "auth=Bearer eyJ.secret")
        }
    }

    @Test func aRedirectToAnotherOriginIsNotFollowedAndSaysSo() async throws {
        try await withRedirectServer { port in
            do throws(TransportError) {
                let response = try await HelperTransport(timeout: 20).send(get("http://127.0.0.1:\(port)/away"))
                Issue.record("followed: \(response.status) \(String(decoding: response.body, as: UTF8.self))")
            } catch {
                #expect(
                    error.reason.contains(
                        "HTTP 302 redirects to http://localhost:\(port), another origin; not followed"))
                #expect(!error.isRetryable)
            }
        }
    }
}
