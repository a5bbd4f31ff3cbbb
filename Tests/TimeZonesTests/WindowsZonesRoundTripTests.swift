import Testing

import TimeZones

/// calport writes a Windows zone under its IANA id in .ics (docs/mapping.md, "Time zones in .ics") and
/// sends Graph the Windows id again: that loses nothing only if every Windows id CLDR lists comes back
/// from its own IANA zone (windowsZones.xml: one territory-001 row per Windows id, each a zone of its own).
@Test func everyWindowsIDComesBackFromItsIANAZone() {
    let ids = WindowsZones.allWindowsIDs
    #expect(ids.count > 130)
    let lost = ids.filter { id in
        WindowsZones.ianaIdentifier(forWindowsID: id).flatMap(WindowsZones.windowsID(forIANA:)) != id
    }
    #expect(lost.isEmpty, "\(lost.map { "\($0) → \(WindowsZones.ianaIdentifier(forWindowsID: $0) ?? "?")" })")
}
