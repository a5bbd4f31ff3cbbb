import Testing

@testable import GraphEvents

@Suite struct JSONParserTests {
    @Test func parsesEveryKindOfValueKeepingMemberOrder() throws {
        let value = try JSONParser.parse(#"{"z": 1, "a": [true, false, null], "m": -2.5e2, "s": "x"}"#)
        #expect(value.objectValue?.members.map(\.key) == ["z", "a", "m", "s"])
        #expect(value["z"] == .number(1))
        #expect(value["a"] == [true, false, nil])
        #expect(value["m"] == .number(-250))
        #expect(value["s"] == "x")
    }

    @Test func decodesEscapesAndSurrogatePairs() throws {
        // RFC 8259 §7: U+1D11E is written as the pair \uD834\uDD1E.
        let value = try JSONParser.parse(#"["a\"b\\c\/d\n\t", "\u00e9\uD834\uDD1E"]"#)
        #expect(value == ["a\"b\\c/d\n\t", "é𝄞"])
    }

    @Test func reportsLineAndColumnOfSyntaxErrors() {
        #expect(throws: JSONError(message: "unexpected '}', expected a value", line: 3, column: 8, offset: 19)) {
            try JSONParser.parse("{\n  \"a\": 1,\n  \"b\": }")
        }
        #expect(throws: JSONError(message: "leading zero in number", line: 1, column: 2, offset: 1)) {
            try JSONParser.parse("[01]")
        }
    }

    @Test func rejectsMalformedInput() {
        for text in [
            "", "[1,]", "{\"a\" 1}", "\"abc", "tru", "[1] 2", "\"a\u{1}\"", "-", "1.", "1e", "{1:2}", "\"\\x\"",
        ] {
            #expect(throws: JSONError.self, "\(text)") { try JSONParser.parse(text) }
        }
    }

    @Test func limitsNestingDepth() {
        let deep = String(repeating: "[", count: 300) + String(repeating: "]", count: 300)
        #expect(throws: JSONError.self) { try JSONParser.parse(deep) }
        #expect(throws: Never.self) { try JSONParser.parse(deep, limits: JSONLimits(maximumDepth: 400)) }
    }

    @Test func limitsStringLength() {
        let limits = JSONLimits(maximumStringLength: 4)
        #expect(throws: Never.self) { try JSONParser.parse("[\"abcd\", \"a\\nc\"]", limits: limits) }
        #expect(throws: JSONError.self) { try JSONParser.parse("[\"abcde\"]", limits: limits) }
        #expect(throws: JSONError.self) { try JSONParser.parse("[\"ab\\ncde\"]", limits: limits) }
    }

    @Test func reportsDuplicateKeysAndKeepsTheLastValue() throws {
        var reader = JSONStreamReader(bytes: Array("{\"a\": 1,\n \"a\": 2}".utf8))
        let document = try #require(try reader.next())
        #expect(document.value == ["a": 2])
        #expect(document.warnings.map { [$0.line, $0.column] } == [[2, 2]])
    }

    @Test func duplicateKeysAfterLongValuesAreLocated() throws {
        var reader = JSONStreamReader(bytes: Array("[\n{\"k\": 1,\n \"k\": [\n\n\n2]}, {\"k\": 3, \"k\": 4}]".utf8))
        let document = try #require(try reader.next())
        #expect(document.warnings.map { [$0.line, $0.column] } == [[3, 2], [6, 15]])
    }

    /// Every document of `text`, fed in chunks of `size` bytes (the whole text when nil).
    private func documents(_ text: String, chunk size: Int?) -> (docs: [JSONDocument], error: JSONError?) {
        var reader = size == nil ? JSONStreamReader(bytes: Array(text.utf8)) : JSONStreamReader()
        var docs: [JSONDocument] = []
        let bytes = Array(text.utf8)
        var position = 0
        do {
            while true {
                if let size, position < bytes.count {
                    reader.append(bytes[position..<min(bytes.count, position + size)])
                    position += size
                    if position >= bytes.count { reader.finish() }
                } else if size != nil && position == 0 {
                    reader.finish()
                }
                while let document = try reader.next() { docs.append(document) }
                if size == nil || position >= bytes.count { break }
            }
        } catch {
            return (docs, error)
        }
        return (docs, nil)
    }

    @Test func chunkedInputGivesTheSameDocuments() {
        let text = "{\"a\": [1, 2.5e3, \"x\\u00e9\"]}\n12 true\n[null, {\"b\": \"\\uD834\\uDD1E\"}] 345\n\"end\""
        let whole = documents(text, chunk: nil)
        #expect(whole.docs.count == 6 && whole.error == nil)
        for size in 1...9 {
            let chunked = documents(text, chunk: size)
            #expect(chunked.docs == whole.docs, "chunks of \(size)")
            #expect(chunked.error == nil)
        }
        let cut = "[1, 2]\n{\"a\": [1, tr"
        for size in [1, 3, 100] {
            #expect(documents(cut, chunk: size).docs.count == 1)
            #expect(documents(cut, chunk: size).error == documents(cut, chunk: nil).error)
        }
    }

    @Test func chunkedInputDropsWhatItHasRead() throws {
        let line = "{\"id\": \"" + String(repeating: "x", count: 90) + "\"}\n"
        let text = String(repeating: line, count: 3_000)
        let result = documents(text, chunk: 4_096)
        #expect(result.docs.count == 3_000 && result.error == nil)
        #expect(result.docs.last?.line == 3_000)
        #expect(result.docs.last?.offset == (line.utf8.count) * 2_999)
    }

    @Test func streamsConcatenatedDocumentsAndNDJSON() throws {
        var reader = JSONStreamReader(bytes: Array("{\"a\":1}\n{\"b\":2}[3]  \"s\"\n".utf8))
        var lines: [Int] = []
        var values: [JSONValue] = []
        while let document = try reader.next() {
            values.append(document.value)
            lines.append(document.line)
        }
        #expect(values == [["a": 1], ["b": 2], [3], "s"])
        #expect(lines == [1, 2, 2, 2])
    }
}

@Suite struct JSONWriterTests {
    @Test func writesCompactTextWithEscapes() {
        let value: JSONValue = ["b": "q\"\\\n\u{1}é", "a": [1, 2.5, -0.125, true, nil], "e": [:], "l": []]
        #expect(JSONWriter().string(value) == #"{"b":"q\"\\\n\u0001é","a":[1,2.5,-0.125,true,null],"e":{},"l":[]}"#)
    }

    @Test func writesPrettyText() {
        let value: JSONValue = ["a": [1], "b": ["c": nil]]
        #expect(
            JSONWriter(pretty: true).string(value) == "{\n  \"a\": [\n    1\n  ],\n  \"b\": {\n    \"c\": null\n  }\n}")
    }

    @Test func roundTripsThroughTheParser() throws {
        let value: JSONValue = ["x": ["y": "\u{7F}\u{2028}𝄞", "n": 1e300, "i": 9_007_199_254_740_992]]
        #expect(try JSONParser.parse(JSONWriter().string(value)) == value)
    }

    @Test func writesWholeNumbersAsIntegers() {
        // RFC 8259 §6: an integer needs no fraction or exponent; past 2^53 a Double is not exact.
        let cases: [(Double, String)] = [
            (0, "0"), (7, "7"), (15, "15"), (10, "10"), (-250, "-250"), (1_000_000, "1000000"),
            (9_007_199_254_740_992, "9007199254740992"), (-9_007_199_254_740_992, "-9007199254740992"),
            (-0.0, "0"), (2.5, "2.5"), (1e300, "1e+300"),
        ]
        for (number, text) in cases {
            #expect(JSONWriter().string(.number(number)) == text, "\(number)")
        }
    }

    /// The tape of `text` and its root, for tests of lookups.
    private func withRoot(_ text: String, _ body: (JSONNode) -> Void) {
        let bytes = Array(text.utf8)
        let tape = JSONTapeBuffer()
        bytes.withUnsafeBufferPointer { buffer in
            var scanner = JSONScanner(bytes: buffer)
            #expect(throws: Never.self) { try scanner.record(into: tape) }
            body(JSONNode(tokens: tape.tokens, bytes: buffer, index: 0))
        }
    }

    /// A string's bytes are checked for UTF-8 once, when it is recorded; made into a `String`, valid
    /// ones are not checked again and invalid ones are repaired. Expected as Python's
    /// `bytes.decode("utf-8", "replace")` gives them: one U+FFFD for each maximal invalid subpart.
    @Test func stringsAreCheckedOnceAndInvalidBytesReplaced() throws {
        let cases: [([UInt8], String)] = [
            (Array(#""plain ascii""#.utf8), "plain ascii"),
            (Array("\"Brasília – ü\"".utf8), "Brasília – ü"),
            (Array(#""a\"b \u00fc – c\r\n""#.utf8), "a\"b ü – c\r\n"),
            ([0x22, 0x61, 0xFF, 0x62, 0x22], "a\u{FFFD}b"),
            ([0x22, 0x5C, 0x6E, 0xC3, 0x22], "\n\u{FFFD}"),
            ([0x22, 0xE2, 0x80, 0x61, 0x22], "\u{FFFD}a"),
        ]
        for (bytes, expected) in cases {
            #expect(try JSONParser.parse(bytes) == .string(expected), "\(bytes)")
            let member = Array(#"{"k": "#.utf8) + bytes + Array("}".utf8)
            #expect(try JSONParser.parse(member) == .object(JSONObject([JSONMember("k", .string(expected))])))
        }
    }

    @Test func memberLookupsFindTheLastOfARepeatedNameAndNothingElse() {
        withRoot(#"{"subject": 1, "subjects": 2, "subjecT": 3, "subject": 4, "s": 5}"#) { root in
            #expect(root["subject"]?.numberValue == 4)
            #expect(root["subjects"]?.numberValue == 2)
            #expect(root["subjecT"]?.numberValue == 3)
            #expect(root["s"]?.numberValue == 5)
            #expect(root["subjec"] == nil && root["Subject"] == nil && root[""] == nil)
            let index = JSONMemberIndex(root)
            #expect(index != nil)
            for name: JSONKey in ["subject", "subjects", "subjecT", "s", "subjec", "Subject"] {
                #expect(index?.member(name, of: root)?.numberValue == root[name]?.numberValue)
            }
        }
    }

    @Test func aNameSignatureReadAsOneWordIsTheOneReadByteByByte() {
        // The length in the top byte, then the first seven bytes, first byte lowest: "id" is 0x6469.
        let text = Array("id\":".utf8)
        text.withUnsafeBufferPointer { bytes in
            #expect(JSONToken.signature(from: 0, to: 2, in: bytes) == 2 << 56 | 0x6469)
        }
        // Names of every length, inside a long text (read as a word) and at its very end (byte by
        // byte), give what the byte-by-byte reading of a lookup key gives.
        let name = Array("abcdefghijkl".utf8)
        for length in 0...name.count {
            for padding in [0, 8] {
                let text = name[..<length] + Array(repeating: UInt8(ascii: "\""), count: padding)
                text.withUnsafeBufferPointer { bytes in
                    let expected = JSONToken.signature(UnsafeBufferPointer(rebasing: bytes[..<length]))
                    #expect(JSONToken.signature(from: 0, to: length, in: bytes) == expected, "length \(length)")
                }
            }
        }
    }

    /// Names compared by their signature and at most one more word: of every length around seven
    /// and fifteen bytes, differing in their last byte or in the one after the seventh, escaped,
    /// capitalised or not ASCII, each is found exactly when its decoded text is the key.
    @Test func memberNamesOfEveryLengthAreComparedWhole() {
        let names = [
            "dateTime", "dateTimf", "dateXime", "timeZone", "emailAddress", "emailAddresz", "emailAddrXss",
            "displayNam", "\\u0063ontentType", "Subject", "naïve", "naïvf", "reminderMinutesBeforeStart",
            "reminderMinutesBeforeStarT", "fifteenBytesLon", "fifteenBytesLoN", "sixteenBytesLong", "",
        ]
        let text = "{" + names.enumerated().map { "\"\($1)\": \($0)" }.joined(separator: ", ") + "}"
        let keys: [JSONKey] = [
            "dateTime", "dateTimf", "timeZone", "emailAddress", "emailAddresx", "displayName", "contentType",
            "subject", "Subject", "naïve", "naïvf", "reminderMinutesBeforeStart", "reminderMinutesBeforeStarX",
            "fifteenBytesLon", "fifteenBytesLoN", "sixteenBytesLong", "sixteenBytesLonG", "",
        ]
        withRoot(text) { root in
            // The general path: every name decoded and compared as text.
            func expected(_ key: JSONKey) -> Double? {
                var position = 1
                var found: Double?
                while position < root.token.next {
                    let value = JSONNode(tokens: root.tokens, bytes: root.bytes, index: position + 1)
                    if JSONNode.decodeString(root.tokens[position], in: root.bytes) == key.description {
                        found = value.numberValue
                    }
                    position = value.token.next
                }
                return found
            }
            for key in keys {
                #expect(root[key]?.numberValue == expected(key), "\(key)")
            }
        }
        let plain = names.filter { !$0.contains("\\") }
        withRoot("{" + plain.enumerated().map { "\"\($1)\": \($0)" }.joined(separator: ", ") + "}") { root in
            let index = JSONMemberIndex(root)
            #expect(index != nil)
            for key in keys {
                #expect(index?.member(key, of: root)?.numberValue == root[key]?.numberValue, "\(key)")
            }
        }
    }

    @Test func objectsTooLargeOrWithEscapedNamesAreNotIndexedButStillFound() {
        let many = (0..<40).map { "\"m\($0)\": \($0)" }.joined(separator: ", ")
        withRoot("{\(many)}") { root in
            #expect(JSONMemberIndex(root) == nil)
            #expect(root["m39"]?.numberValue == 39)
        }
        withRoot(#"{"a": 1, "\u0062": 2}"#) { root in
            #expect(JSONMemberIndex(root) == nil)
            #expect(root["b"]?.numberValue == 2)
        }
    }

    /// An object's token gathers its names while they are read and is written once: its `bits`
    /// and flags must be those worked out from its name tokens afterwards, for every object of
    /// texts with escaped, repeated, capitalised, empty and non-ASCII names, nested objects as
    /// member values, and every prefix of them (an object cut short keeps the names read so far).
    @Test func objectTokensHoldTheNamesReadEvenWhenCutShort() {
        let texts = [
            #"{"subject": "a\"b", "Subject": {"x": [1, {"y": null}]}, "subject": "\u00e9", "s\u0075bject": true}"#,
            #"{"naïve": "é", "": 0, "": {"": {}}, "id": "x", "ID": [], "id": {"id": "y"}}"#,
            #"{"a": {"b": {"c": 1}}, "d": [{"e": "f"}], "g": false}"#,
        ]
        for text in texts {
            let bytes = Array(text.utf8)
            for count in 1...bytes.count {
                let tape = JSONTapeBuffer()
                bytes.withUnsafeBufferPointer { buffer in
                    var scanner = JSONScanner(bytes: UnsafeBufferPointer(rebasing: buffer[..<count]))
                    let completed = (try? scanner.record(into: tape)) != nil
                    #expect(completed == (count == bytes.count), "\(text) cut at \(count)")
                    let tokens = tape.tokens
                    for object in tokens.indices where tokens[object].kind == .object {
                        var (bits, flags) = (UInt64(0), JSONToken.Flags())
                        let end = tokens[object].next == 0 ? tokens.count : tokens[object].next
                        var name = object + 1
                        while name < end {
                            let token = tokens[name]
                            let signature = JSONToken.signature(from: token.start, to: token.end, in: buffer)
                            #expect(token.bits == signature)
                            bits |= token.flags.contains(.escaped) ? ~0 : JSONToken.nameBit(signature)
                            if token.end > token.start,
                                (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(buffer[token.start])
                            {
                                flags.insert(.hasCapitalizedKey)
                            }
                            guard name + 1 < tokens.count, tokens[name + 1].next != 0 else { break }
                            name = tokens[name + 1].next
                        }
                        #expect(tokens[object].bits == bits, "\(text) cut at \(count)")
                        #expect(tokens[object].flags == flags, "\(text) cut at \(count)")
                    }
                }
            }
        }
    }

    /// The run of plain string bytes found eight at a time is the one found byte by byte, and so
    /// is whether it is ASCII, wherever the byte that ends it and bytes that are not ASCII fall in
    /// a word (before it, on either side, after it) and at the end of the buffer.
    @Test func plainRunsAreThoseFoundByteByByte() {
        for length in 0...20 {
            for stop: UInt8? in [nil, UInt8(ascii: "\""), UInt8(ascii: "\\"), 0x00, 0x1F] {
                for high in [nil, 0, 3, 7, 8, 9, length - 1, length, length + 1] {
                    var text = [UInt8](repeating: UInt8(ascii: "a"), count: length)
                    if let stop { text.append(stop) }
                    text += Array("bcd".utf8)
                    if let high, text.indices.contains(high) { text[high] = 0xC3 }
                    text.withUnsafeBufferPointer { bytes in
                        var end = 0
                        while end < bytes.count, !JSONStringBytes.needsAttention(bytes[end]) { end += 1 }
                        let run = JSONStringBytes.plainRun(in: bytes, from: 0)
                        #expect(run.end == end, "\(text)")
                        #expect(run.isASCII == bytes[..<end].allSatisfy { $0 < 0x80 }, "\(text)")
                    }
                }
            }
        }
    }
}
