import CalendarConversion
import Foundation
import Testing

@testable import calport

// Graph JSON that is valid syntax with the wrong content, or syntax built to exhaust the reader.

private let times =
    #""start": {"dateTime": "2026-01-05T10:00:00", "timeZone": "UTC"}, "#
    + #""end": {"dateTime": "2026-01-05T11:00:00", "timeZone": "UTC"}"#

@Test func wrongTypesAreIgnoredWithTheirJSONPath() throws {
    let json =
        #"{"subject": 42, "isAllDay": "yes", "reminderMinutesBeforeStart": "15", "#
        + #""categories": "Red", "# + times + "}"
    let file = try HostileFile(json, name: "in.json")
    let run = file.run("convert", ["-o", file.output.path])
    #expect(run.status == .success, "the event has what it needs; only the mistyped members are lost")
    for path in ["$.subject", "$.isAllDay", "$.reminderMinutesBeforeStart", "$.categories"] {
        #expect(run.errors.contains("\(file.input.path):1:1: \(path): warning:"), "\(path)")
    }
    #expect(run.count("graph-wrong-type") == 4)
    #expect(try file.written().contains("DTSTART:20260105T100000Z\r\n"))
}

@Test func aStartOfTheWrongTypeDropsTheEvent() throws {
    let file = try HostileFile(#"{"subject": "x", "start": "2026-01-05", "end": 7}"#, name: "in.json")
    let run = file.run("convert", ["-o", file.output.path])
    #expect(run.status == .dataProblem)
    #expect(run.reports("error", "graph-missing-start", in: file.input, line: 1))
}

@Test func numbersBeyondDoubleStopReadingThere() throws {
    // 1e400 exceeds the largest Double (about 1.8e308); RFC 8259 §6 lets a parser limit the range.
    let json =
        #"[{"subject": "kept", "# + times + #"},"# + "\n"
        + #"{"subject": "lost", "reminderMinutesBeforeStart": 1e400, "# + times + "}]"
    let file = try HostileFile(json, name: "in.json")
    let run = file.run("convert", ["-o", file.output.path])
    #expect(run.status == .dataProblem)
    #expect(run.errors.contains("\(file.input.path):2:51: error: number out of range; reading stops here"))
    #expect(try file.written().contains("SUMMARY:kept\r\n"))
}

@Test func numbersTooLargeForTheirMemberAreIgnored() throws {
    let json = #"{"subject": "x", "reminderMinutesBeforeStart": 1e300, "# + times + "}"
    let file = try HostileFile(json, name: "in.json")
    let run = file.run("convert", ["-o", file.output.path])
    #expect(run.status == .success)
    #expect(run.errors.contains("$.reminderMinutesBeforeStart: warning:"))
    #expect(run.count("graph-wrong-type") == 1)
}

@Test func duplicateKeysKeepTheLastValueWithAWarning() throws {
    // RFC 8259 §4: names SHOULD be unique; the last one wins, as in most parsers.
    let json = #"{"subject": "first", "subject": "last", "# + times + "}"
    let file = try HostileFile(json, name: "in.json")
    let run = file.run("convert", ["-o", file.output.path])
    #expect(run.status == .success)
    #expect(run.reports("warning", "json-duplicate-key", in: file.input, line: 1))
    #expect(run.errors.contains("\(file.input.path):1:22:"), "the column of the second \"subject\"")
    #expect(try file.written().contains("SUMMARY:last\r\n"))
}

@Test func stringsThatAreNotUTF8AreRepairedWithAWarning() throws {
    // RFC 8259 §8.1: JSON text is UTF-8. 0xFF can start no UTF-8 sequence, and 0xC3 followed by
    // "x" is a lead byte without its continuation: each becomes U+FFFD, and the change is said.
    let bytes =
        Array("{\n\"subject\": \"caf".utf8) + [0xC3] + Array("x ".utf8) + [0xFF]
        + Array("\", \"location\": {\"displayName\": \"ok\"}, ".utf8)
        + Array(times.utf8) + Array("}".utf8)
    let file = try HostileFile(bytes, name: "in.json")
    let run = file.run("convert", ["-o", file.output.path])
    #expect(run.status == .success)
    #expect(run.reports("warning", "invalid-utf8", in: file.input, line: 2))
    #expect(run.errors.contains("\(file.input.path):2:12:"), "the column of the string's opening quote")
    #expect(run.count("invalid-utf8") == 1, "one warning for the string, not one per byte")
    #expect(try file.written().contains("SUMMARY:caf\u{FFFD}x \u{FFFD}\r\n"))
    #expect(try file.written().contains("LOCATION:ok\r\n"))

    let streamed = file.run("convert", ["--stream", "-o", file.output.path + ".streamed"])
    #expect(streamed.errors.contains("\(file.input.path):2:12:"), "the chunked reader locates it the same way")
    #expect(streamed.count("invalid-utf8") == 1)

    let strict = file.run("convert", ["--strict", "-o", file.output.path + ".strict"])
    #expect(strict.status == .dataProblem)
    #expect(!FileManager.default.fileExists(atPath: file.output.path + ".strict"))
}

@Test(.timeLimit(.minutes(1)))
func deeplyNestedArraysStopAtTheDepthLimit() throws {
    // The default JSON depth is 256: the 257th '[' (column 257) is refused, without recursing further.
    let file = try HostileFile(
        String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000),
        name: "in.json")
    let run = file.run("convert", ["-o", file.output.path])
    #expect(run.status == .dataProblem)
    #expect(run.errors.contains("\(file.input.path):1:257: error: nesting deeper than 256"))
    #expect(run.count("json-syntax") == 1)
    let limited = file.run("convert", ["--max-depth", "4", "-o", file.output.path])
    #expect(limited.errors.contains("\(file.input.path):1:5: error: nesting deeper than 4"))
}

// A 500 MB string is not built here: the limits that stop it are tested with the same code paths
// and smaller sizes. An input over --max-input-size (default 256 MiB, below 500 MB) is refused
// before it is read whole; a string over --max-string-length (default 64 MiB) stops the reader.

@Test func defaultLimitsRefuseAFiveHundredMegabyteJSONFileUnread() {
    #expect(InputLimits().maximumInputSize < 500_000_000)
    #expect(InputLimits().json.maximumStringLength < 500_000_000)
}

@Test func inputOverTheSizeLimitIsNotRead() throws {
    let string = String(repeating: "x", count: 2 << 20)
    let file = try HostileFile(#"{"subject": ""# + string + #"", "# + times + "}", name: "in.json")
    try "previous".write(to: file.output, atomically: true, encoding: .utf8)
    let run = file.run("convert", ["--max-input-size", "1M", "-o", file.output.path])
    #expect(run.status == .dataProblem)
    #expect(run.reports("error", "input-too-large", in: file.input))
    #expect(run.errors.contains("1048576 bytes (--max-input-size)"))
    #expect(try file.written() == "previous", "nothing to convert: the output is left alone")
}

@Test func inputOverTheSizeLimitOnStandardInputIsNotRead() {
    let string = String(repeating: "x", count: 2 << 20)
    let run = runCalport(
        ["convert", "--max-input-size", "1M"], stdin: #"{"subject": ""# + string + #"", "# + times + "}")
    #expect(run.status == .dataProblem)
    #expect(run.errors.contains("<stdin>: error: input is larger than 1048576 bytes"))
}

@Test func stringOverTheLengthLimitStopsReading() throws {
    // The string opens at column 13 of line 1.
    let string = String(repeating: "x", count: 1 << 20)
    let file = try HostileFile(#"{"subject": ""# + string + #"", "# + times + "}", name: "in.json")
    let run = file.run("convert", ["--max-string-length", "64K", "-o", file.output.path])
    #expect(run.status == .dataProblem)
    #expect(run.errors.contains("\(file.input.path):1:13: error: string longer than the limit of 65536 bytes"))
    #expect(run.count("json-syntax") == 1)
}

@Test func escapedStringOverTheLengthLimitStopsReading() throws {
    let string = String(repeating: #"\n"#, count: 100)
    let file = try HostileFile(#"{"subject": ""# + string + #"", "# + times + "}", name: "in.json")
    let run = file.run("convert", ["--max-string-length", "50", "-o", file.output.path])
    #expect(run.errors.contains("\(file.input.path):1:13: error: string longer than the limit of 50 bytes"))
}

@Test func aByteOrderMarkBeforeGraphJSONIsSkipped() throws {
    // RFC 8259 §8.1: a parser may ignore a BOM; PowerShell's Out-File and Notepad write one.
    let json = "\u{FEFF}[{\"subject\": \"BOM\", " + times + "}]"
    let file = try HostileFile(json, name: "in.json")
    for mode in [[], ["--stream"]] {
        let run = file.run("convert", ["-o", file.output.path] + mode)
        #expect(run.status == .success, "\(mode): \(run.errors)")
        #expect(try file.written().contains("SUMMARY:BOM\r\n"))
    }
    // A BOM anywhere else is still a syntax error.
    let inside = try HostileFile("[\u{FEFF}{\"subject\": \"x\", " + times + "}]", name: "in.json")
    #expect(inside.run("convert", ["-o", inside.output.path]).status == .dataProblem)
}
