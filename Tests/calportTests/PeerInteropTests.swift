import Foundation
import Testing

/// A program on PATH, or nil.
private func onPath(_ name: String) -> String? {
    let directories = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
    return directories.map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
}

/// Runs a program to its end; its status and what it printed on stdout and stderr together. Awaited,
/// not waited for: a test thread blocked for the minute the readers take would be one of the two the
/// whole parallel suite shares on a two-core machine.
private func run(_ program: String, _ arguments: [String]) async throws -> (status: Int32, output: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: program)
    process.arguments = arguments
    let log = FileManager.default.temporaryDirectory.appendingPathComponent("calport-peers-\(UUID().uuidString).log")
    _ = FileManager.default.createFile(atPath: log.path, contents: nil)
    defer { try? FileManager.default.removeItem(at: log) }
    // A file, not a pipe: the driver prints little, but its readers' children must never block on one.
    let handle = try FileHandle(forWritingTo: log)
    process.standardOutput = handle
    process.standardError = handle
    try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
        process.terminationHandler = { _ in continuation.resume() }
        do {
            try process.run()
        } catch {
            continuation.resume(throwing: error)
        }
    }
    try handle.close()
    return (process.terminationStatus, (try? String(contentsOf: log, encoding: .utf8)) ?? "")
}

/// Real calendar software reads a sample of the corpus, originals and calport's output alike:
/// Radicale (started by the driver on 127.0.0.1 with a temporary storage, one PUT per UID), khal,
/// calcurse and libical's parser; none may reject more events of calport's output than of the
/// original. `scripts/interop --peers` runs the same over the whole corpus. `.ci/run` installs the
/// readers; elsewhere the test says what is missing and skips.
@Test(.timeLimit(.minutes(5))) func realReadersAcceptCalportsOutputAsWellAsTheOriginals() async throws {
    guard sharedDirectoryBesideCheckout != nil else {
        print("skipped: ../shared/corpus is not present next to this checkout")
        return
    }
    let scripts = packageRoot.appendingPathComponent("scripts")
    let python = scripts.appendingPathComponent(".venv/bin/python").path
    let calport = packageRoot.appendingPathComponent(".build/debug/calport").path
    var missing = ["khal", "calcurse", "gcc", "pkg-config"].filter { onPath($0) == nil }
    var hasRadicale = FileManager.default.isExecutableFile(atPath: python)
    if hasRadicale { hasRadicale = (try? await run(python, ["-c", "import radicale"]))?.status == 0 }
    if !hasRadicale { missing.append("Radicale in scripts/.venv") }
    if !FileManager.default.isExecutableFile(atPath: calport) { missing.append("the built calport (swift build)") }
    guard missing.isEmpty else {
        // CI installs them all (.ci/run): there, a missing reader is a failure, not a skip.
        if ProcessInfo.processInfo.environment["CI"] != nil {
            Issue.record("the interop peers are missing: \(missing.joined(separator: ", "))")
        } else {
            print("skipped: \(missing.joined(separator: ", ")) not installed (.ci/run installs them)")
        }
        return
    }
    let work = FileManager.default.temporaryDirectory.appendingPathComponent("calport-peers-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: work) }
    let helper = work.appendingPathComponent("interop-libical").path
    let flags = try await run(try #require(onPath("pkg-config")), ["--cflags", "--libs", "libical"])
    let compiled = try await run(
        try #require(onPath("gcc")),
        ["-O1", "-o", helper, scripts.appendingPathComponent("interop-libical.c").path]
            + flags.output.split(whereSeparator: \.isWhitespace).map(String.init))
    try #require(compiled.status == 0, "\(compiled.output)")
    // At the lowest priority, it and the readers it starts: the suite beside it has timed tests.
    let peers = try await run(
        try #require(onPath("nice")),
        [
            "-n", "19", python,
            // Two files at a time: the suite runs beside it on two cores.
            scripts.appendingPathComponent("interop-peers.py").path, "--sample", "--jobs", "2", "--calport", calport,
            "--libical", helper, "--radicale", python, "--work", work.path,
        ])
    print(peers.output)
    #expect(peers.status == 0, "a reader rejects in calport's output what it accepts in the original")
    // The table has a row for each reader, each of which read every converted file.
    for reader in ["radicale", "khal", "calcurse", "libical"] {
        #expect(peers.output.contains("\n| \(reader) |"), "\(reader) missing from the table")
    }
}
