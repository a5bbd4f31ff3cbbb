import Testing

@testable import calport

/// Two events in Berlin (UTC+1 in December): a review at 16:00–17:00 on Tuesday 1 December whose
/// summary has a comma and quotes, and a two-day offsite on 3–4 December (DTEND 5 December, exclusive).
private let week = """
    BEGIN:VCALENDAR\r
    VERSION:2.0\r
    PRODID:x\r
    BEGIN:VEVENT\r
    UID:review@example.com\r
    DTSTAMP:20260101T000000Z\r
    DTSTART:20261201T150000Z\r
    DTEND:20261201T160000Z\r
    SUMMARY:Review\\, "v2"\r
    LOCATION:Room 1\r
    END:VEVENT\r
    BEGIN:VEVENT\r
    UID:offsite@example.com\r
    DTSTAMP:20260101T000000Z\r
    DTSTART;VALUE=DATE:20261203\r
    DTEND;VALUE=DATE:20261205\r
    SUMMARY:Offsite\r
    END:VEVENT\r
    BEGIN:VEVENT\r
    UID:late@example.com\r
    DTSTAMP:20260101T000000Z\r
    DTSTART:20261201T220000Z\r
    DTEND:20261201T233000Z\r
    SUMMARY:Late call\r
    END:VEVENT\r
    END:VCALENDAR\r

    """

private let window = ["expand", "--start", "2026-11-30", "--end", "2026-12-07", "--tz", "Europe/Berlin"]

@Test func csvQuotesAsRFC4180SaysWithTheFieldsAsked() {
    let run = runCalport(window + ["--format", "csv", "--fields", "start,summary,location,isAllDay"], stdin: week)
    #expect(run.status == .success, "\(run.errors)")
    #expect(
        run.output
            == "start,summary,location,isAllDay\r\n"
            + "2026-12-01T16:00:00+01:00,\"Review, \"\"v2\"\"\",Room 1,false\r\n"
            + "2026-12-01T23:00:00+01:00,Late call,,false\r\n"
            + "2026-12-03,Offsite,,true\r\n")
    let all = runCalport(window + ["--format", "csv"], stdin: week).output
    #expect(all.hasPrefix("uid,recurrenceId,start,end,isAllDay,isOverride,summary,location,status,timeZone\r\n"))
}

@Test func ndjsonAndTableTakeFieldsInTheOrderGiven() {
    let lines = runCalport(window + ["--fields", "summary,start"], stdin: week).output
    #expect(lines.hasPrefix(#"{"summary":"Review, \"v2\"","start":"2026-12-01T16:00:00+01:00"}"# + "\n"))
    let table = runCalport(window + ["--format", "table", "--fields", "summary,location"], stdin: week).output
    #expect(table.hasPrefix("SUMMARY" + String(repeating: " ", count: 25) + "LOCATION\n"))
    #expect(table.contains("\nReview, \"v2\"" + String(repeating: " ", count: 20) + "Room 1\n"))
}

@Test func theAgendaHeadsEachDayOnceAndShowsZoneLocationAndAllDay() {
    let run = runCalport(window + ["--format", "agenda"], stdin: week)
    #expect(run.status == .success, "\(run.errors)")
    #expect(
        run.output == """
            Times in Europe/Berlin
            Tue 2026-12-01
              16:00–17:00       Review, "v2"  @ Room 1
              23:00–Wed 00:30   Late call

            Thu 2026-12-03
              all day (2 days)  Offsite

            """)
}

@Test func fieldsAreCheckedAndOnlyForFormatsWithFields() {
    let unknown = runCalport(window + ["--fields", "start,colour"], stdin: week)
    #expect(unknown.status == .usage)
    #expect(unknown.errors.contains("--fields expects names from uid, recurrenceId, start"))
    #expect(runCalport(window + ["--format", "agenda", "--fields", "start"], stdin: week).status == .usage)
}
