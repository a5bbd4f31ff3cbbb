import CalendarModel

/// What writing needs beyond the model: how zone names appear in TZID parameters.
struct EncodingContext {
    func timeLine(_ name: String, _ time: CalendarTime) -> ContentLine {
        ContentLine(name: name, parameters: timeParameters(time), value: DateTimeText.format(time))
    }

    /// The parameters a time's form needs (VALUE=DATE, TZID), on the line begun.
    func writeParameters(of time: CalendarTime, to writer: inout ContentWriter) {
        switch time {
        case .date: writer.parameter("VALUE", literal: "DATE")
        case .zoned(_, let zone): writer.parameter("TZID", zone.name)
        case .utc, .floating: break
        }
    }

    func timeParameters(_ time: CalendarTime) -> [Parameter] {
        switch time {
        case .date: return [Parameter("VALUE", "DATE")]
        case .zoned(_, let zone): return [Parameter("TZID", zone.name)]
        case .utc, .floating: return []
        }
    }

    func recurrenceLine(_ name: String, _ rule: RecurrenceRule) -> ContentLine {
        ContentLine(name: name, value: Libical.formatRecurrence(rule, untilText: rule.untilText))
    }

    func recurrenceDateLine(_ date: RecurrenceDate) -> ContentLine {
        switch date {
        case .time(let time):
            return timeLine("RDATE", time)
        case .period(let start, let end):
            return ContentLine(
                name: "RDATE", parameters: periodParameters(start),
                value: "\(DateTimeText.format(start))/\(DateTimeText.format(end))")
        case .periodWithDuration(let start, let duration):
            return ContentLine(
                name: "RDATE", parameters: periodParameters(start),
                value: "\(DateTimeText.format(start))/\(DurationText.format(duration))")
        }
    }

    /// VALUE=PERIOD and the start's TZID. A period read with dates (`19970101/19970102`, which
    /// RFC 5545 §3.3.9 does not allow) is written back as read: its VALUE=DATE beside VALUE=PERIOD
    /// made the parameter appear twice, and libical then drops the whole RDATE.
    private func periodParameters(_ start: CalendarTime) -> [Parameter] {
        guard case .zoned(_, let zone) = start else { return [Parameter("VALUE", "PERIOD")] }
        return [Parameter("VALUE", "PERIOD"), Parameter("TZID", zone.name)]
    }
}

extension RecurrenceRule {
    /// The rule as RRULE text, as libical writes it, for other formats that carry iCalendar text.
    public var iCalendarText: String {
        EncodingContext().recurrenceLine("RRULE", self).value
    }

    /// The rule as RRULE text written by libical alone, which `iCalendarText` writes in Swift when
    /// every value is of the plain form: the oracle the rrule fuzz target holds that writing to.
    package var libicalText: String {
        Libical.libicalFormat(self, untilText: untilText)
    }

    /// UNTIL as its DATE or DATE-TIME text, which the writers put after the parts libical writes.
    fileprivate var untilText: String? {
        guard case .until(let until) = end else { return nil }
        return DateTimeText.format(until)
    }
}

extension CalendarTime {
    /// The time as an iCalendar DATE or DATE-TIME value (without its TZID).
    public var iCalendarText: String {
        DateTimeText.format(self)
    }

    /// Appends `iCalendarText`'s bytes to `bytes`, for writers that would otherwise make a string
    /// of it only to copy it (`expand --format ics`, three times an occurrence).
    public func appendICalendarText(to bytes: inout [UInt8]) {
        DateTimeText.write(self, to: &bytes)
    }

    /// `appendICalendarText` of a time at `local` with the form `isDate` and `isUTC` say (a date, UTC, or
    /// floating or zoned, which write alike), without making that time.
    package static func appendICalendarText(
        of local: LocalDateTime, isDate: Bool, isUTC: Bool, to bytes: inout [UInt8]
    ) {
        DateTimeText.write(local, isDate: isDate, isUTC: isUTC, to: &bytes)
    }
}

extension EventDuration {
    /// The duration as an iCalendar DURATION value (`-PT15M`).
    public var iCalendarText: String {
        DurationText.format(self)
    }
}

extension EventDuration {
    /// Reads an iCalendar DURATION value; nil when it is not one.
    public init?(iCalendarText text: String) {
        guard let duration = Libical.parseDuration(text) else { return nil }
        self = duration
    }
}
