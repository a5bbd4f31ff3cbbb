import Foundation
import Testing

/// calport itself must not load libcurl: its start-up would pay for some thirty libraries that
/// only calport-http needs.
@Suite struct LinkageTests {
    /// The shared libraries `ldd` says `binary` loads, by file name.
    func loadedLibraries(_ binary: URL) throws -> [String] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/ldd")
        process.arguments = [binary.path]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return text.split(separator: "\n").compactMap { $0.split(separator: " ").first.map(String.init) }
            .map { $0.trimmingCharacters(in: .whitespaces) }
    }

    @Test func calportLoadsNeitherLibcurlNorFoundationNetworking() throws {
        guard let calport = try? CalportBinary() else {
            print("skipped: no built calport next to the test bundle or in .build/debug")
            return
        }
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/ldd") else {
            print("skipped: /usr/bin/ldd is absent")
            return
        }
        let calportLibraries = try loadedLibraries(calport.url)
        #expect(calportLibraries.contains("libc.so.6"), "ldd's output was not read: \(calportLibraries)")
        #expect(!calportLibraries.contains { $0.hasPrefix("libcurl") || $0.hasPrefix("libFoundationNetworking") })
        // The same check finds them in the helper, which is where they belong.
        let helper = calport.url.deletingLastPathComponent().appendingPathComponent("calport-http")
        let helperLibraries = try loadedLibraries(helper)
        #expect(helperLibraries.contains { $0.hasPrefix("libcurl") })
        #expect(helperLibraries.contains("libFoundationNetworking.so"))
    }
}
