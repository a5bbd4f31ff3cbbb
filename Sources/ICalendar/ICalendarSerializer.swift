import CalendarModel

/// Writes a `CalendarDocument` as iCalendar text: CRLF, folded, escaped, VTIMEZONEs before events.
public struct ICalendarSerializer: Sendable {
    /// The PRODID written when the document has none.
    public static let defaultProductID = "-//calport//calport//EN"

    /// A serializer; it holds no state.
    public init() {}

    /// One VTIMEZONE component on its own.
    public func serialize(_ zone: TimeZoneDefinition) -> [UInt8] {
        var writer = ContentWriter()
        writer.write(zone.contentComponent(EncodingContext()))
        return writer.bytes
    }

    /// A whole calendar; zones the events use without a VTIMEZONE get one built from tzdata, under
    /// their IANA id (`ZoneNaming`).
    public func serialize(_ document: CalendarDocument) -> [UInt8] {
        var writer = ContentWriter()
        write(document, to: &writer)
        return writer.bytes
    }

    /// A whole calendar as `serialize(_:)` writes it, handed to `sink` in chunks of about
    /// `ICalendarStreamWriter.chunkSize` bytes, lent for the call only: memory for the document and a
    /// chunk rather than for its text too, which matters once events carry files inline.
    public func serialize(_ document: CalendarDocument, to sink: (UnsafeRawBufferPointer) -> Void) {
        withoutActuallyEscaping(sink) { sink in
            var writer = ContentWriter(spill: sink)
            write(document, to: &writer)
            writer.spillAll()
        }
    }

    private func write(_ document: CalendarDocument, to writer: inout ContentWriter) {
        let document = ZoneNaming.naming(document)
        let encoder = EncodingContext()
        writer.writeHeader(document)
        for zone in document.timeZones + TimeZoneCoverage.missingDefinitions(for: document) {
            writer.write(zone.contentComponent(encoder))
            writer.spillIfFull()
        }
        for event in RecurrencePeriodSplit.splitting(document.events) {
            event.write(to: &writer, encoder)
            writer.spillIfFull()
        }
        for component in document.otherComponents {
            writer.write(ContentComponent(component))
            writer.spillIfFull()
        }
        writer.end(component: "VCALENDAR")
    }
}
