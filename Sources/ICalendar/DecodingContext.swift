import CalendarModel
import Digests
import TimeZones

/// What decoding one component needs: where it came from, where problems go, and how TZIDs resolve.
struct DecodingContext {
    var file: String?
    var diagnostics: [Diagnostic] = []
    /// The document's VTIMEZONEs read so far, by TZID.
    var definitions: [String: TimeZoneDefinition] = [:]
    /// What each VTIMEZONE without a known name matched in tzdata (nil: its own rules are used).
    var matchedDefinitions: [String: String?] = [:]

    /// TZIDs that have a VTIMEZONE in the document.
    var definedZones: Set<String> { Set(definitions.keys) }
    /// The UID of the component being decoded, for diagnostics.
    var uid: String?
    /// TZIDs used but not defined (yet), with the first place each was used; reported at the end of
    /// input, since a VTIMEZONE may come after the events that use it.
    var unresolvedZones: [String: Diagnostic] = [:]
    /// Name resolutions already made: a calendar uses few zones, many times.
    var resolvedNames: [String: TimeZoneReference] = [:]

    /// UIDs given so far to events without one, so that two events alike in every line get two.
    var derivedUIDs: Set<String> = []
    /// How much of each VEVENT is decoded.
    var reading: EventReading

    init(file: String?, reading: EventReading = .whole) {
        self.file = file
        self.reading = reading
    }

    /// A stable UID for a component without one, from its lines as calport writes them: the same
    /// file gives the same UIDs from run to run; the second of two identical events gets `-2`.
    mutating func derivedUID(for component: ContentComponent) -> String {
        var writer = ContentWriter()
        writer.write(component)
        let base = DerivedIdentifier.uid(content: String(decoding: writer.bytes, as: UTF8.self))
        var uid = base
        var count = 1
        while !derivedUIDs.insert(uid).inserted {
            count += 1
            uid = "\(base)-\(count)"
        }
        return uid
    }

    mutating func report(_ severity: Severity, _ code: String, _ message: String, line: Int?) {
        diagnostics.append(
            Diagnostic(
                severity, code: code, message: message, location: SourceLocation(file: file, line: line), uid: uid))
    }

    /// A DATE or DATE-TIME value with its VALUE and TZID parameters; nil when invalid, with an error,
    /// or, when `recovery` says what reading does instead, a warning saying it.
    mutating func time(_ line: ContentLine, recovery: String? = nil) -> CalendarTime? {
        time(text: line.value, line: line, valueType: line.parameter("VALUE"), recovery: recovery)
    }

    mutating func time(text: String, line: ContentLine, valueType: String?, recovery: String? = nil) -> CalendarTime? {
        // Google's birthday calendar writes DATEs with a UTC designator (`RDATE:20131210Z`); RFC 5545
        // §3.3.4 has no such form, and the date it names is the one meant.
        if text.utf8.count == 9, text.hasSuffix("Z"), let parsed = Libical.parseTime(String(text.dropLast())),
            parsed.isDate, parsed.local.isValid
        {
            report(
                .warning, "date-with-utc",
                "\(line.name) '\(text)' is a DATE with a 'Z' (RFC 5545 §3.3.4 has none); read as the date",
                line: line.line)
            return .date(parsed.local.date)
        }
        guard let parsed = Libical.parseTime(text), parsed.local.isValid else {
            let problem = "\(line.name) '\(text)' is not a valid DATE or DATE-TIME"
            report(
                recovery == nil ? .error : .warning, "invalid-value", problem + (recovery.map { "; \($0)" } ?? ""),
                line: line.line)
            return nil
        }
        if let valueType, !valueType.isEmpty, valueType.caseInsensitiveEquals("DATE") != parsed.isDate {
            report(
                .warning, "value-type-mismatch",
                "\(line.name) says VALUE=\(valueType) but holds '\(text)'; read as written", line: line.line)
        }
        if parsed.isDate {
            if valueType?.isEmpty ?? true, let tzid = line.parameter("TZID") {
                // Holiday feeds write `DTSTART;TZID=Europe/Berlin:20261225`: a DATE needs VALUE=DATE
                // (RFC 5545 §3.3.4), and a date has no zone; the all-day event meant is read.
                report(
                    .note, "date-with-tzid",
                    "\(line.name) '\(text)' is a DATE with TZID=\(tzid) and no VALUE=DATE; read as an all-day date",
                    line: line.line)
            }
            return .date(parsed.local.date)
        }
        if parsed.isUTC { return .utc(parsed.local) }
        guard let tzid = line.parameter("TZID") else { return .floating(parsed.local) }
        return .zoned(parsed.local, zone(named: tzid, line: line, year: parsed.local.date.year))
    }

    /// A TZID resolved by name (IANA, Windows, Outlook display name, vendor-prefixed); names that
    /// neither resolve nor have a VTIMEZONE are kept as written and reported at the end of input.
    mutating func zone(named tzid: String, line: ContentLine, year: Int) -> TimeZoneReference {
        var zone = TimeZoneReference(resolvingName: tzid, cache: &resolvedNames)
        if zone.ianaIdentifier == nil, let definition = definitions[zone.name] {
            zone.ianaIdentifier = match(definition, year: year, line: line.line)
        }
        if zone.ianaIdentifier == nil && !definedZones.contains(zone.name) && unresolvedZones[zone.name] == nil {
            unresolvedZones[zone.name] = Diagnostic(
                .warning, code: "unknown-tzid",
                message:
                    "TZID '\(tzid)' of \(line.name) has no VTIMEZONE and no known IANA or Windows name; times kept in that zone, unresolved",
                location: SourceLocation(file: file, line: line.line), uid: uid)
        }
        return zone
    }

    /// The IANA zone an unnamed VTIMEZONE (Outlook's "Customized Time Zone") agrees with over the
    /// years around its first use, matched once; when none does, its own rules apply and a warning says so.
    mutating func match(_ definition: TimeZoneDefinition, year: Int, line: Int?) -> String? {
        if let known = matchedDefinitions[definition.identifier] { return known }
        let match = VTimeZoneMatcher.ianaIdentifier(matching: definition, years: (year - 1)...(year + 1))
        matchedDefinitions[definition.identifier] = match
        if match == nil {
            report(
                .warning, "custom-time-zone",
                "VTIMEZONE '\(definition.identifier)' matches no IANA zone around \(year); its own rules are used",
                line: line)
        }
        return match
    }

    /// A DURATION value; nil (and an error) when invalid. One longer than the years iCalendar can
    /// write (RFC 5545 §3.3.4: 0000 to 9999) is checked before libical reads it, whose 32-bit fields
    /// wrap it silently (`P999999999999999999W` read as `P1410065407W`): from `start` (an event's
    /// DTSTART) it is clamped, with a warning, to end on 9999-12-31; without one it is refused.
    mutating func duration(
        _ line: ContentLine, from start: CalendarTime? = nil, recovery: String? = nil
    ) -> EventDuration? {
        if DurationText.isLonger(line.value, thanSeconds: DurationText.longestWritable) {
            guard let start, !line.value.hasPrefix("-") else {
                report(
                    .error, "duration-out-of-range",
                    "\(line.name) '\(line.value)' is longer than the 10,000 years iCalendar dates span", line: line.line
                )
                return nil
            }
            let clamped = EventDuration(
                nominalDays: DurationText.lastWritableDate.daysSinceEpoch - start.date.daysSinceEpoch)
            report(
                .warning, "duration-out-of-range",
                "\(line.name) '\(line.value)' ends after 9999-12-31, the last date iCalendar can write; clamped to \(DurationText.format(clamped))",
                line: line.line)
            return clamped
        }
        guard let duration = Libical.parseDuration(line.value) else {
            let problem = "\(line.name) '\(line.value)' is not a valid DURATION"
            report(
                recovery == nil ? .error : .warning, "invalid-value", problem + (recovery.map { "; \($0)" } ?? ""),
                line: line.line)
            return nil
        }
        return duration
    }

    /// An INTEGER, optionally range-checked; libical would read "high" as 0, so the text is checked here.
    mutating func integer(_ line: ContentLine, in range: ClosedRange<Int>? = nil) -> Int? {
        guard let value = Int(line.value.trimmingSpaces), range?.contains(value) ?? true else {
            let expected = range.map { " from \($0.lowerBound) to \($0.upperBound)" } ?? ""
            report(
                .warning, "invalid-value",
                "\(line.name) '\(line.value)' is not an integer\(expected); the property was dropped", line: line.line)
            return nil
        }
        return value
    }

    /// A recurrence rule; nil, with a warning, when it cannot be read: the event is then read without
    /// it. A rule read in part would give occurrences its writer never meant (dropping a BYDAY widens
    /// a weekly rule to every day), while DTSTART is always an occurrence (RFC 5545 §3.8.5.3).
    mutating func recurrence(_ line: ContentLine, start: CalendarTime?) -> RecurrenceRule? {
        guard var rule = Libical.parseRecurrence(line.value) else {
            let what = line.value.trimmingSpaces.isEmpty ? "is empty" : "'\(line.value)' is not a valid recurrence rule"
            report(.warning, "invalid-rrule", "\(line.name) \(what); the rule was dropped", line: line.line)
            return nil
        }
        // libical reads UNTIL without the event's zone; an UNTIL in local time follows DTSTART's form.
        if case .until(.floating(let local)) = rule.end, let start, case .zoned(_, let zone) = start {
            rule.end = .until(.zoned(local, zone))
            // RFC 5545 §3.3.10: with a zoned DTSTART, UNTIL MUST be UTC.
            report(
                .note, "floating-beside-zoned",
                "\(line.name) has a floating UNTIL beside DTSTART in \(zone.name); read in that zone", line: line.line)
        }
        return rule
    }
}

extension DecodingContext {
    /// The rule as expansion reads it (RecurrenceRuleCheck): each broken MUST or MUST NOT of RFC 5545
    /// §3.3.10 reported as `invalid-rrule` naming the part; nil, with a warning, when nothing of the
    /// rule is left to mean and DTSTART is its only instance. The model holds what is expanded, so
    /// convert writes a rule that means what expand lists.
    mutating func checked(_ rule: RecurrenceRule, line: ContentLine, start: CalendarTime?) -> RecurrenceRule? {
        let check = RecurrenceRuleCheck(rule, startIsDate: start?.isDate ?? false)
        for finding in check.findings {
            report(
                finding.ignoredAsTheRFCSays ? .note : .warning, "invalid-rrule",
                "\(line.name) part \(finding.part): \(finding.reason)", line: line.line)
        }
        if check.usableRule == nil {
            report(
                .warning, "invalid-rrule",
                "\(line.name) '\(line.value)' has no meaning left and is left out; the event is kept, DTSTART its first instance",
                line: line.line)
        }
        return check.usableRule
    }
}

extension String {
    var trimmingSpaces: Substring {
        var slice = self[...]
        while slice.first == " " { slice = slice.dropFirst() }
        while slice.last == " " { slice = slice.dropLast() }
        return slice
    }
}

extension DecodingContext {
    /// An RDATE line: DATE-TIMEs, DATEs or PERIODs (`VALUE=PERIOD`), comma-separated. An element
    /// that cannot be read is dropped with a warning and the rest of the list kept.
    mutating func recurrenceDates(_ line: ContentLine) -> [RecurrenceDate] {
        var dates: [RecurrenceDate] = []
        guard let valueType = listValueType(line) else { return [] }
        let isPeriod = valueType.caseInsensitiveEquals("PERIOD")
        for part in line.value.split(separator: ",") {
            let text = String(part)
            guard isPeriod else {
                if let time = time(text: text, line: line, valueType: valueType, recovery: "that date was dropped") {
                    dates.append(.time(time))
                }
                continue
            }
            let halves = text.split(separator: "/", omittingEmptySubsequences: false)
            guard let period = Libical.parsePeriod(text), period.start.local.isValid else {
                report(
                    .warning, "invalid-value", "RDATE '\(text)' is not a valid PERIOD; it was dropped", line: line.line)
                continue
            }
            guard
                let start = time(
                    text: String(halves[0]), line: line, valueType: nil, recovery: "that period was dropped")
            else { continue }
            if let duration = period.duration {
                dates.append(.periodWithDuration(start: start, duration: duration))
            } else if let end = time(
                text: String(halves[1]), line: line, valueType: nil, recovery: "that period was dropped")
            {
                dates.append(.period(start: start, end: end))
            }
        }
        return dates
    }

    /// An EXDATE line's DATE-TIMEs or DATEs, each bad element dropped with a warning.
    mutating func exceptionDates(_ line: ContentLine) -> [CalendarTime] {
        guard let valueType = listValueType(line) else { return [] }
        return line.value.split(separator: ",").compactMap { text in
            time(text: String(text), line: line, valueType: valueType, recovery: "that date was dropped")
        }
    }

    /// The VALUE of an RDATE or EXDATE, the empty string when there is none; nil, with a warning,
    /// for a TIME (`RDATE;VALUE=TIME:083000`, as icalendar's tests write it): RFC 5545 §3.8.5 allows
    /// DATE-TIME, DATE and PERIOD only, and a time of day names no occurrence, so the line is dropped.
    private mutating func listValueType(_ line: ContentLine) -> String? {
        let valueType = line.parameter("VALUE") ?? ""
        if valueType.caseInsensitiveEquals("TIME") {
            report(
                .warning, "invalid-value-type",
                "\(line.name) has VALUE=TIME, which RFC 5545 §3.8.5 does not allow and which names no date; the property was dropped",
                line: line.line)
            return nil
        }
        return valueType
    }
}

extension TimeZoneReference {
    /// Resolves a TZID by name alone. A vendor prefix (`/freeassociation.sourceforge.net/…`) is the
    /// writing program's, not the zone's, so it is dropped from the name and never written again.
    init(resolvingName tzid: String, cache: inout [String: TimeZoneReference]) {
        if let cached = cache[tzid] {
            self = cached
            return
        }
        switch TimeZoneResolver().resolve(tzid) {
        case .iana(let identifier, via: .vendorPrefix): self.init(name: identifier, ianaIdentifier: identifier)
        case .iana(let identifier, _): self.init(name: tzid, ianaIdentifier: identifier)
        default: self.init(name: tzid)
        }
        cache[tzid] = self
    }
}
