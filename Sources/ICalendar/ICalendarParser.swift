import CalendarModel

/// Reads iCalendar text (RFC 5545) into a `CalendarDocument`, keeping every valid event and
/// reporting each problem as a `Diagnostic` with its file and line.
public struct ICalendarParser: Sendable {
    /// Line length and nesting bounds; each one reached is an error diagnostic, never a crash.
    public var limits: ICalendarLimits

    /// A parser holding its input to `limits`.
    public init(limits: ICalendarLimits = ICalendarLimits()) {
        self.limits = limits
    }

    /// A parser with default limits but for the deepest BEGIN nesting accepted.
    public init(maximumDepth: Int) {
        self.init(limits: ICalendarLimits(maximumDepth: maximumDepth))
    }

    /// The outcome of a parse: the document, what went wrong, and how many components were dropped.
    public struct Result: Sendable {
        /// The calendar as read: its properties, every valid event (series masters and overrides as
        /// separate events), its VTIMEZONEs and other components, in input order.
        public var document: CalendarDocument
        /// Everything reading found wrong or lossy, each with its code, severity, line and UID, in the
        /// order found (an unknown TZID once the whole input is read).
        public var diagnostics: [Diagnostic]
        /// Events (and other components) that could not be kept because they were invalid.
        public var droppedComponents: Int
        /// Where each of the document's events begins (file and line), in the same order.
        public var eventLocations: [SourceLocation] = []
    }

    /// Parses a whole calendar. VTIMEZONEs may come after the events that use them.
    public func parse(_ bytes: [UInt8], file: String? = nil) -> Result {
        parse(InMemoryByteSource(bytes), file: file)
    }

    /// Parses a whole calendar read from `source` a chunk at a time: the document is held whole,
    /// but not the text it was read from as well.
    public func parse(_ source: some ByteSource, file: String? = nil) -> Result {
        parse(source, file: file, reading: .whole)!
    }

    /// Parses a whole calendar, its events read as `reading` says. A listing in which two events
    /// share a UID and RECURRENCE-ID is read again whole: versions that tie are both kept when they
    /// differ (`EventVersions`), and they may differ in what a listing leaves unread.
    package func parse(_ bytes: [UInt8], file: String?, reading: EventReading) -> Result {
        parse(InMemoryByteSource(bytes), file: file, reading: reading)
            ?? parse(InMemoryByteSource(bytes), file: file, reading: .whole)!
    }

    /// The calendar read from `source`; nil for a listing with two versions of an event.
    private func parse(_ source: some ByteSource, file: String?, reading: EventReading) -> Result? {
        var reader = ICalendarReader(
            source: source, file: file, limits: limits, timeZones: [], part: nil, reading: reading)
        var events: [Event] = []
        var places: [SourceLocation] = []
        var zones: [TimeZoneDefinition] = []
        var others: [ExtraComponent] = []
        while let item = reader.next() {
            switch item {
            case .event(let event):
                events.append(event)
                places.append(SourceLocation(file: file, line: reader.componentLine))
            case .timeZone(let zone): zones.append(zone)
            case .other(let component): others.append(component)
            }
        }
        reader.resolveForwardReferences(in: &events)
        // After the zones read later are resolved: the keys `EventVersions` compares.
        if reading == .listing && EventVersions.includeTwoVersions(events) { return nil }
        // Issue #18: two versions of one event (an edited copy, a calendar concatenated with itself)
        // are one event, as calendar apps show it.
        let versions = EventVersions.merge(events, locations: places)
        var document = reader.header
        document.events = versions.events
        document.timeZones = zones
        document.otherComponents = others
        return Result(
            document: document, diagnostics: reader.takeDiagnostics() + versions.diagnostics,
            droppedComponents: reader.droppedComponents, eventLocations: versions.locations)
    }
}
