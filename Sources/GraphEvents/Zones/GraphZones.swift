import CalendarModel

/// Every time zone lookup GraphEvents makes, in one place so that the source of zone data can change
/// without touching the mapping.
///
/// Until the TimeZones module lands, a small table stands in for it: the zones of the Graph
/// documentation and our samples, with the US and EU daylight-saving rules in force since 2007.
enum GraphZones {
    /// The IANA zone a Graph `timeZone` value names: a Windows id, `tzone://Microsoft/Utc` or an IANA id.
    static func ianaIdentifier(forGraphName name: String) -> String? {
        if let zone = table.first(where: { $0.windowsID == name || $0.ianaID == name }) { return zone.ianaID }
        return name == "tzone://Microsoft/Utc" || name == "UTC" ? "Etc/UTC" : nil
    }

    /// The Windows id to send Graph for `zone`, from its IANA id or its name.
    static func windowsID(for zone: TimeZoneReference) -> String? {
        let iana = zone.ianaIdentifier ?? ianaIdentifier(forGraphName: zone.name)
        return table.first { $0.ianaID == iana }?.windowsID
    }

    /// The UTC instant (seconds since 1970) at which `local` is the wall time in `ianaID`.
    static func utcSeconds(for local: LocalDateTime, inIANA ianaID: String) -> Int? {
        guard let zone = zone(ianaID) else { return nil }
        let guess = local.secondsSinceEpoch - zone.standardOffset
        // Read a wall time by the offset in force one standard offset earlier, as Windows does.
        return local.secondsSinceEpoch - zone.offset(atUTC: guess)
    }

    /// The wall time in `ianaID` at a UTC instant.
    static func localDateTime(atUTCSeconds seconds: Int, inIANA ianaID: String) -> LocalDateTime? {
        guard let zone = zone(ianaID) else { return nil }
        return LocalDateTime(secondsSinceEpoch: seconds + zone.offset(atUTC: seconds))
    }

    private static func zone(_ ianaID: String) -> Zone? { table.first { $0.ianaID == ianaID } }

    private enum DaylightRule { case none, unitedStates, europe }

    private struct Zone {
        let windowsID: String
        let ianaID: String
        let standardOffset: Int
        let rule: DaylightRule

        func offset(atUTC seconds: Int) -> Int {
            let year = LocalDateTime(secondsSinceEpoch: seconds).date.year
            let range: Range<Int>
            switch rule {
            case .none:
                return standardOffset
            case .unitedStates:
                // Second Sunday in March 02:00 standard to first Sunday in November 02:00 daylight.
                let start = Zone.nthSunday(2, month: 3, year: year).secondsSinceEpoch + 7_200 - standardOffset
                let end = Zone.nthSunday(1, month: 11, year: year).secondsSinceEpoch + 3_600 - standardOffset
                range = start..<end
            case .europe:
                // Last Sunday in March to last Sunday in October, both at 01:00 UTC.
                range = Zone.lastSunday(month: 3, year: year) + 3_600..<Zone.lastSunday(month: 10, year: year) + 3_600
            }
            return range.contains(seconds) ? standardOffset + 3_600 : standardOffset
        }

        static func nthSunday(_ n: Int, month: Int, year: Int) -> LocalDateTime {
            let first = CalendarDate(year: year, month: month, day: 1)
            let toSunday = (7 - Weekday.allCases.firstIndex(of: first.weekday)!) % 7
            return LocalDateTime(date: first.adding(days: toSunday + 7 * (n - 1)))
        }

        static func lastSunday(month: Int, year: Int) -> Int {
            let last = CalendarDate(year: year, month: month, day: CalendarDate.daysIn(month: month, year: year))
            return last.adding(days: -Weekday.allCases.firstIndex(of: last.weekday)!).daysSinceEpoch * 86_400
        }
    }

    private static let table: [Zone] = [
        Zone(windowsID: "UTC", ianaID: "Etc/UTC", standardOffset: 0, rule: .none),
        Zone(windowsID: "Pacific Standard Time", ianaID: "America/Los_Angeles", standardOffset: -28_800, rule: .unitedStates),
        Zone(windowsID: "Mountain Standard Time", ianaID: "America/Denver", standardOffset: -25_200, rule: .unitedStates),
        Zone(windowsID: "Central Standard Time", ianaID: "America/Chicago", standardOffset: -21_600, rule: .unitedStates),
        Zone(windowsID: "Eastern Standard Time", ianaID: "America/New_York", standardOffset: -18_000, rule: .unitedStates),
        Zone(windowsID: "GMT Standard Time", ianaID: "Europe/London", standardOffset: 0, rule: .europe),
        Zone(windowsID: "W. Europe Standard Time", ianaID: "Europe/Berlin", standardOffset: 3_600, rule: .europe),
        Zone(windowsID: "India Standard Time", ianaID: "Asia/Kolkata", standardOffset: 19_800, rule: .none),
        Zone(windowsID: "Tokyo Standard Time", ianaID: "Asia/Tokyo", standardOffset: 32_400, rule: .none),
    ]
}
