import CalendarModel

extension RecurrenceRule {
    /// The rule as RFC 5545 RRULE text, for messages that must name it.
    var rruleText: String {
        var parts = ["FREQ=\(frequency.rawValue)"]
        switch end {
        case .never: break
        case .count(let count): parts.append("COUNT=\(count)")
        case .until(let time): parts.append("UNTIL=\(Self.text(time))")
        }
        if interval != 1 { parts.append("INTERVAL=\(interval)") }
        let lists: [(String, [Int])] = [("BYSECOND", bySecond), ("BYMINUTE", byMinute), ("BYHOUR", byHour)]
        for (name, values) in lists where !values.isEmpty { parts.append("\(name)=\(Self.join(values))") }
        if !byDay.isEmpty { parts.append("BYDAY=" + byDay.map(Self.text).joined(separator: ",")) }
        let dateLists: [(String, [Int])] = [
            ("BYMONTHDAY", byMonthDay), ("BYYEARDAY", byYearDay), ("BYWEEKNO", byWeekNumber), ("BYMONTH", byMonth),
            ("BYSETPOS", bySetPosition),
        ]
        for (name, values) in dateLists where !values.isEmpty { parts.append("\(name)=\(Self.join(values))") }
        if let weekStart { parts.append("WKST=\(Self.code(weekStart))") }
        parts += extraParts.map { "\($0.name)=\($0.value)" }
        return parts.joined(separator: ";")
    }

    /// The two-letter RFC 5545 code of a weekday (`MO`).
    static func code(_ weekday: Weekday) -> String { String(weekday.rawValue.prefix(2)).uppercased() }

    private static func text(_ day: WeekdayNumber) -> String {
        (day.ordinal.map(String.init) ?? "") + code(day.weekday)
    }

    private static func join(_ values: [Int]) -> String { values.map(String.init).joined(separator: ",") }

    private static func text(_ time: CalendarTime) -> String {
        let local = time.localDateTime
        let date = GraphDateTime.format(local.date).filter { $0 != "-" }
        if time.isDate { return date }
        let clock = GraphDateTime.format(local, fraction: false).suffix(8).filter { $0 != ":" }
        if case .utc = time { return "\(date)T\(clock)Z" }
        return "\(date)T\(clock)"
    }
}
