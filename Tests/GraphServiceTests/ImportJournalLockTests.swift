import Foundation
import Testing

/// Two imports on one journal at once would each count the other's outcomes as its own: the journal
/// is locked (flock(2)) for the whole import, and a second import fails at once.
@Suite struct ImportJournalLockTests {
    let directory: URL
    let input: URL
    let journal: String

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("calport-lock-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        input = directory.appendingPathComponent("calendar.ics")
        var calendar = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//EN\r\n"
        for index in 1...3 {
            calendar += "BEGIN:VEVENT\r\nUID:lock-\(index)@calport.test\r\nDTSTAMP:20270101T000000Z\r\n"
            calendar += "DTSTART:2027010\(index)T100000Z\r\nDTEND:2027010\(index)T110000Z\r\nSUMMARY:Lock \(index)\r\n"
            calendar += "END:VEVENT\r\n"
        }
        try (calendar + "END:VCALENDAR\r\n").write(to: input, atomically: true, encoding: .utf8)
        journal = directory.appendingPathComponent("import.journal").path
    }

    func environment(_ emulator: GraphEmulator) -> [String: String] {
        ["CALPORT_GRAPH_URL": emulator.graphURL.absoluteString, "CALPORT_TOKEN": GraphEmulator.token]
    }

    @Test(.timeLimit(.minutes(2))) func aSecondImportOnALockedJournalFailsAtOnceAndSendsNothing() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let emulator = try GraphEmulator()
        let calport = try CalportBinary()
        // The first import's lock, held by the test itself as calport takes it: nothing can wait on a child.
        let holder = open(journal, O_WRONLY | O_CREAT | O_CLOEXEC, 0o600)
        try #require(holder >= 0)
        try #require(flock(holder, LOCK_EX | LOCK_NB) == 0)
        let second = try await calport.run(
            ["import", "--journal", journal, input.path], environment: environment(emulator))
        close(holder)
        #expect(second.status == 3, "\(second.stderr)")
        #expect(
            second.stderr
                == "calport import: error: \(journal): the journal is in use by another import (locked); wait for it to end, or give another --journal\n"
        )
        #expect(try await emulator.state()["events"]?.arrayValue?.count == 0, "nothing may be sent")

        // Released, the journal serves the next import.
        let after = try await calport.run(
            ["import", "--journal", journal, input.path], environment: environment(emulator))
        #expect(after.status == 0, "\(after.stderr)")
        #expect(try await emulator.state()["events"]?.arrayValue?.count == 3)
    }

    @Test(.timeLimit(.minutes(2))) func anImportHoldsItsJournalLockedWhileItRuns() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        // Each operation holds its mailbox slot 5 s, so the import runs for seconds.
        let emulator = try GraphEmulator(["--operation-seconds", "5"])
        let process = Process()
        process.executableURL = try CalportBinary().url
        process.arguments = ["import", "--journal", journal, input.path]
        process.environment = CalportBinary.environment(environment(emulator))
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer {
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
        }
        let journal = journal
        let pid = process.processIdentifier
        // Polled on a thread of its own (the tests' two pool threads can be busy for longer than the
        // import takes), at most a minute, while the child lives: the kernel's table of locks
        // (/proc/locks, read only, so that looking cannot take the lock from calport) is searched
        // for a flock(2) write lock on the journal's inode.
        let seen = await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            Thread {
                var seen = false
                for _ in 0..<3000 where !seen && kill(pid, 0) == 0 {
                    seen = Self.isFlockedForWriting(journal)
                    if !seen { usleep(20_000) }
                }
                continuation.resume(returning: seen)
            }.start()
        }
        #expect(seen, "the journal should be locked while the import runs")
    }

    /// Whether /proc/locks lists a flock(2) write lock on the file at `path`.
    static func isFlockedForWriting(_ path: String) -> Bool {
        var status = stat()
        guard stat(path, &status) == 0, let locks = try? String(contentsOfFile: "/proc/locks", encoding: .utf8)
        else { return false }
        return locks.split(separator: "\n").contains { line in
            let fields = line.split(separator: " ")
            return fields.contains("FLOCK") && fields.contains("WRITE")
                && fields.contains { $0.hasSuffix(":\(status.st_ino)") }
        }
    }
}
