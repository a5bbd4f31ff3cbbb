import Foundation
import TestSupport
import Testing

@testable import calport

// Failed writes to standard output and error, closed readers and signals, against the built
// calport (a child process: these end the process, which an in-process run cannot show).

/// The built `calport`, beside the test bundle.
private let program = URL(fileURLWithPath: try! FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
    .deletingLastPathComponent().appendingPathComponent("calport").path

/// Runs `script` in bash with `$CALPORT` naming the program; its status and standard error.
private func shell(_ script: String, in directory: URL) throws -> (status: Int32, errors: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/bash")
    process.arguments = ["-c", script]
    process.currentDirectoryURL = directory
    process.environment = ["CALPORT": program, "PATH": "/usr/bin:/bin", "HOME": directory.path]
    let errors = Pipe()
    process.standardError = errors
    process.standardOutput = FileHandle.nullDevice
    try process.run()
    let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    return (process.terminationStatus, text)
}

/// A calendar whose event lacks DTSTAMP, so `validate` writes a diagnostic to standard error.
private let withAWarning =
    "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//EN\r\nBEGIN:VEVENT\r\nUID:1\r\nDTSTART:20260101T000000Z\r\n"
    + "END:VEVENT\r\nEND:VCALENDAR\r\n"

@Test(arguments: [
    ("\"$CALPORT\" --help >/dev/full", "calport: error: cannot write to standard output: No space left on device"),
    ("\"$CALPORT\" convert in.ics >&-", "calport: error: cannot write to standard output: Bad file descriptor"),
    ("\"$CALPORT\" validate in.ics 2>/dev/full", ""),
])
func aFailedStandardStreamIsAnIOErrorNotACrash(_ script: String, _ message: String) throws {
    let directory = try temporaryDirectory()
    try withAWarning.write(to: directory.appendingPathComponent("in.ics"), atomically: true, encoding: .utf8)
    let run = try shell(script, in: directory)
    #expect(run.status == 3, "\(script): \(run.errors)")
    #expect(run.errors == (message.isEmpty ? "" : message + "\n"), "\(script)")
}

/// Writes `in.ics`: one event every minute from 2026-01-01, megabytes of occurrences in a window of days.
private func writeMinutelyCalendar(in directory: URL) throws {
    let minutely = withAWarning.replacingOccurrences(of: "END:VEVENT", with: "RRULE:FREQ=MINUTELY\r\nEND:VEVENT")
    try minutely.write(to: directory.appendingPathComponent("in.ics"), atomically: true, encoding: .utf8)
}

/// An expansion writes its output on another thread while it goes on (`BufferedOutput`): a write
/// that fails there still ends the run with one message and exit status 3, read whole or streamed.
@Test(arguments: ["", "--stream"])
func aFailedWriteOfAnExpansionIsAnIOError(_ mode: String) throws {
    let directory = try temporaryDirectory()
    try writeMinutelyCalendar(in: directory)
    // A week of minutes is 10,080 records, some 3 MB: many chunks, most written while others fill.
    let run = try shell(
        "\"$CALPORT\" expand -q \(mode) --start 2026-01-01 --end 2026-01-08 in.ics >/dev/full", in: directory)
    #expect(run.status == 3)
    #expect(run.errors == "calport: error: cannot write to standard output: No space left on device\n")
}

/// A streamed expansion sorts its records through runs written on another thread (`SpillJob`): a
/// run that cannot be written (here, past `ulimit -f`, its signal ignored, so write(2) says EFBIG)
/// ends the run with the scratch file's error and exit status 3, nothing on standard output. An
/// input of more than 4 MiB is expanded in its two halves at once, each sorting its own runs
/// (`ExpansionPart`): a run either half cannot write ends it the same way, the other half's thread
/// stopped, not left running.
@Test(arguments: [false, true])
func aSortRunThatCannotBeWrittenIsAnIOError(inHalves: Bool) throws {
    let directory = try temporaryDirectory()
    if inHalves {
        try writeMinutelyCalendarsAroundFiller(in: directory)
    } else {
        try writeMinutelyCalendar(in: directory)
    }
    // Two months of minutes are 85,000 records, some 27 MB: runs of 8 MiB, each about 1 MB compressed.
    let run = try shell(
        "trap '' XFSZ; ulimit -f 100; \"$CALPORT\" expand -q --stream --start 2026-01-01 --end 2026-03-01 in.ics >out",
        in: directory)
    #expect(run.status == 3)
    // The scratch file has no name any more (`ScratchSpace`); its error names the one it had.
    #expect(run.errors.hasPrefix("/tmp/calport-run-"), "\(run.errors)")
    #expect(run.errors.hasSuffix(": error: cannot write: File too large\n"), "\(run.errors)")
    let output = try FileManager.default.attributesOfItem(atPath: directory.appendingPathComponent("out").path)
    #expect(output[.size] as? Int == 0)
}

/// Writes `in.ics`: an event every minute from 2026-01-01 in each half of more than 4 MiB of
/// single events, so that the expansion reads it in halves.
private func writeMinutelyCalendarsAroundFiller(in directory: URL) throws {
    func minutely(_ uid: String) -> [String] {
        [
            "BEGIN:VEVENT", "UID:\(uid)", "DTSTAMP:20260101T000000Z", "DTSTART:20260101T000000Z",
            "SUMMARY:\(uid)", "RRULE:FREQ=MINUTELY", "END:VEVENT",
        ]
    }
    let lines =
        ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//calport tests//EN"] + minutely("first")
        + filler(1_100, zone: "Europe/Berlin") + filler(1_100, from: 2_000, zone: "Europe/Berlin")
        + minutely("second") + ["END:VCALENDAR", ""]
    let text = lines.joined(separator: "\r\n")
    #expect(text.utf8.count > 4 << 20, "large enough to be read in halves")
    try text.write(to: directory.appendingPathComponent("in.ics"), atomically: true, encoding: .utf8)
}

/// A streamed expansion holds every sorted run open until it merges them (1,100 at 1M events):
/// calport raises its soft limit of open files to the hard one, so a soft limit of 6 (which the
/// runs of two months of minutes exceed) still gives every occurrence: 59 days of 1,440 minutes.
@Test func aStreamedExpansionIsNotStoppedByTheSoftLimitOfOpenFiles() throws {
    let directory = try temporaryDirectory()
    try writeMinutelyCalendar(in: directory)
    let run = try shell(
        "ulimit -Sn 6 && \"$CALPORT\" expand -q --stream --max-occurrences 0"
            + " --start 2026-01-01 --end 2026-03-01 in.ics | wc -l >count; exit ${PIPESTATUS[0]}", in: directory)
    #expect(run.status == 0, "\(run.errors)")
    let count = try String(contentsOf: directory.appendingPathComponent("count"), encoding: .utf8)
    #expect(count.trimmingCharacters(in: .whitespacesAndNewlines) == String(59 * 1_440))
}

@Test func aReaderThatGoesAwayEndsTheRunQuietly() throws {
    let directory = try temporaryDirectory()
    try writeMinutelyCalendar(in: directory)
    // Two months of minutes is megabytes: head has gone long before the end. 141 = 128 + SIGPIPE,
    // what a shell shows for any tool whose reader went away.
    let run = try shell(
        "\"$CALPORT\" expand --start 2026-01-01 --end 2026-03-01 in.ics | head -1 >/dev/null; exit ${PIPESTATUS[0]}",
        in: directory)
    #expect(run.status == 141)
    #expect(run.errors == "")
}

/// `convert -o` interrupted by SIGINT or SIGTERM (Ctrl-C, kill) removes the temporary file it was
/// writing, leaves the target as it was, and exits 128 + the signal, as a shell reports a tool the
/// signal ended. The input is a pipe kept open: past 8 MiB calport streams it, so its temporary
/// file exists while it waits for the rest, and it cannot finish before the signal comes.
@Test(.timeLimit(.minutes(2)), arguments: [SIGINT, SIGTERM])
func anInterruptedRunRemovesItsTemporaryFileAndLeavesTheTarget(_ signal: Int32) async throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let target = directory.appendingPathComponent("out.ics")
    try "the old output\n".write(to: target, atomically: true, encoding: .utf8)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: program)
    process.arguments = ["convert", "--from", "ics", "-o", target.path, "-"]
    process.environment = ["PATH": "/usr/bin:/bin", "HOME": directory.path]
    let input = Pipe()
    process.standardInput = input
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    defer {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        try? input.fileHandleForWriting.close()
    }
    var calendar = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//EN\r\n"
    for index in 0..<80_000 {
        calendar += "BEGIN:VEVENT\r\nUID:\(index)@calport.test\r\nDTSTAMP:20260101T000000Z\r\n"
        calendar += "DTSTART:20260101T100000Z\r\nSUMMARY:Event \(index)\r\nEND:VEVENT\r\n"
    }
    let bytes = Data(calendar.utf8)
    #expect(bytes.count > 9 << 20)
    // Written from another thread: the pipe holds 64 KiB, calport reads the rest as it goes. The
    // write end stays open until the run has ended, so calport waits for more input.
    let written = LockedFlag()
    let writer = input.fileHandleForWriting
    // Should calport end before reading it all, the write fails with EPIPE instead of killing the tests.
    Foundation.signal(SIGPIPE, SIG_IGN)
    Thread {
        try? writer.write(contentsOf: bytes)
        written.set()
    }.start()

    func temporaryFiles() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).filter {
            $0.hasPrefix(".out.ics.calport-")
        }
    }
    // Bounded waits (no timing is asserted): until everything is written and the temporary file exists.
    for _ in 0..<3000 where process.isRunning && !(written.isSet && !temporaryFiles().isEmpty) {
        try await Task.sleep(for: .milliseconds(20))
    }
    #expect(process.isRunning && written.isSet && !temporaryFiles().isEmpty, "calport should be waiting for input")
    kill(process.processIdentifier, signal)
    for _ in 0..<1500 where process.isRunning { try await Task.sleep(for: .milliseconds(20)) }
    #expect(!process.isRunning, "the signal should have ended the run")
    guard !process.isRunning else { return }
    #expect(process.terminationReason == .exit && process.terminationStatus == 128 + signal)
    #expect(temporaryFiles().isEmpty)
    #expect(try String(contentsOf: target, encoding: .utf8) == "the old output\n")
}

/// A flag set once from another thread.
private final class LockedFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false

    func set() { lock.withLock { value = true } }
    var isSet: Bool { lock.withLock { value } }
}
