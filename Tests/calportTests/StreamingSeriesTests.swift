import Foundation
import ICalendar
import TestSupport
import Testing

@testable import calport

/// A series whose override comes three components after its master, an override without a master,
/// a UID used twice without RECURRENCE-ID, and the VTIMEZONE the series uses last of all: its TZID is
/// no known name, so only the definition (matched to Europe/Berlin) resolves it.
let farOverrides = """
    BEGIN:VCALENDAR\r
    VERSION:2.0\r
    PRODID:-//calport tests//EN\r
    BEGIN:VEVENT\r
    UID:series-a\r
    DTSTAMP:20260101T000000Z\r
    DTSTART;TZID=Office Time:20261130T093000\r
    DTEND;TZID=Office Time:20261130T100000\r
    RRULE:FREQ=DAILY;COUNT=5\r
    EXDATE;TZID=Office Time:20261203T093000\r
    SUMMARY:Stand-up\r
    END:VEVENT\r
    BEGIN:VEVENT\r
    UID:single-b\r
    DTSTAMP:20260101T000000Z\r
    DTSTART:20261201T120000Z\r
    DTEND:20261201T130000Z\r
    SUMMARY:Lunch\r
    END:VEVENT\r
    BEGIN:VEVENT\r
    UID:orphan-c\r
    DTSTAMP:20260101T000000Z\r
    RECURRENCE-ID:20261202T080000Z\r
    DTSTART:20261202T090000Z\r
    DTEND:20261202T093000Z\r
    SUMMARY:Orphan override\r
    END:VEVENT\r
    BEGIN:VEVENT\r
    UID:twice-d\r
    DTSTAMP:20260101T000000Z\r
    DTSTART:20261207T070000Z\r
    SUMMARY:Twice first\r
    END:VEVENT\r
    BEGIN:VEVENT\r
    UID:series-a\r
    DTSTAMP:20260101T000000Z\r
    RECURRENCE-ID;TZID=Office Time:20261201T093000\r
    DTSTART;TZID=Office Time:20261201T110000\r
    DTEND;TZID=Office Time:20261201T113000\r
    SUMMARY:Stand-up (moved)\r
    END:VEVENT\r
    BEGIN:VEVENT\r
    UID:twice-d\r
    DTSTAMP:20260101T000000Z\r
    DTSTART:20261207T080000Z\r
    SUMMARY:Twice second\r
    END:VEVENT\r
    BEGIN:VTIMEZONE\r
    TZID:Office Time\r
    BEGIN:DAYLIGHT\r
    TZOFFSETFROM:+0100\r
    TZOFFSETTO:+0200\r
    DTSTART:19700329T020000\r
    RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU\r
    END:DAYLIGHT\r
    BEGIN:STANDARD\r
    TZOFFSETFROM:+0200\r
    TZOFFSETTO:+0100\r
    DTSTART:19701025T030000\r
    RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU\r
    END:STANDARD\r
    END:VTIMEZONE\r
    END:VCALENDAR\r

    """

private func writeFixture(_ text: String = farOverrides, name: String = "far.ics") throws -> (URL, String) {
    let directory = try temporaryDirectory()
    let file = directory.appendingPathComponent(name)
    try text.write(to: file, atomically: true, encoding: .utf8)
    return (directory, file.path)
}

/// The lines of stderr, in any order: a stream reports write problems series by series.
private func reports(_ run: Run) -> [String] {
    run.errors.split(separator: "\n").map(String.init).sorted()
}

private func scratchLeft(_ directory: URL) throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasPrefix("calport-") }
}

@Test(arguments: ["graph-post", "graph", "ndjson"])
func streamingGraphAndNDJSONEqualReadingWhole(format: String) throws {
    let (directory, path) = try writeFixture()
    let whole = runCalport(["convert", "--to", format, path])
    let streamed = runCalport(["convert", "--stream", "--to", format, path], temporaryDirectory: directory)
    #expect(streamed.status == whole.status)
    #expect(streamed.output == whole.output)
    #expect(reports(streamed) == reports(whole))
    #expect(try scratchLeft(directory).isEmpty, "no scratch file is left")
}

@Test func streamedPostBodiesKeepEachSeriesTogetherWhereItsMasterIs() throws {
    let (directory, path) = try writeFixture()
    let run = runCalport(["convert", "--stream", "--to", "graph-post", path], temporaryDirectory: directory)
    let entries = try #require(
        try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [[String: Any]])
    // Master, its override (last in the file), its EXDATE as a cancellation, then the others in file
    // order; the second twice-d is an event of its own where it is, not an occurrence of the first.
    #expect(
        entries.map { $0["subject"] as? String ?? "-" } == [
            "Stand-up", "Stand-up (moved)", "-", "Lunch", "Orphan override", "Twice first", "Twice second",
        ])
    let masterID = entries[0]["transactionId"] as? String
    #expect(entries[1]["@calport.seriesMasterTransactionId"] as? String == masterID)
    #expect(entries[2]["@calport.seriesMasterTransactionId"] as? String == masterID)
    #expect(entries[2]["originalStart"] as? String == "2026-12-03T08:30:00Z")
    #expect(entries[1]["originalStart"] as? String == "2026-12-01T08:30:00Z")
    #expect(entries[6]["@calport.seriesMasterTransactionId"] == nil && entries[6]["originalStart"] == nil)
    #expect(!run.errors.contains("unknown-time-zone"))
    // The VTIMEZONE at the end resolves the master read before it.
    let start = entries[0]["start"] as? [String: Any]
    #expect(start?["timeZone"] as? String == "W. Europe Standard Time")
}

@Test func streamingReadsStandardInputThroughASpoolThatIsRemoved() throws {
    let directory = try temporaryDirectory()
    let whole = runCalport(["convert", "--to", "graph-post"], stdin: farOverrides)
    let streamed = runCalport(
        ["convert", "--stream", "--to", "graph-post"], stdin: farOverrides, temporaryDirectory: directory)
    #expect(streamed.output == whole.output)
    #expect(streamed.status == whole.status)
    #expect(try scratchLeft(directory).isEmpty)
}

@Test func streamingStrictWritesNothingAndRemovesItsScratchFiles() throws {
    let (directory, path) = try writeFixture()
    // The orphan override is a warning when writing Graph; --strict makes it the end.
    let run = runCalport(
        ["convert", "--stream", "--strict", "--to", "graph-post", path], temporaryDirectory: directory)
    #expect(run.status == .dataProblem)
    #expect(run.output.isEmpty)
    #expect(run.errors.contains("stopped by --strict"))
    #expect(try scratchLeft(directory).isEmpty)
}

@Test func streamingAcrossFilesGroupsAMasterWithAnOverrideInAnotherFile() throws {
    let directory = try temporaryDirectory()
    let lines = farOverrides.components(separatedBy: "\r\n")
    // The first file ends after single-b; the second holds the rest (the override and the zone).
    let cut = lines.firstIndex(of: "UID:orphan-c")! - 1
    let first = (lines[..<cut] + ["END:VCALENDAR", ""]).joined(separator: "\r\n")
    let second = (lines[..<3] + lines[cut...]).joined(separator: "\r\n")
    let one = directory.appendingPathComponent("one.ics")
    let two = directory.appendingPathComponent("two.ics")
    try first.write(to: one, atomically: true, encoding: .utf8)
    try second.write(to: two, atomically: true, encoding: .utf8)
    let whole = runCalport(["convert", "-q", "--to", "graph", one.path, two.path])
    let streamed = runCalport(
        ["convert", "-q", "--stream", "--to", "graph", one.path, two.path], temporaryDirectory: directory)
    #expect(streamed.output == whole.output)
    #expect(streamed.output.contains("\"seriesMasterId\":\"series-a\""))
}

@Test(arguments: ["ndjson", "ics", "table"])
func streamingExpansionEqualsReadingWhole(format: String) throws {
    let (directory, path) = try writeFixture()
    let arguments = ["expand", "--start", "2026-11-30", "--end", "2026-12-08", "--format", format, path, path]
    let whole = runCalport(arguments)
    let streamed = runCalport(arguments + ["--stream"], temporaryDirectory: directory)
    #expect(streamed.status == whole.status)
    #expect(streamed.output == whole.output)
    #expect(streamed.errors == whole.errors)
    #expect(try scratchLeft(directory).isEmpty)
}

@Test func streamingExpansionListsEveryOccurrenceInStartOrder() throws {
    let (directory, path) = try writeFixture()
    let run = runCalport(
        ["expand", "--stream", "--start", "2026-11-30", "--end", "2026-12-08", path], temporaryDirectory: directory)
    let records = run.output.split(separator: "\n").map {
        try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
    }
    // Worked out by hand: Office Time is UTC+1 in December; 3 December is an EXDATE, 1 December moved
    // to 11:00; the two twice-d events both occur (the second is not an override of the first).
    #expect(
        records.map { $0?["start"] as? String } == [
            "2026-11-30T08:30:00+00:00", "2026-12-01T10:00:00+00:00", "2026-12-01T12:00:00+00:00",
            "2026-12-02T08:30:00+00:00", "2026-12-02T09:00:00+00:00", "2026-12-04T08:30:00+00:00",
            "2026-12-07T07:00:00+00:00", "2026-12-07T08:00:00+00:00",
        ])
    #expect(records[1]?["isOverride"] as? Bool == true)
}

@Test func streamingExpansionKeepsTheCapAndItsWarning() throws {
    let (directory, path) = try writeFixture()
    let arguments = ["expand", "--max-occurrences", "2", "--start", "2026-11-30", "--end", "2026-12-08", path]
    let whole = runCalport(arguments)
    let streamed = runCalport(arguments + ["--stream"], temporaryDirectory: directory)
    #expect(streamed.output == whole.output)
    #expect(streamed.errors == whole.errors)
    #expect(streamed.errors.contains("[occurrence-cap] (UID series-a)"))
    let strict = runCalport(arguments + ["--stream", "--strict"], temporaryDirectory: directory)
    #expect(strict.status == .dataProblem)
    #expect(strict.errors.contains("stopped by --strict"))
}

/// 300 events, a tenth of them series with two overrides and some with a duplicate UID, shuffled
/// (a fixed seed) so that overrides come before and after their masters, the VTIMEZONE last.
private let shuffledSeries: String = {
    var components: [[String]] = []
    for index in 0..<300 {
        let zone = ["Office Time", "Europe/Berlin", "Pacific Standard Time"][index % 3]
        let day = 1 + index % 20
        func time(_ day: Int, _ hour: Int) -> String { "202612\(day < 10 ? "0" : "")\(day)T\(hour + 10)0000" }
        var event = [
            "BEGIN:VEVENT", "UID:e\(index)", "DTSTAMP:20260101T000000Z", "DTSTART;TZID=\(zone):\(time(day, index % 9))",
            "DURATION:PT45M", "SUMMARY:Event \(index)",
        ]
        if index % 10 == 0 { event += ["RRULE:FREQ=DAILY;COUNT=8", "EXDATE;TZID=\(zone):\(time(day + 2, index % 9))"] }
        components.append(event + ["END:VEVENT"])
        if index % 10 == 0 {
            for shift in [1, 4] {
                components.append([
                    "BEGIN:VEVENT", "UID:e\(index)", "DTSTAMP:20260101T000000Z",
                    "RECURRENCE-ID;TZID=\(zone):\(time(day + shift, index % 9))",
                    "DTSTART;TZID=\(zone):\(time(day + shift, 0))", "DURATION:PT30M", "SUMMARY:Moved \(index)/\(shift)",
                    "END:VEVENT",
                ])
            }
        }
        if index % 37 == 0 {
            components.append([
                "BEGIN:VEVENT", "UID:e\(index)", "DTSTART:20261201T000000Z", "SUMMARY:Again", "END:VEVENT",
            ])
        }
    }
    var state: UInt64 = 42
    for index in components.indices.reversed() {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        components.swapAt(index, Int((state >> 33) % UInt64(index + 1)))
    }
    let zone = farOverrides.components(separatedBy: "\r\n").drop { $0 != "BEGIN:VTIMEZONE" }
    return (["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:x"] + components.joined() + zone).joined(separator: "\r\n")
}()

@Test(arguments: [
    ["convert", "--to", "graph-post"], ["convert", "--to", "graph"],
    ["expand", "--start", "2026-12-01", "--end", "2027-01-01", "--max-occurrences", "5"],
])
func shuffledSeriesStreamAsTheyReadWhole(command: [String]) throws {
    let (directory, path) = try writeFixture(shuffledSeries)
    let whole = runCalport(command + [path])
    let streamed = runCalport(command + ["--stream", path], temporaryDirectory: directory)
    #expect(streamed.status == whole.status)
    #expect(streamed.output == whole.output)
    #expect(reports(streamed) == reports(whole))
    #expect(whole.output.contains("Moved 10/4"))
}

@Test func streamingExpansionMatchesZonesOverTheYearsOfTheEventsItKeeps() throws {
    // The first pass sees every DTSTART, the reader drops the event with the invalid RRULE. The
    // custom zone equals America/New_York in 2024 only (its DST ends in 2025), so matching it over
    // 2005–2024 instead of 2024 would read the same wall times at other instants.
    let calendar = [
        "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:x",
        "BEGIN:VTIMEZONE", "TZID:Custom",
        "BEGIN:DAYLIGHT", "TZOFFSETFROM:-0500", "TZOFFSETTO:-0400", "DTSTART:19700308T020000",
        "RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=2SU;UNTIL=20250309T070000Z", "END:DAYLIGHT",
        "BEGIN:STANDARD", "TZOFFSETFROM:-0400", "TZOFFSETTO:-0500", "DTSTART:19701101T020000",
        "RRULE:FREQ=YEARLY;BYMONTH=11;BYDAY=1SU", "END:STANDARD", "END:VTIMEZONE",
        "BEGIN:VEVENT", "UID:dropped", "DTSTAMP:20240101T000000Z", "DTSTART;TZID=Custom:20050601T090000",
        "RRULE:FREQ=BOGUS", "END:VEVENT",
        "BEGIN:VEVENT", "UID:kept", "DTSTAMP:20240101T000000Z", "DTSTART;TZID=Custom:20240601T090000",
        "RRULE:FREQ=YEARLY;COUNT=4", "SUMMARY:kept", "END:VEVENT", "END:VCALENDAR", "",
    ].joined(separator: "\r\n")
    let directory = try temporaryDirectory()
    let path = directory.appendingPathComponent("dropped.ics")
    try calendar.write(to: path, atomically: true, encoding: .utf8)
    let arguments = ["expand", "-q", "--start", "2024-01-01", "--end", "2030-01-01", path.path]
    let whole = runCalport(arguments)
    let streamed = runCalport(arguments + ["--stream"], temporaryDirectory: directory)
    #expect(whole.output.split(separator: "\n").count == 4)
    #expect(streamed.output == whole.output)
}

/// Two VEVENTs without UID (RFC 5545 requires one; some producers leave it out).
let withoutUIDs = """
    BEGIN:VCALENDAR\r
    VERSION:2.0\r
    PRODID:-//calport tests//EN\r
    BEGIN:VEVENT\r
    DTSTAMP:20260101T000000Z\r
    DTSTART:20260105T100000Z\r
    SUMMARY:One\r
    END:VEVENT\r
    BEGIN:VEVENT\r
    DTSTAMP:20260101T000000Z\r
    DTSTART:20260106T100000Z\r
    SUMMARY:Two\r
    END:VEVENT\r
    END:VCALENDAR\r

    """

@Test(arguments: [false, true])
func eventsWithoutUIDAreEachAnEventWithAnIdentityOfItsOwn(streamed: Bool) throws {
    let (directory, path) = try writeFixture(withoutUIDs, name: "no-uid.ics")
    let mode = streamed ? ["--stream"] : []
    let post = runCalport(["convert"] + mode + ["--to", "graph-post", path], temporaryDirectory: directory)
    let bodies = try #require(try JSONSerialization.jsonObject(with: Data(post.output.utf8)) as? [[String: Any]])
    // Neither is an occurrence of the other, and an import creates both: their transactionIds differ.
    #expect(bodies.map { $0["subject"] as? String } == ["One", "Two"])
    #expect(bodies.allSatisfy { $0["@calport.seriesMasterTransactionId"] == nil && $0["originalStart"] == nil })
    let ids = bodies.compactMap { $0["transactionId"] as? String }
    #expect(ids.count == 2 && ids[0] != ids[1])
    #expect(post.errors.components(separatedBy: "[missing-uid]").count == 3)
    #expect(!post.errors.contains("unknown-time-zone"))
    // A full event names a UID, derived from its content, so the same file gives the same UIDs.
    let full = runCalport(["convert", "-q"] + mode + ["--to", "graph", path], temporaryDirectory: directory)
    let again = runCalport(["convert", "-q"] + mode + ["--to", "graph", path], temporaryDirectory: directory)
    #expect(full.output == again.output)
    let page = try #require(try JSONSerialization.jsonObject(with: Data(full.output.utf8)) as? [String: Any])
    let uids = (page["value"] as? [[String: Any]] ?? []).compactMap { $0["iCalUId"] as? String }
    #expect(uids.count == 2 && uids[0] != uids[1] && uids.allSatisfy { $0.hasPrefix("calport-") })
    #expect(!full.output.contains("seriesMasterId"))
}

/// Two versions of a series master and two of its override, the newer of each second in the file
/// (issue #18), around a single event: by hand, the output holds "new" and "moved later" only.
private let versions = """
    BEGIN:VCALENDAR\r
    VERSION:2.0\r
    PRODID:-//test//EN\r
    BEGIN:VEVENT\r
    UID:v\r
    SEQUENCE:1\r
    DTSTAMP:20260101T000000Z\r
    DTSTART:20261130T090000Z\r
    RRULE:FREQ=DAILY;COUNT=3\r
    SUMMARY:old\r
    END:VEVENT\r
    BEGIN:VEVENT\r
    UID:v\r
    DTSTAMP:20260101T000000Z\r
    RECURRENCE-ID:20261201T090000Z\r
    DTSTART:20261201T100000Z\r
    SUMMARY:moved\r
    END:VEVENT\r
    BEGIN:VEVENT\r
    UID:single\r
    DTSTAMP:20260101T000000Z\r
    DTSTART:20261202T090000Z\r
    SUMMARY:between\r
    END:VEVENT\r
    BEGIN:VEVENT\r
    UID:v\r
    SEQUENCE:2\r
    DTSTAMP:20260101T000000Z\r
    DTSTART:20261130T090000Z\r
    RRULE:FREQ=DAILY;COUNT=3\r
    SUMMARY:new\r
    END:VEVENT\r
    BEGIN:VEVENT\r
    UID:v\r
    DTSTAMP:20260102T000000Z\r
    RECURRENCE-ID:20261201T090000Z\r
    DTSTART:20261201T110000Z\r
    SUMMARY:moved later\r
    END:VEVENT\r
    END:VCALENDAR\r

    """

@Test(arguments: ["ndjson", "graph"])
func streamingKeepsTheNewestVersionAsReadingWholeDoes(format: String) throws {
    let (directory, path) = try writeFixture(versions, name: "versions.ics")
    let whole = runCalport(["convert", "--to", format, path])
    let streamed = runCalport(["convert", "--stream", "--to", format, path], temporaryDirectory: directory)
    #expect(whole.output.contains("\"new\"") && whole.output.contains("moved later"))
    #expect(!whole.output.contains("\"old\"") && !whole.output.contains("\"moved\""))
    #expect(streamed.output == whole.output)
    #expect(reports(streamed) == reports(whole))
    // The later versions begin on lines 25 and 33; each warning names both lines.
    #expect(reports(whole).filter { $0.contains("duplicate-version") }.count == 2)
    #expect(reports(whole).contains { $0.contains("versions.ics:25:") && $0.contains("versions.ics:4 ") })
}

/// Versions of three events around a VTODO (issue #18): "a" at SEQUENCE 1 and 2, the first one
/// modified later (SEQUENCE comes first); "b" twice without SEQUENCE, the edited copy modified later
/// but stamped earlier (LAST-MODIFIED comes before DTSTAMP); "c" twice, identical.
let versionsAroundATodo = """
    BEGIN:VCALENDAR\r
    VERSION:2.0\r
    PRODID:-//calport tests//EN\r
    BEGIN:VEVENT\r
    UID:a\r
    SEQUENCE:1\r
    DTSTAMP:20260101T000000Z\r
    LAST-MODIFIED:20260301T000000Z\r
    DTSTART:20261201T090000Z\r
    SUMMARY:a first\r
    END:VEVENT\r
    BEGIN:VEVENT\r
    UID:b\r
    DTSTAMP:20260101T000000Z\r
    LAST-MODIFIED:20260101T000000Z\r
    DTSTART:20261202T090000Z\r
    SUMMARY:b original\r
    END:VEVENT\r
    BEGIN:VTODO\r
    UID:todo\r
    DTSTAMP:20260101T000000Z\r
    SUMMARY:between\r
    END:VTODO\r
    BEGIN:VEVENT\r
    UID:c\r
    DTSTAMP:20260101T000000Z\r
    DTSTART:20261203T090000Z\r
    SUMMARY:c copied\r
    END:VEVENT\r
    BEGIN:VEVENT\r
    UID:a\r
    SEQUENCE:2\r
    DTSTAMP:20260101T000000Z\r
    LAST-MODIFIED:20260101T000000Z\r
    DTSTART:20261201T100000Z\r
    SUMMARY:a second\r
    END:VEVENT\r
    BEGIN:VEVENT\r
    UID:b\r
    DTSTAMP:20251231T000000Z\r
    LAST-MODIFIED:20260201T000000Z\r
    DTSTART:20261202T110000Z\r
    SUMMARY:b edited\r
    END:VEVENT\r
    BEGIN:VEVENT\r
    UID:c\r
    DTSTAMP:20260101T000000Z\r
    DTSTART:20261203T090000Z\r
    SUMMARY:c copied\r
    END:VEVENT\r
    END:VCALENDAR\r

    """

@Test
func streamingToICalendarWritesTheWinningVersionsAndTheTodo() throws {
    let (directory, path) = try writeFixture(versionsAroundATodo, name: "todo-versions.ics")
    let streamed = runCalport(["convert", "--stream", path], temporaryDirectory: directory)
    let whole = runCalport(["convert", path])
    let read = ICalendarParser().parse(Array(streamed.output.utf8))
    #expect(read.diagnostics.isEmpty && streamed.status == .success)
    // By hand: each event at the place of its first version, with the newest version's content.
    #expect(read.document.events.map(\.uid) == ["a", "b", "c"])
    #expect(read.document.events.map(\.summary) == ["a second", "b edited", "c copied"])
    #expect(read.document.otherComponents.map(\.name) == ["VTODO"])
    #expect(read.document.events == ICalendarParser().parse(Array(whole.output.utf8)).document.events)
    // "a" begins again on line 30, "b" on line 38; "c" is identical, so merges silently.
    #expect(reports(streamed).count == 2 && reports(streamed) == reports(whole))
    #expect(reports(streamed)[0].hasPrefix("\(path):30: warning:") && reports(streamed)[0].contains("\(path):4 "))
    #expect(reports(streamed)[1].hasPrefix("\(path):38: warning:") && reports(streamed)[1].contains("\(path):12 "))
    #expect(reports(streamed).allSatisfy { $0.contains("[duplicate-version]") })
}

@Test
func streamingOneCalendarTwiceToICalendarWritesEachEventOnce() throws {
    let (directory, path) = try writeFixture(versionsAroundATodo, name: "todo-versions.ics")
    let streamed = runCalport(["convert", "--stream", path, path], temporaryDirectory: directory)
    let whole = runCalport(["convert", path, path])
    let read = ICalendarParser().parse(Array(streamed.output.utf8))
    #expect(read.document.events.map(\.summary) == ["a second", "b edited", "c copied"])
    // A VTODO has no versions in calport: each input's is kept, as reading whole keeps it.
    #expect(read.document.otherComponents.map(\.name) == ["VTODO", "VTODO"])
    #expect(read.document.events == ICalendarParser().parse(Array(whole.output.utf8)).document.events)
    // Each copy's two conflicts, once each: the copies agree with each other.
    #expect(reports(streamed).count == 4 && reports(streamed) == reports(whole))
}
