import CalendarModel
import Testing

@testable import TimeZones

@Suite struct VTimeZoneBuilderTests {
    static let years = 2018...2026

    /// The emitted definition, evaluated back, gives tzdata's offset for every hour of the covered years.
    @Test(arguments: tzdataHourlyOffsets.map(\.zone))
    func definitionGivesTzdataOffsetEveryHour(zone: String) throws {
        let expected = try #require(tzdataHourlyOffsets.first { $0.zone == zone })
        let definition = try #require(VTimeZoneBuilder.definition(forIANA: zone, years: Self.years))
        #expect(definition.identifier == zone)
        let rules = ZoneRules(definition: definition, years: Self.years)
        var offset = expected.initial
        var changes = expected.changes[...]
        var mismatches = 0
        for hour in stride(from: YearBounds.start(of: 2018), to: YearBounds.start(of: 2027), by: 3600) {
            if let change = changes.first, change.utc == hour {
                offset = change.offset
                changes = changes.dropFirst()
            }
            if rules.offset(atUTCSeconds: hour) != offset { mismatches += 1 }
        }
        #expect(mismatches == 0)
    }

    /// US rules since 2007 (Energy Policy Act 2005): DST from the second Sunday of March to the first
    /// Sunday of November, at 02:00 local; two recurring components and nothing else.
    @Test func newYorkIsTwoRecurringComponents() throws {
        let definition = try #require(VTimeZoneBuilder.definition(forIANA: "America/New_York", years: Self.years))
        #expect(definition.observances.count == 2)
        let daylight = try #require(definition.observances.first { $0.kind == .daylight })
        #expect(daylight.start == LocalDateTime(year: 2018, month: 3, day: 11, hour: 2))
        #expect((daylight.offsetFrom, daylight.offsetTo) == (-18000, -14400))
        #expect(
            daylight.rule
                == RecurrenceRule(frequency: .yearly, byDay: [WeekdayNumber(.sunday, ordinal: 2)], byMonth: [3]))
        let standard = try #require(definition.observances.first { $0.kind == .standard })
        #expect(standard.start == LocalDateTime(year: 2018, month: 11, day: 4, hour: 2))
        #expect(
            standard.rule
                == RecurrenceRule(frequency: .yearly, byDay: [WeekdayNumber(.sunday, ordinal: 1)], byMonth: [11]))
    }

    /// EU rules: last Sunday of March and October at 01:00 UTC.
    @Test func berlinUsesLastSunday() throws {
        let definition = try #require(VTimeZoneBuilder.definition(forIANA: "Europe/Berlin", years: 2024...2024))
        #expect(definition.observances.count == 2)
        for observance in definition.observances {
            #expect(observance.rule?.byDay == [WeekdayNumber(.sunday, ordinal: -1)])
            #expect(observance.rule?.end == RecurrenceEnd.never)
        }
    }

    /// Zones without DST get one STANDARD.
    @Test func zoneWithoutDSTIsOneStandard() throws {
        let definition = try #require(VTimeZoneBuilder.definition(forIANA: "Asia/Tokyo", years: Self.years))
        #expect(definition.observances.count == 1)
        let standard = try #require(definition.observances.first)
        #expect(standard.kind == .standard)
        #expect((standard.offsetFrom, standard.offsetTo) == (32400, 32400))
        #expect(standard.rule == nil)
    }

    /// Brazil abolished DST in 2019: the rules that stopped end with UNTIL, none recurs past 2019.
    @Test func rulesThatStopHaveUntil() throws {
        let definition = try #require(VTimeZoneBuilder.definition(forIANA: "America/Sao_Paulo", years: Self.years))
        for observance in definition.observances {
            if let rule = observance.rule {
                guard case .until(.utc(let until)) = rule.end else {
                    Issue.record("rule without UNTIL: \(rule)")
                    continue
                }
                #expect(until.date.year <= 2019)
            }
        }
    }

    /// Truncated to the covered years: nothing starts long before them.
    @Test func truncatedToTheCoveredYears() throws {
        for zone in ["Europe/London", "America/Los_Angeles", "Australia/Sydney"] {
            let definition = try #require(VTimeZoneBuilder.definition(forIANA: zone, years: 2020...2022))
            #expect(definition.observances.allSatisfy { $0.start.date.year >= 2020 }, "\(zone)")
            #expect(definition.observances.count == 2, "\(zone)")
        }
        #expect(VTimeZoneBuilder.definition(forIANA: "Mars/Olympus_Mons", years: 2020...2022) == nil)
    }
}
