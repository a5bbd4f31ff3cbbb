import Foundation
import Testing

/// Issue 22: `.ics → .ics` keeps a binary ATTACH byte for byte. A file past 64 KiB of base64 is
/// unfolded straight into its value and folded again as it is written, so the value is folded here
/// at every position of its header and its first bytes, and around where the reader switches to
/// that path; Python's icalendar decodes what calport wrote.
@Suite struct AttachmentFoldingTests {
    @Test(
        .enabled(if: IndependentReader.isAvailable, "needs scripts/.venv with icalendar, which .ci/run installs"),
        .timeLimit(.minutes(4)))
    func aFoldedAttachmentSurvivesConvertWhereverItIsFolded() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("calport-fold-\(UUID())")
        let inputs = directory.appendingPathComponent("in")
        try FileManager.default.createDirectory(at: inputs, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        // One file per fold: the first break after `first` octets, then pieces of a width that varies
        // from file to file (1 to 1,000 octets), CRLF and a space between them.
        let written = try await Python.run(
            """
            import base64, hashlib, json, os, random, sys
            data = random.Random(22).randbytes(70000)
            text = base64.b64encode(data)
            names = {}
            widths = [74, 1, 75, 2, 73, 1000, 3]
            head_length = len(b'ATTACH;FMTTYPE=application/octet-stream;FILENAME="v000:x;y.bin";ENCODING=BASE64;VALUE=BINARY:')
            firsts = list(range(1, head_length + 40)) + list(range(65530, 65545))
            for number, first in enumerate(firsts):
                name = "v%03d:x;y.bin" % number
                line = b'ATTACH;FMTTYPE=application/octet-stream;FILENAME="' + name.encode() + b'";ENCODING=BASE64;VALUE=BINARY:' + text
                width = widths[number % len(widths)]
                pieces = [line[:first]] + [b" " + line[i:i + width] for i in range(first, len(line), width)]
                body = b"\\r\\n".join([
                    b"BEGIN:VCALENDAR", b"VERSION:2.0", b"PRODID:-//test//EN", b"BEGIN:VEVENT",
                    b"UID:fold-%d" % number, b"DTSTAMP:20270301T000000Z", b"DTSTART:20270302T100000Z",
                    b"\\r\\n".join(pieces), b"SUMMARY:after the file", b"END:VEVENT", b"END:VCALENDAR", b""])
                open(os.path.join(sys.argv[1], "v%03d.ics" % number), "wb").write(body)
                names[name] = hashlib.sha256(data).hexdigest()
            print(json.dumps(names))
            """, [inputs.path])
        let expected = try #require(try JSONSerialization.jsonObject(with: Data(written.utf8)) as? [String: String])
        #expect(expected.count > 100)

        let calport = try CalportBinary()
        let output = directory.appendingPathComponent("out.ics").path
        let converted = try await calport.run(
            ["convert", "--to", "ics", "-o", output, inputs.path], environment: CalportBinary.environment([:]))
        #expect(converted.status == 0, "\(converted.stderr)")
        #expect(try await AttachmentRoundTripTests.attachedFiles(in: output) == expected)

        // Written as calport folds, the calendar converts to itself byte for byte.
        let again = directory.appendingPathComponent("again.ics").path
        let reconverted = try await calport.run(
            ["convert", "--to", "ics", "-o", again, output], environment: CalportBinary.environment([:]))
        #expect(reconverted.status == 0, "\(reconverted.stderr)")
        #expect(FileManager.default.contentsEqual(atPath: output, andPath: again))
    }
}
