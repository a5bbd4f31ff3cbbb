/* Prints what libical reads in an iCalendar file, one JSON object per VEVENT, for scripts/interop.
 *
 * Times are tagged strings: "D:2026-11-30" (DATE), "F:2026-11-30T09:30:00" (floating),
 * "U:2026-11-30T08:30:00Z" (an instant: UTC, or converted with the zone libical resolved for the
 * TZID), "L:2026-11-30T09:30:00@Zone" (a TZID libical could not resolve). Occurrences come from
 * libical's own RRULE iterator; RDATE/EXDATE/RECURRENCE-ID are listed for the driver to combine.
 *
 * With --accepted it prints instead how many VEVENTs libical read without an error: without an
 * X-LIC-ERROR property (what libical adds where it dropped or could not read something) in them.
 *
 * Build: gcc -O1 -o interop-libical interop-libical.c $(pkg-config --cflags --libs libical)
 * Usage: interop-libical FILE MAX-OCCURRENCES LAST-YEAR
 *        interop-libical --accepted FILE
 */
#include <libical/ical.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void put_string(const char *text) {
    putchar('"');
    for (const unsigned char *c = (const unsigned char *)(text ? text : ""); *c; c++) {
        if (*c == '"' || *c == '\\') printf("\\%c", *c);
        else if (*c < 0x20) printf("\\u%04x", *c);
        else putchar(*c);
    }
    putchar('"');
}

/* The zone a property's TZID names: the file's VTIMEZONE first, then libical's built-in zones. */
static icaltimezone *zone_for(icalproperty *prop, icalcomponent *root) {
    icalparameter *param = icalproperty_get_first_parameter(prop, ICAL_TZID_PARAMETER);
    if (!param) return NULL;
    const char *tzid = icalparameter_get_tzid(param);
    icaltimezone *zone = icalcomponent_get_timezone(root, tzid);
    return zone ? zone : icaltimezone_get_builtin_timezone(tzid);
}

static void put_time(struct icaltimetype t, const char *tzid) {
    char text[80];
    if (icaltime_is_null_time(t)) {
        printf("null");
        return;
    }
    if (t.is_date) {
        snprintf(text, sizeof text, "D:%04d-%02d-%02d", t.year, t.month, t.day);
    } else if (icaltime_is_utc(t) || t.zone) {
        time_t instant = icaltime_as_timet_with_zone(t, t.zone);
        struct tm utc;
        gmtime_r(&instant, &utc);
        strftime(text, sizeof text, "U:%Y-%m-%dT%H:%M:%SZ", &utc);
    } else if (tzid) {
        snprintf(text, sizeof text, "L:%04d-%02d-%02dT%02d:%02d:%02d@%s", t.year, t.month, t.day, t.hour, t.minute,
                 t.second, tzid);
    } else {
        snprintf(text, sizeof text, "F:%04d-%02d-%02dT%02d:%02d:%02d", t.year, t.month, t.day, t.hour, t.minute,
                 t.second);
    }
    put_string(text);
}

static const char *tzid_of(icalproperty *prop) {
    icalparameter *param = prop ? icalproperty_get_first_parameter(prop, ICAL_TZID_PARAMETER) : NULL;
    return param ? icalparameter_get_tzid(param) : NULL;
}

/* A DATE-TIME property's value with the zone its TZID names attached. */
static struct icaltimetype zoned(struct icaltimetype t, icalproperty *prop, icalcomponent *root) {
    icaltimezone *zone = zone_for(prop, root);
    if (zone && !t.is_date && !icaltime_is_utc(t)) t = icaltime_set_timezone(&t, zone);
    return t;
}

static void put_list(const char *name, icalcomponent *event, icalproperty_kind kind, icalcomponent *root) {
    printf(",\"%s\":[", name);
    int first = 1;
    for (icalproperty *p = icalcomponent_get_first_property(event, kind); p;
         p = icalcomponent_get_next_property(event, kind)) {
        struct icaltimetype t = kind == ICAL_RDATE_PROPERTY ? icalproperty_get_rdate(p).time
                                                            : icalproperty_get_exdate(p);
        if (kind == ICAL_RDATE_PROPERTY && icaltime_is_null_time(t)) t = icalproperty_get_rdate(p).period.start;
        if (!first) putchar(',');
        first = 0;
        put_time(zoned(t, p, root), tzid_of(p));
    }
    putchar(']');
}

static void put_event(icalcomponent *event, icalcomponent *root, int max_occurrences, int last_year) {
    icalproperty *start_prop = icalcomponent_get_first_property(event, ICAL_DTSTART_PROPERTY);
    icalproperty *end_prop = icalcomponent_get_first_property(event, ICAL_DTEND_PROPERTY);
    icalproperty *duration_prop = icalcomponent_get_first_property(event, ICAL_DURATION_PROPERTY);
    icalproperty *rid_prop = icalcomponent_get_first_property(event, ICAL_RECURRENCEID_PROPERTY);
    struct icaltimetype start = icalcomponent_get_dtstart(event);
    printf("{\"uid\":");
    put_string(icalcomponent_get_uid(event));
    printf(",\"recurrenceId\":");
    if (rid_prop) put_time(zoned(icalproperty_get_recurrenceid(rid_prop), rid_prop, root), tzid_of(rid_prop));
    else printf("null");
    printf(",\"start\":");
    put_time(start, tzid_of(start_prop));
    printf(",\"end\":");
    if (end_prop || duration_prop) put_time(icalcomponent_get_dtend(event), tzid_of(end_prop ? end_prop : start_prop));
    else printf("null");
    printf(",\"summary\":");
    if (icalcomponent_get_first_property(event, ICAL_SUMMARY_PROPERTY)) put_string(icalcomponent_get_summary(event));
    else printf("null");
    printf(",\"attendees\":%d", icalcomponent_count_properties(event, ICAL_ATTENDEE_PROPERTY));
    printf(",\"rrules\":%d,\"occurrences\":[", icalcomponent_count_properties(event, ICAL_RRULE_PROPERTY));
    int count = 0;
    for (icalproperty *p = icalcomponent_get_first_property(event, ICAL_RRULE_PROPERTY); p;
         p = icalcomponent_get_next_property(event, ICAL_RRULE_PROPERTY)) {
        icalrecur_iterator *it = icalrecur_iterator_new(icalproperty_get_rrule(p), start);
        if (!it) continue;
        int produced = 0;
        for (struct icaltimetype t = icalrecur_iterator_next(it); !icaltime_is_null_time(t) && produced < max_occurrences;
             t = icalrecur_iterator_next(it), produced++) {
            if (t.year >= last_year) break;
            if (!t.is_date && !icaltime_is_utc(t)) t = icaltime_set_timezone(&t, (icaltimezone *)start.zone);
            if (count++) putchar(',');
            put_time(t, tzid_of(start_prop));
        }
        icalrecur_iterator_free(it);
    }
    putchar(']');
    put_list("rdates", event, ICAL_RDATE_PROPERTY, root);
    put_list("exdates", event, ICAL_EXDATE_PROPERTY, root);
    printf("}\n");
}

/* Whether libical reported an error anywhere in the component, its sub-components included. */
static int has_error(icalcomponent *component) {
    if (icalcomponent_get_first_property(component, ICAL_XLICERROR_PROPERTY)) return 1;
    for (icalcomponent *c = icalcomponent_get_first_component(component, ICAL_ANY_COMPONENT); c;
         c = icalcomponent_get_next_component(component, ICAL_ANY_COMPONENT)) {
        if (has_error(c)) return 1;
    }
    return 0;
}

/* VEVENTs without an error in every VCALENDAR of the file (a file may hold several). */
static int count_accepted(icalcomponent *root) {
    int count = 0;
    if (icalcomponent_isa(root) == ICAL_VEVENT_COMPONENT) return !has_error(root);
    for (icalcomponent *c = icalcomponent_get_first_component(root, ICAL_ANY_COMPONENT); c;
         c = icalcomponent_get_next_component(root, ICAL_ANY_COMPONENT)) {
        count += count_accepted(c);
    }
    return count;
}

int main(int argc, char **argv) {
    int accepted = argc == 3 && strcmp(argv[1], "--accepted") == 0;
    if (argc != 4 && !accepted) {
        fprintf(stderr, "usage: %s FILE MAX-OCCURRENCES LAST-YEAR | --accepted FILE\n", argv[0]);
        return 2;
    }
    const char *path = accepted ? argv[2] : argv[1];
    FILE *file = fopen(path, "rb");
    if (!file) {
        perror(path);
        return 1;
    }
    fseek(file, 0, SEEK_END);
    long size = ftell(file);
    rewind(file);
    char *text = calloc((size_t)size + 1, 1);
    if (fread(text, 1, (size_t)size, file) != (size_t)size) return 1;
    fclose(file);
    icalcomponent *root = icalparser_parse_string(text);
    if (!root) {
        fprintf(stderr, "%s: libical could not parse the file\n", path);
        return 1;
    }
    if (accepted) {
        printf("%d\n", count_accepted(root));
        icalcomponent_free(root);
        free(text);
        return 0;
    }
    icalcomponent *calendar = icalcomponent_isa(root) == ICAL_VCALENDAR_COMPONENT
                                  ? root
                                  : icalcomponent_get_first_component(root, ICAL_VCALENDAR_COMPONENT);
    for (icalcomponent *c = icalcomponent_get_first_component(calendar, ICAL_VEVENT_COMPONENT); c;
         c = icalcomponent_get_next_component(calendar, ICAL_VEVENT_COMPONENT)) {
        put_event(c, calendar, atoi(argv[2]), atoi(argv[3]));
    }
    icalcomponent_free(root);
    free(text);
    return 0;
}
