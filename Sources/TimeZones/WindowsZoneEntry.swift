/// One IANA id of a CLDR windowsZones.xml row: the Windows id, the territory, and the zone.
struct WindowsZoneEntry: Sendable {
    let windowsID: String
    /// An ISO 3166 region, `001` for the Windows id's default zone, `ZZ` for CLDR's catch-all rows.
    let territory: String
    let ianaIdentifier: String

    init(_ windowsID: String, _ territory: String, _ ianaIdentifier: String) {
        self.windowsID = windowsID
        self.territory = territory
        self.ianaIdentifier = ianaIdentifier
    }
}
