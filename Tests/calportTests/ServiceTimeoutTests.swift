import Foundation
import TestSupport
import Testing

@testable import calport

#if canImport(Glibc)
    import Glibc
#endif

/// A local TCP port that refuses connections: bound (so no one else takes it) but not listening.
private final class RefusingPort {
    let socket: Int32
    let port: Int

    init() throws {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { generic in
                bind(socket, generic, length) == 0 && getsockname(socket, generic, &length) == 0
            }
        }
        guard socket >= 0, bound else {
            close(socket)
            throw POSIXError(.EADDRNOTAVAIL)
        }
        self.socket = socket
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    deinit { close(socket) }
}

/// `login` against a refused authority fails at once, naming the host, instead of retrying for most
/// of a minute; the HTTP helper is what finds out. The built program runs as a process of its own
/// (beside the test bundle, with calport-http), so that the time measured is its own, not that of a
/// thread pool the other tests keep busy.
@Test func loginAgainstARefusedPortFailsWithinSecondsNamingTheHost() async throws {
    let refusing = try RefusingPort()
    let running = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
    let program = URL(fileURLWithPath: running).deletingLastPathComponent().appendingPathComponent("calport")
    let home = try temporaryDirectory().path
    let port = refusing.port
    let (status, elapsed, text) = try await withCheckedThrowingContinuation {
        (continuation: CheckedContinuation<(Int32, TimeInterval, String), any Error>) in
        // Waited for on a Dispatch thread, not one of the threads Swift concurrency shares among the tests.
        DispatchQueue.global().async {
            let process = Process()
            process.executableURL = program
            process.arguments = ["login", "--authority-url", "http://127.0.0.1:\(port)", "--client-id", "x"]
            process.environment = ["HOME": home, "PATH": "/usr/bin:/bin"]
            let errors = Pipe()
            process.standardError = errors
            process.standardOutput = FileHandle.nullDevice
            let started = Date()
            do {
                try process.run()
            } catch {
                return continuation.resume(throwing: error)
            }
            let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            continuation.resume(returning: (process.terminationStatus, Date().timeIntervalSince(started), text))
        }
    }
    #expect(status != 0)
    #expect(elapsed < 5, "took \(elapsed) s")
    #expect(text.contains("cannot connect to 127.0.0.1 port \(port)"), "\(text)")
    withExtendedLifetime(refusing) {}
}
