import CalendarModel
import TimeZones

/// The clocks an expansion reads times with: one per zone name a document uses, and the zone that
/// floating times and dates are read in (the zone the caller displays in, as calendarView does).
public struct ExpansionZones: Sendable {
    /// The clock for floating times and all-day dates.
    public let floating: ZoneClock
    /// The clock of the calendar's X-WR-TIMEZONE, when it names a zone: Google reads the calendar's
    /// floating times there (all-day dates stay on `floating`: a date has no zone).
    private let calendarZone: ZoneClock?
    private let calendarZoneName: String?
    private var calendarZoneNoted = false
    private var clocks: [String: ZoneClock]
    /// Zone names that could not be resolved; their times are read on the floating clock.
    public private(set) var diagnostics: [Diagnostic]
    /// The zone name each diagnostic is about, nil for the note about the calendar's zone (`adopt`).
    private var diagnosedZones: [String?] = []

    private let resolver: TimeZoneResolver

    /// Clocks for every zone `document` mentions, resolved with its VTIMEZONEs and X-WR-TIMEZONE.
    public init(document: CalendarDocument, floating: ZoneClock) {
        // A VTIMEZONE is matched with tzdata over the years its events start in, not the current year: a
        // definition that only describes 2024 must not be taken for a zone that merely agrees in 2026.
        let years = document.events.compactMap { $0.start?.date.year }
        self.init(
            timeZones: document.timeZones, timeZoneHint: document.timeZoneHint,
            years: years.min().map { $0...(years.max() ?? $0) }, floating: floating)
        for event in document.events { add(event) }
    }

    /// Clocks to be added event by event (`add`), for a calendar read as a stream: `years` are those its
    /// events start in (nil: none), known beforehand so that VTIMEZONEs match as when it is read whole.
    public init(timeZones: [TimeZoneDefinition], timeZoneHint: String?, years: ClosedRange<Int>?, floating: ZoneClock) {
        self.floating = floating
        clocks = [:]
        diagnostics = []
        let hinted = timeZoneHint.flatMap { TimeZoneResolver().resolve($0).ianaIdentifier }
        calendarZone = hinted.flatMap(ZoneClock.iana)
        calendarZoneName = calendarZone == nil ? nil : timeZoneHint
        resolver = TimeZoneResolver(definitions: timeZones, calendarHint: timeZoneHint, years: years ?? 2000...2000)
    }

    /// Adds clocks for the zones `event` mentions that are not known yet; unknown ones are reported.
    public mutating func add(_ event: Event) {
        if !calendarZoneNoted, let name = calendarZoneName, case .floating = event.start {
            calendarZoneNoted = true
            diagnosedZones.append(nil)
            diagnostics.append(
                Diagnostic(
                    .note, code: "floating-in-calendar-zone",
                    message: "floating times are read in the calendar's X-WR-TIMEZONE \(name), as Google reads them",
                    uid: event.uid))
        }
        // Each time is looked at where it is: gathering them into an array copied every one (with its
        // zone's names) for each event of a streamed expansion.
        add(event.start, of: event)
        add(event.recurrenceID?.time, of: event)
        if case .end(let end) = event.end { add(end, of: event) }
        for date in event.exceptionDates { add(date, of: event) }
        for date in event.recurrenceDates {
            add(date.start, of: event)
            if case .period(_, let end) = date { add(end, of: event) }
        }
    }

    /// Adds a clock for the zone of `time`, a time of `event`, when it is not known yet.
    private mutating func add(_ time: CalendarTime?, of event: Event) {
        guard case .zoned(_, let zone) = time, clocks[zone.name] == nil else { return }
        if let id = zone.ianaIdentifier, let clock = ZoneClock.iana(id) {
            clocks[zone.name] = clock
            return
        }
        let resolution = resolver.resolve(zone.name)
        if let clock = ExpansionZones.clock(for: resolution) {
            clocks[zone.name] = clock
        } else {
            clocks[zone.name] = floating
            var diagnostic = resolution.diagnostic ?? Diagnostic(.error, code: "unknown-tzid", message: "")
            diagnostic.message += "; read as floating time in the expansion's zone"
            diagnostic.uid = event.uid
            diagnostics.append(diagnostic)
            diagnosedZones.append(zone.name)
        }
    }

    /// Takes in what `later` found: the zones of the events after this one's, read at the same time
    /// from the rest of the input. Its diagnostics about zones this one had not met follow this one's,
    /// as one reading of the whole input gives them (each zone's at its first use).
    package mutating func adopt(_ later: ExpansionZones) {
        for (diagnostic, zone) in zip(later.diagnostics, later.diagnosedZones) {
            if let zone {
                guard clocks[zone] == nil else { continue }
            } else {
                guard !calendarZoneNoted else { continue }
                calendarZoneNoted = true
            }
            diagnostics.append(diagnostic)
            diagnosedZones.append(zone)
        }
        clocks.merge(later.clocks) { mine, _ in mine }
    }

    /// The clock a time is read on.
    public func clock(for time: CalendarTime) -> ZoneClock {
        switch time {
        case .date: return floating
        case .floating: return calendarZone ?? floating
        case .utc: return .utc
        case .zoned(_, let zone): return clocks[zone.name] ?? floating
        }
    }

    /// The instant a time names; a date is its midnight.
    public func instant(_ time: CalendarTime) -> Int {
        clock(for: time).instant(time.localDateTime)
    }

    /// The clock of a resolved zone name; nil when the name is unknown.
    public static func clock(for resolution: TimeZoneResolution) -> ZoneClock? {
        switch resolution {
        case .iana(let id, _): return ZoneClock.iana(id)
        case .custom(let definition): return ZoneClock(rules: ZoneRules(definition: definition, years: ZoneClock.years))
        case .unknown: return nil
        }
    }
}
