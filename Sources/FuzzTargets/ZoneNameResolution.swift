import CalendarModel
import ICalendar
import TimeZones

/// Zone names through `TimeZoneResolver`: the first line is a name; the rest, read as iCalendar,
/// supplies VTIMEZONE definitions and X-WR-TIMEZONE. Resolution must be deterministic, and a
/// resolved zone must give rules that answer for a local time.
enum ZoneNameResolution {
    static func run(_ bytes: [UInt8]) throws(FuzzFinding) {
        let split = bytes.firstIndex(of: 0x0A) ?? bytes.endIndex
        let name = String(decoding: bytes[..<split], as: UTF8.self)
        let document = ICalendarParser(limits: ICalendarLimits(maximumLineLength: 4096, maximumDepth: 8))
            .parse(Array(bytes[split...]), file: "fuzz.ics").document
        let resolver = TimeZoneResolver(
            definitions: document.timeZones, calendarHint: document.timeZoneHint, years: 2020...2021)
        for candidate in [name] + document.timeZones.map(\.identifier) {
            let resolution = resolver.resolve(candidate)
            guard resolver.resolve(candidate) == resolution else {
                throw FuzzFinding(target: .timezone, message: "'\(candidate)' resolved two ways")
            }
            if case .unknown = resolution { continue }
            guard let rules = resolution.rules else {
                throw FuzzFinding(target: .timezone, message: "'\(candidate)' resolved to a zone without rules")
            }
            _ = rules
        }
    }
}
