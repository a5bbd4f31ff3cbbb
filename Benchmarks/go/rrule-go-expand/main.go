// The Go peer of `calport expand --format ndjson`: golang-ical reads the file, rrule-go expands
// each VEVENT's RRULE from its DTSTART (in its TZID's zone, from the system's zoneinfo) and every
// occurrence in [START, END) is written as one line of calport's NDJSON schema (docs/recurrence.md:
// uid, recurrenceId, start, end, isAllDay, isOverride, summary, location, status, timeZone).
// Written the way a careful Go user would: zones loaded once per TZID, each event's strings escaped
// once, times appended without allocating. It handles what Benchmarks/generate.py writes (DATE-TIME
// starts with a TZID or in UTC, one RRULE, no overrides); it is a benchmark peer, not a converter.
// Built by Benchmarks/run in GOPATH mode against Debian's golang-github-arran4-golang-ical-dev and
// golang-github-teambition-rrule-go-dev. Usage: rrule-go-expand IN.ics START END (YYYYMMDD) > OUT
package main

import (
	"bufio"
	"fmt"
	"os"
	"time"
	"unicode/utf8"

	ics "github.com/arran4/golang-ical"
	"github.com/teambition/rrule-go"
)

var zones = map[string]*time.Location{}

func zone(name string) *time.Location {
	if location, ok := zones[name]; ok {
		return location
	}
	location, err := time.LoadLocation(name)
	if err != nil {
		location = time.UTC
	}
	zones[name] = location
	return location
}

// dateTime reads a DATE-TIME property: local time in its TZID, or UTC with a Z.
func dateTime(property *ics.IANAProperty) (time.Time, string, bool) {
	if property == nil {
		return time.Time{}, "", false
	}
	value := property.Value
	if len(value) == 16 && value[15] == 'Z' {
		t, err := time.ParseInLocation("20060102T150405Z", value, time.UTC)
		return t, "UTC", err == nil
	}
	name := ""
	location := time.UTC
	if tzid, ok := property.ICalParameters["TZID"]; ok && len(tzid) == 1 {
		name = tzid[0]
		location = zone(name)
	}
	t, err := time.ParseInLocation("20060102T150405", value, location)
	return t, name, err == nil
}

// appendString appends `text` as a JSON string literal (RFC 8259 escaping).
func appendString(out []byte, text string) []byte {
	out = append(out, '"')
	for i := 0; i < len(text); {
		c := text[i]
		if c >= 0x20 && c != '"' && c != '\\' && c < utf8.RuneSelf {
			out = append(out, c)
			i++
			continue
		}
		if c >= utf8.RuneSelf {
			_, size := utf8.DecodeRuneInString(text[i:])
			out = append(out, text[i:i+size]...)
			i += size
			continue
		}
		switch c {
		case '"', '\\':
			out = append(out, '\\', c)
		case '\n':
			out = append(out, '\\', 'n')
		case '\r':
			out = append(out, '\\', 'r')
		case '\t':
			out = append(out, '\\', 't')
		default:
			out = append(out, `\u00`...)
			out = append(out, "0123456789abcdef"[c>>4], "0123456789abcdef"[c&15])
		}
		i++
	}
	return append(out, '"')
}

func text(event *ics.VEvent, property ics.ComponentProperty) string {
	if p := event.GetProperty(property); p != nil {
		return p.Value
	}
	return ""
}

func main() {
	if len(os.Args) != 4 {
		fmt.Fprintf(os.Stderr, "usage: %s FILE.ics START END\n", os.Args[0])
		os.Exit(2)
	}
	input, err := os.Open(os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(3)
	}
	calendar, err := ics.ParseCalendar(bufio.NewReaderSize(input, 64<<10))
	input.Close()
	if err != nil {
		fmt.Fprintf(os.Stderr, "%s: golang-ical could not parse it: %v\n", os.Args[1], err)
		os.Exit(1)
	}
	windowStart, err1 := time.Parse("20060102", os.Args[2])
	windowEnd, err2 := time.Parse("20060102", os.Args[3])
	if err1 != nil || err2 != nil {
		fmt.Fprintln(os.Stderr, "START and END are YYYYMMDD")
		os.Exit(2)
	}
	output := bufio.NewWriterSize(os.Stdout, 64<<10)
	line := make([]byte, 0, 1024)
	for _, event := range calendar.Events() {
		start, zoneName, ok := dateTime(event.GetProperty(ics.ComponentPropertyDtStart))
		if !ok {
			continue
		}
		end, _, ok := dateTime(event.GetProperty(ics.ComponentPropertyDtEnd))
		length := time.Duration(0)
		if ok {
			length = end.Sub(start)
		}
		// What every occurrence of this event shares, escaped once.
		head := appendString(append([]byte(nil), `{"uid":`...), event.Id())
		var tail []byte
		tail = append(tail, `,"isAllDay":false,"isOverride":false,"summary":`...)
		tail = appendString(tail, text(event, ics.ComponentPropertySummary))
		tail = append(tail, `,"location":`...)
		tail = appendString(tail, text(event, ics.ComponentPropertyLocation))
		tail = append(tail, `,"status":null,"timeZone":`...)
		tail = appendString(tail, zoneName)
		tail = append(tail, "}\n"...)

		var starts []time.Time
		recurring := event.GetProperty(ics.ComponentPropertyRrule)
		if recurring != nil {
			option, err := rrule.StrToROptionInLocation(recurring.Value, start.Location())
			if err != nil {
				continue
			}
			option.Dtstart = start
			rule, err := rrule.NewRRule(*option)
			if err != nil {
				continue
			}
			starts = rule.Between(windowStart, windowEnd, true)
		} else if !start.Before(windowStart) && start.Before(windowEnd) {
			starts = []time.Time{start}
		}
		for _, occurrence := range starts {
			if !occurrence.Before(windowEnd) {
				continue
			}
			line = append(line[:0], head...)
			line = append(line, `,"recurrenceId":`...)
			if recurring != nil {
				line = append(occurrence.AppendFormat(append(line, '"'), time.RFC3339), '"')
			} else {
				line = append(line, "null"...)
			}
			line = append(line, `,"start":"`...)
			line = append(occurrence.AppendFormat(line, time.RFC3339), '"')
			line = append(line, `,"end":"`...)
			line = append(occurrence.Add(length).AppendFormat(line, time.RFC3339), '"')
			line = append(line, tail...)
			output.Write(line)
		}
	}
	if err := output.Flush(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(3)
	}
}
