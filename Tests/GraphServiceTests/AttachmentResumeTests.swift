import Foundation
import GraphEvents
import Testing

/// An import killed while it uploads a large file, run again with its journal, ends with each file
/// attached once, byte for byte (issue 22: "a resumed import neither duplicates nor drops one").
@Suite struct AttachmentResumeTests {
    @Test(
        .enabled(if: IndependentReader.isAvailable, "needs scripts/.venv with Python, which .ci/run installs"),
        .timeLimit(.minutes(6)), arguments: [false, true])
    func anImportKilledMidUploadResumesWithEveryFileOnce(onAnOverride: Bool) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("calport-resume-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        // Each operation slowed, so that the kill lands between the upload's PUTs.
        let emulator = try GraphEmulator(["--operation-seconds", "0.05"])
        var expected: [String: String] = [:]
        var lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//calport tests//EN"]
        if onAnOverride {
            // The files on an occurrence moved by an hour: they go onto its exception.
            lines += [
                "BEGIN:VEVENT", "UID:resume-1", "DTSTAMP:20270101T000000Z", "DTSTART:20270301T090000Z",
                "DTEND:20270301T100000Z", "RRULE:FREQ=DAILY;COUNT=3", "SUMMARY:Series", "END:VEVENT",
                "BEGIN:VEVENT", "RECURRENCE-ID:20270302T090000Z",
            ]
        } else {
            lines += ["BEGIN:VEVENT"]
        }
        lines += [
            "UID:resume-1", "DTSTAMP:20270101T000000Z", "DTSTART:20270302T100000Z", "DTEND:20270302T110000Z",
            "SUMMARY:Files",
        ]
        for (name, size) in [("small.bin", 20_000), ("large.bin", 12_000_000)] {
            let (line, sha256) = try await AttachmentRoundTripTests.inlineAttachment(name, size: size, in: directory)
            expected[name] = sha256
            lines.append(line)
        }
        lines += ["END:VEVENT", "END:VCALENDAR", ""]
        let input = directory.appendingPathComponent("files.ics").path
        try lines.joined(separator: "\r\n").write(toFile: input, atomically: true, encoding: .utf8)

        let calport = try CalportBinary()
        let environment = ["CALPORT_GRAPH_URL": emulator.graphURL.absoluteString, "CALPORT_TOKEN": GraphEmulator.token]
        let arguments = ["import", "--journal", directory.appendingPathComponent("journal").path, input]
        let first = try await calport.run(arguments, environment: environment) {
            ((try? await emulator.state())?["uploadPuts"]?.numberValue ?? 0) >= 1
        }
        #expect(first.killed, "the first run should have been killed mid-upload")
        let resumed = try await calport.run(arguments, environment: environment)
        #expect(resumed.status == 0, "\(resumed.stderr)")
        let stored = try #require(try await emulator.state()["events"]?.arrayValue)
        #expect(stored.count == 1)
        let attachments =
            onAnOverride
            ? stored.first?["exceptionAttachments"]?.objectValue?.members.first?.value.arrayValue ?? []
            : stored.first?["attachments"]?.arrayValue ?? []
        var hashes: [String: String] = [:]
        for attachment in attachments {
            hashes[attachment["name"]?.stringValue ?? ""] = attachment["sha256"]?.stringValue
        }
        #expect(attachments.count == 2, "each file once: \(attachments)")
        #expect(hashes == expected)
        let again = try await calport.run(arguments, environment: environment)
        #expect(again.stderr.contains("unchanged: \(onAnOverride ? 2 : 1)\n"), "\(again.stderr)")
    }
}
