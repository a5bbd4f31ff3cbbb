import CalendarModel
import Foundation
import Testing

@testable import ICalendar

private func readAll(_ bytes: [UInt8], sizes: [Int], limits: ICalendarLimits = ICalendarLimits()) -> (
    [ICalendarItem], [Diagnostic]
) {
    var reader = ICalendarReader(
        source: ChunkedSource(bytes: bytes[...], sizes: sizes), file: "test.ics", limits: limits)
    var items: [ICalendarItem] = []
    while let item = reader.next() { items.append(item) }
    return (items, reader.takeDiagnostics())
}

@Test(arguments: [[1], [2, 3, 5, 7], [64], [1 << 20]])
func chunkBoundariesDoNotChangeWhatIsRead(sizes: [Int]) throws {
    let bytes = ics([
        "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:x", "BEGIN:VEVENT", "UID:chunk@example.com",
        "DTSTART:20260105T100000Z",
        "SUMMARY:a long summary that is folded", " across two lines with é and 日本", "DESCRIPTION:x", "", " continued",
        "END:VEVENT", "BEGIN:VTODO", "UID:t", "END:VTODO", "END:VCALENDAR",
    ])
    let whole = parse(bytes)
    let (items, diagnostics) = readAll(bytes, sizes: sizes)
    #expect(diagnostics == whole.diagnostics)
    guard case .event(let event) = try #require(items.first) else {
        Issue.record("expected an event first")
        return
    }
    #expect(event == whole.document.events.first)
    #expect(event.summary == "a long summary that is foldedacross two lines with é and 日本")
    #expect(event.description == "xcontinued")
    #expect(items.count == 2)
}

@Test func unknownTZIDIsReportedOnlyIfNoLaterVTIMEZONEDefinesIt() {
    let bytes = ics([
        "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:x", "BEGIN:VEVENT", "UID:1", "DTSTART;TZID=Later:20260101T100000",
        "DTEND;TZID=Never:20260101T110000", "END:VEVENT", "BEGIN:VTIMEZONE", "TZID:Later", "BEGIN:STANDARD",
        "DTSTART:19700101T000000", "TZOFFSETFROM:+0100", "TZOFFSETTO:+0100", "END:STANDARD", "END:VTIMEZONE",
        "END:VCALENDAR",
    ])
    let (_, diagnostics) = readAll(bytes, sizes: [3])
    #expect(diagnostics.map(\.code) == ["unknown-tzid"])
    #expect(diagnostics.first?.message.contains("'Never'") == true)
    #expect(diagnostics.first?.location.line == 7)
}

@Test func overlongLinesAreDroppedWithTheLimitNamed() {
    let long = "DESCRIPTION:" + String(repeating: "x", count: 5_000)
    let bytes = calendar(event: ["UID:1", "DTSTART:20260105T100000Z", long, "SUMMARY:kept"])
    var reader = ICalendarReader(
        source: InMemoryByteSource(bytes), file: "long.ics", limits: ICalendarLimits(maximumLineLength: 1_000))
    var events: [Event] = []
    while let item = reader.next() { if case .event(let event) = item { events.append(event) } }
    let diagnostics = reader.takeDiagnostics()
    #expect(diagnostics.map(\.code) == ["line-too-long"])
    #expect(diagnostics.first?.location.line == 7)
    #expect(events.first?.summary == "kept")
    #expect(events.first?.description == nil)
}

@Test func deepNestingIsCutAtTheLimit() {
    let depth = 10_000
    let lines =
        ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:x"] + Array(repeating: "BEGIN:X-NEST", count: depth)
        + Array(repeating: "END:X-NEST", count: depth) + [
            "BEGIN:VEVENT", "UID:after", "DTSTART:20260105T100000Z", "END:VEVENT", "END:VCALENDAR",
        ]
    let result = parse(ics(lines))
    #expect(result.diagnostics.map(\.code) == ["nesting-limit"])
    #expect(result.document.events.map(\.uid) == ["after"])
}

/// Large enough (about 150 KB) that the line reader drops consumed input several times.
private let outlineInput: [UInt8] = {
    var text = "\u{FEFF}BEGIN:VCALENDAR\nVERSION:2.0\nPRODID:x\n\n"
    for index in 0..<500 {
        text += "BEGIN:VEVENT\nUID:event-\(index)\nDTSTART;TZID=Later:2026010\(index % 9 + 1)T100000\n"
        text += "SUMMARY:" + String(repeating: "folded text ", count: 20) + "\n " + "continued\n"
        text += index % 7 == 0 ? "BEGIN:VALARM\nTRIGGER:-PT5M\nACTION:DISPLAY\nEND:VALARM\n" : ""
        text += "END:VEVENT\n\n"
        if index % 100 == 50 { text += "BEGIN:VTODO\nUID:todo-\(index)\nEND:VTODO\n" }
    }
    text += "BEGIN:VTIMEZONE\nTZID:Later\nBEGIN:STANDARD\nDTSTART:19700101T000000\nTZOFFSETFROM:+0100\n"
    text += "TZOFFSETTO:+0100\nEND:STANDARD\nEND:VTIMEZONE\nEND:VCALENDAR\n"
    return Array(text.utf8)
}()

/// Where each top-level BEGIN line starts, found by searching the bytes.
private let outlineOffsets: [Int] = {
    let text = String(decoding: outlineInput, as: UTF8.self)
    var offsets: [Int] = []
    var position = text.startIndex
    while let found = text.range(of: "\nBEGIN:", range: position..<text.endIndex) {
        let name = text[found.upperBound...].prefix { $0 != "\n" }
        if name != "VCALENDAR" && name != "STANDARD" && name != "VALARM" {
            offsets.append(text.utf8.distance(from: text.startIndex, to: found.lowerBound) + 1)
        }
        position = found.upperBound
    }
    return offsets
}()

@Test(arguments: [[1 << 12], [7, 1 << 10], [1 << 20]])
func scannerAndReaderGiveEachComponentsByteOffset(sizes: [Int]) {
    var scanner = ICalendarScanner(source: ChunkedSource(bytes: outlineInput[...], sizes: sizes), file: "x.ics")
    var scanned: [ScannedComponent] = []
    while let component = scanner.next() { scanned.append(component) }
    #expect(scanned.map(\.offset) == outlineOffsets)
    #expect(scanned.count == 500 + 5 + 1)
    guard case .event(let uid, let year) = scanned[0].kind else {
        Issue.record("the first component is an event")
        return
    }
    #expect(uid == "event-0" && year == 2026)
    guard case .timeZone(let zone) = scanned.last?.kind else {
        Issue.record("the last component is the VTIMEZONE")
        return
    }
    var reader = ICalendarReader(source: ChunkedSource(bytes: outlineInput[...], sizes: sizes), file: "x.ics")
    var offsets: [Int] = []
    while reader.next() != nil { offsets.append(reader.componentOffset) }
    #expect(offsets == outlineOffsets)
    // An event read alone from its offset, with the zone defined only at the end known beforehand.
    let event = ICalendarReader.event(
        at: InMemoryByteSource(Array(outlineInput[outlineOffsets[3]...])), file: "x.ics", timeZones: [zone])
    #expect(event?.uid == "event-3")
    #expect(event?.start?.timeZone?.name == "Later")
    #expect(event?.start?.timeZone?.ianaIdentifier != nil, "the definition resolved it")
}

/// What a scan found, comparable: each component's kind and offset, then how the scan ended.
private func scanOutline(
    _ bytes: [UInt8], sizes: [Int], limits: ICalendarLimits, rereading: Bool
) -> [String] {
    var scanner = ICalendarScanner(
        source: ChunkedSource(bytes: bytes[...], sizes: sizes), file: "x.ics", limits: limits,
        rereading: rereading ? { InMemoryByteSource(Array(bytes[$0...])) } : nil)
    var outline: [String] = []
    while let component = scanner.next() {
        switch component.kind {
        case .event(let uid, let year):
            outline.append("event \(uid) \(year.map(String.init) ?? "-") @\(component.offset)")
        case .timeZone(let zone): outline.append("zone \(zone.identifier) @\(component.offset)")
        case .other: outline.append("other @\(component.offset)")
        }
    }
    outline.append(
        "lines \(scanner.physicalLinesRead) top \(scanner.endedAtTopLevel) properties \(scanner.calendarPropertyCount)")
    return outline
}

/// Lines a first pass does not parse, and what could make reading past them differ from reading
/// them: a name that checking changes (a control character in it), a name folded across lines, a
/// line past the limit, a blank line inside a fold, lower-case names, nested and misplaced
/// components; each event widens the years, so each is read whole again to be decoded.
private let passOverInput = ics([
    "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:x",
    "BEGIN:VEVENT", "UID:plain", "DTSTAMP:20260101T000000Z", "DESCRIPTION:long and", " folded",
    "DTSTART:20260105T100000Z",
    "ATTENDEE;CN=A:mailto:a@example.com", "END:VEVENT",
    "BEGIN:VEVENT", "UID:control", "DTST\u{01}ART:19990105T100000Z", "END:VEVENT",
    "BEGIN:VEVENT", "UID:folded-name", "DTST", " ART:19980105T100000Z", "END:VEVENT",
    "BEGIN:VEVENT", "UID:too-long", "DESCRIPTION:" + String(repeating: "x", count: 300), "DTSTART:19970105T100000Z",
    "END:VEVENT",
    "BEGIN:VEVENT", "UID:blank-in-fold", "SUMMARY:x", "", " continued", "dtstart;value=date:19960105", "END:VEVENT",
    "BEGIN:VEVENT", "UID:odd-rule", "DTSTART:18000105T100000Z", "RRULE:FREQ=SOMETIMES", "END:VEVENT",
    "BEGIN:VEVENT", "UID:nested", "DTSTART:20400105T100000Z", "BEGIN:VALARM", "ACTION:DISPLAY", "TRIGGER:-PT5M",
    "DESCRIPTION:r", "END:VALARM", "BEGIN:VEVENT", "UID:misplaced", "DTSTART:20410105T100000Z", "END:VEVENT",
    "X-AFTER:y", "END:VEVENT",
    "BEGIN:VEVENT", "DTSTART:20500105T100000Z", "SUMMARY:no uid", "END:VEVENT",
    // Lines a first pass reads past by their first byte, names in lower case among them.
    "BEGIN:VEVENT", "UID:read-past", "1BAD LINE", ":no name", "ÜBER:x", "summary:s", "x-y:z",
    "DTSTART:20300105T100000Z",
    "END:VEVENT",
    // A control character before a name: checking removes it, and the line is a UID, DTSTART or END.
    "BEGIN:VEVENT", "\u{01}UID:control-first", "\u{7F}DTSTART:20320105T100000Z", "SUMMARY:s", "END:VEVENT",
    "BEGIN:VEVENT", "UID:control-end", "DTSTART:20330105T100000Z", "\u{01}END:VEVENT", "SUMMARY:calendar's",
    "END:VEVENT",
    "END:VCALENDAR",
])

/// A line limit that `passOverInput`'s long line passes.
private let passOverLimits = ICalendarLimits(maximumLineLength: 200)

/// The inputs on which reading past unparsed lines is compared with keeping them: the edge cases, the
/// outline of 500 events, and a sample calendar of a real client's shape.
private func passOverInputs() throws -> [[UInt8]] {
    let team = try Data(contentsOf: URL(fileURLWithPath: #filePath + "/../../../Samples/team-week.ics").standardized)
    return [passOverInput, outlineInput, Array(team)]
}

@Test(arguments: [[1 << 20], [7, 1 << 10], [1]])
func scanningThatReadsPastUnparsedLinesFindsWhatKeepingThemFinds(sizes: [Int]) throws {
    let limits = passOverLimits
    for input in try passOverInputs() {
        #expect(
            scanOutline(input, sizes: sizes, limits: limits, rereading: true)
                == scanOutline(input, sizes: sizes, limits: limits, rereading: false))
    }
    // What the whole reader makes of them, worked out by hand: checking turns `DTST\u{01}ART` into
    // DTSTART, so 1999 counts; a rule with an unknown FREQ leaves its event to be read as a single
    // one, so 1800 counts too.
    let outline = scanOutline(passOverInput, sizes: sizes, limits: limits, rereading: true)
    #expect(outline.contains { $0.hasPrefix("event control 1999 ") })
    #expect(outline.contains { $0.hasPrefix("event folded-name 1998 ") })
    #expect(outline.contains { $0.hasPrefix("event too-long 1997 ") })
    #expect(outline.contains { $0.hasPrefix("event blank-in-fold 1996 ") })
    #expect(outline.contains { $0.hasPrefix("event odd-rule 1800 ") })
    #expect(outline.contains { $0.hasPrefix("event misplaced 2041 ") })
    #expect(outline.contains { $0.hasPrefix("event read-past 2030 ") })
    #expect(outline.contains { $0.hasPrefix("event control-first 2032 ") })
    #expect(outline.contains { $0.hasPrefix("event control-end 2033 ") })
}

/// Lines a first pass reads past a run at a time while they are plain (ended by LF or CRLF, held
/// whole, shorter than 512 bytes), beside every way a line can stop being plain: a lone CR ending,
/// a blank line or a tab before a continuation, lines either side of 512 bytes, folded and not, a
/// folded UID and BEGIN, an alarm's lines; read at the default limits, which let the run be read.
private let plainRunInput = ics([
    "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:x",
    "BEGIN:VEVENT", "UID:run", "DTSTAMP:20260101T000000Z", "SUMMARY:a",
    "DESCRIPTION:" + String(repeating: "d", count: 498),
    "LOCATION:" + String(repeating: "l", count: 503), " folded after the window", "\tX-TAB:tab", "\tcontinued by a tab",
    "DTSTART:20260105T100000Z", "CATEGORIES:x", "", "", " after two blank lines", "COMMENT:y", " ",
    "BEGIN:VALARM", "ACTION:DISPLAY", "DESCRIPTION:" + String(repeating: "a", count: 600), "TRIGGER:-PT5M",
    "END:VALARM", "X-LAST:z", "END:VEVENT",
    "BEGIN:VEVENT", "UID:fo", " ld", "DTSTART:20270105T100000Z",
    "X-A:1", "X-B:2", "BEG", " IN:VALARM", "TRIGGER:-PT1M", "END:VALARM", "END:VEVENT",
    "END:VCALENDAR",
])

/// `input` with its CRLF line ends made `ending`, or, for "mixed", each line's end one of LF, CRLF and CR
/// in turn.
private func withLineEnds(_ input: [UInt8], _ ending: String) -> [UInt8] {
    let lines = String(decoding: input, as: UTF8.self).components(separatedBy: "\r\n").dropLast()
    guard ending == "mixed" else { return ics(Array(lines), ending: ending) }
    let ends = ["\n", "\r\n", "\r"]
    return Array(lines.enumerated().map { $0.element + ends[$0.offset % 3] }.joined().utf8)
}

@Test(arguments: [[1 << 20], [7, 1 << 10], [1], [511, 513]])
func readingPastPlainRunsOfLinesFindsWhatKeepingThemFinds(sizes: [Int]) throws {
    let inputs = try [plainRunInput] + passOverInputs()
    for input in inputs {
        for ending in ["\r\n", "\n", "\r", "mixed"] {
            let bytes = withLineEnds(input, ending)
            let limits = ICalendarLimits()
            let passing = scanOutline(bytes, sizes: sizes, limits: limits, rereading: true)
            #expect(passing == scanOutline(bytes, sizes: sizes, limits: limits, rereading: false), "\(ending)")
            let listed = listingOutline(bytes, sizes: sizes, limits: limits, rereading: true)
            let kept = listingOutline(bytes, sizes: sizes, limits: limits, rereading: false)
            #expect(listed.events == kept.events && listed.lines == kept.lines, "\(ending)")
            #expect(listed.diagnostics == kept.diagnostics, "\(ending)")
        }
    }
    // Worked out by hand: the events' UIDs and years; the physical lines are the input's 38, blank
    // ones included, in each of the three line ends.
    for ending in ["\r\n", "\n", "\r"] {
        let outline = scanOutline(
            withLineEnds(plainRunInput, ending), sizes: sizes, limits: ICalendarLimits(), rereading: true)
        #expect(outline.contains { $0.hasPrefix("event run 2026 ") })
        #expect(outline.contains { $0.hasPrefix("event fold 2027 ") })
        #expect(outline.last?.hasPrefix("lines 38 top") == true, "\(ending): \(outline.last ?? "")")
    }
}

/// A listing's events and every diagnostic it reported, with its line, reading past the lines it
/// leaves unparsed (given the input again) or keeping them.
private func listingOutline(_ bytes: [UInt8], sizes: [Int], limits: ICalendarLimits, rereading: Bool) -> (
    events: [Event], lines: [Int], diagnostics: [String]
) {
    var reader = ICalendarReader(
        source: ChunkedSource(bytes: bytes[...], sizes: sizes), file: "x.ics", limits: limits, timeZones: [],
        part: nil, reading: .listing, rereading: rereading ? { InMemoryByteSource(Array(bytes[$0...])) } : nil)
    var events: [Event] = []
    var lines: [Int] = []
    while let item = reader.next() {
        guard case .event(let event) = item else { continue }
        events.append(event)
        lines.append(reader.componentLine)
    }
    let diagnostics = reader.takeDiagnostics().map { "\($0.location.line.map(String.init) ?? "-") \($0.code)" }
    return (events, lines, diagnostics)
}

/// Events without a UID, which a listing decodes from all their lines (the UID derives from them):
/// read again from the input when the listing reads past lines, with their lines numbered as in
/// the file. The DESCRIPTION with a control character (line 15) is a line a listing leaves
/// unparsed, and so is every line of an alarm but its BEGIN and END (line 19): read past, their
/// defects go unreported, as docs/streaming.md says.
private let listingInput = ics([
    "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:x",
    "BEGIN:VEVENT", "DTSTAMP:20260101T000000Z", "DTSTART:20260105T100000Z", "SUMMARY:no uid",
    "DESCRIPTION:long and", " folded", "DTEND:not a time", "END:VEVENT",
    "BEGIN:VEVENT", "UID:bell", "DTSTART:20260106T100000Z", "DESCRIPTION:ring \u{07}", "SUMMARY:kept",
    "BEGIN:VALARM", "ACTION:DISPLAY", "DESCRIPTION:ring \u{07} again", "TRIGGER:-PT5M", "END:VALARM",
    "END:VEVENT",
    "BEGIN:VEVENT", "RECURRENCE-ID:garbage", "DTSTART:20260107T100000Z", "ATTENDEE:mailto:a@example.com",
    "END:VEVENT",
    "END:VCALENDAR",
])

@Test(arguments: [[1 << 20], [7, 1 << 10], [1]])
func aListingThatReadsPastUnparsedLinesListsWhatKeepingThemLists(sizes: [Int]) throws {
    let limits = passOverLimits
    for input in try passOverInputs() {
        let passing = listingOutline(input, sizes: sizes, limits: limits, rereading: true)
        let keeping = listingOutline(input, sizes: sizes, limits: limits, rereading: false)
        #expect(passing.events == keeping.events)
        #expect(passing.lines == keeping.lines)
        #expect(passing.diagnostics == keeping.diagnostics)
    }
    let passing = listingOutline(listingInput, sizes: sizes, limits: limits, rereading: true)
    let keeping = listingOutline(listingInput, sizes: sizes, limits: limits, rereading: false)
    #expect(passing.events == keeping.events)
    #expect(passing.events.count == 3)
    #expect(passing.events.allSatisfy { !$0.uid.isEmpty }, "UIDs made up from every line")
    #expect(passing.lines == [4, 12, 23])
    // The unreadable DTEND of the first event is reported on its own line, 10, read again or kept;
    // only the control characters of lines 15 and 19, read past, are not reported.
    let readPast = ["15 control-character", "19 control-character"]
    #expect(readPast.allSatisfy(keeping.diagnostics.contains))
    #expect(passing.diagnostics == keeping.diagnostics.filter { !readPast.contains($0) })
    #expect(passing.diagnostics.contains { $0.hasPrefix("10 ") })
}

/// Events a first pass reads at once when all their lines are plain (`LineReader.nextPlainEvent`),
/// and, beside them, events that differ from such an event by one thing that makes them be read
/// line by line.
private let plainEventInputs: [[String]] = {
    let plain = [
        "BEGIN:VEVENT", "DTSTART;TZID=Europe/Berlin:20260105T100000", "UID;X-A=1:plain", "SUMMARY:s",
        "DESCRIPTION:long", " folded", "BEGIN:VALARM", "UID:in-alarm", "TRIGGER:-PT5M", "END:VALARM",
        "ATTENDEE;CN=A:mailto:a@example.com", "BEGIN:VALARM", "DTSTART:19990101T000000Z", "END:VALARM", "END:VEVENT",
    ]
    func changed(_ index: Int, to lines: [String]) -> [String] {
        var event = plain
        event.replaceSubrange(index...index, with: lines)
        return event
    }
    return [
        plain,
        changed(3, to: ["SUMMARY:" + String(repeating: "s", count: 501)]),  // a 509-byte line
        changed(3, to: ["SUMMARY:" + String(repeating: "s", count: 504)]),  // 512 bytes: read line by line
        changed(2, to: ["uid:lower"]), changed(2, to: ["UID:fo", " lded"]), changed(2, to: ["UID:a", "UID:b"]),
        changed(2, to: ["UID:caf\u{E9}"]), changed(2, to: ["UID:bell\u{07}"]), changed(3, to: ["", " SUMMARY:x"]),
        changed(3, to: ["SUMMARY:x", "", " continued"]), changed(0, to: ["BEGIN:VEVENT", " X"]),
        changed(14, to: ["END:VEVENT", " X"]), changed(14, to: ["END:VEVENT", "", " X"]),
        changed(3, to: ["BEGIN:VEVENT", "UID:inner", "END:VEVENT"]), changed(3, to: ["BEGIN:X-THING", "END:X-THING"]),
        changed(9, to: []), changed(6, to: ["BEGIN:VALARM", "BEGIN:VALARM", "END:VALARM"]),
        changed(3, to: ["BROKEN LINE"]), changed(3, to: ["DTSTART:20270105T100000Z"]),
        changed(7, to: ["begin:valarm"]), changed(3, to: ["END;X=1:VEVENT"]),
        changed(2, to: ["UID:a\\,b"]), changed(1, to: ["DTSTART:20280105T100000Z"]),
    ]
}()

/// A first pass finds the same UIDs, start years, offsets and lines in an event it reads at once as
/// in one it reads line by line (a component made of the lines it parses).
@Test(arguments: [[1 << 20], [7, 1 << 10], [300]])
func aPlainEventReadAtOnceIsTheEventReadLineByLine(sizes: [Int]) {
    for ending in ["\r\n", "\n"] {
        let lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:x"] + plainEventInputs.joined() + ["END:VCALENDAR"]
        let bytes = ics(lines, ending: ending)
        // At a line limit under 512 bytes no event is read at once; the one line of 512 bytes, too long
        // there, is a SUMMARY, which a first pass reads past whatever its length.
        let atOnce = scanOutline(bytes, sizes: sizes, limits: ICalendarLimits(), rereading: true)
        let lineByLine = scanOutline(
            bytes, sizes: sizes, limits: ICalendarLimits(maximumLineLength: 511), rereading: true)
        #expect(atOnce == lineByLine, "\(ending == "\n" ? "LF" : "CRLF") \(sizes)")
        #expect(atOnce.contains { $0.hasPrefix("event a,b 2026 @") }, "the UID unescaped")
        #expect(atOnce.contains { $0.hasPrefix("event plain 2028 @") }, "a DTSTART without parameters read")
    }
}

/// Reading every line, a plain line (whole in the buffer with the line after it, under 512 bytes,
/// ended by LF or CRLF, neither a continuation nor continued) is read at once; every other line, and
/// every line at a line limit under 512 bytes, is read in parts. Both give the same events and
/// diagnostics, on the inputs above without their long lines (unfolded, none is 512 bytes long).
@Test(arguments: [[1 << 20], [7, 1 << 10], [300]])
func aPlainLineReadAtOnceIsTheLineReadInParts(sizes: [Int]) throws {
    let run = String(decoding: plainRunInput, as: UTF8.self).components(separatedBy: "\r\n").dropLast()
    let events = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:x"] + plainEventInputs.joined() + ["END:VCALENDAR"]
    for lines in [Array(run), events] {
        let input = ics(lines.filter { $0.utf8.count < 400 })
        for ending in ["\r\n", "\n", "\r", "mixed"] {
            let bytes = withLineEnds(input, ending)
            let atOnce = readAll(bytes, sizes: sizes)
            let inParts = readAll(bytes, sizes: sizes, limits: ICalendarLimits(maximumLineLength: 511))
            #expect(atOnce.0.map { "\($0)" } == inParts.0.map { "\($0)" }, "\(ending) \(sizes)")
            #expect(atOnce.1 == inParts.1, "\(ending) \(sizes)")
            #expect(atOnce.0.count >= 2)
        }
    }
}

@Test(arguments: [[1 << 16], [4_096, 1 << 20], [777]])
func linesLentInPlaceSurviveTheBufferBeingCompacted(sizes: [Int]) throws {
    // Some 900 KB: the line reader drops what it has read (from 128 KiB on) many times while plain
    // lines are lent where they lie. Every value is known from how the events were written.
    let count = 4_000
    var lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:x"]
    for index in 0..<count {
        lines += [
            "BEGIN:VEVENT", "UID:event-\(index)@example.com", "DTSTAMP:20260101T000000Z",
            "DTSTART;TZID=Europe/Berlin:2026\(String(format: "%02d", index % 12 + 1))15T0930\(String(format: "%02d", index % 60))",
            "SUMMARY:Summary number \(index) of \(count)",
            "DESCRIPTION:a description that goes on for long enough to be folded somewhere in the mid",
            " dle, number \(index)",
            "ATTENDEE;CN=Person \(index);ROLE=OPT-PARTICIPANT:mailto:p\(index)@example.com", "END:VEVENT",
        ]
    }
    lines.append("END:VCALENDAR")
    let (items, diagnostics) = readAll(ics(lines), sizes: sizes)
    #expect(diagnostics.filter { $0.severity != .note }.isEmpty)
    let events = items.compactMap { item -> Event? in if case .event(let event) = item { event } else { nil } }
    try #require(events.count == count)
    for (index, event) in events.enumerated() {
        #expect(event.uid == "event-\(index)@example.com")
        #expect(event.summary == "Summary number \(index) of \(count)")
        #expect(
            event.description
                == "a description that goes on for long enough to be folded somewhere in the middle, number \(index)")
        guard case .zoned(let start, let zone) = event.start else {
            Issue.record("event \(index) starts at \(String(describing: event.start))")
            continue
        }
        #expect(
            start == LocalDateTime(year: 2026, month: index % 12 + 1, day: 15, hour: 9, minute: 30, second: index % 60))
        #expect(zone.name == "Europe/Berlin")
        #expect(event.attendees.map(\.participant.commonName) == ["Person \(index)"])
        #expect(event.attendees.first?.role == .optional)
        #expect(event.timestamp == .utc(LocalDateTime(year: 2026, month: 1, day: 1, hour: 0, minute: 0, second: 0)))
    }
}
