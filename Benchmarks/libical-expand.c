/* libical's own recurrence iterator over every VEVENT of a file, the way a libical-based tool
 * expands: parse, then icalrecur_iterator from DTSTART until the window's end. Prints the number
 * of occurrences. Usage: libical-expand IN.ics START END   (dates as YYYYMMDD) */
#include "libical-parse.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
    if (argc != 4) {
        fprintf(stderr, "usage: %s FILE.ics START END\n", argv[0]);
        return 2;
    }
    int status = 0;
    icalcomponent *calendar = parse_calendar(argv[1], &status);
    if (!calendar) return status;
    struct icaltimetype start = icaltime_from_string(argv[2]);
    struct icaltimetype end = icaltime_from_string(argv[3]);
    long count = 0;
    for (icalcomponent *event = icalcomponent_get_first_component(calendar, ICAL_VEVENT_COMPONENT); event;
         event = icalcomponent_get_next_component(calendar, ICAL_VEVENT_COMPONENT)) {
        struct icaltimetype dtstart = icalcomponent_get_dtstart(event);
        icalproperty *rrule = icalcomponent_get_first_property(event, ICAL_RRULE_PROPERTY);
        if (!rrule) {
            if (icaltime_compare(dtstart, start) >= 0 && icaltime_compare(dtstart, end) < 0) count++;
            continue;
        }
        icalrecur_iterator *iterator = icalrecur_iterator_new(icalproperty_get_rrule(rrule), dtstart);
        for (struct icaltimetype next = icalrecur_iterator_next(iterator); !icaltime_is_null_time(next);
             next = icalrecur_iterator_next(iterator)) {
            if (icaltime_compare(next, end) >= 0) break;
            if (icaltime_compare(next, start) >= 0) count++;
        }
        icalrecur_iterator_free(iterator);
    }
    printf("%ld\n", count);
    icalcomponent_free(calendar);
    return 0;
}
