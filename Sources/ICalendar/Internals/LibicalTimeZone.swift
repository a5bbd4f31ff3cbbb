import CLibical
import CalendarModel

extension Libical {
    /// The UTC offsets libical's own time zone code computes from VTIMEZONE text, at each instant;
    /// nil when libical cannot read the text. This is how calport checks that the VTIMEZONEs it
    /// writes mean to libical-based readers (Evolution, older Thunderbird) what tzdata means.
    static func utcOffsets(vtimezone text: String, atUTCSeconds instants: [Int]) -> [Int]? {
        guard let component = icalcomponent_new_from_string(text),
            icalcomponent_isa(component) == ICAL_VTIMEZONE_COMPONENT, let zone = icaltimezone_new()
        else { return nil }
        defer { icaltimezone_free(zone, 1) }
        guard icaltimezone_set_component(zone, component) != 0 else {
            icalcomponent_free(component)
            return nil
        }
        let utc = icaltimezone_get_utc_timezone()
        return instants.map { seconds in
            var time = icaltime_from_timet_with_zone(time_t(seconds), 0, utc)
            var isDaylight: Int32 = 0
            return Int(icaltimezone_get_utc_offset_of_utc_time(zone, &time, &isDaylight))
        }
    }
}
