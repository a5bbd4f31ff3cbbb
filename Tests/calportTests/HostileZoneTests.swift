import Foundation
import Testing

@testable import calport

// Zones calport cannot resolve: the time stays in the zone named, never silently UTC or floating.

@Test func unknownTZIDIsKeptAndReported() throws {
    let text = hostileCalendar(["DTSTART;TZID=Mars/Olympus_Mons:20260105T100000"])
    let file = try HostileFile(text)
    let run = file.run("convert", ["-o", file.output.path])
    #expect(run.status == .success)
    #expect(run.reports("warning", "unknown-tzid", in: file.input, line: 7))
    let written = try file.written()
    #expect(written.contains("DTSTART;TZID=Mars/Olympus_Mons:20260105T100000\r\n"))
    #expect(!written.contains("BEGIN:VTIMEZONE"), "no definition is invented")
    #expect(file.run("convert", ["--strict", "-o", file.output.path]).status == .dataProblem)
}

@Test func vtimezoneWithoutObservancesIsReported() throws {
    // RFC 5545 §3.6.5: a VTIMEZONE has at least one STANDARD or DAYLIGHT; line 4 has none.
    let zone = ["BEGIN:VTIMEZONE", "TZID:Custom", "END:VTIMEZONE"]
    let text = hostileCalendar(["DTSTART;TZID=Custom:20260105T100000"], before: zone)
    let file = try HostileFile(text)
    let run = file.run("convert", ["-o", file.output.path])
    // The empty definition is dropped (data lost: exit 1); the event keeps its zone name, unresolved.
    #expect(run.status == .dataProblem)
    #expect(run.reports("error", "invalid-vtimezone", in: file.input, line: 4))
    #expect(run.reports("warning", "unknown-tzid", in: file.input, line: 10))
    #expect(try file.written().contains("DTSTART;TZID=Custom:20260105T100000\r\n"))
}
