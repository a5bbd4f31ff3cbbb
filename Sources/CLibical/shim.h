// The one C header Swift sees for libical; ICalendar/Internals is its only client.
#include <libical/ical.h>
