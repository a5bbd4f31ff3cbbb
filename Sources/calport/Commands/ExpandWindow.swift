import ArgumentParsing
import CalendarModel
import Foundation
import ICalendar
import TimeZones

/// The `--start`, `--end` and `--tz` of `calport expand`, read into an expansion window and display clock.
struct ExpandWindow {
    var window: ExpansionWindow
    var clock: ZoneClock

    /// The forms `--start` and `--end` take, for messages and help.
    static let forms = "YYYY-MM-DD[THH:MM[:SS][Z|±HH:MM]], YYYY-MM, today, tomorrow, yesterday or ±N(d|w)"

    /// Reads `YYYY-MM-DD` or `YYYY-MM-DDTHH:MM[:SS][Z|±HH:MM]`, a month `YYYY-MM` (its first day),
    /// or a day relative to today in `--tz` (`today`, `tomorrow`, `yesterday`, `+7d`, `-1w`); times
    /// without an offset are in `--tz`. `now` is the current time, in seconds since 1970.
    init(
        start: String, end: String, zone: String?, now: Int = Int(Date().timeIntervalSince1970)
    ) throws(UsageError) {
        if let zone, zone != "UTC" {
            guard let rules = TimeZoneResolver().resolve(zone).rules else {
                throw UsageError(message: "unknown time zone '\(zone)' for --tz")
            }
            clock = ZoneClock(rules: rules)
        } else {
            clock = .utc
        }
        let from = try ExpandWindow.instant(start, option: "--start", clock: clock, now: now)
        let to = try ExpandWindow.instant(end, option: "--end", clock: clock, now: now)
        guard from < to else { throw UsageError(message: "--end (\(end)) must be after --start (\(start))") }
        window = ExpansionWindow(start: from, end: to)
    }

    private static func instant(_ text: String, option: String, clock: ZoneClock, now: Int) throws(UsageError)
        -> Int
    {
        let failure = UsageError(message: "\(option) expects \(forms), found '\(text)'")
        if let day = relativeDay(text, today: LocalDateTime(secondsSinceEpoch: now + clock.offset(at: now)).date) {
            return clock.instant(LocalDateTime(date: day))
        }
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
        if digits.count == 7, digits[4] == UInt8(ascii: "-"), let year = number(0..<4), let month = number(5..<7) {
            let first = LocalDateTime(year: year, month: month, day: 1)
            guard first.isValid else { throw failure }
            return clock.instant(first)
        }
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

    /// `today`, `tomorrow`, `yesterday`, or `+N`/`-N` days (`d`) or weeks (`w`) from today; nil for
    /// any other text.
    static func relativeDay(_ text: String, today: CalendarDate) -> CalendarDate? {
        switch text.lowercased() {
        case "today": return today
        case "tomorrow": return today.adding(days: 1)
        case "yesterday": return today.adding(days: -1)
        default: break
        }
        let digits = text.dropFirst().dropLast()
        guard let sign = text.first, sign == "+" || sign == "-", let unit = text.last?.lowercased(),
            unit == "d" || unit == "w", !digits.isEmpty, digits.count <= 6,
            digits.allSatisfy({ $0.isASCII && $0.isNumber }), let count = Int(digits)
        else { return nil }
        return today.adding(days: (sign == "-" ? -count : count) * (unit == "w" ? 7 : 1))
    }
}
