import CalendarModel

extension RecurrenceRule {
    /// The rule as RFC 5545 RRULE text, for messages that must name it. Appended to one string: made
    /// of parts joined, each weekday's code upper-cased from its name, it cost 9,700 instructions a
    /// rule, and a weekly rule whose DTSTART is not one of its days names it in a warning.
    var rruleText: String {
        var text = "FREQ=" + frequency.rawValue
        func add(_ name: String, _ value: String) {
            text += ";"
            text += name
            text += "="
            text += value
        }
        func add(_ name: String, _ values: [Int]) {
            guard !values.isEmpty else { return }
            add(name, values.map(String.init).joined(separator: ","))
        }
        switch end {
        case .never: break
        case .count(let count): add("COUNT", String(count))
        case .until(let time): add("UNTIL", Self.text(time))
        }
        if interval != 1 { add("INTERVAL", String(interval)) }
        add("BYSECOND", bySecond)
        add("BYMINUTE", byMinute)
        add("BYHOUR", byHour)
        if !byDay.isEmpty {
            add(
                "BYDAY",
                byDay.map { ($0.ordinal.map(String.init) ?? "") + $0.weekday.code }.joined(separator: ","))
        }
        add("BYMONTHDAY", byMonthDay)
        add("BYYEARDAY", byYearDay)
        add("BYWEEKNO", byWeekNumber)
        add("BYMONTH", byMonth)
        add("BYSETPOS", bySetPosition)
        if let weekStart { add("WKST", weekStart.code) }
        for part in extraParts { add(part.name, part.value) }
        return text
    }

    private static func text(_ time: CalendarTime) -> String {
        let local = time.localDateTime
        let date = GraphDateTime.format(local.date).filter { $0 != "-" }
        if time.isDate { return date }
        let clock = GraphDateTime.format(local, fraction: false).suffix(8).filter { $0 != ":" }
        if case .utc = time { return "\(date)T\(clock)Z" }
        return "\(date)T\(clock)"
    }
}
