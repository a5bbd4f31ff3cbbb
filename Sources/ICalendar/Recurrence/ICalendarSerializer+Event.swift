import CalendarModel

extension ICalendarSerializer {
    /// One VEVENT as iCalendar text, for writers that stream a calendar event by event.
    public func serialize(event: Event) -> [UInt8] {
        var writer = ContentWriter()
        event.write(to: &writer, EncodingContext())
        return writer.bytes
    }
}
