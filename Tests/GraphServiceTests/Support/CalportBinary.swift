import Foundation

/// The built `calport` executable, run as a child process.
struct CalportBinary {
    let url: URL

    /// Finds `calport` next to the test bundle (both live in `.build/<triple>/debug`).
    init() throws {
        var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = directory.appendingPathComponent("calport")
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: candidate.path, isDirectory: &isDirectory), !isDirectory.boolValue
            {
                url = candidate
                return
            }
            directory.deleteLastPathComponent()
        }
        let fallback = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent(".build/debug/calport")
        guard FileManager.default.isExecutableFile(atPath: fallback.path) else {
            throw EmulatorError(message: "calport binary not found; run swift build first")
        }
        url = fallback
    }

    /// A minimal environment (PATH and HOME of the tests) with `extra` added.
    static func environment(_ extra: [String: String]) -> [String: String] {
        var base = ["PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"]
        base["HOME"] = ProcessInfo.processInfo.environment["HOME"]
        return base.merging(extra) { $1 }
    }

    /// What a run printed and how it ended.
    struct Run {
        var status: Int32
        var stdout: String
        var stderr: String
        /// Whether it was ended by SIGKILL.
        var killed: Bool
    }

    /// Runs calport with `arguments` and `environment` (added to a minimal one); `killWhen` is polled
    /// every 50 ms and SIGKILLs the process as soon as it returns true.
    func run(
        _ arguments: [String], environment: [String: String], killWhen: (@Sendable () async -> Bool)? = nil
    ) async throws -> Run {
        let process = Process()
        process.executableURL = url
        process.arguments = arguments
        process.environment = Self.environment(environment)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "calport-run-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        // Files, not pipes: a killed child must not leave a reader waiting on a full pipe.
        let out = directory.appendingPathComponent("stdout")
        let err = directory.appendingPathComponent("stderr")
        _ = FileManager.default.createFile(atPath: out.path, contents: nil)
        _ = FileManager.default.createFile(atPath: err.path, contents: nil)
        process.standardOutput = try FileHandle(forWritingTo: out)
        process.standardError = try FileHandle(forWritingTo: err)
        try process.run()
        var killed = false
        while process.isRunning {
            if let killWhen, !killed, await killWhen() {
                kill(process.processIdentifier, SIGKILL)
                killed = true
            }
            try await Task.sleep(for: .milliseconds(50))
        }
        process.waitUntilExit()
        return Run(
            status: process.terminationStatus, stdout: (try? String(contentsOf: out, encoding: .utf8)) ?? "",
            stderr: (try? String(contentsOf: err, encoding: .utf8)) ?? "", killed: killed)
    }
}

extension CalportBinary {
    /// Runs calport with its standard error (and input) on a pseudo-terminal, as a user at a
    /// terminal would, through util-linux `script`; standard output goes to `stdoutPath`. Returns
    /// what the terminal showed.
    func runOnTerminal(_ arguments: [String], stdoutPath: String, environment: [String: String]) async throws -> Run {
        func quoted(_ text: String) -> String { "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'" }
        let command = ([url.path] + arguments).map(quoted).joined(separator: " ") + " >" + quoted(stdoutPath)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/script")
        process.arguments = ["--quiet", "--return", "--command", command, "/dev/null"]
        process.environment = Self.environment(["TERM": "xterm"].merging(environment) { $1 })
        let terminal = Pipe()
        process.standardOutput = terminal
        process.standardInput = FileHandle(forReadingAtPath: "/dev/null")
        try process.run()
        let shown = terminal.fileHandleForReading.readDataToEndOfFile()
        await process.exited()
        return Run(
            status: process.terminationStatus, stdout: (try? String(contentsOfFile: stdoutPath, encoding: .utf8)) ?? "",
            stderr: String(decoding: shown, as: UTF8.self), killed: false)
    }
}

extension Process {
    /// Waits for the process to end without blocking a thread of the test's cooperative pool (two on
    /// this machine's two cores: a blocked one delays every other test's timers).
    func exited() async {
        while isRunning { try? await Task.sleep(for: .milliseconds(20)) }
        waitUntilExit()
    }
}
