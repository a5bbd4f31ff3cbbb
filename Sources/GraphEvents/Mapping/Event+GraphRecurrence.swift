import CalendarModel

extension Event {
    /// `recurrence` → RRULE, with DTSTART in the series' zone, moved to the first real occurrence,
    /// and an endDate turned into UNTIL; `cancelledOccurrences` → EXDATE.
    mutating func decodeGraphRecurrence(
        _ object: JSONNode, at path: @autoclosure () -> String, _ decoder: inout GraphDecoder
    ) {
        defer { decodeGraphCancelledOccurrences(object, at: path(), &decoder) }
        guard let zonedStart = start, let value = decoder.object("recurrence", of: object, at: path()),
            let recurrence = decoder.patternedRecurrence(
                value, at: "\(path()).recurrence", defaultStart: zonedStart.date)
        else { return }
        moveToSeriesZone(recurrence.recurrenceTimeZone ?? graphExtra(.originalStartTimeZone), at: path(), &decoder)
        guard let start else { return }
        let first = recurrence.firstOccurrence(onOrAfter: recurrence.startDate)
        if first != start.date {
            shiftGraphTimes(byDays: first.daysSinceEpoch - start.date.daysSinceEpoch)
            decoder.report(
                .note, "graph-start-moved",
                "DTSTART moved from \(GraphDateTime.format(start.date)) to \(GraphDateTime.format(first)), the first occurrence of the pattern from range.startDate \(GraphDateTime.format(recurrence.startDate))",
                at: "\(path()).recurrence.range.startDate")
        }
        var until: CalendarTime?
        if recurrence.rangeType == .endDate, let endDate = recurrence.endDate {
            until = decoder.untilTime(
                endDate: endDate, series: self.start ?? start, zone: recurrence.recurrenceTimeZone,
                at: "\(path()).recurrence.range")
        }
        recurrenceRules = [recurrence.recurrenceRule(until: until)]
    }

    /// `OID.<series id>.<yyyy-MM-dd>` entries: the occurrence on that date at the series' time.
    /// Without a recurrence there is nothing for an EXDATE to remove (the mapper says so).
    private mutating func decodeGraphCancelledOccurrences(
        _ object: JSONNode, at path: @autoclosure () -> String, _ decoder: inout GraphDecoder
    ) {
        guard let start, !recurrenceRules.isEmpty else { return }
        for (position, value) in decoder.array("cancelledOccurrences", of: object, at: path()).enumerated() {
            if let text = value.stringValue, let date = GraphDateTime.parseDate(String(text.suffix(10))) {
                exceptionDates.append(
                    start.withLocalDateTime(
                        LocalDateTime(
                            date: date, hour: start.localDateTime.hour, minute: start.localDateTime.minute,
                            second: start.localDateTime.second)))
            } else {
                decoder.report(
                    .warning, "graph-invalid-occurrence-id",
                    "cancelled occurrence \(JSONWriter().string(value.value)) names no date; ignored",
                    at: "\(path()).cancelledOccurrences[\(position)]")
            }
        }
    }

    /// Writes a series' start and end in `zoneName`, the zone its occurrences keep their clock in
    /// (Graph's recurrenceTimeZone, else originalStartTimeZone), whatever zone they came in: a
    /// master read without `Prefer: outlook.timezone` comes in UTC, and an RRULE on a UTC DTSTART
    /// would move every occurrence by an hour across the series' clock changes.
    mutating func moveToSeriesZone(
        _ zoneName: String?, at path: @autoclosure () -> String, _ decoder: inout GraphDecoder
    ) {
        guard let zoneName, let start, !start.isDate else { return }
        if case .floating = start { return }
        let zone = TimeZoneReference(name: zoneName, ianaIdentifier: GraphZones.ianaIdentifier(forGraphName: zoneName))
        guard zone.ianaIdentifier != nil else {
            decoder.report(
                .warning, "unknown-time-zone",
                "unknown series time zone \"\(zoneName)\"; the series is written in its start's zone, and its occurrences may be an hour off after a clock change",
                at: "\(path()).recurrence.range.recurrenceTimeZone")
            return
        }
        guard start.timeZone?.ianaIdentifier != zone.ianaIdentifier, let moved = start.sameInstant(in: zone),
            moved != start
        else { return }
        if case .end(let end)? = end, let movedEnd = end.sameInstant(in: zone) { self.end = .end(movedEnd) }
        self.start = moved
        decoder.report(
            .note, "graph-series-zone",
            "the series repeats in \(zoneName); its start, given in \(start.timeZone?.name ?? "UTC"), is written in that zone",
            at: "\(path()).start")
    }

    /// Moves start and end by whole days, keeping their wall times.
    mutating func shiftGraphTimes(byDays days: Int) {
        guard let start else { return }
        self.start = start.withLocalDateTime(start.localDateTime.adding(seconds: days * 86_400))
        if case .end(let time)? = end {
            end = .end(time.withLocalDateTime(time.localDateTime.adding(seconds: days * 86_400)))
        }
    }

    /// The Graph `recurrence` of this master, or why Graph cannot hold its recurrence.
    func graphRecurrence(_ encoder: inout GraphEncoder) throws(GraphRecurrenceRefusal) -> PatternedRecurrence? {
        guard let start, isRecurring || !exceptionRules.isEmpty else { return nil }
        if recurrenceRules.count > 1 {
            throw GraphRecurrenceRefusal(
                code: "graph-multiple-rrules",
                reason: "Graph holds one recurrence pattern per series, not \(recurrenceRules.count) RRULEs")
        }
        if !exceptionRules.isEmpty {
            throw GraphRecurrenceRefusal(
                code: "graph-unsupported-exrule", reason: "Graph has no exception rules (EXRULE)")
        }
        if !recurrenceDates.isEmpty {
            throw GraphRecurrenceRefusal(
                code: "graph-unsupported-rdate", reason: "Graph has no extra dates (RDATE) in a series")
        }
        guard let rule = recurrenceRules.first else { return nil }
        var recurrence = try rule.graphRecurrence(start: start.date)
        recurrence.recurrenceTimeZone = graphRecurrenceTimeZone(&encoder)
        if case .until(let until) = rule.end { recurrence.endDate = graphEndDate(until: until) }
        if recurrence.firstOccurrence(onOrAfter: start.date) != start.date {
            // RFC 5545 §3.8.5.3 counts DTSTART as the first of COUNT's occurrences even when the rule
            // does not give it; Graph counts the pattern's only, so one fewer of them are the rule's.
            var counted = ""
            if recurrence.rangeType == .numbered && recurrence.numberOfOccurrences > 1 {
                recurrence.numberOfOccurrences -= 1
                counted = "; numberOfOccurrences is \(recurrence.numberOfOccurrences), COUNT without it"
            }
            encoder.report(
                .warning, "graph-start-not-occurrence",
                "DTSTART \(GraphDateTime.format(start.date)) does not match RRULE \(rule.rruleText); Graph will not repeat it as the first occurrence\(counted)"
            )
        }
        return recurrence
    }

    private func graphRecurrenceTimeZone(_ encoder: inout GraphEncoder) -> String {
        switch start {
        case .zoned(_, let zone)?: return encoder.windowsName(zone)
        case .date?:
            return graphExtra(.originalStartTimeZone).flatMap { GraphZones.windowsID(for: TimeZoneReference(name: $0)) }
                ?? "UTC"
        default: return "UTC"
        }
    }

    /// UNTIL as Graph's inclusive local endDate: the local date of UNTIL, or the day before when the
    /// series' time of day falls after UNTIL on that date.
    private func graphEndDate(until: CalendarTime) -> CalendarDate {
        guard let start, !start.isDate else { return until.date }
        var local = until.localDateTime
        if case .utc = until, let series = start.sameForm(atUTC: until.localDateTime), case .zoned = series {
            local = series.localDateTime
        }
        return Self.secondsIntoDay(local) < Self.secondsIntoDay(start.localDateTime)
            ? local.date.adding(days: -1) : local.date
    }

    /// `cancelledOccurrences` of a full event, from the occurrences its EXDATEs cancel
    /// (`graphCancelledStarts`): `OID.<id>.<local date>`.
    func graphCancelledOccurrences(_ cancelled: [CalendarTime], seriesID: String) -> [JSONValue] {
        cancelled.map { .string("OID.\(seriesID).\(GraphDateTime.format($0.date))") }
    }

    /// The occurrences the EXDATEs cancel, each as its start in the form of DTSTART. Every
    /// occurrence of a pattern Graph holds starts at DTSTART's wall time on its day (a time the
    /// clocks skip read as RFC 5545 §3.3.5 reads it), so an EXDATE with a time cancels the
    /// occurrence of its day when the two are the same moment (§3.8.5.1 excludes the occurrence
    /// whose start it is); at another moment it cancels nothing, and is left out with a warning
    /// (written by its day, it cancelled that day's occurrence). An EXDATE without a time cancels
    /// the day's occurrence of a timed series, as Outlook and `expand` read it; one with a time, of
    /// an all-day series, the occurrence of its own date.
    func graphCancelledStarts(_ encoder: inout GraphEncoder) -> [CalendarTime] {
        guard let start else { return exceptionDates }
        let clock = Self.secondsIntoDay(start.localDateTime)
        func occurrence(on date: CalendarDate) -> CalendarTime {
            start.withLocalDateTime(LocalDateTime(date: date).adding(seconds: clock))
        }
        return exceptionDates.compactMap { exdate in
            if exdate.isDate || start.isDate { return occurrence(on: exdate.date) }
            let instant = exdate.graphUTC()
            let day = instant.flatMap { start.sameForm(atUTC: $0) }?.date ?? exdate.date
            let candidate = occurrence(on: day)
            guard let instant, let occurs = candidate.graphUTC() else { return candidate }
            guard occurs == instant else {
                encoder.report(
                    .warning, "graph-exdate-not-an-occurrence",
                    "EXDATE \(exdate.transactionKey) is not the start of an occurrence (each starts at "
                        + "\(GraphDateTime.format(start.localDateTime, fraction: false).suffix(8))), so it cancels none "
                        + "(RFC 5545 §3.8.5.1); left out")
                return nil
            }
            return candidate
        }
    }

    private static func secondsIntoDay(_ local: LocalDateTime) -> Int {
        local.secondsSinceEpoch - local.date.daysSinceEpoch * 86_400
    }
}

extension GraphDecoder {
    /// UNTIL for an inclusive `endDate`: a date for an all-day series, else the end of that day in the
    /// recurrence zone (the series' zone when Graph names none) in UTC.
    mutating func untilTime(
        endDate: CalendarDate, series start: CalendarTime, zone: String?, at path: @autoclosure () -> String
    )
        -> CalendarTime
    {
        if start.isDate { return .date(endDate) }
        let zoneName = zone ?? start.timeZone?.name ?? "UTC"
        if let until = GraphZones.untilTime(endDate: endDate, zoneName: zoneName) { return until }
        report(
            .warning, "unknown-time-zone",
            "unknown recurrenceTimeZone \"\(zoneName)\"; UNTIL is the end of \(GraphDateTime.format(endDate)) in UTC",
            at: "\(path()).recurrenceTimeZone")
        return .utc(LocalDateTime(date: endDate, hour: 23, minute: 59, second: 59))
    }
}
