/// Windows ↔ IANA zone ids, from the CLDR table generated into `Generated/WindowsZonesTable.swift`.
public enum WindowsZones {
    /// IANA id for a Windows zone id (CLDR row for `territory` when given and present, else the 001 row).
    ///
    /// Ids CLDR still writes in their old spelling (`Asia/Calcutta`, `Europe/Kiev`) come back under
    /// their current tzdata name (`Asia/Kolkata`, `Europe/Kyiv`), so that hosts whose tzdata dropped the
    /// old names can still compute with them.
    public static func ianaIdentifier(forWindowsID id: String, territory: String? = nil) -> String? {
        let zoneByRow = WindowsZoneIndex.zoneByRow
        // Ids come spelled as CLDR spells them nearly always (Graph, Outlook): the other spellings'
        // table is built only for the first that is not.
        let spelled = zoneByRow[RowKey(windowsID: id, territory: "001")]
        guard let windowsID = spelled != nil ? id : canonicalWindowsID(id) else { return nil }
        if let territory, let zone = zoneByRow[RowKey(windowsID: windowsID, territory: territory.uppercased())] {
            return zone
        }
        return spelled ?? zoneByRow[RowKey(windowsID: windowsID, territory: "001")]
    }

    /// Windows id for an IANA id, following tzdata links and CLDR legacy aliases.
    public static func windowsID(forIANA id: String) -> String? {
        let byZone = WindowsZoneIndex.windowsIDByZone
        if let windowsID = byZone[id] { return windowsID }
        // Names are compared as tzdata spells them, so `america/new_york` is found too.
        let spelled = ZoneNames.ianaName(id) ?? id
        let current = tzdataLinks[spelled] ?? spelled
        return byZone[spelled] ?? byZone[current] ?? WindowsZoneIndex.windowsIDByCurrentZone[current]
    }

    /// The Windows id as CLDR spells it, for any capitalisation of a known Windows id.
    public static func canonicalWindowsID(_ id: String) -> String? {
        // No Windows id has a `/` (a test holds CLDR's table to that), and most names asked about are
        // IANA ids, which nearly all have one: for them the table is not built (lower-casing every
        // Windows id was 700,000 instructions, a twentieth of a one-event conversion to Graph).
        if id.utf8.contains(UInt8(ascii: "/")) { return nil }
        return WindowsZoneIndex.canonicalWindowsID[id.lowercased()]
    }

    /// The Windows id whose Outlook display name (`(UTC-05:00) Eastern Time (US & Canada)`) this is.
    ///
    /// The offset in parentheses is ignored, because Windows updates it when a zone's rules change, and
    /// old files say `GMT` where new ones say `UTC`.
    public static func windowsID(forDisplayName name: String) -> String? {
        WindowsZoneIndex.windowsIDByDisplayName[DisplayName.key(name)]
    }

    /// Every Windows id CLDR lists, in file order.
    public static var allWindowsIDs: [String] { WindowsZoneIndex.windowsIDs }

    /// Every IANA zone CLDR maps, under its current tzdata name, sorted (what shells complete).
    public static var allIANAIdentifiers: [String] {
        Set(windowsZoneEntries.map { currentName(ofCLDRIdentifier: $0.ianaIdentifier) }).sorted()
    }

    /// The current tzdata name of a zone CLDR still calls by an old name, or the id itself.
    ///
    /// Only renames count: a link whose target CLDR lists in its own right (`Europe/Vatican` → `Europe/Rome`)
    /// merges two places and keeps its own name.
    public static func currentName(ofCLDRIdentifier id: String) -> String {
        WindowsZoneIndex.currentName(of: id, listed: WindowsZoneIndex.windowsIDByZone)
    }
}

/// A CLDR row's key: Windows id and territory.
struct RowKey: Hashable, Sendable {
    let windowsID: String
    let territory: String
}

/// Lookup tables built from the generated rows, each the first time it is needed: a conversion to
/// Graph builds only `windowsIDByZone`, a run that reads Windows zone names `zoneByRow` too (the
/// others cost as much again, lower-casing and trimming hundreds of names, for spellings and display
/// names Graph does not send).
enum WindowsZoneIndex {
    /// Every IANA id CLDR lists, as CLDR spells it, with its Windows id: all a conversion to Graph
    /// needs. Built apart from `zoneByRow`, which only reading Windows ids needs (built together,
    /// they were 1.5 million instructions of the first zone written to Graph).
    static let windowsIDByZone: [String: String] = {
        // Sized up front: growing it step by step took a fifth of the time building it costs.
        var byZone = [String: String](minimumCapacity: windowsZoneEntries.count)
        for entry in windowsZoneEntries where byZone[entry.ianaIdentifier] == nil {
            byZone[entry.ianaIdentifier] = entry.windowsID
        }
        return byZone
    }()

    /// The zone to use for each CLDR row: its first IANA id, under its current name.
    static let zoneByRow: [RowKey: String] = {
        // Renames need the full zone list first: a link whose target CLDR also lists is a merge.
        var byRow = [RowKey: String](minimumCapacity: windowsZoneEntries.count)
        for entry in windowsZoneEntries {
            let key = RowKey(windowsID: entry.windowsID, territory: entry.territory)
            if byRow[key] == nil {
                byRow[key] = currentName(of: entry.ianaIdentifier, listed: windowsIDByZone)
            }
        }
        return byRow
    }()

    /// Every Windows id, in file order.
    static let windowsIDs: [String] = {
        var seen = Set<String>()
        return windowsZoneEntries.map(\.windowsID).filter { seen.insert($0).inserted }
    }()

    /// Each Windows id lower-cased → as CLDR spells it.
    static let canonicalWindowsID = Dictionary(
        windowsIDs.map { ($0.lowercased(), $0) }, uniquingKeysWith: { first, _ in first })

    /// The Windows id of each IANA id CLDR lists, keyed by the current tzdata name of its legacy spellings.
    static let windowsIDByCurrentZone: [String: String] = {
        var byCurrentZone = [String: String](minimumCapacity: windowsZoneEntries.count)
        for entry in windowsZoneEntries {
            let zone = currentName(of: entry.ianaIdentifier, listed: windowsIDByZone)
            if byCurrentZone[zone] == nil { byCurrentZone[zone] = entry.windowsID }
        }
        return byCurrentZone
    }()

    /// Display names (`DisplayName.key`) → Windows id.
    static let windowsIDByDisplayName = Dictionary(
        windowsZoneDisplayNames.map { (DisplayName.key($0.value), $0.key) }, uniquingKeysWith: { _, last in last })

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
