import CalendarModel
import Foundation

/// Finds the IANA zone a VTIMEZONE with an unknown TZID describes, by its offsets and transitions.
public enum VTimeZoneMatcher {
    /// The IANA zone whose offsets and transitions equal the definition's over `years`, if any.
    ///
    /// CLDR's default zones for Windows ids are tried first, then CLDR's other zones, then every zone
    /// tzdata knows, so that a match is the best-known of the zones that agree.
    public static func ianaIdentifier(matching definition: TimeZoneDefinition, years: ClosedRange<Int>) -> String? {
        let target = ZoneRules(definition: definition, years: years)
        let start = YearBounds.start(of: years.lowerBound)
        let offsetAtStart = target.offset(atUTCSeconds: start)
        // Only instants and offsets count: files label the same offset STANDARD or DAYLIGHT differently.
        let changes = target.transitions(in: years).map(OffsetChange.init)
        for candidate in candidates {
            guard let zone = TimeZone(identifier: candidate) else { continue }
            // Comparing one offset is far cheaper than computing every transition; most zones stop here.
            let source = FoundationTransitions(zone: zone)
            guard source.offset(atUTCSeconds: start) == offsetAtStart else { continue }
            if source.transitions(in: YearBounds.range(years)).map(OffsetChange.init) == changes { return candidate }
        }
        return nil
    }

    /// A transition without its DST flag.
    private struct OffsetChange: Equatable {
        let utcSeconds: Int
        let offsetAfter: Int

        init(_ transition: ZoneTransition) {
            utcSeconds = transition.utcSeconds
            offsetAfter = transition.offsetAfter
        }
    }

    /// The zones to try, best-known first, each once.
    static let candidates: [String] = {
        var seen = Set<String>()
        let defaults = WindowsZones.allWindowsIDs.compactMap { WindowsZones.ianaIdentifier(forWindowsID: $0) }
        let cldr = windowsZoneEntries.map { WindowsZones.currentName(ofCLDRIdentifier: $0.ianaIdentifier) }
        return (defaults + cldr + TimeZone.knownTimeZoneIdentifiers.sorted()).filter { seen.insert($0).inserted }
    }()
}
