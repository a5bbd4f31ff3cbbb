import ArgumentParsing
import CalendarModel
import ICalendar
import TimeZones

/// The `--start`, `--end` and `--tz` of `calport expand`, read into an expansion window and display clock.
struct ExpandWindow {
    var window: ExpansionWindow
    var clock: ZoneClock

    /// Reads `YYYY-MM-DD` or `YYYY-MM-DDTHH:MM[:SS][Z|±HH:MM]`; times without an offset are in `--tz`.
    init(start: String, end: String, zone: String?) throws(UsageError) {
        if let zone, zone != "UTC" {
            guard let rules = TimeZoneResolver().resolve(zone).rules else {
                throw UsageError(message: "unknown time zone '\(zone)' for --tz")
            }
            clock = ZoneClock(rules: rules)
        } else {
            clock = .utc
        }
        let from = try ExpandWindow.instant(start, option: "--start", clock: clock)
        let to = try ExpandWindow.instant(end, option: "--end", clock: clock)
        guard from < to else { throw UsageError(message: "--end (\(end)) must be after --start (\(start))") }
        window = ExpansionWindow(start: from, end: to)
    }

    private static func instant(_ text: String, option: String, clock: ZoneClock) throws(UsageError) -> Int {
        let digits = Array(text.utf8)
        func number(_ range: Range<Int>) -> Int? {
            guard range.upperBound <= digits.count else { return nil }
            var value = 0
            for index in range {
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(digits[index]) else { return nil }
                value = value * 10 + Int(digits[index] - UInt8(ascii: "0"))
            }
            return value
        }
        let failure = UsageError(
            message: "\(option) expects YYYY-MM-DD or YYYY-MM-DDTHH:MM[:SS][Z|±HH:MM], found '\(text)'")
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10), digits.count >= 10,
            digits[4] == UInt8(ascii: "-"), digits[7] == UInt8(ascii: "-")
        else { throw failure }
        var local = LocalDateTime(year: year, month: month, day: day)
        var index = 10
        if index < digits.count {
            guard digits[index] == UInt8(ascii: "T"), let hour = number(11..<13), let minute = number(14..<16) else {
                throw failure
            }
            local.hour = hour
            local.minute = minute
            index = 16
            if index < digits.count, digits[index] == UInt8(ascii: ":") {
                guard let second = number(17..<19) else { throw failure }
                local.second = second
                index = 19
            }
        }
        guard local.isValid else { throw failure }
        if index == digits.count { return clock.instant(local) }
        if digits[index] == UInt8(ascii: "Z"), index + 1 == digits.count { return local.secondsSinceEpoch }
        guard index + 6 == digits.count, digits[index] == UInt8(ascii: "+") || digits[index] == UInt8(ascii: "-"),
            let hours = number(index + 1..<index + 3), let minutes = number(index + 4..<index + 6)
        else { throw failure }
        let offset = (hours * 3_600 + minutes * 60) * (digits[index] == UInt8(ascii: "-") ? -1 : 1)
        return local.secondsSinceEpoch - offset
    }
}
