import CalendarModel

/// One decoded top-level component of a calendar.
public enum ICalendarItem: Sendable {
    /// A VEVENT: a single event, a series master, or an override (one with a RECURRENCE-ID).
    case event(Event)
    /// A VTIMEZONE.
    case timeZone(TimeZoneDefinition)
    /// VTODO, VJOURNAL, VFREEBUSY, VAVAILABILITY, X-components: kept whole.
    case other(ExtraComponent)
}

/// Reads a calendar one component at a time, decoding each into the model as it arrives, so that
/// memory stays flat whatever the size of the input.
///
/// VTIMEZONEs may follow the events that use them: a TZID is reported as unknown only when the
/// whole input has been read without defining it.
public struct ICalendarReader<Source: ByteSource> {
    private var components: ComponentReader
    private var context: DecodingContext
    private var finished = false
    /// The calendar's own properties read so far (it holds no components).
    public private(set) var header = CalendarDocument()
    private var invalidComponents = 0
    /// Components that were dropped because they were invalid or unfinished.
    public var droppedComponents: Int { invalidComponents + components.droppedComponents }
    private var diagnostics: [Diagnostic] = []

    /// A reader of `source`; `timeZones`, when the calendar's VTIMEZONEs are known beforehand (from an
    /// `ICalendarScanner` pass), resolve the events that come before their VTIMEZONE as they are read.
    public init(
        source: Source, file: String?, limits: ICalendarLimits = ICalendarLimits(),
        timeZones: [TimeZoneDefinition] = []
    ) {
        self.init(source: source, file: file, limits: limits, timeZones: timeZones, part: nil)
    }

    /// A reader of `part` of an input, read from `source`: offsets and lines are the whole input's,
    /// and the zones no VTIMEZONE defines are left to `unresolvedZones` rather than reported at its end,
    /// for the reader of the whole to report them once. Its events are read as `reading` says; a
    /// listing given `rereading` (the input again from one of its offsets on) reads past the lines
    /// it leaves unparsed, their defects unreported, and reads the few events it decodes whole again.
    package init(
        source: Source, file: String?, limits: ICalendarLimits, timeZones: [TimeZoneDefinition], part: CalendarPart?,
        reading: EventReading = .whole, rereading: ((Int) -> any ByteSource)? = nil
    ) {
        components = ComponentReader(
            source: source, file: file, limits: limits, rereading: rereading, reading: reading, part: part)
        context = DecodingContext(file: file, reading: reading)
        for zone in timeZones { context.definitions[zone.identifier] = zone }
        reportsUnresolvedZones = part == nil
    }

    /// Whether the zones no VTIMEZONE defines are reported at the end of input.
    private let reportsUnresolvedZones: Bool

    /// The zones used and defined by no VTIMEZONE read or given, each with its first use.
    package var unresolvedZones: [String: Diagnostic] {
        context.unresolvedZones.filter { !context.definedZones.contains($0.key) }
    }

    /// The line of the `BEGIN` of the component `next()` returned last.
    public private(set) var componentLine = 0

    /// The byte offset in the input of the `BEGIN` line of the component `next()` returned last.
    public var componentOffset: Int { components.componentOffset }

    /// The VEVENT at the start of `source` (a calendar read from a component's offset), decoded as a
    /// reader primed with `timeZones` would; nil when it is not a valid VEVENT. Diagnostics are not
    /// kept: the reader that meets the component in its place reports them.
    public static func event(
        at source: Source, file: String?, limits: ICalendarLimits = ICalendarLimits(),
        timeZones: [TimeZoneDefinition]
    ) -> Event? {
        event(at: source, file: file, limits: limits, timeZones: timeZones, reading: .whole)
    }

    /// The VEVENT at the start of `source`, as `event(at:file:limits:timeZones:)` reads it, read as
    /// `reading` says.
    package static func event(
        at source: Source, file: String?, limits: ICalendarLimits, timeZones: [TimeZoneDefinition],
        reading: EventReading
    ) -> Event? {
        var reader = ICalendarReader(
            source: source, file: file, limits: limits, timeZones: timeZones, part: nil, reading: reading)
        while let item = reader.components.next() {
            // A component found inside it (and read as the calendar's) is handed on first.
            guard case .component(let component) = item, reader.components.componentOffset == 0 else { continue }
            guard component.name == "VEVENT" else { return nil }
            return reader.event(component)
        }
        return nil
    }

    /// The next component, or nil at the end of input.
    public mutating func next() -> ICalendarItem? {
        while let item = components.next() {
            collectReaderDiagnostics()
            switch item {
            case .calendarProperty(let line):
                context.decodeCalendarProperty(line, into: &header)
            case .component(let component):
                context.uid = nil
                componentLine = component.line
                if let decoded = decode(component) {
                    collectContextDiagnostics()
                    return decoded
                }
                invalidComponents += 1
                collectContextDiagnostics()
            }
        }
        collectReaderDiagnostics()
        if !finished && reportsUnresolvedZones {
            finished = true
            // Only now is it known which TZIDs no VTIMEZONE anywhere in the input defined.
            diagnostics += Self.inLineOrder(unresolvedZones)
        }
        return nil
    }

    /// Events read before the VTIMEZONE they use could not have it matched to an IANA zone; once the
    /// whole calendar is read, this resolves those references as if the VTIMEZONE had come first.
    mutating func resolveForwardReferences(in events: inout [Event]) {
        for index in events.indices {
            events[index].mapTimes { time in
                guard case .zoned(let local, var zone) = time, zone.ianaIdentifier == nil,
                    let definition = context.definitions[zone.name]
                else { return time }
                zone.ianaIdentifier = context.match(definition, year: local.date.year, line: nil)
                return .zoned(local, zone)
            }
        }
        collectContextDiagnostics()
    }

    /// Unresolved zones' diagnostics, by the line of their first use.
    package static func inLineOrder(_ zones: [String: Diagnostic]) -> [Diagnostic] {
        zones.values.sorted { ($0.location.line ?? 0) < ($1.location.line ?? 0) }
    }

    /// Hands over the diagnostics found since the last call.
    public mutating func takeDiagnostics() -> [Diagnostic] {
        defer { diagnostics.removeAll() }
        return diagnostics
    }

    private mutating func decode(_ component: ContentComponent) -> ICalendarItem? {
        switch component.name {
        case "VEVENT":
            return event(component).map(ICalendarItem.event)
        case "VTIMEZONE":
            guard let zone = TimeZoneDefinition(component: component, context: &context) else { return nil }
            context.definitions[zone.identifier] = zone
            return .timeZone(zone)
        default:
            return .other(ExtraComponent(component))
        }
    }

    /// The VEVENT `component` decoded. A listed one that needs a UID made up (it has none, or its
    /// RECURRENCE-ID cannot be read) is decoded from all its lines, as the UID derives from them:
    /// the same event, with the same diagnostics, as reading it whole gives.
    private mutating func event(_ component: ContentComponent) -> Event? {
        guard context.reading == .listing, components.lastComponentIsSkimmed else {
            return Event(component: component, context: &context)
        }
        if Event.uid(of: component).isEmpty { return eventReadWhole(component) }
        guard component.properties.contains(where: { $0.name == "RECURRENCE-ID" }) else {
            return Event(component: component, context: &context)
        }
        let before = context
        let listed = Event(component: component, context: &context)
        guard context.derivedUIDs.count > before.derivedUIDs.count else { return listed }
        context = before
        return eventReadWhole(component)
    }

    /// The listed VEVENT handed on last, decoded from all its lines.
    private mutating func eventReadWhole(_ listed: ContentComponent) -> Event? {
        guard let whole = components.parsedInFull(listed) else { return nil }
        context.reading = .whole
        defer { context.reading = .listing }
        return Event(component: whole, context: &context)
    }

    private mutating func collectReaderDiagnostics() {
        diagnostics.collect(components.diagnostics)
        components.clearDiagnostics()
    }

    private mutating func collectContextDiagnostics() {
        diagnostics.collect(context.diagnostics)
        context.diagnostics.removeAll()
    }
}
