import CalendarModel
import Testing

@testable import ICalendar

private func line(_ text: String) throws(ContentLineParser.SyntaxError) -> ContentLine {
    var recovered: [ContentLineParser.SyntaxError] = []
    var names = ContentNames()
    return try ContentLineParser.parse(Array(text.utf8).span, line: 1, names: &names, recovered: &recovered)
}

@Test func quotedParameterValuesMayHoldSeparators() throws {
    // RFC 5545 §3.2: quoted values may contain ":", ";" and ",".
    let parsed = try line(
        #"ATTENDEE;DELEGATED-FROM="mailto:a@example.com","mailto:b@example.com";CN="Doe, John":mailto:j@example.com"#)
    #expect(parsed.name == "ATTENDEE")
    #expect(
        parsed.parameters[0]
            == Parameter(name: "DELEGATED-FROM", values: ["mailto:a@example.com", "mailto:b@example.com"]))
    #expect(parsed.parameter("cn") == "Doe, John")
    #expect(parsed.value == "mailto:j@example.com")
}

@Test func rfc6868CaretSequencesAreDecoded() throws {
    // RFC 6868 §4 examples.
    let address = try line("X-ADDRESS;X-LABEL=\"123 Main St^nSpringfield\":geo:0,0")
    #expect(address.parameter("X-LABEL") == "123 Main St\nSpringfield")
    let attendee = try line("ATTENDEE;CN=George Herman ^'Babe^' Ruth:mailto:babe@example.com")
    #expect(attendee.parameter("CN") == "George Herman \"Babe\" Ruth")
    #expect(ParameterCodec.decode("a^^b^x") == "a^b^x")
}

@Test func parameterValuesAreEncodedAndQuotedOnOutput() {
    // RFC 6868 §3 for ^ " and newline; RFC 5545 §3.2 quotes values holding ; : or ,.
    func written(_ value: String) -> String {
        var writer = ContentWriter()
        writer.begin(line: "X")
        writer.parameter("P", value)
        writer.finish(.raw("v"))
        return String(decoding: writer.bytes, as: UTF8.self)
    }
    #expect(written("George Herman \"Babe\" Ruth") == "X;P=George Herman ^'Babe^' Ruth:v\r\n")
    #expect(written("line1\nline2") == "X;P=line1^nline2:v\r\n")
    #expect(written("Doe, John") == "X;P=\"Doe, John\":v\r\n")
    #expect(written("mailto:x@example.com") == "X;P=\"mailto:x@example.com\":v\r\n")
    #expect(written("a^b") == "X;P=a^^b:v\r\n")
    #expect(written("Ünïcödé") == "X;P=Ünïcödé:v\r\n")
}

/// Random texts of plain runs, the characters each encoding changes, tabs, other control characters and
/// multi-byte UTF-8, so that each of them falls at every offset of the eight-byte words the writer scans,
/// several in one word or none in many (fixed seed). Each is held to the RFCs' rules applied a character
/// at a time: TEXT (RFC 5545 §3.3.11; a line break, CRLF or either alone, is `\n`, and a control
/// character TEXT cannot hold is dropped), and a parameter value (RFC 6868 §3 for `^`, `"` and line
/// breaks; RFC 5545 §3.2 quotes a value holding `;`, `:` or `,`, and §3.1 leaves control characters but
/// tab out of one).
@Test func textAndParameterValuesAreEncodedAsTheRFCsRulesWriteEachCharacter() {
    var random = RecurrenceDifferentialTests.Seeded(state: 6868)
    let pieces = [
        "a", "plain words ", "abcdefghijklmnopq", "\\", ";", ",", ":", "\"", "^", "\n", "\r", "\r\n", "\t",
        "\u{0B}", "\u{01}", "\u{7F}", "é", "議", "🎉",
    ]
    // Each character as the rules write it: its replacement, a line break (CRLF, or CR or LF alone)
    // as `lineBreak`, tab as it is, another control character not at all.
    func encoded(_ text: String, _ replacements: [Unicode.Scalar: String], lineBreak: String) -> String {
        var out = ""
        var previous: Unicode.Scalar = " "
        for scalar in text.unicodeScalars {
            defer { previous = scalar }
            if let replacement = replacements[scalar] {
                out += replacement
                continue
            }
            switch scalar {
            case "\n" where previous == "\r": continue
            case "\n", "\r": out += lineBreak
            case "\t": out += "\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F: continue
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
    func referenceText(_ text: String) -> String {
        encoded(text, ["\\": "\\\\", ";": "\\;", ",": "\\,"], lineBreak: "\\n")
    }
    func referenceParameter(_ value: String) -> String {
        let value = encoded(value, ["^": "^^", "\"": "^'"], lineBreak: "^n")
        return value.contains(where: { ";:,".contains($0) }) ? "\"\(value)\"" : value
    }
    for _ in 0..<2_000 {
        let text = (0..<Int.random(in: 1...20, using: &random)).map { _ in pieces.randomElement(using: &random)! }
            .joined()
        #expect(TextCodec.escape(text) == referenceText(text), "\(Array(text.utf8))")
        var writer = ContentWriter()
        writer.begin(line: "X")
        writer.parameter("P", text)
        writer.finish(.raw("v"))
        // Unfolded (RFC 5545 §3.1): long values are folded at 75 octets.
        let unfolded = String(decoding: writer.bytes, as: UTF8.self).replacing("\r\n ", with: "")
        #expect(unfolded == "X;P=\(referenceParameter(text)):v\r\n", "\(Array(text.utf8))")
    }
}

@Test func valueKeepsColonsAfterTheFirst() throws {
    let parsed = try line("URL:http://example.com:8080/a;b")
    #expect(parsed.value == "http://example.com:8080/a;b")
    #expect(parsed.parameters.isEmpty)
}

@Test func syntaxErrorsSayWhereAndWhat() {
    #expect(throws: ContentLineParser.SyntaxError.self) { try line("NOVALUE") }
    do {
        _ = try line("SUMMARY;CN=\"unterminated:x")
        Issue.record("expected an error")
    } catch {
        #expect(error.column == 12)
        #expect(error.message.contains("unterminated"))
    }
}

@Test func textEscapesFollowRFC5545() {
    // RFC 5545 §3.3.11: backslash, semicolon, comma and newline are escaped.
    #expect(TextCodec.escape("a\\b;c,d\ne") == "a\\\\b\\;c\\,d\\ne")
    #expect(TextCodec.unescape("a\\\\b\\;c\\,d\\ne\\Nf") == "a\\b;c,d\ne\nf")
    // Escapes around and before non-ASCII text, one in the last of eight bytes, and a lone backslash at
    // the end, which escapes nothing and is kept.
    #expect(TextCodec.unescape("\\\u{E9}t\u{E9}\\, \u{1F680}\\n") == "\u{E9}t\u{E9}, \u{1F680}\n")
    #expect(TextCodec.unescape("abcdefg\\,hijklmnop") == "abcdefg,hijklmnop")
    #expect(TextCodec.unescape("abc\\") == "abc\\")
    let plain = "no escapes at all, and longer than eight bytes"
    #expect(TextCodec.unescape(plain) == plain)
    #expect(TextCodec.splitList("a\\,b,c") == ["a,b", "c"])
}

@Test func dateAndDateTimeValuesAreWrittenInTheirRFCForms() {
    // RFC 5545 §3.3.4 (DATE) and §3.3.5 (DATE-TIME forms 1 and 2), fields zero-padded.
    let july = LocalDateTime(date: CalendarDate(year: 1997, month: 7, day: 14), hour: 13, minute: 30, second: 0)
    #expect(DateTimeText.format(july, isDate: false, isUTC: false) == "19970714T133000")
    #expect(DateTimeText.format(july, isDate: false, isUTC: true) == "19970714T133000Z")
    #expect(DateTimeText.format(july, isDate: true, isUTC: false) == "19970714")
    let early = LocalDateTime(date: CalendarDate(year: 476, month: 1, day: 2), hour: 3, minute: 4, second: 5)
    #expect(DateTimeText.format(early, isDate: false, isUTC: false) == "04760102T030405")
    let late = LocalDateTime(date: CalendarDate(year: 10_000, month: 12, day: 31), hour: 23, minute: 59, second: 60)
    #expect(DateTimeText.format(late, isDate: false, isUTC: true) == "100001231T235960Z")
}

@Test func durationsAreWrittenAsLibicalWritesThem() {
    // DurationText writes what libical's icaldurationtype_as_ical_string_r writes, and hands it the
    // durations past 32 bits; zero, weeks with days or time, and each field alone are the cases.
    let values = [0, 1, 7, 59, 60, 3_600, 86_400, 1_000_000, Int(Int32.max)]
    for isNegative in [false, true] {
        for weeks in [0, 1, 3] {
            for days in [0, 2] {
                for (hours, minutes, seconds) in [(0, 0, 0), (1, 0, 0), (0, 15, 0), (0, 0, 30), (25, 61, 3_601)] {
                    let duration = EventDuration(
                        isNegative: isNegative, weeks: weeks, days: days, hours: hours, minutes: minutes,
                        seconds: seconds)
                    #expect(DurationText.format(duration) == Libical.formatDuration(duration), "\(duration)")
                }
            }
        }
        for value in values {
            for duration in [
                EventDuration(isNegative: isNegative, weeks: value), EventDuration(isNegative: isNegative, days: value),
                EventDuration(isNegative: isNegative, hours: value),
                EventDuration(isNegative: isNegative, minutes: value),
                EventDuration(isNegative: isNegative, seconds: value),
            ] {
                #expect(DurationText.format(duration) == Libical.formatDuration(duration), "\(duration)")
            }
        }
    }
    #expect(DurationText.format(EventDuration(isNegative: true, minutes: 15)) == "-PT15M")
    #expect(DurationText.format(EventDuration(weeks: 1, days: 1)) == "P8D")
}

@Test func durationsInTheRFCsGrammarAreReadAsLibicalReadsThem() {
    // RFC 5545 §3.3.6's examples first, worked out from its text.
    #expect(DurationText.strict("P15DT5H0M20S") == EventDuration(days: 15, hours: 5, minutes: 0, seconds: 20))
    #expect(DurationText.strict("P7W") == EventDuration(weeks: 7))
    #expect(DurationText.strict("-PT15M") == EventDuration(isNegative: true, minutes: 15))
    // Every form of the grammar, each sign, numbers up to six digits: read here as libical reads them.
    let numbers = [0, 1, 7, 15, 59, 60, 99, 100, 3_600, 999_999]
    var forms: [String] = []
    for number in numbers {
        forms += ["P\(number)W", "P\(number)D"]
        for time in ["\(number)H", "\(number)M", "\(number)S", "\(number)H1M", "1M\(number)S", "1H\(number)M2S"] {
            forms += ["PT" + time, "P2DT" + time, "P\(number)DT" + time]
        }
    }
    for sign in ["", "+", "-"] {
        for form in forms {
            let text = sign + form
            #expect(DurationText.strict(text) != nil, "\(text)")
            #expect(DurationText.strict(text) == Libical.libicalDuration(text), "\(text)")
        }
    }
    // Anything else is libical's to read (or refuse), as before.
    for text in [
        "", "P", "PT", "P1DT", "+", "-P", "P1H", "PT1H1S", "PT1M1H", "PT1S1M", "P1W1D", "P1WT1H", "P1D2D",
        "pt15m", "Pt15M", "PT15m", "PT1234567S", "P1234567D", "P-1D", "PT+15M", " PT15M", "PT15M ", "PT15",
        "P1.5D", "PT15M15M", "--PT1M", "P1DT1H1M1S1",
    ] {
        #expect(DurationText.strict(text) == nil, "\(text)")
        #expect(Libical.parseDuration(text) == Libical.libicalDuration(text), "\(text)")
    }
}

@Test func foldingNeverSplitsACharacter() {
    // RFC 5545 §3.1: 75 octets a line, the leading space of a continuation counting; a character
    // that would pass the limit starts the next line whole.
    var writer = ContentWriter()
    writer.begin(line: "X")
    writer.finish(.raw(String(repeating: "a", count: 71) + "é€𝄞" + String(repeating: "b", count: 80)))
    let lines = String(decoding: writer.bytes, as: UTF8.self).split(separator: "\r\n", omittingEmptySubsequences: false)
    #expect(lines.map(\.utf8.count) == [75, 75, 14, 0])
    #expect(lines[0].hasSuffix("aé") && lines[1].hasPrefix(" €𝄞b"))
}

@Test func literalsAreWrittenAsTheGeneralPathWritesThem() {
    // Tokens and calport's own keywords skip the scan for characters to quote or escape: each must
    // come out as a parameter value and as TEXT exactly as the general path writes it.
    func written(_ parameter: (inout ContentWriter) -> Void, _ value: ContentValue) -> String {
        var writer = ContentWriter()
        writer.begin(line: "X")
        parameter(&writer)
        writer.finish(value)
        return String(decoding: writer.bytes, as: UTF8.self)
    }
    func check(_ literal: StaticString) {
        let fast = written({ $0.parameter("P", literal: literal) }, .literal(literal))
        let general = written({ $0.parameter("P", literal.description) }, .text(literal.description))
        #expect(fast == general)
    }
    func checkTokens<Token: ICalendarToken>(_: Token.Type) {
        for (value, token) in Token.tokens {
            check(token)
            #expect(value.knownToken?.description == token.description)
            #expect(Token(token: token.description.lowercased()) == value)
        }
    }
    checkTokens(AttendeeRole.self)
    checkTokens(ParticipationStatus.self)
    checkTokens(CalendarUserType.self)
    checkTokens(EventStatus.self)
    checkTokens(Classification.self)
    checkTokens(Alarm.Action.self)
    checkTokens(BusyStatus.self)
    checkTokens(Importance.self)
    for keyword: StaticString in [
        "TRUE", "FALSE", "TRANSPARENT", "OPAQUE", "THISANDFUTURE", "text/html", "END", "DATE", "DATE-TIME",
    ] {
        check(keyword)
    }
    // A token the tables lack is written as read, quoted where it needs it.
    #expect(
        written({ $0.parameter("ROLE", token: AttendeeRole.other("X-A;B")) }, .raw("v")) == "X;ROLE=\"X-A;B\":v\r\n")
    #expect(AttendeeRole(token: "x-a;b") == .other("x-a;b"))
}

/// What a property keeps of its parameters once the model has read some (DTSTART reads VALUE and
/// TZID, RFC 5545 §3.8.2.4): the others, in the order written; names compare case-insensitively
/// (RFC 5545 §3.2), as code may spell them.
@Test func aLineKeepsTheParametersTheModelDoesNotRead() throws {
    let start = try line("DTSTART;X-A=1;TZID=Europe/Berlin;X-B=2;VALUE=DATE-TIME:20261201T090000")
    #expect(start.parameters(excluding: ["VALUE", "TZID"]).map(\.name) == ["X-A", "X-B"])
    #expect(start.parameters(excluding: ["value", "tzid", "x-a"]).map(\.name) == ["X-B"])
    #expect(start.parameters(excluding: []).map(\.name) == ["X-A", "TZID", "X-B", "VALUE"])
    #expect(start.parameters(excluding: ["X-A", "X-B", "TZID", "VALUE"]).isEmpty)
    #expect(try line("SUMMARY:Plain").parameters(excluding: ["LANGUAGE"]).isEmpty)
}

/// Names are upper-cased whatever their length and wherever the line ends (RFC 5545 §2: names are
/// case-insensitive), also when one table of names met (`ContentNames`) reads many lines, so that
/// a name met before and a name whose slot another took come back as written.
@Test func namesComeBackUpperCasedFromOneTableOfNamesMet() throws {
    var names = ContentNames()
    func parsed(_ text: String) throws -> ContentLine {
        var recovered: [ContentLineParser.SyntaxError] = []
        return try ContentLineParser.parse(Array(text.utf8).span, line: 1, names: &names, recovered: &recovered)
    }
    // Lengths 1 to 20 (a key holds 16 bytes), lines shorter and longer than 16 bytes after the name.
    let alphabet = Array("abcdefghij-0123456789XYZ")
    let generated = (1...20).map { length in String((0..<length).map { alphabet[($0 * 7 + length) % alphabet.count] }) }
    let spellings = generated.map { "X" + $0 } + ["dtstart", "DtStart", "DTSTART", "uid", "UID", "x-a", "X-A"]
    for _ in 0..<3 {
        for spelling in spellings {
            for value in ["1", "a value longer than sixteen bytes"] {
                let line = try parsed("\(spelling);\(spelling.lowercased())=p:\(value)")
                #expect(line.name == spelling.uppercased())
                #expect(line.parameters.map { $0.name } == [spelling.uppercased()])
                #expect(line.value == value)
            }
        }
    }
    // Names that differ only in their last byte are told apart at every length.
    for length in 1...20 {
        let stem = String(repeating: "Q", count: length - 1)
        for _ in 0..<2 {
            for last in ["a", "b", "-", "1"] {
                #expect(try parsed("\(stem)\(last):v").name == (stem + last).uppercased())
            }
        }
    }
    // Names that differ only past their eighth or sixteenth byte are told apart.
    #expect(try parsed("X-SAME-PREFIX-A:1").name == "X-SAME-PREFIX-A")
    #expect(try parsed("X-SAME-PREFIX-B:1").name == "X-SAME-PREFIX-B")
    #expect(try parsed("X-SAME-PREFIX-ABC-1:1").name == "X-SAME-PREFIX-ABC-1")
    #expect(try parsed("X-SAME-PREFIX-ABC-2:1").name == "X-SAME-PREFIX-ABC-2")
    #expect(try parsed("X-SAMEPREFIX:1").name == "X-SAMEPREFIX")
    #expect(try parsed("X-SAMEPREFI:1").name == "X-SAMEPREFI")
}

/// The parameters an ATTENDEE line's model has fields for (RFC 5545 §3.8.4.1: CN, ROLE, PARTSTAT,
/// RSVP, CUTYPE, DELEGATED-TO, DELEGATED-FROM) are read from the first of each name, as
/// `ContentLine.parameter(_:)` reads them; every other parameter is kept, in order, and no second
/// copy of a modelled one is.
@Test func anAttendeeReadsTheFirstOfEachModelledParameterAndKeepsTheRest() throws {
    let parsed = try line(
        #"ATTENDEE;X-A=1;CN="Doe, Jo";ROLE=CHAIR;cn=Other;PARTSTAT=ACCEPTED;LANGUAGE=de;RSVP=TRUE;CUTYPE=ROOM;"#
            + #"DELEGATED-TO="mailto:a@example.com","mailto:b@example.com";DELEGATED-TO="mailto:c@example.com";"#
            + #"DELEGATED-FROM="mailto:d@example.com":mailto:jo@example.com"#)
    let attendee = Attendee.reading(parsed)
    #expect(attendee.participant.address == "mailto:jo@example.com")
    #expect(attendee.participant.commonName == "Doe, Jo")
    #expect(attendee.role == .chair)
    #expect(attendee.participationStatus == .accepted)
    #expect(attendee.rsvp == true)
    #expect(attendee.userType == .room)
    #expect(attendee.delegatedTo == ["mailto:a@example.com", "mailto:b@example.com"])
    #expect(attendee.delegatedFrom == ["mailto:d@example.com"])
    #expect(attendee.participant.parameters == [Parameter("X-A", "1"), Parameter("LANGUAGE", "de")])

    // A line made by code may name its parameters in lower case; they compare case-insensitively
    // (RFC 5545 §2).
    let made = ContentLine(
        name: "ORGANIZER",
        parameters: [Parameter("cn", "Ana"), Parameter("Sent-By", "mailto:s@example.com"), Parameter("CN", "Not")],
        value: "mailto:ana@example.com")
    let organizer = Participant(line: made)
    #expect(organizer.commonName == "Ana")
    #expect(organizer.parameters == [Parameter("Sent-By", "mailto:s@example.com")])
}

@Test func aPlainLinesValueStartsAfterItsParametersAsParsingFindsIt() throws {
    // Values written out by hand from RFC 5545 §3.1's grammar: what follows the colon that ends the
    // parameters; `parse` must agree wherever the quick reading answers.
    let plain: [(String, nameLength: Int, value: String)] = [
        ("DTSTART:20260105T090000Z", 7, "20260105T090000Z"),
        ("DTSTART;TZID=Europe/Berlin:20260105T090000", 7, "20260105T090000"),
        ("DTSTART;VALUE=DATE;X-A=b:20260105", 7, "20260105"),
        ("DTSTART;TZID=America/New_York:20260105T090000:odd", 7, "20260105T090000:odd"),
        ("UID:a;b:c", 3, "a;b:c"),
        ("DTSTART;X-EMPTY=:20260105", 7, "20260105"),
    ]
    for (text, nameLength, value) in plain {
        let bytes = Array(text.utf8)
        let found = ContentLineParser.plainValueStart(in: bytes.span, after: nameLength)
        let start = try #require(found, "\(text)")
        #expect(String(decoding: bytes[start...], as: UTF8.self) == value, "\(text)")
        #expect(try line(text).value == value, "\(text)")
    }
    // Quotes, lists, RFC 6868 carets and what the grammar refuses or recovers from are left to `parse`.
    for text in [
        #"DTSTART;TZID="Europe/Berlin":20260105T090000"#, "DTSTART;TZID=A,B:20260105T090000",
        "DTSTART;TZID=a^'b:20260105T090000", "DTSTART;;TZID=Europe/Berlin:20260105T090000",
        "DTSTART;TZID:20260105T090000", "DTSTART;=x:20260105T090000", "DTSTART;TZID=Europe/Berlin",
        "DTSTART 20260105",
    ] {
        let found = ContentLineParser.plainValueStart(in: Array(text.utf8).span, after: 7)
        #expect(found == nil, "\(text)")
    }
}

@Test func anUnquotedParameterValueEndsAtTheFirstDelimiterOrCaret() {
    // The word-at-a-time search against its definition, byte by byte, over texts of every length up
    // to 40 holding each delimiter (and bytes above 0x7F) at every place.
    let delimiters: Set<UInt8> = [0x3B, 0x3A, 0x2C, 0x22, 0x5E]
    var generator = RecurrenceDifferentialTests.Seeded(state: 2_024)
    for length in 0...40 {
        for _ in 0..<60 {
            let text = (0..<length).map { _ -> UInt8 in
                let choice = generator.next() % 16
                if choice == 0 { return [0x3B, 0x3A, 0x2C, 0x22, 0x5E][Int(generator.next() % 5)] }
                if choice == 1 { return UInt8(0x80 + generator.next() % 0x80) }
                return UInt8(0x20 + generator.next() % 0x5F)
            }
            for start in [0, length / 3, length] {
                let expected = text[start...].firstIndex { delimiters.contains($0) } ?? length
                let found = text.withUnsafeBufferPointer { ContentLineParser.unquotedValueEnd(in: $0, from: start) }
                #expect(found == expected, "\(text) from \(start)")
            }
        }
    }
}
