// The Go peer of libical-roundtrip.c: parse an .ics with golang-ical and write it back with
// golang-ical's serialiser, nothing else. Built by Benchmarks/run in GOPATH mode against Debian's
// golang-github-arran4-golang-ical-dev. Usage: golang-ical-roundtrip IN.ics > OUT.ics
package main

import (
	"bufio"
	"fmt"
	"os"

	ics "github.com/arran4/golang-ical"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintf(os.Stderr, "usage: %s FILE.ics\n", os.Args[0])
		os.Exit(2)
	}
	input, err := os.Open(os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(3)
	}
	defer input.Close()
	calendar, err := ics.ParseCalendar(bufio.NewReaderSize(input, 64<<10))
	if err != nil {
		fmt.Fprintf(os.Stderr, "%s: golang-ical could not parse it: %v\n", os.Args[1], err)
		os.Exit(1)
	}
	output := bufio.NewWriterSize(os.Stdout, 64<<10)
	if err := calendar.SerializeTo(output); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(3)
	}
	if err := output.Flush(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(3)
	}
}
