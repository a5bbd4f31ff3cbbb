import Foundation
import GraphEvents
import Testing

/// Issue 22's done-when for attachments: files of 10 KB, 2.9 MB and 20 MB go Graph → .ics → Graph
/// → .ics byte for byte, the small ones by POST and the large one by an upload session (Attach
/// large files to Outlook messages or events: "under 3 MB … a single POST"; "between 3 MB and 150 MB,
/// create an upload session").
@Suite struct AttachmentRoundTripTests {
    /// (name, media type, size): sizes in bytes, the middle one just under Graph's 3 MB (3,000,000).
    static let files = [
        ("notes.txt", "text/plain", 10_240), ("slides.pdf", "application/pdf", 2_900_000),
        ("recording.mp4", "video/mp4", 20_000_000),
    ]

    @Test(
        .enabled(if: IndependentReader.isAvailable, "needs scripts/.venv with icalendar, which .ci/run installs"),
        .timeLimit(.minutes(6)))
    func filesOfTenKilobytesToTwentyMegabytesSurviveGraphToICalendarAndBack() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("calport-attach-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        var expected: [String: String] = [:]  // name -> SHA-256 of the file, by Python's hashlib
        let source = try GraphEmulator()
        let created = try await source.client().json(
            "POST", source.endpoints.graph("/me/events"),
            body: [
                "subject": "Quarterly review", "start": ["dateTime": "2027-03-02T10:00:00", "timeZone": "UTC"],
                "end": ["dateTime": "2027-03-02T11:00:00", "timeZone": "UTC"],
            ])
        let eventID = try #require(created["id"]?.stringValue)
        for (name, type, size) in Self.files {
            let path = directory.appendingPathComponent(name).path
            expected[name] = try await Self.writeRandomFile(path, size: size)
            try await source.seedAttachment(event: eventID, name: name, contentType: type, path: path)
        }

        let calport = try CalportBinary()
        func environment(_ emulator: GraphEmulator) -> [String: String] {
            ["CALPORT_GRAPH_URL": emulator.graphURL.absoluteString, "CALPORT_TOKEN": GraphEmulator.token]
        }
        let window = ["--start", "2027-03-01", "--end", "2027-03-05", "--tz", "UTC"]
        let first = directory.appendingPathComponent("first.ics").path
        let exported = try await calport.run(["export"] + window + ["-o", first], environment: environment(source))
        #expect(exported.status == 0, "\(exported.stderr)")
        #expect(try await Self.attachedFiles(in: first) == expected)

        let target = try GraphEmulator()
        let imported = try await calport.run(["import", first], environment: environment(target))
        #expect(imported.status == 0, "\(imported.stderr)")
        let stored = try #require(try await target.state()["events"]?.arrayValue?.first?["attachments"]?.arrayValue)
        var routes: [String: String] = [:]
        var hashes: [String: String] = [:]
        for attachment in stored {
            let name = try #require(attachment["name"]?.stringValue)
            routes[name] = attachment["route"]?.stringValue
            hashes[name] = attachment["sha256"]?.stringValue
        }
        #expect(hashes == expected)
        #expect(routes == ["notes.txt": "post", "slides.pdf": "post", "recording.mp4": "uploadSession"])
        #expect((try await target.state()["uploadPuts"]?.numberValue ?? 0) >= 7, "20 MB in ranges of at most 4 MB")

        let second = directory.appendingPathComponent("second.ics").path
        let again = try await calport.run(["export"] + window + ["-o", second], environment: environment(target))
        #expect(again.status == 0, "\(again.stderr)")
        #expect(try await Self.attachedFiles(in: second) == expected)

        // Imported again, nothing is attached twice: the event is unchanged.
        let rerun = try await calport.run(["import", first], environment: environment(target))
        #expect(rerun.stderr.contains("unchanged: 1\n"), "\(rerun.stderr)")
        #expect(try await target.state()["events"]?.arrayValue?.first?["attachments"]?.arrayValue?.count == 3)
    }

    @Test(
        .enabled(if: IndependentReader.isAvailable, "needs scripts/.venv with icalendar, which .ci/run installs"),
        .timeLimit(.minutes(4)))
    func anOverriddenOccurrencesFilesGoOntoItsExceptionAndComeBack() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("calport-attach-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        var expected: [String: String] = [:]
        var override = [
            "BEGIN:VEVENT", "UID:series-files", "DTSTAMP:20270101T000000Z", "RECURRENCE-ID:20270303T100000Z",
            "DTSTART:20270303T120000Z", "DTEND:20270303T130000Z", "SUMMARY:Daily, moved, with files",
        ]
        // One by POST, one (over 3,000,000 bytes) by an upload session.
        for (name, size) in [("agenda.txt", 10_240), ("minutes.bin", 3_500_000)] {
            let (line, sha256) = try await Self.inlineAttachment(name, size: size, in: directory)
            expected[name] = sha256
            override.append(line)
        }
        let lines =
            [
                "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//calport tests//EN", "BEGIN:VEVENT", "UID:series-files",
                "DTSTAMP:20270101T000000Z", "DTSTART:20270301T100000Z", "DTEND:20270301T110000Z",
                "RRULE:FREQ=DAILY;COUNT=5", "SUMMARY:Daily", "END:VEVENT",
            ] + override + ["END:VEVENT", "END:VCALENDAR", ""]
        let input = directory.appendingPathComponent("series.ics").path
        try lines.joined(separator: "\r\n").write(toFile: input, atomically: true, encoding: .utf8)

        let calport = try CalportBinary()
        let emulator = try GraphEmulator()
        let environment = ["CALPORT_GRAPH_URL": emulator.graphURL.absoluteString, "CALPORT_TOKEN": GraphEmulator.token]
        let imported = try await calport.run(["import", input], environment: environment)
        #expect(imported.status == 0, "\(imported.stderr)")
        let stored = try #require(try await emulator.state()["events"]?.arrayValue?.first)
        #expect(stored["attachments"]?.arrayValue?.isEmpty == true, "the series itself has no file")
        // The emulator keys an exception by its originalStart, the occurrence RECURRENCE-ID names.
        let exceptions = stored["exceptionAttachments"]?.objectValue?.members ?? []
        #expect(exceptions.map { String($0.key.prefix(19)) } == ["2027-03-03T10:00:00"])
        var hashes: [String: String] = [:]
        var routes: [String: String] = [:]
        for attachment in exceptions.first?.value.arrayValue ?? [] {
            hashes[attachment["name"]?.stringValue ?? ""] = attachment["sha256"]?.stringValue
            routes[attachment["name"]?.stringValue ?? ""] = attachment["route"]?.stringValue
        }
        #expect(hashes == expected)
        #expect(routes == ["agenda.txt": "post", "minutes.bin": "uploadSession"])

        let exported = directory.appendingPathComponent("exported.ics").path
        let export = try await calport.run(
            ["export", "--start", "2027-03-01", "--end", "2027-03-08", "--tz", "UTC", "-o", exported],
            environment: environment)
        #expect(export.status == 0, "\(export.stderr)")
        // Python's icalendar: the files are on the override of 3 March, and only there.
        let placed = try await Python.run(
            """
            import base64, hashlib, json, sys, icalendar
            calendar = icalendar.Calendar.from_ical(open(sys.argv[1], "rb").read())
            found = {}
            for event in calendar.walk("VEVENT"):
                attached = event.get("ATTACH", [])
                rid = event.get("RECURRENCE-ID")
                where = rid.dt.strftime("%Y%m%dT%H%M%S") if rid else "master"
                for attach in attached if isinstance(attached, list) else [attached]:
                    data = base64.b64decode(attach.to_ical(), validate=True)
                    found[where + " " + attach.params["FILENAME"]] = hashlib.sha256(data).hexdigest()
            print(json.dumps(found, sort_keys=True))
            """, [exported])
        let found = try JSONParser.parse(Array(placed.utf8))
        var byPlace: [String: String] = [:]
        for member in found.objectValue?.members ?? [] { byPlace[member.key] = member.value.stringValue }
        #expect(byPlace == Dictionary(uniqueKeysWithValues: expected.map { ("20270303T100000 " + $0.key, $0.value) }))

        // Imported again, nothing is attached twice: the series and its override are unchanged.
        let rerun = try await calport.run(["import", input], environment: environment)
        #expect(rerun.stderr.contains("unchanged: 2\n"), "\(rerun.stderr)")
        let after = try await emulator.state()["events"]?.arrayValue?.first?["exceptionAttachments"]
        #expect(after?.objectValue?.members.first?.value.arrayValue?.count == 2)
    }

    /// An inline ATTACH (RFC 5545 §3.8.1.1, unfolded, which readers accept) of a file of `size`
    /// random bytes written into `directory`, and the file's SHA-256 by Python.
    static func inlineAttachment(_ name: String, size: Int, in directory: URL) async throws -> (String, String) {
        let path = directory.appendingPathComponent(name).path
        let sha256 = try await writeRandomFile(path, size: size)
        let base64 = try Data(contentsOf: URL(fileURLWithPath: path)).base64EncodedString()
        return (
            "ATTACH;FMTTYPE=application/octet-stream;FILENAME=\(name);ENCODING=BASE64;VALUE=BINARY:\(base64)", sha256
        )
    }

    /// Writes `size` seeded pseudo-random bytes (no pattern a lost or repeated range would keep) to
    /// `path` and returns their SHA-256, both by Python.
    static func writeRandomFile(_ path: String, size: Int) async throws -> String {
        try await Python.run(
            """
            import hashlib, random, sys
            data = random.Random(int(sys.argv[2])).randbytes(int(sys.argv[2]))
            open(sys.argv[1], "wb").write(data)
            print(hashlib.sha256(data).hexdigest())
            """, [path, String(size)])
    }

    /// SHA-256 of each inline ATTACH's decoded bytes by FILENAME, as Python's icalendar reads them.
    static func attachedFiles(in path: String) async throws -> [String: String] {
        let script = """
            import base64, hashlib, json, sys, icalendar
            calendar = icalendar.Calendar.from_ical(open(sys.argv[1], "rb").read())
            found = {}
            for event in calendar.walk("VEVENT"):
                attached = event.get("ATTACH", [])
                for attach in attached if isinstance(attached, list) else [attached]:
                    assert attach.params["VALUE"] == "BINARY" and attach.params["ENCODING"] == "BASE64"
                    assert isinstance(attach, icalendar.vBinary), type(attach)
                    data = base64.b64decode(attach.to_ical(), validate=True)
                    found[attach.params["FILENAME"]] = hashlib.sha256(data).hexdigest()
            print(json.dumps(found))
            """
        let output = try await Python.run(script, [path])
        let value = try JSONParser.parse(Array(output.utf8))
        var result: [String: String] = [:]
        for member in value.objectValue?.members ?? [] { result[member.key] = member.value.stringValue }
        return result
    }
}

/// Runs a script with the venv's Python and returns its standard output, trimmed.
enum Python {
    static func run(_ script: String, _ arguments: [String]) async throws -> String {
        let process = Process()
        process.executableURL = IndependentReader.python
        process.arguments = ["-c", script] + arguments
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("calport-py-\(UUID())").path
        _ = FileManager.default.createFile(atPath: output, contents: nil)
        defer { try? FileManager.default.removeItem(atPath: output) }
        process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: output))
        try process.run()
        await process.exited()
        return String(decoding: try Data(contentsOf: URL(fileURLWithPath: output)), as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
