import CalendarModel
import Synchronization
import TimeZones

/// Every time zone lookup GraphEvents makes, in one place: names through the TimeZones resolver,
/// and offsets through `ZoneRules`, which are built once per zone and shared.
enum GraphZones {
    /// The IANA zone a Graph `timeZone` value names: a Windows id, `tzone://Microsoft/Utc`, an
    /// Outlook display name or an IANA id.
    static func ianaIdentifier(forGraphName name: String) -> String? {
        // Every event names its zones, and a file uses a handful: remember each answer.
        if let known = names.withLock({ $0[name] }) { return known }
        let iana = resolver.resolve(name).ianaIdentifier
        names.withLock { $0[name] = iana }
        return iana
    }

    /// The Windows id to send Graph for `zone`, from its IANA id or its name.
    static func windowsID(for zone: TimeZoneReference) -> String? {
        if let windows = WindowsZones.canonicalWindowsID(zone.name) { return windows }
        return (zone.ianaIdentifier ?? ianaIdentifier(forGraphName: zone.name)).flatMap(
            WindowsZones.windowsID(forIANA:))
    }

    /// The UTC instant (seconds since 1970) at which `local` is the wall time in `ianaID`.
    static func utcSeconds(for local: LocalDateTime, inIANA ianaID: String) -> Int? {
        rules(ianaID)?.utcSeconds(for: local)
    }

    /// The wall time in `ianaID` at a UTC instant.
    static func localDateTime(atUTCSeconds seconds: Int, inIANA ianaID: String) -> LocalDateTime? {
        rules(ianaID)?.localDateTime(atUTCSeconds: seconds)
    }

    private static let resolver = TimeZoneResolver(definitions: [], calendarHint: nil, years: 1970...2037)
    /// IANA ids by zone name; nil entries remember names nothing resolves.
    private static let names = Mutex<[String: String?]>([:])
    /// Rules by IANA id; nil entries remember ids tzdata does not know.
    private static let cache = Mutex<[String: ZoneRules?]>([:])

    private static func rules(_ ianaID: String) -> ZoneRules? {
        if let cached = cache.withLock({ $0[ianaID] }) { return cached }
        let rules = ZoneRules(ianaIdentifier: ianaID)
        cache.withLock { $0[ianaID] = rules }
        return rules
    }
}
