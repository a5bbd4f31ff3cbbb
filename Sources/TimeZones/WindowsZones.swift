/// Windows ↔ IANA zone ids, from the CLDR table generated into `Generated/WindowsZonesTable.swift`.
public enum WindowsZones {
    /// IANA id for a Windows zone id (CLDR row for `territory` when given and present, else the 001 row).
    ///
    /// Ids CLDR still writes in their old spelling (`Asia/Calcutta`, `Europe/Kiev`) come back under
    /// their current tzdata name (`Asia/Kolkata`, `Europe/Kyiv`), so that hosts whose tzdata dropped the
    /// old names can still compute with them.
    public static func ianaIdentifier(forWindowsID id: String, territory: String? = nil) -> String? {
        let index = WindowsZoneIndex.shared
        guard let windowsID = index.canonicalWindowsID[id.lowercased()] else { return nil }
        if let territory, let zone = index.zoneByRow[RowKey(windowsID: windowsID, territory: territory.uppercased())] {
            return zone
        }
        return index.zoneByRow[RowKey(windowsID: windowsID, territory: "001")]
    }

    /// Windows id for an IANA id, following tzdata links and CLDR legacy aliases.
    public static func windowsID(forIANA id: String) -> String? {
        let index = WindowsZoneIndex.shared
        if let windowsID = index.windowsIDByZone[id] { return windowsID }
        // Names are compared as tzdata spells them, so `america/new_york` is found too.
        let spelled = ZoneNames.ianaName(id) ?? id
        let current = tzdataLinks[spelled] ?? spelled
        return index.windowsIDByZone[spelled] ?? index.windowsIDByZone[current] ?? index.windowsIDByCurrentZone[current]
    }

    /// The Windows id as CLDR spells it, for any capitalisation of a known Windows id.
    public static func canonicalWindowsID(_ id: String) -> String? {
        WindowsZoneIndex.shared.canonicalWindowsID[id.lowercased()]
    }

    /// The Windows id whose Outlook display name (`(UTC-05:00) Eastern Time (US & Canada)`) this is.
    ///
    /// The offset in parentheses is ignored, because Windows updates it when a zone's rules change, and
    /// old files say `GMT` where new ones say `UTC`.
    public static func windowsID(forDisplayName name: String) -> String? {
        WindowsZoneIndex.shared.windowsIDByDisplayName[DisplayName.key(name)]
    }

    /// Every Windows id CLDR lists, in file order.
    public static var allWindowsIDs: [String] { WindowsZoneIndex.shared.windowsIDs }

    /// The current tzdata name of a zone CLDR still calls by an old name, or the id itself.
    ///
    /// Only renames count: a link whose target CLDR lists in its own right (`Europe/Vatican` → `Europe/Rome`)
    /// merges two places and keeps its own name.
    public static func currentName(ofCLDRIdentifier id: String) -> String {
        WindowsZoneIndex.currentName(of: id, listed: WindowsZoneIndex.shared.windowsIDByZone)
    }
}

/// A CLDR row's key: Windows id and territory.
struct RowKey: Hashable, Sendable {
    let windowsID: String
    let territory: String
}

/// Lookup tables built once from the generated rows.
struct WindowsZoneIndex: Sendable {
    static let shared = WindowsZoneIndex(entries: windowsZoneEntries, displayNames: windowsZoneDisplayNames)

    let windowsIDs: [String]
    let canonicalWindowsID: [String: String]
    /// The zone to use for each row: its first IANA id, under its current name.
    let zoneByRow: [RowKey: String]
    /// Every IANA id CLDR lists, as CLDR spells it.
    let windowsIDByZone: [String: String]
    /// The same, keyed by the current tzdata name of CLDR's legacy spellings.
    let windowsIDByCurrentZone: [String: String]
    let windowsIDByDisplayName: [String: String]

    init(entries: [WindowsZoneEntry], displayNames: [String: String]) {
        // Sized up front: growing them step by step took a fifth of the time building the index costs
        // every run that looks up a Windows zone.
        var windowsIDs: [String] = []
        var canonical = [String: String](minimumCapacity: entries.count)
        var byZone = [String: String](minimumCapacity: entries.count)
        for entry in entries {
            let key = entry.windowsID.lowercased()
            if canonical[key] == nil {
                windowsIDs.append(entry.windowsID)
                canonical[key] = entry.windowsID
            }
            byZone[entry.ianaIdentifier] = byZone[entry.ianaIdentifier] ?? entry.windowsID
        }
        self.windowsIDs = windowsIDs
        canonicalWindowsID = canonical
        windowsIDByZone = byZone
        // Renames need the full zone list first: a link whose target CLDR also lists is a merge.
        let current = { (id: String) in WindowsZoneIndex.currentName(of: id, listed: byZone) }
        var byRow = [RowKey: String](minimumCapacity: entries.count)
        var byCurrentZone = [String: String](minimumCapacity: entries.count)
        for entry in entries {
            let key = RowKey(windowsID: entry.windowsID, territory: entry.territory)
            let zone = current(entry.ianaIdentifier)
            byRow[key] = byRow[key] ?? zone
            byCurrentZone[zone] = byCurrentZone[zone] ?? entry.windowsID
        }
        zoneByRow = byRow
        windowsIDByCurrentZone = byCurrentZone
        var byDisplayName = [String: String](minimumCapacity: displayNames.count)
        for (windowsID, displayName) in displayNames {
            byDisplayName[DisplayName.key(displayName)] = windowsID
        }
        windowsIDByDisplayName = byDisplayName
    }

    /// The link target of a renamed zone; ids whose link target is itself `listed` are merges and stay.
    static func currentName(of id: String, listed: [String: String]) -> String {
        guard let target = tzdataLinks[id], listed[target] == nil else { return id }
        return target
    }
}

/// Outlook display names compared without their offset prefix.
enum DisplayName {
    /// `(UTC-05:00) Eastern Time (US & Canada)` → `eastern time (us & canada)`.
    static func key(_ name: String) -> String {
        var text = Substring(name.trimmingSpaces)
        if text.hasPrefix("("), let close = text.firstIndex(of: ")") {
            let prefix = text[text.index(after: text.startIndex)..<close].uppercased()
            if prefix.hasPrefix("UTC") || prefix.hasPrefix("GMT") {
                text = text[text.index(after: close)...]
            }
        }
        return String(text).trimmingSpaces.lowercased()
    }
}

extension String {
    /// The string without leading and trailing spaces and tabs.
    var trimmingSpaces: String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0.isNewline }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else {
            return ""
        }
        return String(self[first...last])
    }
}
