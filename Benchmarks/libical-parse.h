/* Shared by the benchmark's C programs: read a whole .ics with libical's own line-by-line parser,
 * the way a libical-based tool does. */
#include <libical/ical.h>
#include <stdio.h>

static char *read_line(char *buffer, size_t size, void *data) {
    return fgets(buffer, (int)size, (FILE *)data);
}

/* The calendar in `path`; NULL with *status set to 3 when the file cannot be opened (said on
 * stderr), or to 1 when libical parses nothing from it. */
static icalcomponent *parse_calendar(const char *path, int *status) {
    FILE *input = fopen(path, "rb");
    if (!input) {
        perror(path);
        *status = 3;
        return NULL;
    }
    icalparser *parser = icalparser_new();
    icalparser_set_gen_data(parser, input);
    icalcomponent *calendar = icalparser_parse(parser, read_line);
    icalparser_free(parser);
    fclose(input);
    if (!calendar) *status = 1;
    return calendar;
}
