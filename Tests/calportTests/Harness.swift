import Foundation

@testable import calport

/// Runs the CLI in-process with captured standard streams.
struct Run {
    var status: ExitStatus
    var output: String
    var errors: String
}

final class Capture: @unchecked Sendable {
    var output: [UInt8] = []
    var errors = ""
}

/// Runs with an environment whose XDG config directory has no calport config, unless `environment` is
/// given: a config file of the machine running the tests must not change what they see.
func runCalport(
    _ arguments: [String], stdin: String = "", temporaryDirectory: URL? = nil, environment: [String: String]? = nil
) -> Run {
    let capture = Capture()
    let input = Array(stdin.utf8)
    var terminal = Terminal(
        standardInput: { ChunkSource(chunks: input.isEmpty ? [] : [input]) }, writeOutput: { capture.output += $0 },
        writeError: { capture.errors += $0 })
    if let temporaryDirectory { terminal.temporaryDirectory = { temporaryDirectory.path } }
    terminal.errorIsTerminal = false
    terminal.environment =
        environment ?? ["XDG_CONFIG_HOME": "/nonexistent/calport-tests", "HOME": "/nonexistent/calport-tests"]
    let status = CalportCLI.run(arguments, terminal: terminal)
    return Run(status: status, output: String(decoding: capture.output, as: UTF8.self), errors: capture.errors)
}

/// The package root, found from this file's path.
let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

func samplePath(_ name: String) -> String { packageRoot.appendingPathComponent("Samples/\(name)").path }

let badEvent = """
    BEGIN:VCALENDAR\r
    VERSION:2.0\r
    PRODID:x\r
    BEGIN:VEVENT\r
    UID:good@example.com\r
    DTSTART:20261201T100000Z\r
    END:VEVENT\r
    BEGIN:VEVENT\r
    UID:bad@example.com\r
    DTSTART:20241332T250000\r
    END:VEVENT\r
    END:VCALENDAR\r

    """

/// `../shared` beside the checkout, when present (CI has it; a fresh clone may not).
var sharedDirectoryBesideCheckout: URL? {
    let shared = packageRoot.deletingLastPathComponent().appendingPathComponent("shared")
    return FileManager.default.fileExists(atPath: shared.path) ? shared : nil
}

/// A series Graph cannot hold (FREQ=HOURLY; daily is Graph's finest pattern), in a zone the file
/// gives no VTIMEZONE for: from 09:00 Berlin every 4 hours, five times.
let hourlyPumpCheck = """
    BEGIN:VCALENDAR\r
    VERSION:2.0\r
    PRODID:x\r
    BEGIN:VEVENT\r
    UID:pump@example.com\r
    DTSTAMP:20260101T000000Z\r
    DTSTART;TZID=Europe/Berlin:20260105T090000\r
    DURATION:PT15M\r
    RRULE:FREQ=HOURLY;INTERVAL=4;COUNT=5\r
    SUMMARY:Pump check\r
    END:VEVENT\r
    END:VCALENDAR\r

    """
