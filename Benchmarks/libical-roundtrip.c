/* The ceiling for any libical-based tool: parse an .ics with libical's parser and write it back
 * with libical's serialiser, nothing else. Usage: libical-roundtrip IN.ics > OUT.ics */
#include <libical/ical.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *read_line(char *buffer, size_t size, void *data) {
    return fgets(buffer, (int)size, (FILE *)data);
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: %s FILE.ics\n", argv[0]);
        return 2;
    }
    FILE *input = fopen(argv[1], "rb");
    if (!input) {
        perror(argv[1]);
        return 3;
    }
    icalparser *parser = icalparser_new();
    icalparser_set_gen_data(parser, input);
    icalcomponent *calendar = icalparser_parse(parser, read_line);
    icalparser_free(parser);
    fclose(input);
    if (!calendar) {
        fprintf(stderr, "%s: libical could not parse it\n", argv[1]);
        return 1;
    }
    char *text = icalcomponent_as_ical_string_r(calendar);
    fwrite(text, 1, strlen(text), stdout);
    free(text);
    icalcomponent_free(calendar);
    return 0;
}
