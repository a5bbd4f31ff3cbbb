import CalendarModel

extension Event {
    /// `start`, `end` and `isAllDay`: all-day events become dates (Graph's end is already exclusive).
    mutating func decodeGraphTimes(
        _ object: JSONNode, at path: @autoclosure () -> String, _ decoder: inout GraphDecoder
    ) {
        let isAllDay = decoder.bool("isAllDay", of: object, at: path()) ?? false
        start = decoder.calendarTime("start", of: object, at: path(), isAllDay: isAllDay)
        end = decoder.calendarTime("end", of: object, at: path(), isAllDay: isAllDay).map(EventEnd.end)
        if start.isNil {
            decoder.report(.error, "graph-missing-start", "the event has no usable start", at: "\(path()).start")
        }
    }

    /// The end as a time: a DURATION is added to the start, and a missing end is the start (or the
    /// next day for a date), as RFC 5545 §3.6.1 reads it.
    var graphEnd: CalendarTime? {
        guard let start else { return nil }
        switch end {
        case .end(let time): return time
        case .duration(let duration):
            let local = start.localDateTime.adding(seconds: duration.nominalDays * 86_400)
            let shifted = start.withLocalDateTime(local)
            guard duration.exactSeconds != 0 else { return shifted }
            if case .zoned(let wall, let zone) = shifted, let iana = zone.ianaIdentifier,
                let utc = GraphZones.utcSeconds(for: wall, inIANA: iana),
                let moved = GraphZones.localDateTime(atUTCSeconds: utc + duration.exactSeconds, inIANA: iana)
            {
                return .zoned(moved, zone)
            }
            return shifted.withLocalDateTime(shifted.localDateTime.adding(seconds: duration.exactSeconds))
        case nil:
            return Event.graphEnd(after: start)
        }
    }

    /// Writes `start`, `end` and `isAllDay`; false, with the error reported, for an event without a
    /// start, which Graph requires (RFC 5545 lets a VEVENT of a scheduling message leave it out).
    func encodeGraphTimes<Object: JSONMemberSink>(into object: inout Object, _ encoder: inout GraphEncoder) -> Bool {
        guard let start, var end = graphEnd else {
            encoder.report(.error, "graph-missing-start", "the event has no start, which Graph requires; left out")
            return false
        }
        if Self.endsBeforeStarting(start, end) {
            // RFC 5545 §3.8.2.2: DTEND must be later than DTSTART (for a date, a day later at least);
            // Graph refuses such an event, so it gets the end §3.6.1 gives an event without one.
            let fixed = Event.graphEnd(after: start)
            encoder.report(
                .warning, "graph-end-before-start",
                "the event ends (\(Self.described(end))) before it starts (\(Self.described(start))); written ending "
                    + (start.isDate ? "the day after it starts" : "when it starts"))
            end = fixed
        }
        object.set("isAllDay", .bool(start.isDate))
        object.setObject("start") {
            encoder.dateTimeTimeZone(start, allDayZone: graphExtra(.originalStartTimeZone), into: &$0)
        }
        object.setObject("end") {
            encoder.dateTimeTimeZone(end, allDayZone: graphExtra(.originalEndTimeZone), into: &$0)
        }
        return true
    }

    /// The end RFC 5545 §3.6.1 gives an event without one: a date start lasts its day, a time none.
    private static func graphEnd(after start: CalendarTime) -> CalendarTime {
        start.isDate ? .date(start.date.adding(days: 1)) : start
    }

    /// Whether `end` comes before `start` (for a date start, is not at least a day after it); false
    /// when a zone is unknown.
    private static func endsBeforeStarting(_ start: CalendarTime, _ end: CalendarTime) -> Bool {
        if start.isDate { return end.date <= start.date }
        // Most ends are in their start's zone and after it on the wall clock, which no clock change
        // reverses (an ambiguous wall time is read the same way for both): asked first, it spares
        // reading the zone's rules twice, 5,000 instructions an event.
        if end.timeZone == start.timeZone, !(end.localDateTime < start.localDateTime) { return false }
        guard let startUTC = start.graphUTC(), let endUTC = end.graphUTC() else { return false }
        return endUTC < startUTC
    }

    private static func described(_ time: CalendarTime) -> String {
        time.isDate ? GraphDateTime.format(time.date) : GraphDateTime.format(time.localDateTime, fraction: false)
    }
}

extension GraphDecoder {
    /// A `dateTimeTimeZone` member: an absent zone or `UTC` is UTC (what Graph sends without a
    /// Prefer header); any other name is kept as written with the IANA zone it resolves to.
    mutating func calendarTime(
        _ key: JSONKey, of object: JSONNode, at path: @autoclosure () -> String, isAllDay: Bool
    )
        -> CalendarTime?
    {
        func memberPath() -> String { "\(path()).\(key)" }
        guard let value = self.object(key, of: object, at: path()) else { return nil }
        guard let text = stringNode("dateTime", of: value, at: memberPath()) else {
            report(.warning, "graph-missing-date-time", "\(key) has no dateTime; ignored", at: memberPath())
            return nil
        }
        guard let (local, offset) = GraphDateTime.parse(text) else {
            report(
                .warning, "graph-invalid-date-time",
                "\(key).dateTime \"\(text.stringValue ?? "")\" is not a date-time; ignored",
                at: "\(memberPath()).dateTime")
            return nil
        }
        let zoneName = stringNode("timeZone", of: value, at: memberPath())
        if isAllDay {
            if local.hour != 0 || local.minute != 0 || local.second != 0 {
                report(
                    .warning, "graph-all-day-not-midnight",
                    "all-day \(key) \(text.stringValue ?? "") is not at midnight; the time is dropped",
                    at: "\(memberPath()).dateTime")
            }
            return .date(local.date)
        }
        if let offset {
            let utc = local.adding(seconds: -offset)
            guard GraphDateTime.isWritable(utc) else {
                reportUnwritable(key, text, at: "\(memberPath()).dateTime")
                return nil
            }
            return .utc(utc)
        }
        guard let zoneName, !zoneName.isString("UTC") else { return .utc(local) }
        let zone = timeZone(named: zoneName)
        if zone.ianaIdentifier == nil {
            report(
                .warning, "unknown-time-zone",
                "unknown time zone \"\(zone.name)\"; the time is kept in that zone, unresolved",
                at: "\(memberPath()).timeZone")
        }
        return .zoned(local, zone)
    }

    /// The zone a `timeZone` string names. An end nearly always names its start's zone: the last
    /// zone is kept and its name compared with the JSON bytes, since making the name and finding
    /// it among the resolved ones cost about 1,100 instructions.
    private mutating func timeZone(named node: JSONNode) -> TimeZoneReference {
        if let zone = lastZone, let bytes = node.rawStringBytes,
            zone.name.utf8.withContiguousStorageIfAvailable({
                $0.count == bytes.count && JSONNode.equalBytes($0.baseAddress, bytes.baseAddress, count: bytes.count)
            }) == true
        {
            return zone
        }
        let name = node.stringValue ?? ""
        let zone = TimeZoneReference(name: name, ianaIdentifier: GraphZones.ianaIdentifier(forGraphName: name))
        lastZone = zone
        return zone
    }
}

extension GraphEncoder {
    /// A `dateTimeTimeZone` object with a Windows zone name; dates are midnight in `allDayZone`
    /// (the Graph event's original zone, when it had one) or UTC.
    mutating func dateTimeTimeZone(_ time: CalendarTime, allDayZone: String?, into object: inout some JSONMemberSink) {
        let local: LocalDateTime
        let zone: String
        switch time {
        case .date(let date):
            local = LocalDateTime(date: date)
            zone = allDayZone.flatMap { GraphZones.windowsID(for: TimeZoneReference(name: $0)) } ?? "UTC"
        case .utc(let utc):
            (local, zone) = (utc, "UTC")
        case .floating(let floating):
            report(
                .warning, "graph-floating-time",
                "Graph has no floating time; \(GraphDateTime.format(floating, fraction: false)) is written as UTC")
            (local, zone) = (floating, "UTC")
        case .zoned(let wall, let reference):
            (local, zone) = (wall, windowsName(reference))
        }
        GraphDateTime.withFormatted(local, fraction: style == .full) { object.set("dateTime", utf8: $0) }
        object.set("timeZone", .string(zone))
    }

    /// The Windows id for a zone, or its IANA name with a warning when none is known.
    mutating func windowsName(_ zone: TimeZoneReference) -> String {
        if let windows = GraphZones.windowsID(for: zone) { return windows }
        let fallback = zone.ianaIdentifier ?? zone.name
        report(
            .warning, "graph-no-windows-zone",
            "no Windows time zone is known for \"\(zone.name)\"; \"\(fallback)\" is written, which Graph may reject")
        return fallback
    }
}
