import CalendarModel
import Testing
import TimeZones

@testable import GraphEvents

@Suite struct GraphZonesTests {
    /// Windows ids, numbered and display names, IANA ids and links, near misses and names nothing
    /// resolves: more than the few names the cache keeps in its list, so that its dictionary is used too.
    static let names = [
        "W. Europe Standard Time", "W. Europe Standard Time 2", "Eastern Standard Time", "UTC",
        "tzone://Microsoft/Utc", "(UTC+01:00) Brussels, Copenhagen, Madrid, Paris", "Europe/Berlin",
        "europe/berlin", "US/Eastern", "Asia/Calcutta", " Europe/Berlin ", "\"Europe/Paris\"",
        "Nowhere Standard Time", "tzone://Microsoft/Custom", "", "W. Europe Standard Time ",
    ]

    /// Every answer, asked for the first time or again, in any order and from several threads at once,
    /// is the resolver's own answer for that name: a remembered nil included.
    @Test func rememberedAnswersAreTheResolversAnswers() async {
        let resolver = TimeZoneResolver(definitions: [], calendarHint: nil, years: 1970...2037)
        let expected = Self.names.map { resolver.resolve($0).ianaIdentifier }
        let rounds = await withTaskGroup(of: [String?].self) { group in
            for round in 0..<8 {
                let order = round.isMultiple(of: 2) ? Array(Self.names.indices) : Self.names.indices.reversed()
                group.addTask {
                    var answers = [String?](repeating: nil, count: Self.names.count)
                    for index in order { answers[index] = GraphZones.ianaIdentifier(forGraphName: Self.names[index]) }
                    return answers
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        for answers in rounds { #expect(answers == expected) }
    }

    /// The Windows id follows the IANA id a name comes with (two files' VTIMEZONEs may give one name
    /// different rules), asked in either order and again; CLDR's windowsZones.xml maps Europe/Berlin
    /// to W. Europe Standard Time and America/New_York to Eastern Standard Time.
    @Test func aWindowsIDFollowsTheIANAIDItsNameComesWith() {
        let berlin = TimeZoneReference(name: "Office Time", ianaIdentifier: "Europe/Berlin")
        let newYork = TimeZoneReference(name: "Office Time", ianaIdentifier: "America/New_York")
        let unresolved = TimeZoneReference(name: "Office Time")
        for _ in 0..<2 {
            #expect(GraphZones.windowsID(for: berlin) == "W. Europe Standard Time")
            #expect(GraphZones.windowsID(for: newYork) == "Eastern Standard Time")
            #expect(GraphZones.windowsID(for: unresolved) == nil)
            #expect(GraphZones.windowsID(for: newYork) == "Eastern Standard Time")
        }
        #expect(GraphZones.windowsID(for: TimeZoneReference(name: "eastern standard time")) == "Eastern Standard Time")
    }

    @Test func knownAliasAndUnknownNames() {
        for _ in 0..<2 {
            #expect(GraphZones.ianaIdentifier(forGraphName: "W. Europe Standard Time") == "Europe/Berlin")
            #expect(GraphZones.ianaIdentifier(forGraphName: "US/Eastern") == "US/Eastern")
            #expect(GraphZones.ianaIdentifier(forGraphName: "Nowhere Standard Time") == nil)
        }
    }

    /// Rules are remembered by IANA id, and an id tzdata does not know stays unknown when asked again.
    @Test func offsetsAskedAgainAreTheSame() {
        let summer = LocalDateTime(date: CalendarDate(year: 2026, month: 7, day: 1), hour: 12, minute: 0, second: 0)
        for _ in 0..<2 {
            let utc = GraphZones.utcSeconds(for: summer, inIANA: "Europe/Berlin")
            #expect(utc == 1_782_900_000)
            #expect(utc.flatMap { GraphZones.localDateTime(atUTCSeconds: $0, inIANA: "Europe/Berlin") } == summer)
            #expect(GraphZones.utcSeconds(for: summer, inIANA: "Nowhere/Standard") == nil)
            #expect(GraphZones.localDateTime(atUTCSeconds: 0, inIANA: "Nowhere/Standard") == nil)
        }
    }
}
