import CalendarModel
import Foundation
import Testing

@testable import TimeZones

@Suite struct TimeZoneResolverTests {
    /// Names as real files and Graph write them, and the IANA zone each stands for.
    static let names: [(name: String, zone: String, route: TimeZoneResolutionRoute)] = [
        ("Europe/Berlin", "Europe/Berlin", .ianaName),
        ("europe/berlin", "Europe/Berlin", .ianaName),
        ("Asia/Calcutta", "Asia/Calcutta", .ianaName),
        ("US/Eastern", "US/Eastern", .ianaName),
        ("Eastern Standard Time", "America/New_York", .windowsID),
        ("Eastern Standard Time 1", "America/New_York", .windowsID),
        ("W. Europe Standard Time 2", "Europe/Berlin", .windowsID),
        ("India Standard Time", "Asia/Kolkata", .windowsID),
        ("(UTC-05:00) Eastern Time (US & Canada)", "America/New_York", .outlookDisplayName),
        ("(UTC+01:00) Brussels, Copenhagen, Madrid, Paris", "Europe/Paris", .outlookDisplayName),
        ("\"(UTC+10:00) Canberra, Melbourne, Sydney\"", "Australia/Sydney", .outlookDisplayName),
        ("tzone://Microsoft/Utc", "Etc/UTC", .microsoftURI),
        ("/freeassociation.sourceforge.net/Europe/Berlin", "Europe/Berlin", .vendorPrefix),
        ("/freeassociation.sourceforge.net/Tzfile/Europe/Berlin", "Europe/Berlin", .vendorPrefix),
        ("/mozilla.org/20050126_1/America/New_York", "America/New_York", .vendorPrefix),
        ("/citadel.org/20190103_1/Europe/Paris", "Europe/Paris", .vendorPrefix),
        (
            "/softwarestudio.org/Olson_20011030_5/America/Argentina/Buenos_Aires", "America/Argentina/Buenos_Aires",
            .vendorPrefix
        ),
    ]

    @Test(arguments: names)
    func namesResolve(name: String, zone: String, route: TimeZoneResolutionRoute) {
        #expect(TimeZoneResolver().resolve(name) == .iana(zone, via: route))
    }

    /// `ZoneNames.ianaName` answers a name with a space without its table, which is only right while
    /// no IANA name has one.
    @Test func noIANANameHasASpace() {
        #expect(ZoneNames.knownIANANames.count > 500)
        for (key, name) in ZoneNames.knownIANANames {
            #expect(!key.contains(" ") && !name.contains(" "), "\(name)")
        }
    }

    /// A name spelled as tzdata's links or CLDR's Windows zones spell it is answered without the
    /// table of every name (`ZoneNames.tabledIANAName`), by making its zone: the answer must be the
    /// one the table gives, for every such name, whether Foundation knows it or not.
    @Test func tabledNamesGetTheTablesAnswer() {
        let tabled = Set(tzdataLinks.keys).union(tzdataLinks.values).union(windowsZoneEntries.map(\.ianaIdentifier))
        #expect(tabled.count > 500)
        var answered = 0
        for name in tabled {
            guard let answer = ZoneNames.tabledIANAName(name) else { continue }
            answered += 1
            #expect(answer == ZoneNames.ianaName(name), "\(name)")
        }
        #expect(answered > 500)
        // Other spellings are left to the table.
        #expect(ZoneNames.tabledIANAName("europe/berlin") == nil)
        #expect(TimeZoneResolver().resolve("europe/berlin") == .iana("Europe/Berlin", via: .ianaName))
    }

    /// Names nobody defines are unknown, with an error diagnostic, never UTC or floating.
    @Test func unknownNamesAreReported() {
        let resolver = TimeZoneResolver()
        for name in ["tzone://Microsoft/Custom", "Customized Time Zone", "Nowhere Standard Time", ""] {
            let resolution = resolver.resolve(name)
            #expect(resolution == .unknown(name))
            #expect(resolution.ianaIdentifier == nil)
            #expect(resolution.rules == nil)
            #expect(resolution.diagnostic?.severity == .error)
            #expect(resolution.diagnostic?.code == "unknown-tzid")
        }
    }

    /// A VTIMEZONE without observances defines nothing: its name is resolved as a name, or is unknown,
    /// rather than matched to a zone with offset zero.
    @Test func emptyDefinitionIsNotUTC() {
        let definitions = [
            TimeZoneDefinition(identifier: "Customized Time Zone"), TimeZoneDefinition(identifier: "Europe/Oslo"),
        ]
        let resolver = TimeZoneResolver(definitions: definitions, calendarHint: nil, years: 2024...2024)
        #expect(resolver.resolve("Customized Time Zone") == .unknown("Customized Time Zone"))
        #expect(resolver.resolve("Europe/Oslo") == .iana("Europe/Oslo", via: .ianaName))
    }

    /// X-WR-TIMEZONE names the zone of a calendar without TZIDs.
    @Test func calendarHint() {
        #expect(TimeZoneResolver(calendarHint: "Europe/Vienna").calendarZone == .iana("Europe/Vienna", via: .ianaName))
        #expect(TimeZoneResolver().calendarZone == nil)
    }

    /// Outlook's "Customized Time Zone" with the EU rules (last Sunday of March and October, 02:00 → 03:00
    /// at +01:00, 03:00 → 02:00 at +02:00, as Outlook writes them from DTSTART 1601) is Central European time.
    @Test func customizedTimeZoneMatchesByTransitions() {
        let definition = Self.outlookDefinition(
            "Customized Time Zone", standard: 3600, daylight: 7200, daylightMonth: 3, standardMonth: 10, ordinal: -1)
        let resolver = TimeZoneResolver(definitions: [definition], calendarHint: nil, years: 2023...2025)
        // CLDR's default zones are tried in file order; W. Europe Standard Time is the first with these rules.
        #expect(resolver.resolve("Customized Time Zone") == .iana("Europe/Berlin", via: .definitionMatch))
    }

    /// A definition no zone has (DST from the first Sunday of June at +01:00) keeps its own rules, with a
    /// warning.
    @Test func unmatchedDefinitionKeepsItsOwnRules() throws {
        let definition = Self.outlookDefinition(
            "tzone://Microsoft/Custom", standard: 3600, daylight: 7200, daylightMonth: 6, standardMonth: 9, ordinal: 1)
        let resolver = TimeZoneResolver(definitions: [definition], calendarHint: nil, years: 2024...2024)
        let resolution = resolver.resolve("tzone://Microsoft/Custom")
        #expect(resolution == .custom(definition))
        #expect(resolution.diagnostic?.severity == .warning)
        let rules = try #require(resolution.rules)
        // 2024-06-02 is the first Sunday of June; 02:00 at +01:00 is 01:00Z.
        let onset = LocalDateTime(year: 2024, month: 6, day: 2, hour: 1).secondsSinceEpoch
        #expect(rules.offset(atUTCSeconds: onset - 1) == 3600)
        #expect(rules.offset(atUTCSeconds: onset) == 7200)
    }

    /// A known TZID whose definition disagrees with tzdata is not trusted by name.
    @Test func knownNameWithOtherRulesIsNotTrusted() {
        let definition = Self.outlookDefinition(
            "Europe/Berlin", standard: 3600, daylight: 7200, daylightMonth: 6, standardMonth: 9, ordinal: 1)
        let resolver = TimeZoneResolver(definitions: [definition], calendarHint: nil, years: 2024...2024)
        #expect(resolver.resolve("Europe/Berlin") == .custom(definition))
    }

    /// A definition whose TZID is a vendor-prefixed IANA id resolves by name when it agrees.
    @Test func definedKnownNameResolvesByName() throws {
        let built = try #require(VTimeZoneBuilder.definition(forIANA: "America/New_York", years: 2024...2025))
        var definition = built
        definition.identifier = "/mozilla.org/20050126_1/America/New_York"
        let resolver = TimeZoneResolver(definitions: [definition], calendarHint: nil, years: 2024...2025)
        #expect(resolver.resolve(definition.identifier) == .iana("America/New_York", via: .vendorPrefix))
    }

    /// A yearly pair of observances as Outlook writes them: DTSTART in 1601, BYDAY ordinal in a month.
    static func outlookDefinition(
        _ id: String, standard: Int, daylight: Int, daylightMonth: Int, standardMonth: Int, ordinal: Int
    ) -> TimeZoneDefinition {
        func observance(_ kind: TimeZoneObservance.Kind, month: Int, hour: Int, from: Int, to: Int)
            -> TimeZoneObservance
        {
            let rule = RecurrenceRule(
                frequency: .yearly, byDay: [WeekdayNumber(.sunday, ordinal: ordinal)], byMonth: [month])
            let start = LocalDateTime(year: 1601, month: 1, day: 1, hour: hour)
            return TimeZoneObservance(kind: kind, start: start, offsetFrom: from, offsetTo: to, rule: rule)
        }
        return TimeZoneDefinition(
            identifier: id,
            observances: [
                observance(.daylight, month: daylightMonth, hour: 2, from: standard, to: daylight),
                observance(.standard, month: standardMonth, hour: 3, from: daylight, to: standard),
            ])
    }
}

/// Current tzdata names that are only the *targets* of links (tzdata `L Asia/Kolkata Asia/Calcutta`)
/// and that ICU's older list may lack must still resolve to themselves.
@Test(arguments: ["Asia/Kolkata", "Europe/Kyiv", "America/Nuuk", "Asia/Kathmandu", "Asia/Yangon"])
func linkTargetsResolveToThemselves(name: String) {
    #expect(TimeZoneResolver().resolve(name).ianaIdentifier == name)
}
