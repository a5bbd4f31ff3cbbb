import CalendarModel

/// Checks a calendar against the RFC 5545 rules that reading it does not enforce: required and
/// single properties, properties in the wrong component, DTEND after DTSTART, RRULE parts that
/// contradict each other, alarm contents.
public struct ICalendarValidator: Sendable {
    /// A validator with the parser's default limits.
    public init() {}

    /// What validating a file found, and the calendar as read, for checks a caller adds.
    public struct Report: Sendable {
        /// The calendar as ``ICalendarParser`` reads it from the same bytes.
        public var document: CalendarDocument
        /// What parsing reports, then the structural checks, in line order.
        public var diagnostics: [Diagnostic]
    }

    /// Every diagnostic for the file: what parsing reports, then the structural checks, in line order.
    public func validate(_ bytes: [UInt8], file: String? = nil) -> [Diagnostic] {
        check(bytes, file: file).diagnostics
    }

    /// Reading's codes for problems a structural check reports too (with its own code), at the same line.
    static let restatedByChecks: [String: String] = [
        "dtend-and-duration": "dtend-and-duration", "duplicate-property": "repeated-property",
        "repeated-property": "repeated-property", "missing-uid": "missing-property",
        "invalid-rrule": "invalid-rrule",
    ]

    /// Reading's codes for defects it recovers from with a warning (dropping a property or a list
    /// element, or reading a value as its producer meant) that RFC 5545 makes errors: lenient reading
    /// never hides a problem from `validate`, which reports them as the errors they are.
    static let recoveredErrors: Set<String> = [
        "invalid-value", "invalid-rrule", "invalid-value-type", "date-with-utc", "empty-parameter",
        "parameter-without-value", "misplaced-component", "duplicate-version",
    ]

    /// The diagnostics of `validate` and the document the parse gave, reading the file once.
    public func check(_ bytes: [UInt8], file: String? = nil) -> Report {
        let parsed = ICalendarParser().parse(bytes, file: file)
        let checks = structuralChecks(of: InMemoryByteSource(bytes), file: file)
        return Report(document: parsed.document, diagnostics: Self.combine(read: parsed.diagnostics, checks: checks))
    }

    /// RFC 5545's structural checks of a calendar read from `source` one top-level component at a
    /// time, in flat memory: the checks `validate` adds to what reading the same bytes reports.
    public func structuralChecks(
        of source: some ByteSource, file: String? = nil, limits: ICalendarLimits = ICalendarLimits()
    ) -> [Diagnostic] {
        var reader = ComponentReader(source: source, file: file, limits: limits)
        var checks = Checks(file: file)
        var calendarLines: [ContentLine] = []
        while let item = reader.next() {
            switch item {
            case .calendarProperty(let line): calendarLines.append(line)
            case .component(let component): checks.check(component)
            }
        }
        checks.check(ContentComponent(name: "VCALENDAR", properties: calendarLines, line: 1))
        checks.checkStarts(hasMethod: calendarLines.contains { $0.name == "METHOD" })
        return checks.diagnostics
    }

    /// What reading reported and what the structural checks found, as `validate` reports them: in
    /// line order, the defects reading recovers from as errors, and each defect said once.
    public static func combine(read: [Diagnostic], checks: [Diagnostic]) -> [Diagnostic] {
        // What reading warns of and a check reports as the error it is (at the same line, or in the
        // same event: reading names DURATION's line, the check DTEND's) is said once.
        let atLine = Set(checks.map { "\($0.code) \($0.location.line ?? 0)" })
        let inEvent = Set(checks.compactMap { check in check.uid.map { "\(check.code) \($0)" } })
        let kept = read.map { diagnostic in
            var diagnostic = diagnostic
            if recoveredErrors.contains(diagnostic.code) { diagnostic.severity = .error }
            return diagnostic
        }.filter { diagnostic in
            guard let code = restatedByChecks[diagnostic.code] else { return true }
            return !atLine.contains("\(code) \(diagnostic.location.line ?? 0)")
                && !(diagnostic.uid.map { inEvent.contains("\(code) \($0)") } ?? false)
        }
        return (kept + checks).sorted { ($0.location.line ?? 0) < ($1.location.line ?? 0) }
    }
}

private struct Checks {
    var file: String?
    var diagnostics: [Diagnostic] = []
    /// VEVENTs without DTSTART, an error unless the calendar has a METHOD (known only at the end).
    var eventsWithoutStart: [(line: Int, uid: String?)] = []

    mutating func check(_ component: ContentComponent) {
        let uid = component.properties.first { $0.name == "UID" }?.value
        if let rules = ComponentRules.table[component.name] {
            checkProperties(component, rules: rules, uid: uid)
        }
        checkParameters(component, uid: uid)
        if component.name == "VEVENT" && !component.properties.contains(where: { $0.name == "DTSTART" }) {
            eventsWithoutStart.append((component.line, uid))
        }
        switch component.name {
        case "VEVENT": checkEventTiming(component, uid: uid)
        case "VALARM": checkAlarm(component, uid: uid)
        default: break
        }
        for child in component.components { check(child) }
    }

    private mutating func checkProperties(_ component: ContentComponent, rules: ComponentRules, uid: String?) {
        let names = component.properties.map(\.name)
        for required in rules.required.sorted() where !names.contains(required) {
            report(
                .error, "missing-property", "\(component.name) has no \(required), which RFC 5545 requires",
                component.line, uid)
        }
        var seen: Set<String> = []
        for line in component.properties {
            if rules.once.contains(line.name) && !seen.insert(line.name).inserted {
                report(
                    .error, "repeated-property", "\(line.name) may appear only once in \(component.name)", line.line,
                    uid)
            }
            if !rules.allowed.contains(line.name) && ComponentRules.ownedElsewhere.contains(line.name) {
                report(.error, "misplaced-property", "\(line.name) is not allowed in \(component.name)", line.line, uid)
            }
        }
    }

    /// RFC 5545 §3.6.1: DTSTART is required in a VEVENT when the calendar has no METHOD.
    mutating func checkStarts(hasMethod: Bool) {
        guard !hasMethod else { return }
        for (line, uid) in eventsWithoutStart {
            report(
                .error, "missing-property", "VEVENT has no DTSTART, which RFC 5545 requires without a METHOD", line,
                uid)
        }
    }

    /// A parameter given twice on one property (`RDATE;VALUE=PERIOD;VALUE=DATE`): RFC 5545 §3.2 gives
    /// each parameter one value list, and libical drops such a property.
    private mutating func checkParameters(_ component: ContentComponent, uid: String?) {
        for line in component.properties {
            var seen: Set<String> = []
            for parameter in line.parameters where !seen.insert(parameter.name.uppercased()).inserted {
                report(
                    .error, "repeated-parameter", "\(parameter.name) appears twice on \(line.name)", line.line, uid)
            }
        }
    }

    private mutating func checkEventTiming(_ event: ContentComponent, uid: String?) {
        let start = event.properties.first { $0.name == "DTSTART" }
        let end = event.properties.first { $0.name == "DTEND" }
        if let end, event.properties.contains(where: { $0.name == "DURATION" }) {
            report(
                .error, "dtend-and-duration", "VEVENT has both DTEND and DURATION; RFC 5545 allows one", end.line, uid)
        }
        if let start, let end, let startTime = Libical.parseTime(start.value),
            let endTime = Libical.parseTime(end.value)
        {
            if startTime.isDate != endTime.isDate {
                report(
                    .error, "value-type-mismatch",
                    "DTEND is a \(endTime.isDate ? "DATE" : "DATE-TIME") but DTSTART is not", end.line, uid)
            } else if start.parameter("TZID") == end.parameter("TZID") && startTime.isUTC == endTime.isUTC
                && endTime.local <= startTime.local
            {
                report(
                    .error, "end-before-start", "DTEND \(end.value) is not after DTSTART \(start.value)", end.line, uid)
            }
        }
        let startIsDate = start.flatMap { Libical.parseTime($0.value)?.isDate } ?? false
        for rule in event.properties where rule.name == "RRULE" || rule.name == "EXRULE" {
            // Every MUST and MUST NOT of §3.3.10 the rule breaks, as an error naming the part.
            guard let parsed = Libical.parseRecurrence(rule.value) else {
                if let part = Libical.unreadablePart(rule.value) {
                    report(
                        .error, "invalid-rrule",
                        "\(rule.name) part \(part) is not a value RFC 5545 §3.3.10's grammar allows (recur-rule-part)",
                        rule.line, uid)
                }
                continue
            }
            for finding in RecurrenceRuleCheck(parsed, startIsDate: startIsDate).findings {
                report(.error, "invalid-rrule", "\(rule.name) part \(finding.part): \(finding.reason)", rule.line, uid)
            }
        }
        for rule in event.properties where rule.name == "RRULE" {
            let parts = Set(
                rule.value.uppercased().split(separator: ";").compactMap {
                    $0.split(separator: "=").first.map(String.init)
                })
            if parts.contains("COUNT") && parts.contains("UNTIL") {
                report(
                    .error, "invalid-rrule", "RRULE has both COUNT and UNTIL; RFC 5545 §3.3.10 allows one", rule.line,
                    uid)
            }
            let untilText = rule.value.split(separator: ";").first { $0.uppercased().hasPrefix("UNTIL=") }
            if let start, let untilText, let startTime = Libical.parseTime(start.value),
                let until = Libical.parseTime(String(untilText.dropFirst(6)))
            {
                // A zoned DTSTART against a UTC UNTIL: only a gap wider than any UTC offset is certain.
                let sameForm = start.parameter("TZID") == nil && startTime.isUTC == until.isUTC
                if until.local.adding(seconds: sameForm ? 0 : 14 * 3_600) < startTime.local {
                    report(
                        .warning, "until-before-start",
                        "RRULE UNTIL \(untilText.dropFirst(6)) is before DTSTART \(start.value); only DTSTART occurs",
                        rule.line, uid)
                }
            }
            if let start, start.parameter("TZID") != nil, let untilText, !untilText.hasSuffix("Z") {
                report(
                    .warning, "until-not-utc", "UNTIL of a zoned DTSTART must be in UTC (RFC 5545 §3.3.10)", rule.line,
                    uid)
            }
        }
    }

    private mutating func checkAlarm(_ alarm: ContentComponent, uid: String?) {
        let names = Set(alarm.properties.map(\.name))
        let action = alarm.properties.first { $0.name == "ACTION" }?.value.uppercased()
        let needs: [String: [String]] = ["DISPLAY": ["DESCRIPTION"], "EMAIL": ["DESCRIPTION", "SUMMARY", "ATTENDEE"]]
        for property in needs[action ?? ""] ?? [] where !names.contains(property) {
            report(.error, "missing-property", "VALARM with ACTION:\(action ?? "") needs \(property)", alarm.line, uid)
        }
        if names.contains("REPEAT") != names.contains("DURATION") {
            report(
                .error, "repeat-without-duration", "VALARM needs both REPEAT and DURATION, or neither", alarm.line, uid)
        }
    }

    private mutating func report(_ severity: Severity, _ code: String, _ message: String, _ line: Int, _ uid: String?) {
        diagnostics.append(
            Diagnostic(
                severity, code: code, message: message, location: SourceLocation(file: file, line: line), uid: uid))
    }
}
