import CalendarModel

/// RRULE text of the plain form read in Swift, as libical reads it (`Libical.libicalRecurrence`, the
/// oracle of the differential tests and of the rrule fuzz target for every string): libical's parser
/// took about 8,200 instructions a rule, this reading some 2,000. The plain form is what calendars
/// write: every part once, its name in upper case, FREQ among them; INTERVAL; COUNT or UNTIL (a valid
/// DATE or DATE-TIME), not both; WKST; and BY parts of at most 13 values, each within RFC 5545
/// §3.3.10's range in at most three digits (an ordinal in two), with no `+` sign and no zero ordinal.
/// Anything else (lower case, RSCALE, X- parts, an empty part, a value out of range) is not read here
/// but left to libical, whatever it makes of it.
enum PlainRecurrenceText {
    /// The fewest values one of libical's BY arrays holds with its end marker (BYMONTH's 14 slots).
    /// A longer list is left to libical, whatever it does with it: it refuses a list longer than its
    /// array, reads 14 BYMONTH values but writes its end marker past them into BYSETPOS's first slot
    /// (a rule with BYSETPOS before such a BYMONTH loses it), and writes only 13 of them back. The
    /// plain form stays clear of all that.
    fileprivate static let maximumListCount = 13

    /// The rule `text` gives, or nil when it is not of the plain form. Its parts are gathered in
    /// variables and the rule made once: a rule made first and set part by part was copied on its way
    /// out, 600 instructions.
    static func rule(_ text: UnsafeBufferPointer<UInt8>) -> RecurrenceRule? {
        var frequency: RecurrenceFrequency?
        var interval = 1
        var end = RecurrenceEnd.never
        var weekStart: Weekday?
        var byDay: [WeekdayNumber] = []
        var bySecond: [Int] = [], byMinute: [Int] = [], byHour: [Int] = [], byMonthDay: [Int] = []
        var byYearDay: [Int] = [], byWeekNumber: [Int] = [], byMonth: [Int] = [], bySetPosition: [Int] = []
        var seen: UInt16 = 0
        var start = 0
        repeat {
            var partEnd = start
            while partEnd < text.count, text[partEnd] != UInt8(ascii: ";") { partEnd += 1 }
            var equals = start
            while equals < partEnd, text[equals] != UInt8(ascii: "=") { equals += 1 }
            guard equals < partEnd, let part = Part(UnsafeBufferPointer(rebasing: text[start..<equals])),
                seen & part.bit == 0
            else { return nil }
            seen |= part.bit
            let value = UnsafeBufferPointer(rebasing: text[(equals + 1)..<partEnd])
            switch part {
            case .frequency:
                guard let read = Self.frequency(value) else { return nil }
                frequency = read
            case .interval:
                guard let read = number(value, in: 1...Int(Int16.max)) else { return nil }
                interval = read
            case .count:
                // libical holds COUNT in a C int, and reads nine digits without overflow.
                guard let count = number(value, in: 1...999_999_999) else { return nil }
                end = .count(count)
            case .until:
                guard let until = time(value) else { return nil }
                end = .until(until)
            case .weekStart:
                guard value.count == 2, let weekday = weekday(value, at: 0) else { return nil }
                weekStart = weekday
                byDay = inLibicalOrder(byDay, weekStart: weekday)
            case .byDay:
                guard let days = weekdayNumbers(value) else { return nil }
                byDay = inLibicalOrder(days, weekStart: weekStart ?? .monday)
            case .numbers(let list):
                guard let values = numbers(value, in: list.range, signed: list.isSigned) else { return nil }
                switch list {
                case .bySecond: bySecond = values
                case .byMinute: byMinute = values
                case .byHour: byHour = values
                case .byMonthDay: byMonthDay = values
                case .byYearDay: byYearDay = values
                case .byWeekNumber: byWeekNumber = values
                case .byMonth: byMonth = values
                case .bySetPosition: bySetPosition = values
                }
            }
            start = partEnd + 1
        } while start <= text.count
        // RFC 5545 §3.3.10: COUNT and UNTIL MUST NOT occur in the same rule; libical refuses it.
        let countAndUntil = Part.count.bit | Part.until.bit
        guard let frequency, seen & countAndUntil != countAndUntil else {
            return nil
        }
        return RecurrenceRule(
            frequency: frequency, interval: interval, end: end, bySecond: bySecond, byMinute: byMinute,
            byHour: byHour, byDay: byDay, byMonthDay: byMonthDay, byYearDay: byYearDay, byWeekNumber: byWeekNumber,
            byMonth: byMonth, bySetPosition: bySetPosition, weekStart: weekStart)
    }

    /// The RRULE text `Libical.formatRecurrence` writes for `rule` through libical (`FREQ`, `COUNT`,
    /// `INTERVAL` and the BY parts in libical's order, then calport's UNTIL, WKST and other parts),
    /// when every value is one the plain form reads and `untilText` has no `;` (which the split that
    /// takes libical's WKST out would drop or split); nil otherwise, for libical to write. libical's
    /// writer took about 9,200 instructions a rule: a 2.6 KB struct set up and filled, its text made
    /// by `snprintf` a value, copied, split to take WKST out and joined again.
    static func text(of rule: RecurrenceRule, untilText: String?) -> String? {
        guard (1...Int(Int16.max)).contains(rule.interval), untilText?.utf8.contains(UInt8(ascii: ";")) != true
        else { return nil }
        var text: [UInt8] = []
        text.reserveCapacity(128)
        text.append("FREQ=")
        text.append(contentsOf: rule.frequency.rawValue.utf8)
        if case .count(let count) = rule.end {
            guard (1...Int(Int32.max)).contains(count) else { return nil }
            text.append(";COUNT=")
            text.append(number: count)
        }
        if rule.interval != 1 {
            text.append(";INTERVAL=")
            text.append(number: rule.interval)
        }
        guard text.append(.bySecond, rule.bySecond), text.append(.byMinute, rule.byMinute),
            text.append(.byHour, rule.byHour), text.append(byDay: rule.byDay),
            text.append(.byMonthDay, rule.byMonthDay), text.append(.byYearDay, rule.byYearDay),
            text.append(.byWeekNumber, rule.byWeekNumber), text.append(.byMonth, rule.byMonth),
            text.append(.bySetPosition, rule.bySetPosition)
        else { return nil }
        if let untilText {
            text.append(";UNTIL=")
            text.append(contentsOf: untilText.utf8)
        }
        if let weekStart = rule.weekStart {
            text.append(";WKST=")
            text.append(contentsOf: weekStart.code.utf8)
        }
        for part in rule.extraParts {
            text.append(";")
            text.append(contentsOf: part.name.utf8)
            text.append("=")
            text.append(contentsOf: part.value.utf8)
        }
        // The bytes are ASCII but for those of UNTIL's text and the other parts, Strings already.
        return String(validUTF8: text.span)
    }

    /// The rule parts of the plain form, by name.
    private enum Part {
        case frequency, interval, count, until, weekStart, byDay
        case numbers(NumberList)

        /// Its bit among those of the parts read.
        var bit: UInt16 {
            switch self {
            case .frequency: 1 << 0
            case .interval: 1 << 1
            case .count: 1 << 2
            case .until: 1 << 3
            case .weekStart: 1 << 4
            case .byDay: 1 << 5
            case .numbers(let list): 1 << (6 + list.rawValue)
            }
        }

        init?(_ name: UnsafeBufferPointer<UInt8>) {
            switch name.count {
            case 4 where name.spells("FREQ"): self = .frequency
            case 4 where name.spells("WKST"): self = .weekStart
            case 5 where name.spells("COUNT"): self = .count
            case 5 where name.spells("UNTIL"): self = .until
            case 5 where name.spells("BYDAY"): self = .byDay
            case 6 where name.spells("BYHOUR"): self = .numbers(.byHour)
            case 7 where name.spells("BYMONTH"): self = .numbers(.byMonth)
            case 8 where name.spells("INTERVAL"): self = .interval
            case 8 where name.spells("BYSECOND"): self = .numbers(.bySecond)
            case 8 where name.spells("BYMINUTE"): self = .numbers(.byMinute)
            case 8 where name.spells("BYWEEKNO"): self = .numbers(.byWeekNumber)
            case 8 where name.spells("BYSETPOS"): self = .numbers(.bySetPosition)
            case 9 where name.spells("BYYEARDAY"): self = .numbers(.byYearDay)
            case 10 where name.spells("BYMONTHDAY"): self = .numbers(.byMonthDay)
            default: return nil
            }
        }
    }

    /// The BY parts whose values are numbers.
    fileprivate enum NumberList: Int {
        case bySecond, byMinute, byHour, byMonthDay, byYearDay, byWeekNumber, byMonth, bySetPosition

        /// RFC 5545 §3.3.10's range of the part's values (their magnitude, where signed).
        var range: ClosedRange<Int> {
            switch self {
            case .bySecond: 0...60
            case .byMinute: 0...59
            case .byHour: 0...23
            case .byMonthDay: 1...31
            case .byYearDay, .bySetPosition: 1...366
            case .byWeekNumber: 1...53
            case .byMonth: 1...12
            }
        }

        var isSigned: Bool {
            switch self {
            case .byMonthDay, .byYearDay, .byWeekNumber, .bySetPosition: true
            case .bySecond, .byMinute, .byHour, .byMonth: false
            }
        }

        var name: StaticString {
            switch self {
            case .bySecond: "BYSECOND"
            case .byMinute: "BYMINUTE"
            case .byHour: "BYHOUR"
            case .byMonthDay: "BYMONTHDAY"
            case .byYearDay: "BYYEARDAY"
            case .byWeekNumber: "BYWEEKNO"
            case .byMonth: "BYMONTH"
            case .bySetPosition: "BYSETPOS"
            }
        }
    }

    private static func frequency(_ value: UnsafeBufferPointer<UInt8>) -> RecurrenceFrequency? {
        switch value.first {
        case UInt8(ascii: "S") where value.spells("SECONDLY"): .secondly
        case UInt8(ascii: "M") where value.spells("MINUTELY"): .minutely
        case UInt8(ascii: "H") where value.spells("HOURLY"): .hourly
        case UInt8(ascii: "D") where value.spells("DAILY"): .daily
        case UInt8(ascii: "W") where value.spells("WEEKLY"): .weekly
        case UInt8(ascii: "M") where value.spells("MONTHLY"): .monthly
        case UInt8(ascii: "Y") where value.spells("YEARLY"): .yearly
        default: nil
        }
    }

    /// Decimal digits (one to nine) whose value is in `range`.
    private static func number(_ value: UnsafeBufferPointer<UInt8>, in range: ClosedRange<Int>) -> Int? {
        guard (1...9).contains(value.count), let number = DecimalDigits.value(of: value, from: 0, count: value.count),
            range.contains(number)
        else { return nil }
        return number
    }

    /// A comma-separated list of numbers in `range`, negated by a `-` where `signed`.
    private static func numbers(_ value: UnsafeBufferPointer<UInt8>, in range: ClosedRange<Int>, signed: Bool) -> [Int]?
    {
        list(value) { element in
            let isNegative = signed && element.first == UInt8(ascii: "-")
            let digits = UnsafeBufferPointer(rebasing: element[(isNegative ? 1 : 0)...])
            guard digits.count <= 3, let number = number(digits, in: range) else { return nil }
            return isNegative ? -number : number
        }
    }

    /// A BYDAY list: weekdays, each with an optional ordinal of ±1 to ±53 (`-` or no sign).
    private static func weekdayNumbers(_ value: UnsafeBufferPointer<UInt8>) -> [WeekdayNumber]? {
        list(value) { element in
            guard element.count >= 2, let weekday = weekday(element, at: element.count - 2) else { return nil }
            guard element.count > 2 else { return WeekdayNumber(weekday) }
            let isNegative = element[0] == UInt8(ascii: "-")
            let digits = UnsafeBufferPointer(rebasing: element[(isNegative ? 1 : 0)..<(element.count - 2)])
            guard digits.count <= 2, let number = number(digits, in: 1...53) else { return nil }
            return WeekdayNumber(weekday, ordinal: isNegative ? -number : number)
        }
    }

    /// The comma-separated elements of `value`, each read by `read`; nil when one cannot be, or when
    /// there are more than the plain form takes. Room is made for them at once: appended one by one,
    /// a list of three grew twice.
    private static func list<Element>(
        _ value: UnsafeBufferPointer<UInt8>, _ read: (UnsafeBufferPointer<UInt8>) -> Element?
    ) -> [Element]? {
        var elements: [Element] = []
        elements.reserveCapacity(min(value.reduce(1) { $1 == UInt8(ascii: ",") ? $0 + 1 : $0 }, maximumListCount))
        var start = 0
        repeat {
            var end = start
            while end < value.count, value[end] != UInt8(ascii: ",") { end += 1 }
            guard elements.count < maximumListCount,
                let element = read(UnsafeBufferPointer(rebasing: value[start..<end]))
            else { return nil }
            elements.append(element)
            start = end + 1
        } while start <= value.count
        return elements
    }

    /// The weekday named by the two letters of `value` at `index` (`SU` … `SA`).
    private static func weekday(_ value: UnsafeBufferPointer<UInt8>, at index: Int) -> Weekday? {
        switch (value[index], value[index + 1]) {
        case (UInt8(ascii: "S"), UInt8(ascii: "U")): .sunday
        case (UInt8(ascii: "M"), UInt8(ascii: "O")): .monday
        case (UInt8(ascii: "T"), UInt8(ascii: "U")): .tuesday
        case (UInt8(ascii: "W"), UInt8(ascii: "E")): .wednesday
        case (UInt8(ascii: "T"), UInt8(ascii: "H")): .thursday
        case (UInt8(ascii: "F"), UInt8(ascii: "R")): .friday
        case (UInt8(ascii: "S"), UInt8(ascii: "A")): .saturday
        default: nil
        }
    }

    /// UNTIL as a DATE (`20261231`), a floating DATE-TIME or a UTC one (`20261231T235959Z`), valid.
    private static func time(_ value: UnsafeBufferPointer<UInt8>) -> CalendarTime? {
        func digits(_ start: Int, _ count: Int) -> Int? { DecimalDigits.value(of: value, from: start, count: count) }
        guard [8, 15, 16].contains(value.count), let year = digits(0, 4), let month = digits(4, 2),
            let day = digits(6, 2)
        else { return nil }
        guard value.count > 8 else {
            let date = CalendarDate(year: year, month: month, day: day)
            return date.isValid ? .date(date) : nil
        }
        guard value[8] == UInt8(ascii: "T"), let hour = digits(9, 2), let minute = digits(11, 2),
            let second = digits(13, 2)
        else { return nil }
        let local = LocalDateTime(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
        guard local.isValid else { return nil }
        guard value.count == 16 else { return .floating(local) }
        return value[15] == UInt8(ascii: "Z") ? .utc(local) : nil
    }

    /// BYDAY in the order libical leaves it: its parser sorts the list by weekday counted from the
    /// week's start when it reads BYDAY (from Monday when WKST has not come yet) and again when it
    /// reads WKST, each time by the same exchange sort (`sort_bydayrules`), which is not stable: the
    /// order of one weekday's ordinals (`2MO,1MO`) is what the two sorts leave.
    private static func inLibicalOrder(_ days: [WeekdayNumber], weekStart: Weekday) -> [WeekdayNumber] {
        guard days.count > 1 else { return days }
        let start = Libical.weekdayNumber(weekStart)
        func key(_ day: WeekdayNumber) -> Int { (Libical.weekdayNumber(day.weekday) - start + 7) % 7 }
        var days = days
        for later in days.indices {
            for earlier in 0..<later where key(days[earlier]) > key(days[later]) {
                days.swapAt(earlier, later)
            }
        }
        return days
    }
}

extension [UInt8] {
    fileprivate mutating func append(_ literal: StaticString) {
        append(contentsOf: UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount))
    }

    /// Appends `value` in decimal, a `-` first when it is negative.
    fileprivate mutating func append(number value: Int) {
        if value < 0 { append(UInt8(ascii: "-")) }
        let magnitude = value.magnitude
        var divisor: UInt = 1
        while divisor <= magnitude / 10 { divisor *= 10 }
        repeat {
            append(UInt8(ascii: "0") + UInt8(magnitude / divisor % 10))
            divisor /= 10
        } while divisor > 0
    }

    /// Appends `;NAME=` and the values of `list`, if any; false when one is not of the plain form (or
    /// there are more than it takes), for libical to write the rule.
    fileprivate mutating func append(_ list: PlainRecurrenceText.NumberList, _ values: [Int]) -> Bool {
        guard !values.isEmpty else { return true }
        let range = list.range
        guard values.count <= PlainRecurrenceText.maximumListCount,
            values.allSatisfy({ range.contains($0) || (list.isSigned && $0 < 0 && $0 >= -range.upperBound) })
        else { return false }
        append(";")
        append(list.name)
        append("=")
        for (index, value) in values.enumerated() {
            if index > 0 { append(UInt8(ascii: ",")) }
            append(number: value)
        }
        return true
    }

    /// Appends `;BYDAY=` and its days, if any; false when an ordinal is not of the plain form.
    fileprivate mutating func append(byDay days: [WeekdayNumber]) -> Bool {
        guard !days.isEmpty else { return true }
        guard days.count <= PlainRecurrenceText.maximumListCount,
            days.allSatisfy({ $0.ordinal.map { $0 != 0 && (-53...53).contains($0) } ?? true })
        else { return false }
        append(";BYDAY=")
        for (index, day) in days.enumerated() {
            if index > 0 { append(UInt8(ascii: ",")) }
            if let ordinal = day.ordinal { append(number: ordinal) }
            append(contentsOf: day.weekday.code.utf8)
        }
        return true
    }
}
