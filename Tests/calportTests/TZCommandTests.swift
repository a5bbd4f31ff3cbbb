import Testing

@testable import calport

// Expected values from CLDR windowsZones.xml (../shared/cldr): "Romance Standard Time" has
// territory="001" type="Europe/Paris" and territory="ES" type="Europe/Madrid Africa/Ceuta";
// "India Standard Time" 001 is Asia/Calcutta, which tzdata now names Asia/Kolkata.
@Test func windowsToIANAUsesTheTerritoryRowWhenGiven() {
    #expect(runCalport(["tz", "windows-to-iana", "Romance Standard Time"]).output == "Europe/Paris\n")
    #expect(
        runCalport(["tz", "windows-to-iana", "Romance Standard Time", "--territory", "ES"]).output == "Europe/Madrid\n")
    #expect(
        runCalport(["tz", "windows-to-iana", "(UTC-05:00) Eastern Time (US & Canada)"]).output == "America/New_York\n")
}

@Test func ianaToWindowsFollowsLegacyNames() {
    #expect(runCalport(["tz", "iana-to-windows", "Asia/Kolkata"]).output == "India Standard Time\n")
    #expect(runCalport(["tz", "iana-to-windows", "Asia/Calcutta"]).output == "India Standard Time\n")
    #expect(runCalport(["tz", "iana-to-windows", "Europe/Kiev"]).output == "FLE Standard Time\n")
}

@Test func vtimezoneIsTruncatedToTheYearsAsked() {
    let run = runCalport(["tz", "vtimezone", "Europe/Berlin", "--from", "2026", "--to", "2027"])
    #expect(run.status == .success)
    let lines = run.output.components(separatedBy: "\r\n")
    #expect(lines.first == "BEGIN:VTIMEZONE")
    #expect(lines.contains("TZID:Europe/Berlin"))
    // EU rules: last Sunday of March 01:00 UTC (02:00 local) and of October (03:00 local).
    #expect(lines.contains("DTSTART:20260329T020000"))
    #expect(lines.contains("DTSTART:20261025T030000"))
    #expect(lines.contains("RRULE:FREQ=YEARLY;BYDAY=-1SU;BYMONTH=3"))
}

@Test func unknownZonesAndActionsAreErrors() {
    #expect(runCalport(["tz", "iana-to-windows", "Mars/Olympus_Mons"]).status == .dataProblem)
    #expect(runCalport(["tz", "frobnicate", "x"]).status == .usage)
    #expect(runCalport(["tz", "vtimezone", "UTC", "--from", "2030", "--to", "2020"]).status == .usage)
}

@Test(arguments: [
    ["--from", "12000"], ["--from", "2026", "--to", "10000"], ["--from", "0"], ["--from", "-5", "--to", "3"],
])
func vtimezoneYearsOutsideOneToNineThousandNineHundredNinetyNineAreUsageErrors(_ years: [String]) {
    // RFC 5545 §3.3.4: a DATE's year is four digits, so 12000 cannot be written and 0 is no year.
    let run = runCalport(["tz", "vtimezone", "Europe/Berlin"] + years)
    #expect(run.status == .usage)
    #expect(run.output.isEmpty)
    #expect(
        run.errors == "calport tz: error: --from and --to must be years from 1 to 9999, the years iCalendar writes\n")
}

@Test func vtimezoneTakesTheFirstAndLastWritableYears() {
    let run = runCalport(["tz", "vtimezone", "Europe/Berlin", "--from", "9999"])
    #expect(run.status == .success, "\(run.errors)")
    #expect(run.output.contains("BEGIN:VTIMEZONE"))
}

// Checking each year's transitions against every earlier one of its run made 1900–5000 take 29 s
// (quadratic in the years); all 9,999 years would take minutes. Expected, from tzdata's `europe`
// file: Paris kept PMT (+0:09:21) until 1911-03-11 and follows the EU rules since — DST from the
// last Sunday of March at 01:00 UTC since 1981, back on the last Sunday of September until 1995
// and of October since 1996 — which, in force to the end, need no UNTIL.
@Test(.timeLimit(.minutes(1)))
func vtimezoneOverEveryWritableYearIsBuiltInTimeLinearInTheYears() {
    let run = runCalport(["tz", "vtimezone", "Europe/Paris", "--from", "1", "--to", "9999"])
    #expect(run.status == .success, "\(run.errors)")
    let lines = run.output.split(separator: "\r\n").map(String.init)
    #expect(
        Array(lines.prefix(6)) == [
            "BEGIN:VTIMEZONE", "TZID:Europe/Paris", "BEGIN:STANDARD", "DTSTART:19110311T000000",
            "TZOFFSETFROM:+000921", "TZOFFSETTO:+0000",
        ])
    #expect(lines.contains("RRULE:FREQ=YEARLY;BYDAY=-1SU;BYMONTH=9;UNTIL=19950924T010000Z"))
    #expect(
        Array(lines.suffix(13)) == [
            "BEGIN:DAYLIGHT", "DTSTART:19810329T020000", "TZOFFSETFROM:+0100", "TZOFFSETTO:+0200",
            "RRULE:FREQ=YEARLY;BYDAY=-1SU;BYMONTH=3", "END:DAYLIGHT",
            "BEGIN:STANDARD", "DTSTART:19961027T030000", "TZOFFSETFROM:+0200", "TZOFFSETTO:+0100",
            "RRULE:FREQ=YEARLY;BYDAY=-1SU;BYMONTH=10", "END:STANDARD", "END:VTIMEZONE",
        ])
}
