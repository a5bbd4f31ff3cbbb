#!/usr/bin/env python3
"""Lists the VEVENTs Python icalendar reads in each .ics under a directory, one tab-separated line
each: file (relative), UID, RECURRENCE-ID, DTSTART, SUMMARY; times as YYYYMMDD or YYYYMMDDTHHMMSS
(wall time, zone aside). A file icalendar refuses is listed as `file<TAB>!refused`.
Used by Tests/ICalendarTests/CorpusPeerTests.swift (issue #18)."""
import datetime
import os
import sys

import icalendar


def text(value):
    if value is None:
        return ""
    value = getattr(value, "dt", value)
    if isinstance(value, datetime.datetime):
        return value.strftime("%Y%m%dT%H%M%S")
    if isinstance(value, datetime.date):
        return value.strftime("%Y%m%d")
    return ""


def clean(value):
    return str(value or "").replace("\t", " ").replace("\r", " ").replace("\n", " ")


root = sys.argv[1]
for folder, _, names in sorted(os.walk(root)):
    for name in sorted(names):
        if not name.endswith(".ics"):
            continue
        path = os.path.join(folder, name)
        relative = os.path.relpath(path, root)
        try:
            with open(path, "rb") as handle:
                calendars = icalendar.Calendar.from_ical(handle.read(), multiple=True)
        except Exception:
            print(f"{relative}\t!refused")
            continue
        for calendar in calendars:
            for event in calendar.walk("VEVENT"):
                try:
                    fields = [clean(event.get("UID")), text(event.get("RECURRENCE-ID")),
                              text(event.get("DTSTART")), clean(event.get("SUMMARY"))]
                except Exception:
                    continue
                print("\t".join([relative] + fields))
