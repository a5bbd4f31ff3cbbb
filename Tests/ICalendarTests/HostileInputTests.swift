import CalendarModel
import Testing

@testable import ICalendar

// Hostile bytes through the library: each limit is a diagnostic at its line, never a crash or a hang.
// `calendar(event:)` puts the event's first line on line 5.

private func codes(_ result: ICalendarParser.Result) -> [String] { result.diagnostics.map(\.code) }

@Test func aLineOverTheLimitIsDroppedAndTheEventKept() {
    let limits = ICalendarLimits(maximumLineLength: 64)
    let bytes = calendar(event: [
        "UID:1", "DTSTART:20260105T100000Z", "DESCRIPTION:" + String(repeating: "x", count: 60),
    ])
    let result = ICalendarParser(limits: limits).parse(bytes, file: "long.ics")
    #expect(codes(result) == ["line-too-long"])
    #expect(result.diagnostics.first?.location == SourceLocation(file: "long.ics", line: 7))
    #expect(result.document.events.first?.description == nil)
    #expect(result.document.events.first?.uid == "1")
}

@Test func theLimitCountsTheUnfoldedLine() {
    // Three physical lines of 30 bytes, each under the limit; unfolded (RFC 5545 §3.1) they are over it.
    let folded = [
        "DESCRIPTION:" + String(repeating: "x", count: 18), " " + String(repeating: "y", count: 29),
        " " + String(repeating: "z", count: 29),
    ]
    let bytes = calendar(event: ["UID:1", "DTSTART:20260105T100000Z"] + folded)
    #expect(codes(ICalendarParser(limits: ICalendarLimits(maximumLineLength: 64)).parse(bytes)) == ["line-too-long"])
    #expect(codes(ICalendarParser(limits: ICalendarLimits(maximumLineLength: 100)).parse(bytes)).isEmpty)
}

/// The limit is on the unfolded line: a folded line of exactly the limit is kept, one of a byte more
/// dropped; the space that begins a continuation is not counted (it was, for the last one). At
/// 600 bytes, over the 512 the reader's quick path for plain lines needs, that path reads it.
@Test func aFoldedLineOfExactlyTheLimitIsKept() {
    func folded(_ count: Int) -> [String] {
        // "DESCRIPTION:" is 12 bytes; physical lines of 75, then of a space and 74.
        let line = "DESCRIPTION:" + String(repeating: "x", count: count)
        var lines = [String(line.prefix(75))]
        var rest = line.dropFirst(75)
        while !rest.isEmpty {
            lines.append(" " + rest.prefix(74))
            rest = rest.dropFirst(74)
        }
        return lines
    }
    let parser = ICalendarParser(limits: ICalendarLimits(maximumLineLength: 600))
    for (count, isKept) in [(588, true), (589, false)] {
        let result = parser.parse(calendar(event: ["UID:1", "DTSTART:20260105T100000Z"] + folded(count)))
        #expect(codes(result) == (isKept ? [] : ["line-too-long"]), "\(12 + count) bytes")
        #expect(result.document.events.first?.description == (isKept ? String(repeating: "x", count: count) : nil))
    }
}

@Test func aLongLineArrivingInChunksIsSkippedWithoutKeepingIt() {
    // A streamed reader sees the 3 MB line a kilobyte at a time; the limit still applies.
    let bytes = calendar(event: ["UID:1", "DESCRIPTION:" + String(repeating: "x", count: 3_000_000), "SUMMARY:s"])
    let chunks = stride(from: 0, to: bytes.count, by: 1024).map { Array(bytes[$0..<min($0 + 1024, bytes.count)]) }
    var reader = ICalendarReader(
        source: ChunkedSource(chunks: chunks), file: "chunked.ics", limits: ICalendarLimits(maximumLineLength: 1 << 20))
    var events: [Event] = []
    while let item = reader.next() { if case .event(let event) = item { events.append(event) } }
    #expect(reader.takeDiagnostics().map(\.code) == ["line-too-long"])
    #expect(events.map(\.summary) == ["s"])
}

@Test func componentsDeeperThanTheLimitAreSkippedAsOne() {
    let nested = Array(repeating: "BEGIN:X-NEST", count: 10) + Array(repeating: "END:X-NEST", count: 10)
    let bytes = calendar(event: ["UID:1", "DTSTART:20260105T100000Z"] + nested)
    // VEVENT is depth 1, so X-NEST at line 7 is depth 2 and the one at line 7 + 2 is depth 4.
    let result = ICalendarParser(maximumDepth: 3).parse(bytes)
    #expect(codes(result) == ["nesting-limit"])
    #expect(result.diagnostics.first?.location.line == 9)
    #expect(result.document.events.count == 1)
}

@Test func controlCharactersAreRemovedAndTabKept() {
    let bytes = calendar(event: ["UID:1", "DTSTART:20260105T100000Z", "SUMMARY:a\u{0}b\u{7}c\u{7F}d\te"])
    let result = parse(bytes)
    #expect(codes(result) == ["control-character"])
    #expect(result.diagnostics.first?.location.line == 7)
    #expect(result.document.events.first?.summary == "abcd\te")
}

@Test func aControlCharacterAfterNonASCIITextIsFoundToo() {
    // The reader checks a line from its first non-ASCII or control byte on; a NUL after an é is still seen.
    let bytes = calendar(event: ["UID:1", "DTSTART:20260105T100000Z", "SUMMARY:caf\u{E9} \u{0}bar"])
    let result = parse(bytes)
    #expect(codes(result) == ["control-character"])
    #expect(result.document.events.first?.summary == "caf\u{E9} bar")
}

@Test func invalidUTF8IsReplacedInFoldedValuesAndParameters() {
    // RFC 5545 §3.1: content lines are UTF-8. 0xE9 alone (Latin-1 é) is not; each is replaced with U+FFFD.
    // Line 7 holds it in a parameter, line 8 in the continuation of a folded, escaped DESCRIPTION.
    let text = ics([
        "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//test//EN", "BEGIN:VEVENT", "UID:1",
        "DTSTART:20260105T100000Z", "ATTENDEE;CN=Jos\u{1}:mailto:j@example.com", "DESCRIPTION:a\\,b",
        " c\u{1}d\\nz", "END:VEVENT", "END:VCALENDAR",
    ])
    let result = parse(text.map { $0 == 0x01 ? 0xE9 : $0 })
    #expect(codes(result) == ["invalid-utf8", "invalid-utf8"])
    #expect(result.diagnostics.map(\.location.line) == [7, 8])
    #expect(result.document.events.first?.attendees.first?.participant.commonName == "Jos\u{FFFD}")
    #expect(result.document.events.first?.description == "a,bc\u{FFFD}d\nz")
}

// RFC 3629 §4's syntax of UTF-8, at every offset from a line's start and its end: the reader passes
// over ASCII eight bytes at a time and checks only what lies between, so an invalid sequence must be
// seen wherever it falls against those words.
private let utf8Sequences: [(bytes: [UInt8], valid: Bool)] = [
    ([0xC3, 0xA9], true), ([0xE2, 0x82, 0xAC], true), ([0xF0, 0x9F, 0x98, 0x80], true),
    ([0xF4, 0x8F, 0xBF, 0xBF], true),  // U+10FFFF, the last scalar
    ([0xC3, 0xA9] + Array("0123456789abcdefghij".utf8) + [0xE2, 0x82, 0xAC], true),
    ([0x80], false),  // a continuation byte alone
    ([0xC3], false),  // a lead byte without its continuation
    ([0xC0, 0x80], false), ([0xE0, 0x80, 0x80], false),  // overlong forms of U+0000
    ([0xED, 0xA0, 0x80], false),  // U+D800, a surrogate
    // Past U+10FFFF, and a byte UTF-8 never uses.
    ([0xF4, 0x90, 0x80, 0x80], false), ([0xF5, 0x80, 0x80, 0x80], false), ([0xFF], false),
    ([0xC3, 0xA9] + Array("0123456789abcdefghij".utf8) + [0xBF], false),  // a stray byte past words of ASCII
    // The edges of RFC 3629 §4's table: the first and last of each length, and the leads whose second
    // byte has a narrower range (E0, ED, F0, F4), one inside and one outside it.
    ([0xC2, 0x80], true), ([0xDF, 0xBF], true), ([0xC1, 0xBF], false),
    ([0xE0, 0xA0, 0x80], true), ([0xE0, 0x9F, 0xBF], false), ([0xEF, 0xBF, 0xBF], true),
    ([0xED, 0x9F, 0xBF], true), ([0xEE, 0x80, 0x80], true),
    ([0xF0, 0x90, 0x80, 0x80], true), ([0xF0, 0x8F, 0xBF, 0xBF], false), ([0xF3, 0xBF, 0xBF, 0xBF], true),
    ([0xF8, 0x88, 0x80, 0x80], false),  // a five-byte form, never UTF-8
    // Sequences cut short by ASCII, and a continuation byte too many.
    ([0xE2, 0x82, 0x41], false), ([0xF0, 0x9F, 0x98, 0x41], false), ([0xC3, 0xA9, 0xA9], false),
    // Japanese and Cyrillic between ASCII spaces, as in the text-heavy benchmark calendar.
    (Array("会議 の議題、 Повестка дня: статус".utf8), true),
]

@Test(arguments: utf8Sequences.indices)
func invalidUTF8IsFoundWhereverItIsInTheLine(sequence: Int) {
    let (bytes, valid) = utf8Sequences[sequence]
    for prefix in 0...17 {
        for suffix in [0, 1, 9] {
            let value =
                Array(String(repeating: "p", count: prefix).utf8) + bytes
                + Array(String(repeating: "s", count: suffix).utf8)
            let head = Array("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//EN\r\nBEGIN:VEVENT\r\nUID:1\r\n".utf8)
            let line = Array("SUMMARY:".utf8) + value + Array("\r\n".utf8)
            let result = parse(head + line + Array("END:VEVENT\r\nEND:VCALENDAR\r\n".utf8))
            #expect(codes(result) == (valid ? [] : ["invalid-utf8"]), "prefix \(prefix), suffix \(suffix)")
        }
    }
}

/// Random lines of ASCII, tabs, valid sequences of each length, stray bytes, sequences RFC 3629's ranges
/// refuse and control characters (fixed seed): a line is read with a `control-character` warning exactly
/// when it holds a control character other than tab (RFC 5545 §3.1), and with an `invalid-utf8` one exactly
/// when the standard library's own check refuses its bytes once those are removed.
@Test func invalidUTF8AndControlCharactersAreFoundAsTheStandardLibraryFindsThem() {
    var random = RecurrenceDifferentialTests.Seeded(state: 24)
    let pieces: [[UInt8]] = [
        Array("a".utf8), Array("word ".utf8), Array("\t".utf8), Array("é".utf8), Array("Д".utf8), Array("議".utf8),
        Array("🎉".utf8), Array("\u{10FFFF}".utf8), Array("\u{D7FF}".utf8),
    ]
    // Sequences of the right shape that RFC 3629's ranges refuse: a surrogate, overlong forms, past U+10FFFF.
    let refused: [[UInt8]] = [
        [0xED, 0xA0, 0x80], [0xE0, 0x80, 0xAF], [0xF0, 0x8F, 0xBF, 0xBF], [0xF4, 0x90, 0x80, 0x80], [0xC1, 0xBF],
    ]
    // CR and LF end the line, so they are not among the control characters put in it.
    let controls = (0x00...0x1F).map(UInt8.init).filter { $0 != 0x09 && $0 != 0x0A && $0 != 0x0D } + [0x7F]
    let head = Array("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//EN\r\nBEGIN:VEVENT\r\nUID:1\r\n".utf8)
    var seen: [[String]: Int] = [:]
    for _ in 0..<3_000 {
        var value: [UInt8] = []
        for _ in 0..<Int.random(in: 1...24, using: &random) {
            switch Int.random(in: 0..<60, using: &random) {
            case 0..<3: value.append(UInt8.random(in: 0x80...0xFF, using: &random))
            case 3..<5: value.append(controls.randomElement(using: &random)!)
            case 5: value += refused.randomElement(using: &random)!
            default: value += pieces.randomElement(using: &random)!
            }
        }
        let printable = value.filter { !controls.contains($0) }
        let expected =
            (printable.count < value.count ? ["control-character"] : [])
            + (String(validating: printable, as: UTF8.self) == nil ? ["invalid-utf8"] : [])
        seen[expected, default: 0] += 1
        let line = Array("SUMMARY:".utf8) + value + Array("\r\n".utf8)
        let result = parse(head + line + Array("END:VEVENT\r\nEND:VCALENDAR\r\n".utf8))
        #expect(codes(result) == expected, "\(value.map { String($0, radix: 16) })")
    }
    // Each of the four outcomes was tried many times.
    #expect(seen.count == 4 && seen.values.allSatisfy { $0 > 100 }, "\(seen)")
}

@Test func aCharacterSplitByAFoldIsWholeOnceUnfolded() {
    // RFC 5545 §3.1 folds at octets, so a fold may split a multi-octet character; unfolded it is valid.
    let euro = Array("\u{20AC}".utf8)  // E2 82 AC
    let head = Array("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//EN\r\nBEGIN:VEVENT\r\nUID:1\r\n".utf8)
    let folded = Array("SUMMARY:".utf8) + euro[..<1] + Array("\r\n ".utf8) + euro[1...] + Array("\\,5\r\n".utf8)
    let result = parse(head + folded + Array("END:VEVENT\r\nEND:VCALENDAR\r\n".utf8))
    #expect(codes(result).isEmpty)
    #expect(result.document.events.first?.summary == "\u{20AC},5")
}

@Test func serialisingNeverWritesControlCharacters() {
    var event = Event(uid: "c@example.com")
    event.summary = "a\u{0}b\u{1B}c\td\ne"
    // A name from Graph JSON can hold any character (`\u0007`): a parameter value holds no control
    // character but tab (RFC 5545 §3.1), and a line break is `^n` (RFC 6868 §3).
    event.attendees = [
        Attendee(participant: Participant(address: "mailto:a@example.com", commonName: "Ann\u{7}e\t\u{7F}Smith\nJr"))
    ]
    let text = serialize(CalendarDocument(events: [event]))
    // TEXT (RFC 5545 §3.3.11): HTAB is allowed, a newline is written as \n, nothing else below 0x20.
    #expect(unfoldedLines(text).contains("SUMMARY:abc\td\\ne"))
    #expect(unfoldedLines(text).contains("ATTENDEE;CN=Anne\tSmith^nJr:mailto:a@example.com"))
    #expect(!text.unicodeScalars.contains { $0.value < 0x20 && $0 != "\t" && $0 != "\r" && $0 != "\n" })
}

@Test(.timeLimit(.minutes(1)))
func aRuleOfTwoBillionOccurrencesIsReadNotExpanded() throws {
    let rule = try #require(RecurrenceRule(iCalendarText: "FREQ=MINUTELY;INTERVAL=1;COUNT=2000000000"))
    #expect(rule.frequency == .minutely)
    #expect(rule.interval == 1)
    #expect(rule.end == .count(2_000_000_000))
    let bytes = calendar(event: [
        "UID:1", "DTSTAMP:20260101T000000Z", "DTSTART:20260105T100000Z",
        "RRULE:FREQ=MINUTELY;INTERVAL=1;COUNT=2000000000",
    ])
    #expect(parse(bytes).diagnostics.isEmpty)
    #expect(ICalendarValidator().validate(bytes).filter { $0.code != "missing-property" }.isEmpty)
}

@Test func rscaleSurvivesParsingAndIsFreedOnce() throws {
    // Regression (fuzz-rrule, LeakSanitizer): libical strdup()s RSCALE and the caller must free it.
    let rule = try #require(RecurrenceRule(iCalendarText: "RSCALE=GREGORIAN;FREQ=YEARLY;SKIP=FORWARD"))
    #expect(rule.extraParts.contains(RecurrenceRulePart(name: "RSCALE", value: "GREGORIAN")))
    #expect(rule.extraParts.contains(RecurrenceRulePart(name: "SKIP", value: "FORWARD")))
}

@Test(arguments: [
    ("DTSTART:20260105T100000Z", "UNTIL=20260105T095959Z", true),
    ("DTSTART:20260105T100000Z", "UNTIL=20260105T100000Z", false),
    ("DTSTART;VALUE=DATE:20260105", "UNTIL=20260104", true),
    // A zoned start against a UTC UNTIL is reported only when no UTC offset (at most 14 h) could explain it.
    ("DTSTART;TZID=Pacific/Kiritimati:20260105T100000", "UNTIL=20260104T210000Z", false),
    ("DTSTART;TZID=Pacific/Kiritimati:20260105T100000", "UNTIL=20260104T195959Z", true),
])
func untilBeforeStartIsAWarning(_ start: String, _ until: String, _ reported: Bool) {
    let diagnostics = ICalendarValidator().validate(
        calendar(event: ["UID:1", "DTSTAMP:20260101T000000Z", start, "RRULE:FREQ=DAILY;\(until)"]))
    #expect(diagnostics.contains { $0.code == "until-before-start" && $0.severity == .warning } == reported)
}

@Test(.timeLimit(.minutes(1)))
func aDateInYear9999DoesNotSlowTheVTimeZoneDown() {
    // Regression (fuzz-icalendar timeout): one EXDATE in a far year made the generated VTIMEZONE
    // cover every year up to it, quadratically. Europe/Vienna has followed the EU rule since 1996:
    // last Sunday of March and of October (RFC 5545 §3.6.5 VTIMEZONE with yearly RRULEs, no end).
    let bytes = calendar(event: [
        "UID:1", "DTSTART;TZID=Europe/Vienna:20260105T100000", "RRULE:FREQ=WEEKLY",
        "EXDATE;TZID=Europe/Vienna:99990105T100000",
    ])
    let lines = unfoldedLines(serialize(parse(bytes).document))
    #expect(
        lines.filter { $0.hasPrefix("RRULE:FREQ=YEARLY") }.sorted() == [
            "RRULE:FREQ=YEARLY;BYDAY=-1SU;BYMONTH=10", "RRULE:FREQ=YEARLY;BYDAY=-1SU;BYMONTH=3",
        ])
    #expect(lines.contains("EXDATE;TZID=Europe/Vienna:99990105T100000"))
}

@Test func geoBeforeLocationBelongsToThatLocation() {
    // Regression (fuzz-icalendar): RFC 5545 leaves property order free, but a GEO read first made
    // a nameless location, and LOCATION became a second one, written as X-CALPORT-LOCATION.
    let bytes = calendar(event: ["UID:1", "DTSTART:20260105T100000Z", "GEO:38.9;-77.01", "LOCATION:Fathom"])
    let event = parse(bytes).document.events.first
    #expect(
        event?.locations == [Location(name: "Fathom", coordinates: GeoCoordinate(latitude: 38.9, longitude: -77.01))])
    let lines = unfoldedLines(serialize(parse(bytes).document))
    #expect(lines.contains("LOCATION:Fathom"))
    #expect(lines.contains("GEO:38.9;-77.01"))
    #expect(!lines.contains { $0.hasPrefix("X-CALPORT-LOCATION") })
}

@Test func dtendAndDurationKeepTheFirstAndReportTheSecond() {
    // Regression (fuzz-icalendar): DURATION after DTEND silently replaced it, and a later invalid
    // DTEND kept as an extra then came first when the output was read back, dropping the event.
    let bytes = calendar(event: [
        "UID:1", "DTSTART:20260105T100000Z", "DTEND:20260105T110000Z", "DURATION:PT15M", "DTEND:bad",
    ])
    let result = parse(bytes)
    #expect(result.document.events.first?.end == .end(.utc(LocalDateTime(year: 2026, month: 1, day: 5, hour: 11))))
    #expect(codes(result) == ["dtend-and-duration", "duplicate-property"])
    #expect(result.diagnostics.map(\.location.line) == [8, 9])
    let reread = parse(ICalendarSerializer().serialize(result.document))
    #expect(reread.document.events.count == 1)
    #expect(reread.document.events.first?.end == result.document.events.first?.end)
}

@Test func byDayOrdinalsPastFiftyThreeAreInvalid() {
    // Regression (fuzz-rrule): libical overflowed a long ordinal into one it could not read back.
    // RFC 5545 §3.3.10: ordwk = 1*2DIGIT ;1 to 53.
    let overflowing =
        "FREQ=DAILY;BYDAY=TU,WE,88888888888888888888888888802236FR,FR,000000000000000000000001355519360FR,FR"
    if let rule = RecurrenceRule(iCalendarText: overflowing) {
        #expect(RecurrenceRule(iCalendarText: rule.iCalendarText) == rule, "what was written reads back")
    }
    #expect(RecurrenceRule(iCalendarText: "FREQ=YEARLY;BYDAY=54MO") == nil)
    #expect(RecurrenceRule(iCalendarText: "FREQ=YEARLY;BYDAY=-53MO")?.byDay == [WeekdayNumber(.monday, ordinal: -53)])
}
