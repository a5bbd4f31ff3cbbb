import Foundation
import Testing

@testable import calport

/// One policy for rules RFC 5545 §3.3.10 forbids, in every command (docs/recurrence.md).
private let weeklyOnMonthDays = """
    BEGIN:VCALENDAR\r
    VERSION:2.0\r
    PRODID:-//test//EN\r
    BEGIN:VEVENT\r
    UID:w\r
    DTSTAMP:20240101T000000Z\r
    DTSTART:20240101T090000Z\r
    RRULE:FREQ=WEEKLY;BYMONTHDAY=3;COUNT=3\r
    END:VEVENT\r
    END:VCALENDAR\r

    """

@Test func forbiddenPartIsAWarningInConvertAndAnErrorInValidate() {
    let converted = runCalport(["convert"], stdin: weeklyOnMonthDays)
    #expect(converted.status == .success)
    #expect(converted.errors.contains("part BYMONTHDAY"))
    // The rule written is the rule expanded: weekly on DTSTART's Monday.
    #expect(converted.output.contains("RRULE:FREQ=WEEKLY;COUNT=3\r\n"))
    let strict = runCalport(["convert", "--strict"], stdin: weeklyOnMonthDays)
    #expect(strict.status != .success)
    #expect(strict.output.isEmpty)
    let validated = runCalport(["validate", "-"], stdin: weeklyOnMonthDays)
    #expect(validated.status == .dataProblem)
    #expect(validated.errors.contains("error: RRULE part BYMONTHDAY"))
}

/// `--expand-unsupported` writes at most `--max-occurrences` single events of a SECONDLY series.
@Test func expandUnsupportedObeysTheOccurrenceCap() {
    let secondly = weeklyOnMonthDays.replacingOccurrences(
        of: "FREQ=WEEKLY;BYMONTHDAY=3;COUNT=3", with: "FREQ=SECONDLY")
    let run = runCalport(
        ["convert", "--to", "graph", "--expand-unsupported", "2024-01-01/2024-02-01", "--max-occurrences", "7"],
        stdin: secondly)
    #expect(run.output.components(separatedBy: "\"iCalUId\"").count - 1 == 7)
    #expect(run.errors.contains("[occurrence-cap]"))
}
