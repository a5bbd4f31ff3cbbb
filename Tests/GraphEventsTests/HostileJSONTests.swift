import CalendarModel
import Testing

@testable import GraphEvents

// Hostile JSON through the library: limits and ranges are errors at their position, never a crash.

@Test(arguments: ["1e400", "-1e400", "1e999999999999"])
func numbersBeyondDoubleAreOutOfRange(_ number: String) {
    // RFC 8259 §6 lets a parser limit range; the largest Double is about 1.8e308.
    #expect(throws: JSONError(message: "number out of range", line: 1, column: 2, offset: 1)) {
        try JSONParser.parse("[\(number)]")
    }
}

@Test func numbersWithinDoubleStillParse() throws {
    #expect(try JSONParser.parse("[1e308, -1e308, 1e-400]") == [.number(1e308), .number(-1e308), .number(0)])
}

@Test func plainAndEscapedStringsHaveTheSameLengthLimit() throws {
    let limits = JSONLimits(maximumStringLength: 8)
    #expect(try JSONParser.parse(#"["12345678"]"#, limits: limits) == ["12345678"])
    #expect(try JSONParser.parse(#"["1234567\n"]"#, limits: limits) == ["1234567\n"])
    for text in [#"["123456789"]"#, #"["12345678\n"]"#] {
        #expect(throws: JSONError(message: "string longer than the limit of 8 bytes", line: 1, column: 2, offset: 1)) {
            try JSONParser.parse(text, limits: limits)
        }
    }
}

@Test func keysHaveTheStringLengthLimitToo() {
    #expect(throws: JSONError(message: "string longer than the limit of 4 bytes", line: 1, column: 2, offset: 1)) {
        try JSONParser.parse(#"{"subject": 1}"#, limits: JSONLimits(maximumStringLength: 4))
    }
}

@Test func theGraphReaderCountsDepthAsTheParserDoes() {
    // Array (1), event object (2), categories array (3), inner array (4).
    let text = #"[{"subject": "x", "categories": [["a"]]}]"#
    for depth in 1...5 {
        let limits = JSONLimits(maximumDepth: depth)
        let parses = (try? JSONParser.parse(text, limits: limits)) != nil
        let read = GraphEventReader(limits: limits).read(Array(text.utf8))
        #expect(parses == (depth >= 4))
        #expect(read.diagnostics.contains { $0.code == "json-syntax" } == !parses, "depth \(depth)")
    }
}

@Test func pagesCountTheirValueArrayAsDepthTwo() {
    // Page object (1), value array (2), event (3), start object (4).
    let text = #"{"value": [{"subject": "x", "start": {"dateTime": "2026-01-05T10:00:00", "timeZone": "UTC"}}]}"#
    let shallow = GraphEventReader(limits: JSONLimits(maximumDepth: 3)).read(Array(text.utf8))
    #expect(shallow.diagnostics.contains { $0.code == "json-syntax" })
    let enough = GraphEventReader(limits: JSONLimits(maximumDepth: 4)).read(Array(text.utf8))
    #expect(!enough.diagnostics.contains { $0.code == "json-syntax" })
}

@Test func aMillionOpeningBracketsStopAtTheLimit() {
    let text = String(repeating: "[", count: 1_000_000)
    #expect(throws: JSONError(message: "nesting deeper than 256", line: 1, column: 257, offset: 256)) {
        try JSONParser.parse(text)
    }
    let read = GraphEventReader(file: "deep.json").read(Array(text.utf8))
    #expect(read.diagnostics.map(\.location) == [SourceLocation(file: "deep.json", line: 1, column: 257)])
}

@Test func duplicateKeysInsideAnEventAreReportedWhereTheyAre() {
    let text = "[\n" + #"{"subject": "a", "body": {"content": "x", "content": "y"}}"# + "\n]"
    let read = GraphEventReader(file: "dup.json").read(Array(text.utf8))
    let duplicates = read.diagnostics.filter { $0.code == "json-duplicate-key" }
    // The second "content" starts at column 43 of line 2.
    #expect(duplicates.map(\.location) == [SourceLocation(file: "dup.json", line: 2, column: 43)])
}

/// Scans `text` as one JSON value; returns the scanner's duplicate warnings and its count of
/// member-name comparisons.
private func scanMembers(_ text: String) -> (warnings: [JSONWarning], comparisons: Int) {
    let bytes = Array(text.utf8)
    return bytes.withUnsafeBufferPointer { buffer in
        var scanner = JSONScanner(bytes: buffer)
        try? scanner.record(into: JSONTapeBuffer(capacity: 64))
        return (scanner.warnings, scanner.memberComparisons)
    }
}

@Test func duplicateDetectionIsLinearInTheMembersOfAnObject() {
    // 20,000 and 40,000 distinct names: comparing each with every earlier one would be
    // 2 * 10^8 and 8 * 10^8 comparisons; indexed, each name is compared or indexed about twice.
    for count in [20_000, 40_000] {
        let members = (0..<count).map { "\"k\($0)\": \($0)" }.joined(separator: ",")
        let scanned = scanMembers("{\(members)}")
        #expect(scanned.warnings.isEmpty)
        #expect(scanned.comparisons <= 3 * count, "\(count) members: \(scanned.comparisons) comparisons")
    }
}

@Test func duplicatesPastTheIndexedLimitAreStillFoundAndLocated() throws {
    // 1,000 names, then a repeat of k3 written with an escape ("k\u0033" is "k3", RFC 8259 §7),
    // then k999 again: both are duplicates, each reported at its own name, and k3 repeats once more.
    let members = (0..<1_000).map { "\"k\($0)\": \($0)" }.joined(separator: ",")
    let text = "{\(members),\n\"k\\u0033\": 1,\n\"k999\": 2,\n\"k3\": 3}"
    let scanned = scanMembers(text)
    #expect(
        scanned.warnings.map(\.message) == [
            #"duplicate key "k3"; the last value is used"#,
            #"duplicate key "k999"; the last value is used"#,
            #"duplicate key "k3"; the last value is used"#,
        ])
    #expect(scanned.warnings.map(\.line) == [2, 3, 4])
    #expect(try JSONParser.parse(text)["k3"] == .number(3))
}

@Test func aByteOrderMarkSplitAcrossChunksIsSkipped() throws {
    // The BOM's three bytes arrive one at a time, then the text.
    var reader = JSONStreamReader()
    for byte in [0xEF, 0xBB, 0xBF] as [UInt8] {
        reader.append([byte])
        #expect(try reader.next() == nil)
    }
    reader.append(Array(#"{"a": 1}"#.utf8))
    reader.finish()
    #expect(try reader.next()?.value == ["a": 1])
    #expect(try JSONParser.parse([0xEF, 0xBB, 0xBF] + Array("[1]".utf8)) == [1])
    #expect(throws: JSONError.self) { try JSONParser.parse([0xEF, 0xBB] + Array("[1]".utf8)) }
}

@Test func buildingAnObjectIsLinearInItsMembers() {
    // 40,000 distinct keys, then k7 again: compared one by one, about 8 * 10^8 comparisons;
    // indexed past 32 members, about one a key. The repeat replaces k7's value in place.
    var builder = JSONObjectBuilder()
    var repeats = 0
    for index in 0..<40_000 where builder.add("k\(index)", .number(Double(index))) { repeats += 1 }
    #expect(repeats == 0)
    let repeated = builder.add("k7", .string("again"))
    #expect(repeated)
    #expect(builder.comparisons <= 32 * 32 + 2 * 40_001, "\(builder.comparisons)")
    let object = JSONValue.object(builder.object)
    #expect(object["k7"] == .string("again"))
    #expect(object["k39999"] == .number(39_999))
    #expect(builder.object.members.count == 40_000)
}

@Test func anObjectMadeFromMembersKeepsARepeatedKeyAtItsFirstPlaceWithItsLastValue() {
    // RFC 8259 leaves repeated names to the reader; calport's rule (JSONObject.init) is one member
    // per key, where it first stood, holding the last value given.
    let object = JSONObject([JSONMember("a", 1), JSONMember("b", 2), JSONMember("a", 3)])
    #expect(object.members.map(\.key) == ["a", "b"])
    #expect(object["a"] == 3)
    let distinct = JSONObject([JSONMember("type", "required"), JSONMember("emailAddress", ["address": "x@y"])])
    #expect(distinct.members.map(\.key) == ["type", "emailAddress"])
    #expect(JSONWriter().string(.object(distinct)) == #"{"type":"required","emailAddress":{"address":"x@y"}}"#)
}
