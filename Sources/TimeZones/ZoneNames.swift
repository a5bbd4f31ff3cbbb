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
        if let id = ianaName(name) { return (id, .ianaName) }
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
        // A name spelled as the generated tables spell it (`Europe/Berlin`, as files write it) is
        // answered by making its one zone: the table below, which only a name in another case or
        // outside them needs, was 15 of the 28 million instructions of converting one event. The
        // table gives such a name the same answer (a test checks every one).
        if isTabled(name), TimeZone(identifier: name) != nil { return name }
        return knownIANANames[name.lowercased()]
    }

    /// Whether `name` is spelled as a name of tzdata's links (either side) or of CLDR's Windows
    /// zones, exactly: the names the table adds to Foundation's list when Foundation makes their zone.
    static func isTabled(_ name: String) -> Bool {
        tzdataLinks[name] != nil || tzdataLinks.values.contains(name)
            || windowsZoneEntries.contains { $0.ianaIdentifier == name }
    }

    /// Every IANA name calport knows, keyed by its lowercased form.
    static let knownIANANames: [String: String] = {
        var names: [String: String] = [:]
        let known = TimeZone.knownTimeZoneIdentifiers
        for name in known { names[name.lowercased()] = name }
        // Only names outside Foundation's list need a TimeZone made to test them: making one
        // for each of the ~1,500 names cost 8 ms of every run's start-up.
        let listed = Set(known)
        // `isTabled(_:)` names these.
        let others = Array(tzdataLinks.keys) + Array(tzdataLinks.values) + windowsZoneEntries.map(\.ianaIdentifier)
        for name in others where !listed.contains(name) && TimeZone(identifier: name) != nil {
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
