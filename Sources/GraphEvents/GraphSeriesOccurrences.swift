import CalendarModel

/// The occurrences a Graph series master's pattern gives, keyed so that an instance's
/// `originalStart` finds its own: Graph v1.0 has no `cancelledOccurrences`, and a cancelled
/// occurrence is simply absent from `/events/{id}/instances`, so cancellations are the pattern's
/// occurrences that no instance claims.
public struct GraphSeriesOccurrences: Sendable {
    /// The master's `id`.
    public let seriesID: String
    private let recurrence: PatternedRecurrence
    /// The master's start in the series' zone (or a date, for an all-day series): its clock and zone.
    private let start: CalendarTime
    /// The zone an all-day series' dates are days of: recurrenceTimeZone, else originalStartTimeZone.
    private let allDayZone: String?

    /// The pattern of `master` (a Graph event object with a `recurrence`); nil when it has none
    /// Graph could expand.
    public init?(master: JSONValue) {
        guard let event = GraphEventMapper().events(from: master).output.first, let start = event.start else {
            return nil
        }
        let parsed = JSONTapeDocument(master).withRoot { root -> (String, PatternedRecurrence)? in
            var decoder = GraphDecoder(location: SourceLocation())
            guard let object = root.objectValue, let id = decoder.string("id", of: object, at: "$"),
                let value = decoder.object("recurrence", of: object, at: "$")
            else { return nil }
            return decoder.patternedRecurrence(value, at: "$.recurrence", defaultStart: start.date).map { (id, $0) }
        }
        guard let (id, recurrence) = parsed else { return nil }
        self.seriesID = id
        self.recurrence = recurrence
        self.start = start
        self.allDayZone = recurrence.recurrenceTimeZone ?? event.graphExtra(.originalStartTimeZone)
    }

    /// Seconds since the epoch of a Graph or ISO 8601 date-time (without an offset: UTC, as Graph reads it).
    public static func utcSeconds(_ text: String) -> Int? {
        GraphDateTime.parseInstant(text)?.secondsSinceEpoch
    }

    /// `2017-04-15T03:00:50Z` for seconds since the epoch.
    public static func instantText(utcSeconds: Int) -> String {
        GraphDateTime.formatInstant(LocalDateTime(secondsSinceEpoch: utcSeconds))
    }

    /// The most days between two neighbouring occurrences; Graph moves no occurrence onto or past
    /// its neighbour, so an occurrence moved from the window stays within this many days of it.
    public var periodDays: Int { recurrence.periodDays }

    /// The keys of the occurrences whose start (an all-day one's midnight in the series' zone)
    /// is within `[from, to)`, in UTC seconds since the epoch.
    public func keys(fromUTCSeconds from: Int, toUTCSeconds to: Int) -> [String] {
        let last = LocalDateTime(secondsSinceEpoch: to).date.adding(days: 2)
        return recurrence.dates(through: last).compactMap { date in
            let occurrence = start.withLocalDateTime(
                LocalDateTime(
                    date: date, hour: start.localDateTime.hour, minute: start.localDateTime.minute,
                    second: start.localDateTime.second))
            guard let utc = occurrence.graphUTC(allDayZone: allDayZone) else { return nil }
            guard (from..<to).contains(utc.secondsSinceEpoch) else { return nil }
            return start.isDate ? GraphDateTime.format(date) : GraphDateTime.formatInstant(utc)
        }
    }

    /// The key of an instance's `originalStart` (UTC): the instant to the second, or for an
    /// all-day series the date whose midnight in the series' zone is nearest (Graph gives an
    /// all-day occurrence's originalStart as a midnight in UTC, the mailbox's, whatever its zone).
    public func key(originalStart text: String) -> String? {
        guard let utc = GraphDateTime.parseInstant(text) else { return nil }
        guard start.isDate else { return GraphDateTime.formatInstant(utc) }
        return start.sameForm(atUTC: utc.adding(seconds: 12 * 3_600), allDayZone: allDayZone).map {
            GraphDateTime.format($0.date)
        }
    }

    /// The beta `cancelledOccurrences` entry for the occurrence with `key`: `OID.<id>.<local date>`.
    public func cancelledOccurrenceID(key: String) -> String {
        guard !start.isDate, let utc = GraphDateTime.parseInstant(key),
            let local = start.sameForm(atUTC: utc)
        else { return "OID.\(seriesID).\(key)" }
        return "OID.\(seriesID).\(GraphDateTime.format(local.date))"
    }
}
