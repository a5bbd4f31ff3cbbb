/* The ceiling for any libical-based tool: parse an .ics with libical's parser and write it back
 * with libical's serialiser, nothing else. Usage: libical-roundtrip IN.ics > OUT.ics */
#include "libical-parse.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: %s FILE.ics\n", argv[0]);
        return 2;
    }
    int status = 0;
    icalcomponent *calendar = parse_calendar(argv[1], &status);
    if (!calendar) {
        if (status == 1) fprintf(stderr, "%s: libical could not parse it\n", argv[1]);
        return status;
    }
    char *text = icalcomponent_as_ical_string_r(calendar);
    fwrite(text, 1, strlen(text), stdout);
    free(text);
    icalcomponent_free(calendar);
    return 0;
}
