import CalendarModel
import Foundation
import Testing

@testable import TimeZones

/// `CalendarTime` ↔ `Date`. Expected instants from tzdata's America/New_York rules: in 2026 clocks go
/// 02:00 EST → 03:00 EDT on 8 March and 02:00 EDT → 01:00 EST on 1 November (Energy Policy Act of
/// 2005: second Sunday of March, first Sunday of November).
@Suite struct CalendarTimeDateTests {
    let newYork = TimeZoneReference(name: "America/New_York", ianaIdentifier: "America/New_York")

    func utc(_ text: String) -> Date { ISO8601DateFormatter().date(from: text)! }

    @Test func anOrdinaryZonedTimeIsItsInstant() throws {
        let time = CalendarTime.zoned(LocalDateTime(year: 2026, month: 7, day: 1, hour: 9), newYork)
        #expect(try time.date() == utc("2026-07-01T13:00:00Z"))
    }

    @Test func aWindowsZoneNameIsResolved() throws {
        let zone = TimeZoneReference(name: "Eastern Standard Time")
        let time = CalendarTime.zoned(LocalDateTime(year: 2026, month: 1, day: 15, hour: 9), zone)
        #expect(try time.date() == utc("2026-01-15T14:00:00Z"))
    }

    @Test func aSkippedTimeMovesForwardOrIsRejected() throws {
        let time = CalendarTime.zoned(LocalDateTime(year: 2026, month: 3, day: 8, hour: 2, minute: 30), newYork)
        // RFC 5545 §3.3.5: read with the offset before the gap (-05:00), i.e. 03:30 EDT.
        #expect(try time.date() == utc("2026-03-08T07:30:00Z"))
        #expect(throws: WallTimeError.skipped(time.localDateTime, zone: "America/New_York")) {
            try time.date(policy: .strict)
        }
    }

    @Test func aRepeatedTimeIsTheFirstOrTheLastOrRejected() throws {
        let time = CalendarTime.zoned(LocalDateTime(year: 2026, month: 11, day: 1, hour: 1, minute: 30), newYork)
        #expect(try time.date() == utc("2026-11-01T05:30:00Z"))  // 01:30 EDT
        #expect(try time.date(policy: WallTimePolicy(repeated: .last)) == utc("2026-11-01T06:30:00Z"))  // EST
        #expect(throws: WallTimeError.repeated(time.localDateTime, zone: "America/New_York")) {
            try time.date(policy: .strict)
        }
    }

    @Test func floatingTimesAndDatesAreReadInTheGivenZone() throws {
        let berlin = TimeZone(identifier: "Europe/Berlin")!
        let floating = CalendarTime.floating(LocalDateTime(year: 2026, month: 12, day: 1, hour: 9))
        #expect(try floating.date(floatingIn: berlin) == utc("2026-12-01T08:00:00Z"))
        #expect(try floating.date() == utc("2026-12-01T09:00:00Z"))
        #expect(
            try CalendarTime.date(CalendarDate(year: 2026, month: 7, day: 1)).date(floatingIn: berlin)
                == utc("2026-06-30T22:00:00Z"))
    }

    @Test func anUnknownZoneIsAnError() {
        let time = CalendarTime.zoned(LocalDateTime(year: 2026, month: 1, day: 1), TimeZoneReference(name: "Mars/Base"))
        #expect(throws: WallTimeError.unknownZone("Mars/Base")) { try time.date() }
    }

    @Test func aDateBecomesTheWallTimeOfAZone() {
        let instant = utc("2026-11-01T05:30:00Z")
        #expect(
            CalendarTime(instant, in: TimeZone(identifier: "America/New_York")!)
                == .zoned(LocalDateTime(year: 2026, month: 11, day: 1, hour: 1, minute: 30), newYork))
        #expect(
            CalendarTime(instant, in: TimeZone(identifier: "UTC")!)
                == .utc(LocalDateTime(year: 2026, month: 11, day: 1, hour: 5, minute: 30)))
    }

    /// CLDR windowsZones.xml: "Romance Standard Time" is Europe/Paris for 001 and Europe/Madrid for ES;
    /// Asia/Tokyo is "Tokyo Standard Time".
    @Test func foundationZonesMapToAndFromWindowsIDs() {
        #expect(TimeZone(windowsIdentifier: "Romance Standard Time")?.identifier == "Europe/Paris")
        #expect(TimeZone(windowsIdentifier: "Romance Standard Time", territory: "ES")?.identifier == "Europe/Madrid")
        #expect(TimeZone(windowsIdentifier: "No Such Standard Time") == nil)
        #expect(TimeZone(identifier: "Asia/Tokyo")?.windowsIdentifier == "Tokyo Standard Time")
    }
}
