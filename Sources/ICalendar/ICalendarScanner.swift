import CalendarModel

/// A top-level component as `ICalendarScanner` sees it.
public struct ScannedComponent: Sendable {
    /// What a top-level component is, with what the second pass needs of it.
    public enum Kind: Sendable {
        /// A VEVENT, with the UID it is read with and the year its DTSTART names (nil when it has none,
        /// it is invalid, or the event is one the reader drops).
        case event(uid: String, startYear: Int?)
        /// A VTIMEZONE, decoded whole, so that the second pass can resolve events that come before
        /// their VTIMEZONE.
        case timeZone(TimeZoneDefinition)
        /// Any other component, or a VTIMEZONE that could not be read.
        case other
    }

    /// What the component is: an event (with its UID), a time zone, or something else.
    public var kind: Kind
    /// The byte offset of its `BEGIN` line in the input.
    public var offset: Int
}

/// A cheap first pass over a calendar: where each top-level component starts, each VEVENT's UID,
/// the VTIMEZONEs and the calendar's properties, without decoding events into the model or parsing
/// their other properties (`ComponentReader`'s skimming). A second
/// pass with `ICalendarReader` can then group series and resolve zones with flat memory.
public struct ICalendarScanner<Source: ByteSource> {
    private var components: ComponentReader
    private var context: DecodingContext
    /// The calendar's own properties read so far.
    public private(set) var header = CalendarDocument()
    /// The first and last start years of events known to decode.
    private var confirmedYears: ClosedRange<Int>?
    /// How many calendar properties were read (into `header`).
    package private(set) var calendarPropertyCount = 0

    /// Whether the input ended between the top-level components of one calendar, one
    /// BEGIN:VCALENDAR open and nothing inside it: where a scan of the rest of the calendar could
    /// begin as if it had read all before. Read once `next()` has returned nil.
    package var endedAtTopLevel: Bool { components.endedAtTopLevel }

    /// The physical lines read so far, blank ones included.
    package var physicalLinesRead: Int { components.physicalLinesRead }

    /// A scanner of `source`, naming `file` in its diagnostics (nil for standard input or bytes),
    /// within `limits`. `rereading` gives the input again from an offset of `source` on, for a
    /// source that can be read again (a file): the scan then reads past what it does not parse, and
    /// reads the few events it must decode whole (`confirmed`) again.
    public init(
        source: Source, file: String?, limits: ICalendarLimits = ICalendarLimits(),
        rereading: ((Int) -> any ByteSource)? = nil
    ) {
        components = ComponentReader(source: source, file: file, limits: limits, skimming: true, rereading: rereading)
        context = DecodingContext(file: file)
    }

    /// `year` when the event counts for the year range VTIMEZONEs are matched over: the whole-document
    /// path takes the years of the events it keeps, so an event that would widen the range is read in
    /// full and decoded to see whether the reader keeps it. Most events start within the range
    /// already and are not.
    private mutating func confirmed(_ year: Int, _ component: ContentComponent) -> Int? {
        if confirmedYears?.contains(year) == true { return year }
        guard let full = components.lastComponentIsSkimmed ? components.parsedInFull(component) : component,
            let decoded = Event(component: full, context: &context)?.start?.date.year
        else { return nil }
        confirmedYears = confirmedYears.widened(to: decoded...decoded)
        return decoded
    }

    /// An event with `uid`, and the year of its DTSTART value `start` when `confirmed` (read in full
    /// from `component`, when it must be) keeps it. Inlined: called, with its closure, it cost 250
    /// instructions an event.
    @inline(__always)
    private mutating func event(uid: String, start: String?, _ component: () -> ContentComponent)
        -> ScannedComponent.Kind
    {
        let year = start.flatMap { Libical.parseTime($0) }.flatMap { $0.local.isValid ? $0.local.date.year : nil }
        return .event(uid: uid, startYear: year.flatMap { confirmed($0, component()) })
    }

    /// The next top-level component, or nil at the end of input. Problems are left to the second pass.
    public mutating func next() -> ScannedComponent? {
        defer {
            components.clearDiagnostics()
            context.diagnostics.removeAll()
        }
        while true {
            if let event = components.nextPlainEvent() {
                // The event's own component is made only to read it in full, which few need.
                let kind = self.event(uid: event.uid.map { TextCodec.unescape($0) } ?? "", start: event.start) {
                    ContentComponent(name: "VEVENT", line: event.line)
                }
                return ScannedComponent(kind: kind, offset: components.componentOffset)
            }
            guard let item = components.next() else { return nil }
            switch item {
            case .calendarProperty(let line):
                calendarPropertyCount += 1
                context.decodeCalendarProperty(line, into: &header)
            case .component(let component):
                let offset = components.componentOffset
                switch component.name {
                case "VEVENT":
                    let start = component.properties.first { $0.name == "DTSTART" }?.value
                    let kind = event(uid: Event.uid(of: component), start: start) { component }
                    return ScannedComponent(kind: kind, offset: offset)
                case "VTIMEZONE":
                    guard let zone = TimeZoneDefinition(component: component, context: &context) else {
                        return ScannedComponent(kind: .other, offset: offset)
                    }
                    return ScannedComponent(kind: .timeZone(zone), offset: offset)
                default:
                    return ScannedComponent(kind: .other, offset: offset)
                }
            }
        }
    }
}
