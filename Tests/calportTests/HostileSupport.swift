import Foundation
import TestSupport

@testable import calport

/// A hostile input written to a fresh directory, with the paths a run needs.
struct HostileFile {
    var directory: URL
    var input: URL
    var output: URL { directory.appendingPathComponent("out") }

    init(_ bytes: [UInt8], name: String = "in.ics") throws {
        directory = try temporaryDirectory()
        input = directory.appendingPathComponent(name)
        try Data(bytes).write(to: input)
    }

    init(_ text: String, name: String = "in.ics") throws {
        try self.init(Array(text.utf8), name: name)
    }

    /// `calport COMMAND ARGUMENTS… INPUT`.
    func run(_ command: String, _ arguments: [String] = []) -> Run {
        runCalport([command] + arguments + [input.path])
    }

    /// What the run wrote to `output`.
    func written() throws -> String { try String(contentsOf: output, encoding: .utf8) }
}

/// A calendar of CRLF lines around one VEVENT's body, with what RFC 5545 requires of a valid one.
func hostileCalendar(_ event: [String], before: [String] = [], after: [String] = []) -> String {
    (["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//hostile//EN"] + before + [
        "BEGIN:VEVENT", "UID:hostile@example.com", "DTSTAMP:20260101T000000Z",
    ] + event + ["END:VEVENT"] + after + ["END:VCALENDAR", ""]).joined(separator: "\r\n")
}

/// A complete event that every hostile calendar can carry beside the broken part, to show it is kept.
let survivorEvent = [
    "BEGIN:VEVENT", "UID:survivor@example.com", "DTSTAMP:20260101T000000Z",
    "DTSTART:20260105T100000Z", "END:VEVENT",
]

extension Run {
    /// Whether standard error has a diagnostic with this severity and code, at `line` of `file` when given.
    func reports(_ severity: String, _ code: String, in file: URL, line: Int? = nil) -> Bool {
        let location = line.map { "\(file.path):\($0):" } ?? "\(file.path)"
        return errors.split(separator: "\n").contains {
            $0.hasPrefix(location) && $0.contains(": \(severity): ") && $0.contains("[\(code)]")
        }
    }

    /// How many diagnostics of `code` standard error has.
    func count(_ code: String) -> Int { errors.split(separator: "\n").filter { $0.contains("[\(code)]") }.count }
}
