import CalendarModel
import Foundation

/// Finds the IANA zone a VTIMEZONE with an unknown TZID describes, by its offsets and transitions.
public enum VTimeZoneMatcher {
    /// The IANA zone whose offsets and transitions equal the definition's over `years`, if any.
    ///
    /// CLDR's default zones for Windows ids are tried first, then CLDR's other zones, then every zone
    /// tzdata knows, so that a match is the best-known of the zones that agree.
    public static func ianaIdentifier(matching definition: TimeZoneDefinition, years: ClosedRange<Int>) -> String? {
        let target = OffsetSignature(DefinitionTransitions(observances: definition.observances), years: years)
        return candidates.first { target.matches(ianaIdentifier: $0) }
    }

    /// Whether the definition gives the same offsets and transitions as the IANA zone over `years`.
    public static func definition(
        _ definition: TimeZoneDefinition, agreesWithIANA id: String, years: ClosedRange<Int>
    ) -> Bool {
        OffsetSignature(DefinitionTransitions(observances: definition.observances), years: years)
            .matches(ianaIdentifier: id)
    }

    /// The zones to try, best-known first, each once.
    static let candidates: [String] = {
        var seen = Set<String>()
        let defaults = WindowsZones.allWindowsIDs.compactMap { WindowsZones.ianaIdentifier(forWindowsID: $0) }
        let cldr = windowsZoneEntries.map { WindowsZones.currentName(ofCLDRIdentifier: $0.ianaIdentifier) }
        return (defaults + cldr + TimeZone.knownTimeZoneIdentifiers.sorted()).filter { seen.insert($0).inserted }
    }()
}

/// What two zones must share to be the same over some years: the offset at the start and every change.
///
/// Only instants and offsets count, because files label the same offset STANDARD or DAYLIGHT differently.
struct OffsetSignature: Equatable {
    let years: ClosedRange<Int>
    let offsetAtStart: Int
    let changes: [[Int]]

    init(_ source: any TransitionSource, years: ClosedRange<Int>) {
        self.years = years
        offsetAtStart = source.offset(atUTCSeconds: YearBounds.start(of: years.lowerBound))
        changes = source.transitions(in: YearBounds.range(years)).map { [$0.utcSeconds, $0.offsetAfter] }
    }

    /// Whether the IANA zone has this signature.
    func matches(ianaIdentifier id: String) -> Bool {
        guard let zone = TimeZone(identifier: id) else { return false }
        let source = FoundationTransitions(zone: zone)
        // Comparing one offset is far cheaper than computing every transition; most zones stop here.
        guard source.offset(atUTCSeconds: YearBounds.start(of: years.lowerBound)) == offsetAtStart else { return false }
        return OffsetSignature(source, years: years) == self
    }
}
