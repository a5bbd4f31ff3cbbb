import CalendarModel

extension RecurrenceRule {
    /// Reads RRULE value text (`FREQ=WEEKLY;BYDAY=MO`) with libical; nil when libical cannot read it.
    public init?(iCalendarText text: String) {
        guard let rule = Libical.parseRecurrence(text) else { return nil }
        self = rule
    }
}
