import Foundation
import Testing

@testable import calport

/// `convert --to graph` keeps the occurrences of every series it does not refuse (#19): series of every
/// pattern type, days 29 to 31 and 29 February included, are written to Graph JSON, and the JSON and
/// the .ics are expanded over 21 years; each series Graph received lists the same starts.
struct GraphPatternRoundTripTests {
    /// A VEVENT per (UID, DTSTART, RRULE), one hour long, in UTC.
    private static func series() -> [(uid: String, start: String, rule: String)] {
        var list: [(String, String, String)] = []
        for day in [1, 15, 28, 29, 30, 31] {
            for interval in [1, 2, 12] {
                for month in [1, 3] {
                    for end in ["", ";COUNT=10"] {
                        let uid = "monthly-\(day)-\(interval)-\(month)\(end.isEmpty ? "" : "-count")"
                        let start = String(format: "2024%02d%02dT090000Z", month, day)
                        list.append((uid, start, "FREQ=MONTHLY;INTERVAL=\(interval);BYMONTHDAY=\(day)\(end)"))
                    }
                }
            }
        }
        for interval in [1, 4] {
            list.append(("feb29-\(interval)", "20240229T090000Z", "FREQ=YEARLY;INTERVAL=\(interval)"))
        }
        list += [
            ("yearly-mar31", "20240331T090000Z", "FREQ=YEARLY"),
            ("yearly-2su", "20240310T090000Z", "FREQ=YEARLY;BYMONTH=3;BYDAY=2SU"),
            ("monthly-lastfri", "20240126T090000Z", "FREQ=MONTHLY;BYDAY=-1FR;COUNT=30"),
            ("monthly-last", "20240131T090000Z", "FREQ=MONTHLY;BYMONTHDAY=-1"),
            ("weekly", "20240101T090000Z", "FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,WE"),
            ("daily", "20240101T090000Z", "FREQ=DAILY;INTERVAL=3;UNTIL=20300101T000000Z"),
        ]
        return list
    }

    private static var calendar: String {
        let events = series().map { item in
            let end = item.start.replacingOccurrences(of: "T09", with: "T10")
            return
                "BEGIN:VEVENT\r\nUID:\(item.uid)\r\nDTSTAMP:20240101T000000Z\r\nDTSTART:\(item.start)\r\nDTEND:\(end)\r\nRRULE:\(item.rule)\r\nEND:VEVENT\r\n"
        }
        return "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//test//EN\r\n" + events.joined() + "END:VCALENDAR\r\n"
    }

    /// Starts by UID from `calport expand --format csv`.
    private func starts(_ input: String, from format: String) -> [String: [String]] {
        let run = runCalport(
            [
                "expand", "--from", format, "--start", "2024-01-01", "--end", "2045-01-01", "--format", "csv",
                "--fields", "uid,start", "-q",
            ], stdin: input)
        var found: [String: [String]] = [:]
        for line in run.output.split(whereSeparator: \.isNewline).dropFirst() {
            let fields = line.split(separator: ",")
            found[String(fields[0]), default: []].append(String(fields[1]))
        }
        return found
    }

    @Test func seriesGraphReceivesKeepTheirOccurrences() throws {
        let graph = runCalport(["convert", "--to", "graph", "-q"], stdin: Self.calendar)
        let kept = Set(
            try #require(try JSONSerialization.jsonObject(with: Data(graph.output.utf8)) as? [String: Any])["value"]
                .flatMap { $0 as? [[String: Any]] }?.compactMap { $0["iCalUId"] as? String } ?? [])
        let original = starts(Self.calendar, from: "ics")
        let throughGraph = starts(graph.output, from: "graph")
        for uid in kept.sorted() {
            #expect(throughGraph[uid] == original[uid], "\(uid)")
        }
        // Worked out by hand: day 31 every month skips February (Graph: the 29th); every twelfth month
        // from January is always the 31st; day 29 every month holds only through 2024-2044 February in
        // leap years, so it is refused; 29 February every four years from 2024 stays leap until 2100.
        #expect(!kept.contains("monthly-31-1-1"))
        #expect(!kept.contains("monthly-29-1-1"))
        #expect(!kept.contains("monthly-31-2-3"), "March, May, July, September (30 days)")
        #expect(kept.contains("monthly-31-12-1"))
        #expect(kept.contains("monthly-28-1-1"))
        #expect(!kept.contains("feb29-1"))
        #expect(kept.contains("feb29-4"))
        #expect(kept.contains("monthly-last") && kept.contains("yearly-mar31") && kept.contains("monthly-lastfri"))
        #expect(kept.count > 40, "\(kept.count) of \(Self.series().count) series kept")
    }
}
