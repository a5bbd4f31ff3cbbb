import CalendarModel
import Foundation
import Testing

@testable import ICalendar

/// The package's root directory.
private let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

/// Issue #18, measured against a peer: every VEVENT Python icalendar reads in the corpus (UID,
/// RECURRENCE-ID, start, summary) is read by calport too, or is listed, by file, under "Events
/// icalendar reads that calport does not" in docs/interop.md with the RFC clause for calport's reading.
@Test func everyEventIcalendarReadsInTheCorpusCalportReadsToo() throws {
    guard let shared = sharedDirectory else {
        print("skipped: ../shared is not beside the package, so there is no corpus to compare")
        return
    }
    let python = packageRoot.appendingPathComponent("scripts/.venv/bin/python")
    guard FileManager.default.isExecutableFile(atPath: python.path) else {
        print("skipped: scripts/.venv has no Python (.ci/run installs icalendar into it)")
        return
    }
    let corpus = shared.appendingPathComponent("corpus")
    let process = Process()
    process.executableURL = python
    process.arguments = [
        "-W", "ignore", packageRoot.appendingPathComponent("scripts/corpus-events.py").path, corpus.path,
    ]
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = FileHandle.nullDevice
    try process.run()
    let listing = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
        print("skipped: icalendar is not installed in scripts/.venv (.ci/run installs it)")
        return
    }
    let documentation = try String(contentsOf: packageRoot.appendingPathComponent("docs/interop.md"), encoding: .utf8)
    // The section alone: up to the next heading.
    let section =
        documentation.components(separatedBy: "### Events icalendar reads that calport does not").dropFirst()
        .first ?? ""
    let explained = section.components(separatedBy: "\n#").first ?? ""
    var read: [String: CalendarDocument] = [:]
    var (peerEvents, found, listed, refused) = (0, 0, 0, 0)
    var unexplained: [String] = []
    for row in listing.split(separator: "\n") {
        let fields = row.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
        if fields.count == 2 && fields[1] == "!refused" { refused += 1 }
        guard fields.count == 5 else { continue }
        peerEvents += 1
        let file = fields[0]
        if read[file] == nil {
            let bytes = try [UInt8](Data(contentsOf: corpus.appendingPathComponent(file)))
            read[file] = ICalendarParser().parse(bytes, file: file).document
        }
        let (uid, recurrenceID, start, summary) = (fields[1], fields[2], fields[3], fields[4])
        let match = read[file]?.events.contains { event in
            // An event without UID gets one derived from its content (RFC 5545 requires it). Where
            // icalendar has no start (two DTSTARTs, `DTSTART;;…`), calport reads the first one.
            (uid.isEmpty || event.uid == uid) && (event.recurrenceID.map { text($0.time) } ?? "") == recurrenceID
                && (start.isEmpty || (event.start.map(text) ?? "") == start) && (event.summary ?? "") == summary
        }
        if match == true {
            found += 1
        } else if explained.contains("`\(file)`") {
            listed += 1
        } else {
            unexplained.append("\(file): UID \(uid) RECURRENCE-ID \(recurrenceID) start \(start) '\(summary)'")
        }
    }
    print(
        "corpus against icalendar: \(peerEvents) events icalendar reads, \(found) read alike by calport, "
            + "\(listed) listed in docs/interop.md, \(unexplained.count) unexplained; \(refused) files icalendar refuses"
    )
    #expect(peerEvents > 0)
    #expect(unexplained.isEmpty, "\(unexplained.joined(separator: "\n"))")
}
