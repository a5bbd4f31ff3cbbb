import Foundation
import Testing

@testable import TimeZones

@Suite struct WindowsZonesTests {
    /// Every Windows id and row in the CLDR file maps, both ways, to what the XML says. CLDR writes some
    /// zones by their old names; calport returns tzdata's current name for those, so the expected value is
    /// the XML's id or, when tzdata.zi lists that id as a link, the link's target.
    @Test func everyCLDRRowMapsBothWays() throws {
        guard let xml = SharedFiles.require(SharedFiles.windowsZonesXML, "../shared/cldr/windowsZones.xml") else {
            return
        }
        let rows = try CLDRRow.read(xml)
        let links = try SharedFiles.tzdataLinks() ?? [:]
        #expect(rows.count == 500)
        let windowsIDs = Set(rows.map(\.windowsID))
        #expect(windowsIDs.count == 139)
        #expect(Set(WindowsZones.allWindowsIDs) == windowsIDs)
        for row in rows {
            let expected = row.ianaIdentifiers[0]
            let actual = WindowsZones.ianaIdentifier(forWindowsID: row.windowsID, territory: row.territory)
            #expect(actual == expected || Self.isRename(from: expected, to: actual, links: links), "\(row.windowsID)")
            if row.territory == "001" {
                #expect(WindowsZones.ianaIdentifier(forWindowsID: row.windowsID) == actual, "\(row.windowsID)")
            }
            for zone in row.ianaIdentifiers {
                #expect(WindowsZones.windowsID(forIANA: zone) == row.windowsID, "\(zone)")
                if let current = links[zone], !rows.contains(where: { $0.ianaIdentifiers.contains(current) }) {
                    #expect(WindowsZones.windowsID(forIANA: current) == row.windowsID, "\(current) for \(zone)")
                }
            }
        }
    }

    /// Whether tzdata.zi lists `old` as a link to `new`; without tzdata.zi, whether Foundation gives both
    /// names the same offsets at the solstices of 1970–2037.
    static func isRename(from old: String, to new: String?, links: [String: String]) -> Bool {
        guard let new else { return false }
        if !links.isEmpty { return links[old] == new }
        guard let oldZone = TimeZone(identifier: old), let newZone = TimeZone(identifier: new) else { return false }
        return stride(from: 0, to: 2_145_916_800, by: 15_778_800).allSatisfy { seconds in
            let instant = Date(timeIntervalSince1970: Double(seconds))
            return oldZone.secondsFromGMT(for: instant) == newZone.secondsFromGMT(for: instant)
        }
    }

    /// Every Windows id's Outlook display name, as CLDR's comments give it, finds the id again.
    @Test func everyCLDRDisplayNameResolves() throws {
        guard let xml = SharedFiles.require(SharedFiles.windowsZonesXML, "../shared/cldr/windowsZones.xml") else {
            return
        }
        let text = try String(contentsOf: xml, encoding: .utf8)
        let pair = /<!--\s*(\(UTC[^>]*?)\s*-->\s*<mapZone other="([^"]+)"/
        let pairs = text.matches(of: pair).map { (String($0.1), String($0.2)) }
        #expect(pairs.count >= 138)
        for (displayName, windowsID) in pairs {
            #expect(WindowsZones.windowsID(forDisplayName: displayName) == windowsID, "\(displayName)")
        }
    }

    @Test func territoryPicksTheRowElseTheDefault() {
        let romance = "Romance Standard Time"
        #expect(WindowsZones.ianaIdentifier(forWindowsID: romance, territory: "ES") == "Europe/Madrid")
        #expect(WindowsZones.ianaIdentifier(forWindowsID: romance, territory: "es") == "Europe/Madrid")
        #expect(WindowsZones.ianaIdentifier(forWindowsID: romance) == "Europe/Paris")
        #expect(WindowsZones.ianaIdentifier(forWindowsID: romance, territory: "JP") == "Europe/Paris")
        #expect(
            WindowsZones.ianaIdentifier(forWindowsID: "Eastern Standard Time", territory: "CA") == "America/Toronto")
        #expect(WindowsZones.ianaIdentifier(forWindowsID: "pacific standard time") == "America/Los_Angeles")
        #expect(WindowsZones.canonicalWindowsID("pacific standard time") == "Pacific Standard Time")
        #expect(WindowsZones.ianaIdentifier(forWindowsID: "Nowhere Standard Time") == nil)
    }

    /// `canonicalWindowsID` answers nil for a name with a `/` without looking: it relies on CLDR's table
    /// having no Windows id with one (its ids are names like `W. Europe Standard Time` and `UTC-11`).
    @Test func noWindowsIDHasASlash() {
        #expect(WindowsZones.allWindowsIDs.count > 100)
        #expect(WindowsZones.allWindowsIDs.allSatisfy { !$0.contains("/") })
        #expect(WindowsZones.canonicalWindowsID("Europe/Berlin") == nil)
        #expect(WindowsZones.canonicalWindowsID("w. europe standard time") == "W. Europe Standard Time")
    }

    /// CLDR's legacy spellings and tzdata's current names map to the same Windows id, and the Windows id
    /// maps to the current name.
    @Test func legacyAndCurrentNames() {
        let pairs = [
            ("Asia/Kolkata", "Asia/Calcutta", "India Standard Time"),
            ("Europe/Kyiv", "Europe/Kiev", "FLE Standard Time"),
            ("America/Nuuk", "America/Godthab", "Greenland Standard Time"),
        ]
        for (current, legacy, windowsID) in pairs {
            #expect(WindowsZones.windowsID(forIANA: current) == windowsID)
            #expect(WindowsZones.windowsID(forIANA: legacy) == windowsID)
            #expect(WindowsZones.ianaIdentifier(forWindowsID: windowsID) == current)
        }
        // A merged zone keeps its own name: Europe/Vatican is a link to Europe/Rome in tzdata.
        let vatican = WindowsZones.ianaIdentifier(forWindowsID: "W. Europe Standard Time", territory: "VA")
        #expect(vatican == "Europe/Vatican")
    }

    /// Links that are not in CLDR at all are followed to their target (tzdata `backward`).
    @Test func tzdataLinksAreFollowed() {
        #expect(WindowsZones.windowsID(forIANA: "US/Eastern") == "Eastern Standard Time")
        #expect(WindowsZones.windowsID(forIANA: "US/Pacific") == "Pacific Standard Time")
        #expect(WindowsZones.windowsID(forIANA: "Asia/Ho_Chi_Minh") == "SE Asia Standard Time")
        #expect(WindowsZones.windowsID(forIANA: "america/new_york") == "Eastern Standard Time")
        #expect(WindowsZones.windowsID(forIANA: "UTC") == "UTC")
        #expect(WindowsZones.windowsID(forIANA: "Mars/Olympus_Mons") == nil)
    }

    /// Outlook display names, in today's and older spellings.
    @Test func displayNames() {
        let eastern = "Eastern Standard Time"
        #expect(WindowsZones.windowsID(forDisplayName: "(UTC-05:00) Eastern Time (US & Canada)") == eastern)
        #expect(WindowsZones.windowsID(forDisplayName: "(GMT-05:00) Eastern Time (US & Canada)") == eastern)
        let berlin = "(UTC+01:00) Amsterdam, Berlin, Bern, Rome, Stockholm, Vienna"
        #expect(WindowsZones.windowsID(forDisplayName: berlin) == "W. Europe Standard Time")
        #expect(WindowsZones.windowsID(forDisplayName: "(UTC) Coordinated Universal Time") == "UTC")
    }
}
