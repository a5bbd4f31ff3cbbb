import Foundation
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

@Test func aReaderThatGoesAwayEndsTheRunQuietly() throws {
    let directory = try temporaryDirectory()
    let minutely = withAWarning.replacingOccurrences(of: "END:VEVENT", with: "RRULE:FREQ=MINUTELY\r\nEND:VEVENT")
    try minutely.write(to: directory.appendingPathComponent("in.ics"), atomically: true, encoding: .utf8)
    // Two months of minutes is megabytes: head has gone long before the end. 141 = 128 + SIGPIPE,
    // what a shell shows for any tool whose reader went away.
    let run = try shell(
        "\"$CALPORT\" expand --start 2026-01-01 --end 2026-03-01 in.ics | head -1 >/dev/null; exit ${PIPESTATUS[0]}",
        in: directory)
    #expect(run.status == 141)
    #expect(run.errors == "")
}
