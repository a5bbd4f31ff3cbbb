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
    public func serialize(_ document: consuming CalendarDocument) -> [UInt8] {
        ZoneNaming.name(&document)
        let encoder = EncodingContext()
        var writer = ContentWriter()
        writer.writeHeader(document)
        for zone in document.timeZones + TimeZoneCoverage.missingDefinitions(for: document) {
            writer.write(zone.contentComponent(encoder))
        }
        for event in RecurrencePeriodSplit.splitting(document.events) { event.write(to: &writer, encoder) }
        for component in document.otherComponents { writer.write(ContentComponent(component)) }
        writer.end(component: "VCALENDAR")
        return writer.bytes
    }
}
