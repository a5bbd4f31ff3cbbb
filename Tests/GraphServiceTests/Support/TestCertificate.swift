import Foundation

/// A self-signed RSA certificate and its key, made by the openssl command line in a temporary
/// directory for one test (keys are never committed), removed when the value goes.
final class TestCertificate: @unchecked Sendable {
    let directory: URL
    var certificatePath: String { directory.appendingPathComponent("cert.pem").path }
    var keyPath: String { directory.appendingPathComponent("key.pem").path }

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("calport-cert-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try Self.openssl([
            "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", keyPath, "-out", certificatePath, "-days", "2",
            "-subj", "/CN=calport-test",
        ])
    }

    deinit { try? FileManager.default.removeItem(at: directory) }

    /// The SHA-1 fingerprint as `openssl x509 -fingerprint` prints it, in base64url (the JWT `x5t`).
    func opensslThumbprint() throws -> String {
        let line = try Self.openssl(["x509", "-in", certificatePath, "-noout", "-fingerprint", "-sha1"])
        let hex = line.split(separator: "=").last.map { $0.replacingOccurrences(of: ":", with: "") } ?? ""
        var bytes: [UInt8] = []
        var index = hex.startIndex
        while index < hex.endIndex, let next = hex.index(index, offsetBy: 2, limitedBy: hex.endIndex) {
            if let byte = UInt8(hex[index..<next].trimmingCharacters(in: .whitespacesAndNewlines), radix: 16) {
                bytes.append(byte)
            }
            index = next
        }
        return Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }

    @discardableResult
    static func openssl(_ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["openssl"] + arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle(forWritingAtPath: "/dev/null")
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw EmulatorError(message: "openssl \(arguments.first ?? "") failed")
        }
        return String(decoding: data, as: UTF8.self)
    }
}
