import CalendarModel

extension RecurrenceRule {
    /// Reads RRULE value text (`FREQ=WEEKLY;BYDAY=MO`) with libical; nil when libical cannot read it.
    public init?(iCalendarText text: String) {
        guard let rule = Libical.parseRecurrence(text) else { return nil }
        self = rule
    }

    /// Reads RRULE value text with libical alone, which `init(iCalendarText:)` reads in Swift when
    /// it is of the plain form: the oracle the rrule fuzz target holds that reading to.
    package init?(libicalText text: String) {
        guard let rule = Libical.libicalRecurrence(text) else { return nil }
        self = rule
    }
}
