import Foundation

/// Zone names as files and Graph write them, resolved by name alone.
enum ZoneNames {
    /// The IANA id a name stands for, and how it was recognised.
    static func resolve(_ raw: String) -> (String, TimeZoneResolutionRoute)? {
        var name = raw.trimmingSpaces
        if name.count >= 2 && name.hasPrefix("\"") && name.hasSuffix("\"") {
            name = String(name.dropFirst().dropLast()).trimmingSpaces
        }
        guard !name.isEmpty else { return nil }
        if name.lowercased() == "tzone://microsoft/utc" { return ("Etc/UTC", .microsoftURI) }
        if let id = tabledIANAName(name) ?? ianaName(name) { return (id, .ianaName) }
        if name.hasPrefix("/"), let id = afterVendorPrefix(name) { return (id, .vendorPrefix) }
        if let id = windowsZone(name) { return (id, .windowsID) }
        if let windowsID = WindowsZones.windowsID(forDisplayName: name),
            let id = WindowsZones.ianaIdentifier(forWindowsID: windowsID)
        {
            return (id, .outlookDisplayName)
        }
        return nil
    }

    /// The IANA id with tzdata's capitalisation, when tzdata (or CLDR, or a link) knows the name.
    static func ianaName(_ name: String) -> String? {
        // tzdata writes `_` where Windows ids and Outlook display names have spaces, so such a name is
        // answered without the table, and a run that reads only those never builds it (about 15 million
        // instructions). A test checks that no name in the table has a space.
        guard !name.utf8.contains(UInt8(ascii: " ")) else { return nil }
        return knownIANANames[name.lowercased()]
    }

    /// `name` when it is spelled exactly as the generated tables spell a zone (`Europe/Berlin`, as
    /// files write it) and Foundation makes that zone: what `ianaName(_:)` answers for it (a test
    /// checks every one), without its table of every name, which only a name in another case or
    /// outside the tables needs, and which was 15 of the 35 million instructions of converting one
    /// event. Asked once a name (resolutions are remembered); `ianaName(_:)` stays the lookup for
    /// callers that ask again and again.
    static func tabledIANAName(_ name: String) -> String? {
        tabledNames.contains(name) && TimeZone(identifier: name) != nil ? name : nil
    }

    /// The IANA names the generated tables hold: both sides of tzdata's links and CLDR's Windows
    /// zones' ids (some more than once). The table of every name adds those Foundation's list lacks.
    private static let tabledNames =
        Array(tzdataLinks.keys) + Array(tzdataLinks.values) + windowsZoneEntries.map(\.ianaIdentifier)

    /// Every IANA name calport knows, keyed by its lowercased form.
    static let knownIANANames: [String: String] = {
        var names: [String: String] = [:]
        let known = TimeZone.knownTimeZoneIdentifiers
        for name in known { names[name.lowercased()] = name }
        // Only names outside Foundation's list need a TimeZone made to test them: making one
        // for each of the ~1,500 names cost 8 ms of every run's start-up.
        let listed = Set(known)
        for name in tabledNames where !listed.contains(name) && TimeZone(identifier: name) != nil {
            names[name.lowercased()] = name
        }
        return names
    }()

    /// `/vendor/version/Area/City` → `Area/City`: the longest trailing part that is an IANA id.
    private static func afterVendorPrefix(_ name: String) -> String? {
        let parts = name.split(separator: "/")
        for start in parts.indices {
            if let id = ianaName(parts[start...].joined(separator: "/")) { return id }
        }
        return nil
    }

    /// A Windows id, or one with Outlook's numbered suffix (`Eastern Standard Time 1`).
    private static func windowsZone(_ name: String) -> String? {
        if let id = WindowsZones.ianaIdentifier(forWindowsID: name) { return id }
        guard let match = name.wholeMatch(of: /(.*\S)\s+\d+/) else { return nil }
        return WindowsZones.ianaIdentifier(forWindowsID: String(match.1))
    }
}
