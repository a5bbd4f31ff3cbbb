import Foundation
import Testing

@testable import calport

// Times and rules that are legal syntax but hostile or contradictory: converting keeps them as
// written (reading never expands a rule, so no rule can make it hang); `validate` names the problem.

@Test(.timeLimit(.minutes(1)))
func twoBillionMinutelyOccurrencesAreKeptWithoutExpanding() throws {
    let text = hostileCalendar(["DTSTART:20260105T100000Z", "RRULE:FREQ=MINUTELY;INTERVAL=1;COUNT=2000000000"])
    let file = try HostileFile(text)
    let run = file.run("convert", ["-o", file.output.path])
    #expect(run.status == .success)
    #expect(run.errors.isEmpty)
    let rule = try #require(try file.written().components(separatedBy: "\r\n").first { $0.hasPrefix("RRULE:") })
    let parts = Set(rule.dropFirst(6).split(separator: ";").map(String.init))
    #expect(parts.contains("FREQ=MINUTELY"))
    #expect(parts.contains("COUNT=2000000000"))
    #expect(parts.subtracting(["FREQ=MINUTELY", "COUNT=2000000000", "INTERVAL=1"]).isEmpty)
    #expect(file.run("validate").status == .success, "RFC 5545 §3.3.10 sets no bound on COUNT")
}

@Test func minutelyRulesAreRefusedOnTheWayToGraph() throws {
    let text = hostileCalendar(["DTSTART:20260105T100000Z", "RRULE:FREQ=MINUTELY;INTERVAL=1;COUNT=2000000000"])
    let file = try HostileFile(text)
    let run = file.run("convert", ["--to", "graph", "-o", file.output.path])
    #expect(run.status == .dataProblem, "Graph recurrence patterns repeat daily at most often")
    #expect(run.count("graph-unsupported-frequency") == 1)
}

@Test func untilBeforeStartIsKeptAndReportedByValidate() throws {
    // RFC 5545 §3.3.10: DTSTART is the first occurrence, so such a rule adds nothing after it.
    let text = hostileCalendar(["DTSTART:20260105T100000Z", "RRULE:FREQ=DAILY;UNTIL=20250105T100000Z"])
    let file = try HostileFile(text)
    let validation = file.run("validate")
    #expect(validation.status == .success, "a warning, not an error")
    #expect(validation.reports("warning", "until-before-start", in: file.input, line: 8))
    #expect(file.run("validate", ["--strict"]).status == .dataProblem)
    let run = file.run("convert", ["-o", file.output.path])
    #expect(run.status == .success)
    #expect(try file.written().contains("UNTIL=20250105T100000Z"))
}

@Test func untilOneDayBeforeAZonedStartIsReported() throws {
    let text = hostileCalendar([
        "DTSTART;TZID=Europe/Berlin:20260105T100000", "RRULE:FREQ=DAILY;UNTIL=20260103T100000Z",
    ])
    let file = try HostileFile(text)
    #expect(file.run("validate").reports("warning", "until-before-start", in: file.input, line: 8))
}

@Test func endBeforeStartIsKeptAndIsAValidationError() throws {
    // RFC 5545 §3.6.1: DTEND must be later than DTSTART.
    let text = hostileCalendar(["DTSTART:20260105T100000Z", "DTEND:20260105T090000Z"])
    let file = try HostileFile(text)
    let validation = file.run("validate")
    #expect(validation.status == .dataProblem)
    #expect(validation.reports("error", "end-before-start", in: file.input, line: 8))
    let run = file.run("convert", ["-o", file.output.path])
    #expect(run.status == .success, "convert does not rewrite what it was given")
    #expect(try file.written().contains("DTEND:20260105T090000Z\r\n"))
}
