import CalendarModel
import Testing

@testable import GraphEvents

@Suite struct GraphDateTimeTests {
    @Test func wallTimesInstantsAndDates() {
        let local = LocalDateTime(year: 2017, month: 4, day: 21, hour: 10, minute: 5, second: 7)
        #expect(GraphDateTime.parse("2017-04-21T10:05:07.0000000")! == (local, nil))
        #expect(GraphDateTime.parse("2017-04-21T10:05:07")! == (local, nil))
        #expect(GraphDateTime.parse("2017-04-21T10:05")! == (local.adding(seconds: -7), nil))
        #expect(GraphDateTime.parse("2017-04-21T10:05:07Z")! == (local, 0))
        #expect(GraphDateTime.parse("2017-04-21T10:05:07.123+02:00")! == (local, 7_200))
        // 2017-04-15T03:00:50.7579581Z, fraction dropped; an offset is folded into UTC.
        #expect(
            GraphDateTime.parseInstant("2017-04-15T03:00:50.7579581Z")
                == LocalDateTime(year: 2017, month: 4, day: 15, hour: 3, minute: 0, second: 50))
        #expect(
            GraphDateTime.parseInstant("2017-04-15T05:00:00-05:30")
                == LocalDateTime(year: 2017, month: 4, day: 15, hour: 10, minute: 30))
        #expect(GraphDateTime.parseDate("2017-09-04") == CalendarDate(year: 2017, month: 9, day: 4))
        for bad in [
            "", "2017-02-30T10:00:00", "2017-04-21T25:00:00", "2017-04-21", "2017-04-21T10:00:00+0200",
            "datetime-value",
        ] {
            #expect(GraphDateTime.parse(bad) == nil, "\(bad)")
        }
        #expect(GraphDateTime.parseDate("2017-9-4") == nil)
    }

    @Test func formats() {
        let local = LocalDateTime(year: 2026, month: 12, day: 1, hour: 8, minute: 5)
        #expect(GraphDateTime.format(local, fraction: true) == "2026-12-01T08:05:00.0000000")
        #expect(GraphDateTime.format(local, fraction: false) == "2026-12-01T08:05:00")
        #expect(GraphDateTime.formatInstant(local) == "2026-12-01T08:05:00Z")
        #expect(GraphDateTime.format(CalendarDate(year: 987, month: 1, day: 2)) == "0987-01-02")
        #expect(GraphDateTime.format(CalendarDate(year: 5, month: 10, day: 31)) == "0005-10-31")
        let last = LocalDateTime(year: 9_999, month: 12, day: 31, hour: 23, minute: 59, second: 59)
        #expect(
            GraphDateTime.withFormatted(last, fraction: false) { String(decoding: $0, as: UTF8.self) }
                == "9999-12-31T23:59:59")
        // Years past four digits, or before year 0, are written as they are (ISO 8601's expanded
        // years need an agreed width; Graph's own never leave 0001-9999).
        #expect(GraphDateTime.format(CalendarDate(year: 12_345, month: 6, day: 7)) == "12345-06-07")
        #expect(
            GraphDateTime.format(LocalDateTime(year: Int.min, month: 1, day: 1), fraction: true)
                == "-9223372036854775808-01-01T00:00:00.0000000")
    }
}
