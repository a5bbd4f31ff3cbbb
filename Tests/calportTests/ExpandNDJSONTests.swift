import Testing

@testable import calport

/// The bytes `calport expand --format ndjson` writes for cases its encoder treats apart: offsets west of
/// UTC and half-hour offsets, escaping, all-day dates, overrides, statuses, years before 1000. Every
/// expected line is worked out by hand from the input and tzdata (offsets noted next to each test).
struct ExpandNDJSONTests {
    func lines(_ arguments: [String], events: [String]) -> [String] {
        let input =
            (["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//t//EN"] + events + ["END:VCALENDAR"])
            .joined(separator: "\r\n") + "\r\n"
        let result = runCalport(["expand", "--format", "ndjson"] + arguments, stdin: input)
        #expect(result.status == calport.ExitStatus.success, "\(result.errors)")
        return result.output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }

    /// St. John's is UTC−03:30 until 2024-03-10 02:00 local, then UTC−02:30: 09:00 local is 12:30Z on the
    /// 9th and 11:30Z on the 10th. The summary holds a tab (allowed raw in TEXT), a quote, an escaped
    /// backslash, comma, semicolon and newline, and non-ASCII text, which JSON keeps as UTF-8.
    static let newfoundland = [
        "BEGIN:VEVENT", "UID:nf", "DTSTAMP:20240101T000000Z",
        "SUMMARY:Café\t\"Q\" \\\\ 会議\\, ☕\\;\\nnext", "LOCATION:Hall \"B\"\\, St. John's", "STATUS:TENTATIVE",
        "DTSTART;TZID=America/St_Johns:20240309T090000", "DTEND;TZID=America/St_Johns:20240309T093000",
        "RRULE:FREQ=DAILY;COUNT=2", "END:VEVENT",
    ]

    /// The expected lines for the St. John's series: each occurrence's start (also its RECURRENCE-ID) and
    /// end as written, then the empty rest after the last newline.
    static func newfoundlandLines(_ times: [(start: String, end: String)]) -> [String] {
        let tail =
            #","isAllDay":false,"isOverride":false,"summary":"Café\t\"Q\" \\ 会議, ☕;\nnext","#
            + #""location":"Hall \"B\", St. John's","status":"tentative","timeZone":"America/St_Johns"}"#
        return times.map { start, end in
            #"{"uid":"nf","recurrenceId":""# + start + #"","start":""# + start + #"","end":""# + end + "\"" + tail
        } + [""]
    }

    /// The same two occurrences on three clocks: St. John's itself (offsets west of UTC with half hours
    /// keep their sign and minutes), UTC (12:30Z and 11:30Z), and Kolkata (UTC+05:30 all year: 12:30Z is
    /// 18:00+05:30).
    @Test(arguments: [
        (
            "America/St_Johns",
            [
                ("2024-03-09T09:00:00-03:30", "2024-03-09T09:30:00-03:30"),
                ("2024-03-10T09:00:00-02:30", "2024-03-10T09:30:00-02:30"),
            ]
        ),
        (
            "UTC",
            [
                ("2024-03-09T12:30:00+00:00", "2024-03-09T13:00:00+00:00"),
                ("2024-03-10T11:30:00+00:00", "2024-03-10T12:00:00+00:00"),
            ]
        ),
        (
            "Asia/Kolkata",
            [
                ("2024-03-09T18:00:00+05:30", "2024-03-09T18:30:00+05:30"),
                ("2024-03-10T17:00:00+05:30", "2024-03-10T17:30:00+05:30"),
            ]
        ),
    ])
    func halfHourOffsetsOnEachClock(zone: String, times: [(start: String, end: String)]) {
        let output = lines(
            ["--start", "2024-03-01", "--end", "2024-04-01", "--tz", zone], events: Self.newfoundland)
        #expect(output == Self.newfoundlandLines(times))
    }

    /// All-day occurrences are their dates whatever --tz says (New York here); the end is exclusive, the
    /// RECURRENCE-ID a date too, and a STATUS the model does not know is written in lower case.
    @Test func allDayOccurrencesAreDates() {
        let newYear = [
            "BEGIN:VEVENT", "UID:ny", "DTSTAMP:20240101T000000Z", "SUMMARY:New Year", "STATUS:X-Pending",
            "DTSTART;VALUE=DATE:20241231", "DTEND;VALUE=DATE:20250102", "RRULE:FREQ=YEARLY;COUNT=2", "END:VEVENT",
        ]
        let output = lines(
            ["--start", "2024-12-01", "--end", "2026-01-05", "--tz", "America/New_York"], events: newYear)
        let tail = #","isAllDay":true,"isOverride":false,"summary":"New Year","location":null,"#
        #expect(
            output == [
                #"{"uid":"ny","recurrenceId":"2024-12-31","start":"2024-12-31","end":"2025-01-02""# + tail
                    + #""status":"x-pending","timeZone":null}"#,
                #"{"uid":"ny","recurrenceId":"2025-12-31","start":"2025-12-31","end":"2026-01-02""# + tail
                    + #""status":"x-pending","timeZone":null}"#,
                "",
            ])
    }

    /// A weekly UTC series shown in New York (EST −05:00 until 2024-03-10, then EDT −04:00). The second
    /// occurrence is moved by an override to 09:00 New York time (13:00Z) with its own summary, location
    /// and status; the third is cancelled by an override and not listed.
    @Test func overridesBringTheirOwnPropertiesAndCancelledOnesAreLeftOut() {
        let weekly = [
            "BEGIN:VEVENT", "UID:w", "DTSTAMP:20240101T000000Z", "SUMMARY:Weekly", "STATUS:CONFIRMED",
            "DTSTART:20240309T120000Z", "DURATION:PT1H", "RRULE:FREQ=WEEKLY;COUNT=3", "END:VEVENT",
            "BEGIN:VEVENT", "UID:w", "DTSTAMP:20240101T000000Z", "RECURRENCE-ID:20240316T120000Z",
            "SUMMARY:Moved", "LOCATION:Room 5", "STATUS:TENTATIVE",
            "DTSTART;TZID=America/New_York:20240316T090000", "DTEND;TZID=America/New_York:20240316T100000",
            "END:VEVENT",
            "BEGIN:VEVENT", "UID:w", "DTSTAMP:20240101T000000Z", "RECURRENCE-ID:20240323T120000Z",
            "STATUS:CANCELLED", "DTSTART:20240323T120000Z", "END:VEVENT",
        ]
        let output = lines(
            ["--start", "2024-03-01", "--end", "2024-04-01", "--tz", "America/New_York"], events: weekly)
        #expect(
            output == [
                #"{"uid":"w","recurrenceId":"2024-03-09T07:00:00-05:00","start":"2024-03-09T07:00:00-05:00","#
                    + #""end":"2024-03-09T08:00:00-05:00","isAllDay":false,"isOverride":false,"summary":"Weekly","#
                    + #""location":null,"status":"confirmed","timeZone":null}"#,
                #"{"uid":"w","recurrenceId":"2024-03-16T08:00:00-04:00","start":"2024-03-16T09:00:00-04:00","#
                    + #""end":"2024-03-16T10:00:00-04:00","isAllDay":false,"isOverride":true,"summary":"Moved","#
                    + #""location":"Room 5","status":"tentative","timeZone":"America/New_York"}"#,
                "",
            ])
    }

    /// Years are written with four digits, zeros in front (RFC 3339 and RFC 5545 §3.3.4 both use four).
    @Test func yearsBeforeOneThousandArePadded() {
        let output = lines(
            ["--start", "0998-12-01", "--end", "0999-02-01"],
            events: [
                "BEGIN:VEVENT", "UID:old", "DTSTAMP:20240101T000000Z", "DTSTART:09990105T063000Z", "END:VEVENT",
            ])
        #expect(
            output == [
                #"{"uid":"old","recurrenceId":null,"start":"0999-01-05T06:30:00+00:00","#
                    + #""end":"0999-01-05T06:30:00+00:00","isAllDay":false,"isOverride":false,"summary":null,"#
                    + #""location":null,"status":null,"timeZone":null}"#,
                "",
            ])
    }
}
