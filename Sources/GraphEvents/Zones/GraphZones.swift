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
        names.answer(for: name) { resolver.resolve($0).ianaIdentifier }
    }

    /// The Windows id to send Graph for `zone`, from its IANA id or its name.
    static func windowsID(for zone: TimeZoneReference) -> String? {
        // Asked twice an event of a handful of zones: looking it up lower-cased a name and hashed two,
        // 2,200 instructions. Remembered by name, for the IANA id the name came with; a name that comes
        // with another (two files' VTIMEZONEs) is looked up again.
        let known = windowsIDs.answer(for: zone.name) { _ in
            WindowsAnswer(ianaIdentifier: zone.ianaIdentifier, windowsID: lookUpWindowsID(for: zone))
        }
        return known.ianaIdentifier == zone.ianaIdentifier ? known.windowsID : lookUpWindowsID(for: zone)
    }

    private static func lookUpWindowsID(for zone: TimeZoneReference) -> String? {
        if let windows = WindowsZones.canonicalWindowsID(zone.name) { return windows }
        return (zone.ianaIdentifier ?? ianaIdentifier(forGraphName: zone.name)).flatMap(
            WindowsZones.windowsID(forIANA:))
    }

    private struct WindowsAnswer: Sendable {
        var ianaIdentifier: String?
        var windowsID: String?
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
    /// IANA ids by zone name; nil answers remember names nothing resolves.
    private static let names = Answers<String?>()
    /// Windows ids by zone name.
    private static let windowsIDs = Answers<WindowsAnswer>()
    /// Rules by IANA id; nil answers remember ids tzdata does not know.
    private static let rulesByID = Answers<ZoneRules?>()

    private static func rules(_ ianaID: String) -> ZoneRules? {
        rulesByID.answer(for: ianaID, ZoneRules.init(ianaIdentifier:))
    }
}

/// Answers worked out once per name and shared by every thread.
///
/// A file uses a handful of zones, asked about twice per event: the first few names are kept in a list,
/// where finding one costs a fraction of hashing it (hashing took about 650 instructions for a Windows
/// zone name, most of the lookup). Names beyond those go to a dictionary, so a file with many zones costs
/// no more per lookup than hashing. Names match by `==`, as dictionary keys do: a spelling that is
/// canonically equivalent to a remembered one resolves to the same table entry anyway.
private struct Answers<Value: Sendable>: ~Copyable, Sendable {
    private struct Store {
        var listed: [(name: String, value: Value)] = []
        var hashed: [String: Value] = [:]
    }

    /// How many names the list holds: a few more than a file commonly uses, and few enough that
    /// comparing a name with all of them stays cheaper than hashing it.
    private static var listLimit: Int { 8 }

    private let store = Mutex(Store())

    /// The answer for `name`, from `work` the first time it is asked for. `work` runs outside the
    /// lock, so two threads may both work out a new name; they get the same answer.
    func answer(for name: String, _ work: (String) -> Value) -> Value {
        if let known = store.withLock({ Self.find(name, in: $0) }) { return known }
        let value = work(name)
        store.withLock { store in
            guard Self.find(name, in: store) == nil else { return }
            if store.listed.count < Self.listLimit {
                store.listed.append((name, value))
            } else {
                store.hashed[name] = value
            }
        }
        return value
    }

    private static func find(_ name: String, in store: borrowing Store) -> Value? {
        for entry in store.listed where entry.name.utf8.count == name.utf8.count && entry.name == name {
            return entry.value
        }
        return store.hashed[name]
    }
}
