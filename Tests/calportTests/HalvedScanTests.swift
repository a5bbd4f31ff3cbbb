import Foundation
import TestSupport
import Testing

@testable import calport

/// A streamed input of 4 MiB or more has its first pass (`SeriesIndex`) made in two halves at once,
/// the second from the first `BEGIN:VEVENT` line past the middle. Each calendar here is that large,
/// with what the halves must agree on across its middle; reading it whole, which makes no such
/// pass, is the measure. (Undone, the second half's VTIMEZONE left out: the first test fails.)
/// Halves are scanned only where the process may use two processors (`Processors.available`), as
/// CI's machine may; on one, these compare the one scan with the whole read.

/// `count` events of about 2 KiB each, numbered from `first`, in `zone`: a long DESCRIPTION, folded.
func filler(_ count: Int, from first: Int = 0, zone: String = "Office Time") -> [String] {
    let text = String(repeating: "Agenda item with enough words to need folding\\, ", count: 40)
    return (first..<(first + count)).flatMap { index in
        var description = "DESCRIPTION:\(index) \(text)"
        var folded: [String] = []
        while description.utf8.count > 74 {
            let cut = description.utf8.index(description.utf8.startIndex, offsetBy: 74)
            folded.append(String(description[..<cut]))
            description = " " + description[cut...]
        }
        folded.append(description)
        return [
            "BEGIN:VEVENT", "UID:filler-\(index)", "DTSTAMP:20260101T000000Z",
            "DTSTART;TZID=\(zone):202612\(10 + index % 18)T\(10 + index % 9)0000", "DURATION:PT30M",
            "SUMMARY:Filler \(index)",
        ] + folded + ["END:VEVENT"]
    }
}

/// `farOverrides` (a series whose override is three components after its master, the VTIMEZONE the
/// series uses last) with `middle` put after its second event: the master before, the rest after.
func straddling(_ middle: [String]) -> String {
    let lines = farOverrides.components(separatedBy: "\r\n")
    let cut = lines.firstIndex(of: "UID:orphan-c")! - 1
    return (lines[..<cut] + middle + lines[cut...]).joined(separator: "\r\n")
}

/// The calendar's lines outside its components, then each top-level component's, in the order
/// given: a streamed calendar writes the components that are not events where they are in the input,
/// one read whole after the events (docs/streaming.md).
private func componentsInAnyOrder(_ calendar: String) -> [String] {
    var outside: [Substring] = []
    var components: [String] = []
    var current: [Substring] = []
    var depth = 0
    for line in calendar.split(separator: "\r\n") {
        if line.hasPrefix("BEGIN:") && line != "BEGIN:VCALENDAR" { depth += 1 }
        if depth > 0 { current.append(line) } else { outside.append(line) }
        if line.hasPrefix("END:") && line != "END:VCALENDAR" {
            depth -= 1
            if depth == 0 {
                components.append(current.joined(separator: "\n"))
                current = []
            }
        }
    }
    return [outside.joined(separator: "\n")] + components.sorted()
}

private func equalsReadingWhole(_ text: String, _ command: [String], inAnyOrder: Bool = false) throws {
    #expect(text.utf8.count > 4 << 20, "large enough to be scanned in halves")
    let directory = try temporaryDirectory()
    let file = directory.appendingPathComponent("large.ics")
    try text.write(to: file, atomically: true, encoding: .utf8)
    let whole = runCalport(command + [file.path])
    let streamed = runCalport(command + ["--stream", file.path], temporaryDirectory: directory)
    #expect(streamed.status == whole.status)
    if inAnyOrder {
        #expect(componentsInAnyOrder(streamed.output) == componentsInAnyOrder(whole.output))
    } else {
        #expect(streamed.output == whole.output)
    }
    #expect(
        streamed.errors.split(separator: "\n").sorted() == whole.errors.split(separator: "\n").sorted())
}

private let commands = [
    ["convert", "--to", "ics"], ["convert", "--to", "graph-post"],
    ["expand", "--start", "2026-11-30", "--end", "2026-12-08"],
]

@Test(arguments: commands)
func aSeriesAndItsZoneAcrossTheMiddleAreFoundAsReadingWhole(command: [String]) throws {
    let text = straddling(filler(2_200))
    try equalsReadingWhole(text, command)
    if command[0] == "convert" && command.last == "graph-post" {
        // What the halves found together: the override after the middle goes with its master, and
        // the VTIMEZONE at the end names the master's zone.
        let run = runCalport(command + ["--stream"], stdin: text)
        let master = try #require(run.output.range(of: "\"subject\":\"Stand-up\""))
        let moved = try #require(run.output.range(of: "\"subject\":\"Stand-up (moved)\""))
        let lunch = try #require(run.output.range(of: "\"subject\":\"Lunch\""))
        #expect(master.lowerBound < moved.lowerBound && moved.lowerBound < lunch.lowerBound)
        #expect(run.output.contains("W. Europe Standard Time"))
    }
}

@Test(arguments: commands)
func aSecondCalendarPastTheMiddleIsReadAsReadingWhole(command: [String]) throws {
    // The second calendar's properties come after the middle: one scan must read them in order.
    let second = ["END:VCALENDAR", "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//second//EN", "X-WR-CALNAME:Second"]
    let text = straddling(filler(1_500) + second + filler(800, from: 1_500))
    try equalsReadingWhole(text, command)
}

@Test(arguments: commands)
func aMiddleInsideAnotherComponentIsReadAsReadingWhole(command: [String]) throws {
    // The first BEGIN:VEVENT past the middle is inside an X- component, content kept with it; its
    // VEVENTs have the UIDs of events outside it, of which they would be newer versions were they
    // events of the calendar.
    let archived = filler(1_400).map { $0 == "DTSTAMP:20260101T000000Z" ? "DTSTAMP:20270101T000000Z" : $0 }
    let archive = ["BEGIN:X-ARCHIVE"] + archived + ["END:X-ARCHIVE"]
    let text = straddling(filler(1_000) + archive + filler(10, from: 3_000))
    try equalsReadingWhole(text, command, inAnyOrder: command.last == "ics")
}

// The second pass in halves: an input cut in halves whose every series is within one of them, with
// no event without a UID and every zone known by name, is also read in its two halves at once
// (`StreamedConversion`), the second's output appended to the first's and its diagnostics reported
// after them. (farOverrides' "Office Time" is known only by its rules: inputs using it are read whole
// in the second pass.)

/// A VTIMEZONE known by its name.
private let berlin = [
    "BEGIN:VTIMEZONE", "TZID:Europe/Berlin", "BEGIN:DAYLIGHT", "TZOFFSETFROM:+0100", "TZOFFSETTO:+0200",
    "DTSTART:19700329T020000", "RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU", "END:DAYLIGHT", "BEGIN:STANDARD",
    "TZOFFSETFROM:+0200", "TZOFFSETTO:+0100", "DTSTART:19701025T030000", "RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU",
    "END:STANDARD", "END:VTIMEZONE",
]

/// A calendar's first lines, `body`, then the Europe/Berlin VTIMEZONE and its end.
private func calendar(_ body: [String]) -> String {
    (["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//calport tests//EN"] + body + berlin + ["END:VCALENDAR", ""])
        .joined(separator: "\r\n")
}

/// Events in both halves, none of a series across the middle: a series and its override in each
/// half, a zone no VTIMEZONE defines used in both, a damaged line in the second half, and the
/// VTIMEZONE the events use at the very end.
private let halvesOfOwnSeries: String = {
    func series(_ uid: String, day: Int) -> [String] {
        [
            "BEGIN:VEVENT", "UID:\(uid)", "DTSTAMP:20260101T000000Z", "DTSTART;TZID=Europe/Berlin:202612\(day)T090000",
            "DURATION:PT30M", "RRULE:FREQ=DAILY;COUNT=3", "SUMMARY:\(uid)", "END:VEVENT",
            "BEGIN:VEVENT", "UID:\(uid)", "DTSTAMP:20260101T000000Z",
            "RECURRENCE-ID;TZID=Europe/Berlin:202612\(day + 1)T090000",
            "DTSTART;TZID=Europe/Berlin:202612\(day + 1)T110000", "DURATION:PT30M", "SUMMARY:\(uid) moved",
            "END:VEVENT",
        ]
    }
    let nowhere = [
        "BEGIN:VEVENT", "UID:nowhere", "DTSTAMP:20260101T000000Z", "DTSTART;TZID=Nowhere Time:20261215T090000",
        "SUMMARY:Somewhere", "END:VEVENT",
    ]
    let damaged = [
        "BEGIN:VEVENT", "UID:damaged", "DTSTAMP:20260101T000000Z", "DTSTART:20261216T090000Z", "X-NOTE;;A=1:kept",
        "SUMMARY:Damaged", "END:VEVENT",
    ]
    return calendar(
        series("first-half", day: 10) + nowhere + filler(1_100, zone: "Europe/Berlin")
            + filler(1_100, from: 2_000, zone: "Europe/Berlin")
            + nowhere.map { $0 == "UID:nowhere" ? "UID:nowhere-again" : $0 } + damaged + series("second-half", day: 20))
}()

/// `expand` over December 2026, as `format`.
private func expandDecember(_ format: String) -> [String] {
    ["expand", "--start", "2026-12-01", "--end", "2027-01-01", "--format", format]
}

@Test(arguments: [["convert", "--to", "ics"], ["convert", "--to", "ndjson"], expandDecember("ics")])
func bothHalvesOfTheSecondPassReadAsReadingWhole(command: [String]) throws {
    let text = halvesOfOwnSeries
    try equalsReadingWhole(text, command)
    let directory = try temporaryDirectory()
    let whole = runCalport(command, stdin: text)
    let streamed = runCalport(command + ["--stream"], stdin: text, temporaryDirectory: directory)
    // In input order, the unknown zone once (at its first use; and once more by an expansion, which
    // reads it as floating time), the damaged line by its own line.
    #expect(streamed.errors == whole.errors)
    #expect(streamed.errors.components(separatedBy: "Nowhere Time").count == (command[0] == "expand" ? 3 : 2))
    let damagedLine = text.components(separatedBy: "\r\n").firstIndex(of: "X-NOTE;;A=1:kept")! + 1
    #expect(streamed.errors.contains("<stdin>:\(damagedLine):"), "the damaged line's number, past the cut")
}

@Test(arguments: [
    ["convert", "--to", "graph-post"], ["convert", "--to", "graph"], expandDecember("ndjson"), expandDecember("agenda"),
])
func bothHalvesOfTheSecondPassWriteAsReadingWhole(command: [String]) throws {
    try equalsReadingWhole(halvesOfOwnSeries, command)
}

/// An expansion's two halves: occurrences of both in one start order (the second half's series
/// after the first's where they start together), each half's series diagnostics where reading
/// whole puts them, and a zone no VTIMEZONE defines reported once although both halves use it.
@Test func anExpansionInHalvesListsAsReadingWhole() throws {
    let capped = ["--max-occurrences", "2"]
    let text = halvesOfOwnSeries
    try equalsReadingWhole(text, expandDecember("ndjson") + capped)
    let directory = try temporaryDirectory()
    let whole = runCalport(expandDecember("ndjson") + capped, stdin: text)
    let streamed = runCalport(
        expandDecember("ndjson") + capped + ["--stream"], stdin: text, temporaryDirectory: directory)
    #expect(streamed.errors == whole.errors)
    #expect(streamed.errors.components(separatedBy: "[occurrence-cap]").count == 3, "one series in each half")
    // Once by reading, once by the expansion, which reads it as floating time: not once per half.
    #expect(streamed.errors.components(separatedBy: "Nowhere Time").count == 3)
    // The first half's series begins on the 10th, the second half's on the 20th.
    let uids = streamed.output.split(separator: "\n").compactMap { line in
        line.contains(#""uid":"first-half""#) ? "first" : line.contains(#""uid":"second-half""#) ? "second" : nil
    }
    #expect(uids == ["first", "first", "second", "second"])
}

@Test func aFirstHalfWithoutEventsLeavesNoSeparatorBeforeTheSecond() throws {
    // Only to-dos before the middle: the first half writes no entry, the second begins the list.
    let todos = filler(1_200, zone: "Europe/Berlin").map { line in
        line == "BEGIN:VEVENT" ? "BEGIN:VTODO" : line == "END:VEVENT" ? "END:VTODO" : line
    }
    let text = calendar(todos + filler(1_000, zone: "Europe/Berlin"))
    try equalsReadingWhole(text, ["convert", "--to", "graph-post"])
    let streamed = runCalport(["convert", "--stream", "--to", "graph-post"], stdin: text)
    #expect(streamed.output.hasPrefix("[\n{"))
}

@Test(arguments: [["convert", "--to", "ics"], expandDecember("ndjson")])
func aStrictStopInTheSecondHalfWritesNothing(command: [String]) throws {
    let directory = try temporaryDirectory()
    let run = runCalport(
        command + ["--stream", "--strict"], stdin: halvesOfOwnSeries, temporaryDirectory: directory)
    #expect(run.status == .dataProblem)
    #expect(run.output.isEmpty)
    #expect(run.errors.contains("stopped by --strict"))
    #expect(
        try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasPrefix("calport-") }.isEmpty)
}

@Test func aSecondHalfsThousandsOfWarningsAreReportedInOrder() throws {
    // Held in a scratch file by the second half's thread, then reported after the first half's.
    let warned = (0..<5_000).flatMap { index in
        [
            "BEGIN:VEVENT", "UID:warned-\(index)", "DTSTAMP:20260101T000000Z", "DTSTART:20261216T090000Z",
            "X-NOTE;;A=1:kept", "END:VEVENT",
        ]
    }
    let text = calendar(filler(2_000, zone: "Europe/Berlin") + warned)
    try equalsReadingWhole(text, ["convert", "--to", "ndjson"])
    let whole = runCalport(["convert", "--verbose", "--to", "ndjson"], stdin: text)
    let streamed = runCalport(["convert", "--verbose", "--stream", "--to", "ndjson"], stdin: text)
    #expect(streamed.errors == whole.errors)
    #expect(streamed.errors.components(separatedBy: "[empty-parameter]").count == 5_001)
}

@Test func aFirstHalfThatWritesNothingStillBeginsTheCalendar() throws {
    // No VTIMEZONE and only invalid events before the middle: nothing is written before the second
    // half's output but the calendar's beginning.
    let invalid = filler(1_300, zone: "Europe/Berlin").map {
        $0.hasPrefix("DTSTART") ? "DTSTART:2026XX01T100000Z" : $0
    }
    let valid = filler(1_000, from: 5_000, zone: "Europe/Berlin").map {
        $0.hasPrefix("DTSTART") ? "DTSTART:20261210T100000Z" : $0
    }
    let text =
        (["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//calport tests//EN"] + invalid + valid
        + ["END:VCALENDAR", ""]).joined(separator: "\r\n")
    try equalsReadingWhole(text, ["convert", "--to", "ics"])
    #expect(runCalport(["convert", "--stream", "--to", "ics"], stdin: text).output.hasPrefix("BEGIN:VCALENDAR\r\n"))
}

@Test(arguments: [["convert", "--to", "ics"], ["convert", "--to", "graph-post"]])
func eventsWithoutUIDsAndZonesKnownByRulesAreReadAsReadingWhole(command: [String]) throws {
    // Two events alike and without a UID, one in each half, get the UIDs one reading gives them
    // (the second `-2`); "Office Time", known only by its rules, is matched once, at its first use.
    let alike = [
        "BEGIN:VEVENT", "DTSTAMP:20260101T000000Z", "DTSTART;TZID=Office Time:20261214T090000", "SUMMARY:Alike",
        "END:VEVENT",
    ]
    let lines = farOverrides.components(separatedBy: "\r\n")
    let text =
        (lines.prefix { $0 != "BEGIN:VEVENT" } + alike + filler(1_100) + filler(1_100, from: 2_000) + alike
        + lines.drop { $0 != "BEGIN:VTIMEZONE" }).joined(separator: "\r\n")
    try equalsReadingWhole(text, command)
}
