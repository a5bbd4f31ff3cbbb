import CalendarModel

/// Writes a calendar component by component as it is read, so that converting a calendar of any
/// size needs memory for one component only.
///
/// Zones the events use without a VTIMEZONE get one at the end, since they are known only then
/// (RFC 5545 allows components in any order); `ICalendarSerializer` puts them first instead.
public struct ICalendarStreamWriter: ~Copyable {
    private var writer: ContentWriter
    private var coverage = TimeZoneCoverage()
    private let encoder = EncodingContext()
    private var naming = ZoneNaming()
    /// Overrides for RDATE periods (`RecurrencePeriodSplit`), written at the end unless the input
    /// has its own override for the occurrence by then; only these few are held, so an input's
    /// override written before its master is not seen, and both are written.
    private var periodOverrides: [Event] = []
    private var splitCopies = SplitCopies()
    /// How much output is collected before it is handed to the sink: small enough to stay in the
    /// processor's cache and to need few fresh pages (each first touch of a page is a fault, some
    /// microseconds on a virtual machine), large enough that writes are few.
    public static let chunkSize = 1 << 16
    /// Whether the calendar's properties have been written; later ones can no longer be.
    public private(set) var headerWritten = false

    /// `sink` receives the output in chunks of about `chunkSize` bytes, lent for the call only: the
    /// writer's own buffer, which copying into an array cost about 1,000 instructions an event.
    /// A long value (an inline attachment) is handed over while it is written, in chunks of that size.
    public init(sink: @escaping (UnsafeRawBufferPointer) -> Void) {
        writer = ContentWriter(spill: sink)
    }

    /// A writer of the rest of a calendar that another writer began, with its properties and
    /// `zones`: what it writes follows the other's output, and the other ends the calendar once it has
    /// taken over what this one noted (`takePart()`, `adopt(_:)`).
    package init(continuing zones: [TimeZoneDefinition], sink: @escaping (UnsafeRawBufferPointer) -> Void) {
        writer = ContentWriter(spill: sink)
        headerWritten = true
        for zone in zones {
            coverage.define(zone.identifier)
            naming.defined.insert(zone.identifier)
        }
    }

    /// What a writer of part of a calendar noted that the calendar's end needs: the zones its events
    /// use, and the overrides it holds for RDATE periods.
    package struct PartNotes: Sendable {
        fileprivate var coverage: TimeZoneCoverage
        fileprivate var periodOverrides: [Event]
        fileprivate var splitCopies: SplitCopies
    }

    /// Hands everything written to the sink, without ending the calendar, and what the end needs;
    /// the writer is done.
    package consuming func takePart() -> PartNotes {
        writer.spillAll()
        return PartNotes(coverage: coverage, periodOverrides: periodOverrides, splitCopies: splitCopies)
    }

    /// Hands everything written so far to the sink.
    package mutating func flush() { writer.spillAll() }

    /// Takes over what a writer of the calendar's later part noted, for `finish(header:)`.
    package mutating func adopt(_ notes: PartNotes) {
        coverage.merge(notes.coverage)
        periodOverrides += notes.periodOverrides
        splitCopies.merge(notes.splitCopies)
    }

    /// Writes `BEGIN:VCALENDAR` and the calendar's own properties.
    public mutating func writeHeader(_ header: CalendarDocument) {
        guard !headerWritten else { return }
        headerWritten = true
        writer.writeHeader(header)
    }

    /// Writes one component; the header first if it has not been written.
    public mutating func write(_ item: ICalendarItem, header: CalendarDocument) {
        switch item {
        case .event(let event):
            write(event, header: header)
            return
        case .timeZone(let zone):
            writeHeader(header)
            coverage.define(zone.identifier)
            naming.defined.insert(zone.identifier)
            writer.write(zone.contentComponent(encoder))
        case .other(let component):
            writeHeader(header)
            writer.write(ContentComponent(component))
        }
        writer.spillIfFull()
    }

    /// Writes one event, taken rather than copied (an event is a few dozen references to retain and
    /// release); the header first if it has not been written.
    public mutating func write(_ event: consuming Event, header: CalendarDocument) {
        writeHeader(header)
        var event = event
        naming.name(&event)
        coverage.note(event)
        if let split = RecurrencePeriodSplit(event) {
            periodOverrides += split.overrides.filter { splitCopies.insert($0) }
            guard splitCopies.insert(split.master) else { return }
            event = split.master
        } else if let key = OverrideKey(event), splitCopies.holds(key) {
            periodOverrides.removeAll { OverrideKey($0) == key }
            splitCopies.remove(key)
        }
        event.write(to: &writer, encoder)
        writer.spillIfFull()
    }

    /// Writes the VTIMEZONEs still missing and `END:VCALENDAR`.
    public mutating func finish(header: CalendarDocument) {
        writeHeader(header)
        for override in periodOverrides { override.write(to: &writer, encoder) }
        for zone in coverage.missingDefinitions { writer.write(zone.contentComponent(encoder)) }
        writer.end(component: "VCALENDAR")
        writer.spillAll()
    }
}
