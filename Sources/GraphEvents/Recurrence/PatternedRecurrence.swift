import CalendarModel

/// Graph's `patternedRecurrence`: a pattern (how often) and a range (from when, until when).
struct PatternedRecurrence: Hashable {
    enum PatternType: String, CaseIterable {
        case daily, weekly, absoluteMonthly, relativeMonthly, absoluteYearly, relativeYearly
    }

    enum RangeType: String, CaseIterable {
        case endDate, noEnd, numbered
    }

    var type: PatternType
    var interval = 1
    /// 1–12, for the yearly patterns.
    var month = 0
    /// 1–31, for the absolute patterns.
    var dayOfMonth = 0
    var daysOfWeek: [Weekday] = []
    var firstDayOfWeek: Weekday = .sunday
    /// 1–4, or -1 for `last`; for the relative patterns.
    var index = 1

    var rangeType: RangeType = .noEnd
    var startDate: CalendarDate
    /// Inclusive, a local date in `recurrenceTimeZone`.
    var endDate: CalendarDate?
    var numberOfOccurrences = 0
    var recurrenceTimeZone: String?

    static let indexNames = GraphNames<Int>(["first": 1, "second": 2, "third": 3, "fourth": 4, "last": -1])
    static let weekdayNames = GraphNames(Weekday.allCases.map { ($0.rawValue, $0) })
    static let patternTypeNames = GraphNames(PatternType.allCases.map { ($0.rawValue, $0) })
    static let rangeTypeNames = GraphNames(RangeType.allCases.map { ($0.rawValue, $0) })
}

extension GraphDecoder {
    /// A `patternedRecurrence` object, or nil with diagnostics when it cannot be used.
    mutating func patternedRecurrence(
        _ object: JSONNode, at path: @autoclosure () -> String, defaultStart: CalendarDate?
    )
        -> PatternedRecurrence?
    {
        func patternPath() -> String { "\(path()).pattern" }
        func rangePath() -> String { "\(path()).range" }
        guard let pattern = self.object("pattern", of: object, at: path()),
            let type = enumeration("type", of: pattern, at: patternPath(), PatternedRecurrence.patternTypeNames)
        else {
            report(
                .error, "graph-invalid-recurrence",
                "the recurrence has no pattern type; the series is kept as one event", at: path())
            return nil
        }
        let range = self.object("range", of: object, at: path())
        let startText = range.flatMap { string("startDate", of: $0, at: rangePath()) }
        guard let startDate = startText.flatMap(GraphDateTime.parseDate) ?? defaultStart else {
            report(
                .error, "graph-invalid-recurrence", "the recurrence range has no valid startDate",
                at: "\(rangePath()).startDate")
            return nil
        }
        var recurrence = PatternedRecurrence(type: type, startDate: startDate)
        recurrence.interval = max(1, integer("interval", of: pattern, at: patternPath()) ?? 1)
        recurrence.month = integer("month", of: pattern, at: patternPath()) ?? 0
        recurrence.dayOfMonth = integer("dayOfMonth", of: pattern, at: patternPath()) ?? 0
        recurrence.firstDayOfWeek =
            enumeration("firstDayOfWeek", of: pattern, at: patternPath(), PatternedRecurrence.weekdayNames) ?? .sunday
        recurrence.index = enumeration("index", of: pattern, at: patternPath(), PatternedRecurrence.indexNames) ?? 1
        for (position, day) in array("daysOfWeek", of: pattern, at: patternPath()).enumerated() {
            if let weekday = PatternedRecurrence.weekdayNames.entry(named: day)?.value {
                recurrence.daysOfWeek.append(weekday)
            } else {
                report(
                    .warning, "graph-unknown-value", "unknown day of week \(JSONWriter().string(day.value)); ignored",
                    at: "\(patternPath()).daysOfWeek[\(position)]")
            }
        }
        if let range {
            recurrence.rangeType =
                enumeration("type", of: range, at: rangePath(), PatternedRecurrence.rangeTypeNames) ?? .noEnd
            recurrence.endDate = string("endDate", of: range, at: rangePath()).flatMap(GraphDateTime.parseDate)
            recurrence.numberOfOccurrences = integer("numberOfOccurrences", of: range, at: rangePath()) ?? 0
            recurrence.recurrenceTimeZone = string("recurrenceTimeZone", of: range, at: rangePath())
        }
        return validated(recurrence, at: path())
    }

    /// Checks the members each pattern and range type needs.
    private mutating func validated(_ recurrence: PatternedRecurrence, at path: @autoclosure () -> String)
        -> PatternedRecurrence?
    {
        var problem: String?
        let needsDays: Set<PatternedRecurrence.PatternType> = [.weekly, .relativeMonthly, .relativeYearly]
        if needsDays.contains(recurrence.type), recurrence.daysOfWeek.isEmpty {
            problem = "a \(recurrence.type.rawValue) pattern needs daysOfWeek"
        }
        if [.absoluteMonthly, .absoluteYearly].contains(recurrence.type), !(1...31).contains(recurrence.dayOfMonth) {
            problem = "a \(recurrence.type.rawValue) pattern needs dayOfMonth 1–31, not \(recurrence.dayOfMonth)"
        }
        if problem == nil, [.absoluteYearly, .relativeYearly].contains(recurrence.type),
            !(1...12).contains(recurrence.month)
        {
            problem = "a \(recurrence.type.rawValue) pattern needs month 1–12, not \(recurrence.month)"
        }
        if problem == nil, recurrence.interval > 999 {
            problem = "an interval of \(recurrence.interval) is beyond what Graph allows (999)"
        }
        if problem == nil, recurrence.rangeType == .endDate, recurrence.endDate == nil {
            problem = "an endDate range needs a valid endDate"
        }
        if problem == nil, recurrence.rangeType == .numbered, recurrence.numberOfOccurrences < 1 {
            problem = "a numbered range needs numberOfOccurrences of at least 1"
        }
        guard let problem else { return recurrence }
        report(.error, "graph-invalid-recurrence", "\(problem); the series is kept as one event", at: path())
        return nil
    }
}

extension PatternedRecurrence {
    /// Puts the `patternedRecurrence` members: every one as the service returns it for `.full`, only
    /// the ones that matter for `.post`. Put into the event's object as it is written: made as a
    /// tree of values first, a recurring event's were 4,500 instructions more.
    func encode(style: GraphOutputStyle, into object: inout some JSONMemberSink) {
        let full = style == .full
        let yearly = type == .absoluteYearly || type == .relativeYearly
        let absolute = type == .absoluteMonthly || type == .absoluteYearly
        let relative = type == .relativeMonthly || type == .relativeYearly
        object.setObject("pattern") { pattern in
            pattern.set("type", .string(type.rawValue))
            pattern.set("interval", .number(Double(interval)))
            if full || yearly { pattern.set("month", .number(Double(yearly ? month : 0))) }
            if full || absolute { pattern.set("dayOfMonth", .number(Double(absolute ? dayOfMonth : 0))) }
            if full || !daysOfWeek.isEmpty {
                pattern.set("daysOfWeek", .array(daysOfWeek.map { .string($0.rawValue) }))
            }
            if full || type == .weekly { pattern.set("firstDayOfWeek", .string(firstDayOfWeek.rawValue)) }
            if full || relative { pattern.set("index", .string(Self.indexNames.name(of: index)!)) }
        }
        object.setObject("range") { range in
            range.set("type", .string(rangeType.rawValue))
            range.set("startDate", .string(GraphDateTime.format(startDate)))
            if let endDate, rangeType == .endDate {
                range.set("endDate", .string(GraphDateTime.format(endDate)))
            } else if full {
                range.set("endDate", .string("0001-01-01"))
            }
            if let recurrenceTimeZone { range.set("recurrenceTimeZone", .string(recurrenceTimeZone)) }
            if full || rangeType == .numbered { range.set("numberOfOccurrences", .number(Double(numberOfOccurrences))) }
        }
    }
}
