import Foundation
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
/// of a minute; the HTTP helper (built beside the tests) is what finds out.
@Test func loginAgainstARefusedPortFailsWithinSecondsNamingTheHost() throws {
    let refusing = try RefusingPort()
    let started = Date()
    let run = runCalport(["login", "--authority-url", "http://127.0.0.1:\(refusing.port)", "--client-id", "x"])
    let elapsed = Date().timeIntervalSince(started)
    #expect(run.status != .success)
    #expect(elapsed < 5, "took \(elapsed) s")
    #expect(run.errors.contains("cannot connect to 127.0.0.1 port \(refusing.port)"), "\(run.errors)")
}
