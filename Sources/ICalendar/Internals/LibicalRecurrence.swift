import CLibical
import CalendarModel
import Glibc

extension Libical {
    /// libical's BY-lists are fixed C arrays ended by this marker.
    private static let arrayEnd = Int16(ICAL_RECURRENCE_ARRAY_MAX.rawValue)

    /// libical's number of a weekday (`icalrecurrencetype_weekday`): Sunday 1 to Saturday 7.
    static func weekdayNumber(_ weekday: Weekday) -> Int {
        switch weekday {
        case .sunday: 1
        case .monday: 2
        case .tuesday: 3
        case .wednesday: 4
        case .thursday: 5
        case .friday: 6
        case .saturday: 7
        }
    }

    /// The weekdays by libical's number less one, from `weekdayNumber`.
    private static let weekdays = Weekday.allCases.sorted { weekdayNumber($0) < weekdayNumber($1) }

    /// Parses RRULE text as libical reads it; nil when libical cannot read it. The plain form
    /// calendars write is read in Swift (`PlainRecurrenceText`), the rest by libical.
    static func parseRecurrence(_ text: String) -> RecurrenceRule? {
        if let rule = text.utf8.withContiguousStorageIfAvailable(PlainRecurrenceText.rule) ?? nil { return rule }
        return libicalRecurrence(text)
    }

    /// libical's reading of RRULE text, for `parseRecurrence` and the tests that hold
    /// `PlainRecurrenceText` to it.
    static func libicalRecurrence(_ text: String) -> RecurrenceRule? {
        var recur = icalrecurrencetype_from_string(text)
        // libical strdup()s RSCALE into the struct and leaves freeing it to the caller.
        defer { free(recur.rscale) }
        guard recur.freq != ICAL_NO_RECURRENCE,
            let frequency = RecurrenceFrequency(rawValue: String(cString: icalrecur_freq_to_string(recur.freq)))
        else { return nil }
        var end = RecurrenceEnd.never
        if recur.count > 0 {
            end = .count(Int(recur.count))
        } else if icaltime_is_null_time(recur.until) == 0 {
            let until = recur.until
            let local = LocalDateTime(until)
            if until.is_date != 0 {
                end = .until(.date(local.date))
            } else if icaltime_is_utc(until) != 0 {
                end = .until(.utc(local))
            } else {
                end = .until(.floating(local))
            }
        }
        var rule = RecurrenceRule(frequency: frequency, interval: Int(recur.interval), end: end)
        rule.bySecond = list(&recur.by_second)
        rule.byMinute = list(&recur.by_minute)
        rule.byHour = list(&recur.by_hour)
        rule.byMonthDay = list(&recur.by_month_day)
        rule.byYearDay = list(&recur.by_year_day)
        rule.byWeekNumber = list(&recur.by_week_no)
        rule.byMonth = list(&recur.by_month)
        rule.bySetPosition = list(&recur.by_set_pos)
        rule.byDay = list(&recur.by_day).map { encoded in
            let weekday = weekdays[Int(icalrecurrencetype_day_day_of_week(Int16(encoded)).rawValue) - 1]
            let position = Int(icalrecurrencetype_day_position(Int16(encoded)))
            return WeekdayNumber(weekday, ordinal: position == 0 ? nil : position)
        }
        // libical reads an ordinal too long for its Int16 without complaint and then writes one it
        // cannot read back; RFC 5545 ordwk is 1 to 53.
        guard rule.byDay.allSatisfy({ abs($0.ordinal ?? 0) <= 53 }) else { return nil }
        // libical reads `0MO` as plain Monday; the model keeps the 0 so that RecurrenceRuleCheck can
        // report it rather than expand every Monday.
        let zeros = rule.byDay.isEmpty ? [] : explicitZeros(text)
        if zeros.count == rule.byDay.count {
            for (index, isZero) in zeros.enumerated() where isZero { rule.byDay[index].ordinal = 0 }
        }
        // libical fills in Monday when WKST is absent; the model keeps "not said" apart.
        if containsUpperCased(text, "WKST=") {
            rule.weekStart = weekdays[Int(recur.week_start.rawValue) - 1]
        }
        if let rscale = recur.rscale {
            rule.extraParts.append(RecurrenceRulePart(name: "RSCALE", value: String(cString: rscale)))
            if recur.skip != ICAL_SKIP_OMIT {
                rule.extraParts.append(
                    RecurrenceRulePart(name: "SKIP", value: String(cString: icalrecur_skip_to_string(recur.skip))))
            }
        }
        return rule
    }

    /// The first `NAME=VALUE` part of RRULE text that libical cannot read beside FREQ (`BYMONTHDAY=32`),
    /// to name in a diagnostic; nil when each part reads on its own.
    static func unreadablePart(_ text: String) -> String? {
        let parts = text.split(separator: ";").map(String.init)
        guard let frequency = parts.first(where: { $0.uppercased().hasPrefix("FREQ=") }) else { return "FREQ" }
        if parseRecurrence(frequency) == nil { return frequency }
        return parts.first { $0 != frequency && parseRecurrence("\(frequency);\($0)") == nil }
    }

    /// Writes a rule as RRULE text as libical writes it, UNTIL (`untilText`), WKST and the parts
    /// libical does not know after its text: in Swift when every value is of the plain form
    /// (`PlainRecurrenceText`), through libical otherwise.
    static func formatRecurrence(_ rule: RecurrenceRule, untilText: String?) -> String {
        PlainRecurrenceText.text(of: rule, untilText: untilText) ?? libicalFormat(rule, untilText: untilText)
    }

    /// libical's writing of a rule, for `formatRecurrence` and the tests that hold
    /// `PlainRecurrenceText` to it.
    static func libicalFormat(_ rule: RecurrenceRule, untilText: String?) -> String {
        // The struct is set up by icalrecurrencetype_clear where it lies: declaring it a Swift variable
        // zeroed its 2.6 KB first, about 2,900 instructions a rule.
        let written = withUnsafeTemporaryAllocation(of: icalrecurrencetype.self, capacity: 1) { buffer -> String? in
            guard let recur = buffer.baseAddress else { return nil }
            icalrecurrencetype_clear(recur)
            recur.pointee.freq = icalrecur_string_to_freq(rule.frequency.rawValue)
            recur.pointee.interval = Int16(clamping: rule.interval)
            if case .count(let count) = rule.end { recur.pointee.count = Int32(clamping: count) }
            fill(&recur.pointee.by_second, rule.bySecond)
            fill(&recur.pointee.by_minute, rule.byMinute)
            fill(&recur.pointee.by_hour, rule.byHour)
            fill(&recur.pointee.by_month_day, rule.byMonthDay)
            fill(&recur.pointee.by_year_day, rule.byYearDay)
            fill(&recur.pointee.by_week_no, rule.byWeekNumber)
            fill(&recur.pointee.by_month, rule.byMonth)
            fill(&recur.pointee.by_set_pos, rule.bySetPosition)
            fill(
                &recur.pointee.by_day,
                rule.byDay.map { day in
                    let weekday = weekdayNumber(day.weekday)
                    let ordinal = day.ordinal ?? 0
                    // libical's encoding: weekday + 8 × |position|, negated for negative positions. A
                    // position past 4095 is clamped to 16 bits as before, without overflowing first
                    // (a rule made in code may hold any Int).
                    return (weekday + 8 * Int(min(ordinal.magnitude, 4096))) * (ordinal < 0 ? -1 : 1)
                })
            if let weekStart = rule.weekStart {
                recur.pointee.week_start = icalrecurrencetype_weekday(
                    UInt32(weekdayNumber(weekStart)))
            }
            guard let pointer = icalrecurrencetype_as_string_r(recur) else { return nil }
            defer { icalmemory_free_buffer(pointer) }
            return String(cString: pointer)
        }
        guard var text = written else { return "" }
        // libical writes UNTIL from a zone-less struct; the caller formats it for the event's form.
        if let untilText { text += ";UNTIL=\(untilText)" }
        // libical leaves out WKST=MO (its default) and writes a WKST the rule never had; keep what was said.
        // The text is ASCII here, so its UTF-8 bytes are split: splitting the String by Characters cost
        // about 15,000 instructions a rule.
        var kept: [UInt8] = []
        text.withUTF8 { utf8 in
            for part in utf8.split(separator: UInt8(ascii: ";")) where !part.starts(with: "WKST=".utf8) {
                if !kept.isEmpty { kept.append(UInt8(ascii: ";")) }
                kept += part
            }
        }
        text = String(decoding: kept, as: UTF8.self)
        if let weekStart = rule.weekStart {
            text +=
                ";WKST="
                + String(
                    cString: icalrecur_weekday_to_string(
                        icalrecurrencetype_weekday(UInt32(weekdayNumber(weekStart)))))
        }
        for part in rule.extraParts { text += ";\(part.name)=\(part.value)" }
        return text
    }

    /// For each BYDAY element as written, whether it gives a numeric ordinal of zero (`0MO`, `+0FR`).
    /// Read as bytes, in one pass (as Characters it cost a tenth of reading a recurring event; split
    /// into parts and elements, 3,600 instructions a rule): libical refuses rule text that is not
    /// ASCII, so only ASCII reaches here, and any other is left as libical read it.
    private static func explicitZeros(_ text: String) -> [Bool] {
        var text = text
        return text.withUTF8 { bytes in
            guard !bytes.contains(where: { $0 >= 0x80 }) else { return [] }
            // The first part named BYDAY; parts and elements are split as `split` does, empty ones left out.
            var partStart = 0
            while partStart < bytes.count {
                let partEnd = bytes[partStart...].firstIndex(of: UInt8(ascii: ";")) ?? bytes.count
                if startsUpperCased(UnsafeBufferPointer(rebasing: bytes[partStart..<partEnd]), with: "BYDAY=") {
                    return zeroOrdinals(UnsafeBufferPointer(rebasing: bytes[(partStart + 6)..<partEnd]))
                }
                partStart = partEnd + 1
            }
            return []
        }
    }

    /// For each non-empty comma-separated element of a BYDAY value, whether the digits after its sign
    /// (and any spaces) are there and all zeros.
    private static func zeroOrdinals(_ value: UnsafeBufferPointer<UInt8>) -> [Bool] {
        var zeros: [Bool] = []
        var index = 0
        while index < value.count {
            let end = value[index...].firstIndex(of: UInt8(ascii: ",")) ?? value.count
            if end > index {
                var digit = index
                while digit < end, isSignOrSpace(value[digit]) { digit += 1 }
                var digits = 0
                var allZero = true
                while digit < end, value[digit] >= UInt8(ascii: "0"), value[digit] <= UInt8(ascii: "9") {
                    allZero = allZero && value[digit] == UInt8(ascii: "0")
                    digits += 1
                    digit += 1
                }
                zeros.append(digits > 0 && allZero)
            }
            index = end + 1
        }
        return zeros
    }

    private static func isSignOrSpace(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: " ")
    }

    /// Whether ASCII `text`, upper-cased, contains `part` (upper-case ASCII): as a `String` search it
    /// went through Foundation, a seventieth of reading an event. Rule text libical read is ASCII.
    /// Read in place: copied into an array first, it was 1,000 instructions a rule.
    private static func containsUpperCased(_ text: String, _ part: StaticString) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            guard bytes.count >= part.utf8CodeUnitCount else { return false }
            return (0...(bytes.count - part.utf8CodeUnitCount)).contains { start in
                startsUpperCased(UnsafeBufferPointer(rebasing: bytes[start...]), with: part)
            }
        }
    }

    /// Whether `bytes`, upper-cased, start with `prefix` (upper-case ASCII).
    private static func startsUpperCased(_ bytes: UnsafeBufferPointer<UInt8>, with prefix: StaticString) -> Bool {
        let wanted = UnsafeBufferPointer(start: prefix.utf8Start, count: prefix.utf8CodeUnitCount)
        return bytes.count >= wanted.count && wanted.indices.allSatisfy { upper(bytes[$0]) == wanted[$0] }
    }

    /// An ASCII byte upper-cased as `uppercased()` does it: the letters alone.
    private static func upper(_ byte: UInt8) -> UInt8 { byte >= 0x61 && byte <= 0x7A ? byte - 0x20 : byte }

    private static func list<T>(_ array: inout T) -> [Int] {
        withUnsafeBytes(of: &array) { raw in
            var values: [Int] = []
            for value in raw.bindMemory(to: Int16.self) {
                if value == arrayEnd { break }
                values.append(Int(value))
            }
            return values
        }
    }

    /// Sets a cleared BY list: `icalrecurrencetype_clear` has ended every list already, so only the
    /// values and the end after them are written, not all 1,300 slots of the nine lists.
    private static func fill<T>(_ array: inout T, _ values: [Int]) {
        withUnsafeMutableBytes(of: &array) { raw in
            let slots = raw.bindMemory(to: Int16.self)
            for index in 0..<min(values.count, slots.count) { slots[index] = Int16(clamping: values[index]) }
            if values.count < slots.count { slots[values.count] = arrayEnd }
        }
    }
}
