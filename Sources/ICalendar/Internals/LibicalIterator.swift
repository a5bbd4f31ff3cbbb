import CLibical
import CalendarModel

/// libical's own recurrence expansion, wrapped only so that tests and the benchmark can show what it
/// produces; calport's output never comes from here (see docs/recurrence.md for libical's bugs).
final class LibicalRuleIterator {
    private let iterator: OpaquePointer

    /// libical's `icalrecur_iterator` over RRULE `rule` from `start`, in the builtin zone `tzid` if given.
    init?(rule: String, start: LocalDateTime, isDate: Bool = false, tzid: String? = nil) {
        var dtstart = Libical.icalTime(start, isDate: isDate)
        if let tzid {
            guard let zone = icaltimezone_get_builtin_timezone(tzid) else { return nil }
            dtstart = icaltime_set_timezone(&dtstart, zone)
        }
        let recurrence = icalrecurrencetype_from_string(rule)
        guard recurrence.freq != ICAL_NO_RECURRENCE, let iterator = icalrecur_iterator_new(recurrence, dtstart) else {
            return nil
        }
        self.iterator = iterator
    }

    /// The next wall time libical produces, nil at its end.
    func next() -> LocalDateTime? {
        let time = icalrecur_iterator_next(iterator)
        guard icaltime_is_null_time(time) == 0 else { return nil }
        return LocalDateTime(time)
    }

    deinit { icalrecur_iterator_free(iterator) }
}

/// What `icalcomponent_foreach_recurrence` reports for a calendar's first VEVENT.
enum LibicalRecurrenceSpans {
    /// The spans (UTC seconds, as libical computes them) libical lists between two UTC instants.
    static func spans(calendar text: String, from start: Int, to end: Int) -> [(start: Int, end: Int)] {
        guard let calendar = icalparser_parse_string(text) else { return [] }
        defer { icalcomponent_free(calendar) }
        guard let event = icalcomponent_get_first_component(calendar, ICAL_VEVENT_COMPONENT) else { return [] }
        final class Box { var spans: [(start: Int, end: Int)] = [] }
        let box = Box()
        let callback:
            @convention(c) (OpaquePointer?, UnsafeMutablePointer<icaltime_span>?, UnsafeMutableRawPointer?) ->
                Void = { _, span, context in
                    guard let span, let context else { return }
                    Unmanaged<Box>.fromOpaque(context).takeUnretainedValue().spans.append(
                        (Int(span.pointee.start), Int(span.pointee.end)))
                }
        icalcomponent_foreach_recurrence(
            event, icaltime_from_timet_with_zone(time_t(start), 0, icaltimezone_get_utc_timezone()),
            icaltime_from_timet_with_zone(time_t(end), 0, icaltimezone_get_utc_timezone()), callback,
            Unmanaged.passUnretained(box).toOpaque())
        return box.spans
    }
}
