#!/usr/bin/env python3
"""Differential test of `calport expand` against the PyPI package recurring-ical-events.

Creates a virtual environment (.build/differential-venv) with recurring-ical-events on first run, expands
every .ics under ../shared/corpus (relative to the package root) over the same windows with both tools,
and prints the agreement rate and each disagreement. Occurrences are compared as (UID, start, end) with
times in UTC, dates as dates, and floating times read as UTC (calport's default --tz).

Usage: scripts/differential-expand.py [--calport PATH] [--corpus DIR] [--show N]
"""
import argparse
import json
import os
import subprocess
import sys
import venv
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
VENV = ROOT / ".build" / "differential-venv"
WINDOWS = [
    ("1996-01-01", "2001-01-01"),
    ("2005-01-01", "2010-01-01"),
    ("2010-01-01", "2020-01-01"),
    ("2020-01-01", "2030-01-01"),
]


def ensure_venv():
    """Re-runs this script inside a venv that has recurring-ical-events."""
    python = VENV / "bin" / "python"
    if Path(sys.prefix).resolve() == VENV.resolve():
        return
    if not python.exists():
        print(f"creating {VENV} and installing recurring-ical-events …", file=sys.stderr)
        venv.create(VENV, with_pip=True)
        subprocess.run([str(python), "-m", "pip", "install", "-q", "recurring-ical-events"], check=True)
    os.execv(str(python), [str(python), __file__] + sys.argv[1:])


def key_from_python(value):
    import datetime

    if isinstance(value, datetime.datetime):
        if value.tzinfo is None:
            return value.strftime("%Y-%m-%dT%H:%M:%SZ")
        return value.astimezone(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    return value.strftime("%Y-%m-%d")


def key_from_calport(text):
    import datetime

    if len(text) == 10:
        return text
    try:
        moment = datetime.datetime.fromisoformat(text)
    except ValueError:  # beyond Python's year 9999, e.g. an absurd DURATION: compare the text
        return text
    return moment.astimezone(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def python_occurrences(path, start, end):
    import datetime

    import icalendar
    import recurring_ical_events

    calendar = icalendar.Calendar.from_ical(path.read_bytes())
    found = Counter()
    for event in recurring_ical_events.of(calendar, skip_bad_series=True).between(start, end):
        if event.name != "VEVENT":
            continue
        begin = event["DTSTART"].dt
        if "DTEND" in event:
            finish = event["DTEND"].dt
        elif "DURATION" in event:
            finish = begin + event["DURATION"].dt
        elif isinstance(begin, datetime.datetime):
            finish = begin
        else:
            finish = begin + datetime.timedelta(days=1)
        found[(str(event.get("UID", "")), key_from_python(begin), key_from_python(finish))] += 1
    return found


def calport_occurrences(calport, path, start, end):
    result = subprocess.run(
        [calport, "expand", "--quiet", "--start", start, "--end", end, "--format", "ndjson", str(path)],
        capture_output=True, text=True)
    found = Counter()
    for line in result.stdout.splitlines():
        record = json.loads(line)
        found[(record["uid"], key_from_calport(record["start"]), key_from_calport(record["end"]))] += 1
    return found, result.returncode


def main():
    ensure_venv()
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calport", default=str(ROOT / ".build" / "debug" / "calport"))
    parser.add_argument("--corpus", default=str(ROOT.parent / "shared" / "corpus"))
    parser.add_argument("--show", type=int, default=6, help="occurrences shown per side of a disagreement")
    options = parser.parse_args()
    if not Path(options.calport).exists():
        subprocess.run(["swift", "build", "--product", "calport"], cwd=ROOT, check=True)
    files = sorted(Path(options.corpus).rglob("*.ics"))
    if not files:
        sys.exit(f"no .ics files under {options.corpus}")
    import datetime

    pairs = agreeing = skipped = 0
    common = total = 0
    for path in files:
        for start, end in WINDOWS:
            try:
                theirs = python_occurrences(
                    path, datetime.date.fromisoformat(start), datetime.date.fromisoformat(end))
            except Exception as error:  # a file recurring-ical-events cannot read is not compared
                skipped += 1
                continue
            ours, _ = calport_occurrences(options.calport, path, start, end)
            if not theirs and not ours:
                continue
            pairs += 1
            both = ours & theirs
            common += sum(both.values())
            total += sum((ours | theirs).values())
            if ours == theirs:
                agreeing += 1
                continue
            name = path.relative_to(options.corpus)
            print(f"DISAGREE {name} [{start}, {end}): calport {sum(ours.values())}, recurring-ical-events {sum(theirs.values())}")
            for label, side in (("only calport", ours - theirs), ("only recurring-ical-events", theirs - ours)):
                for item in sorted(side)[: options.show]:
                    print(f"    {label}: {item[0]} {item[1]} → {item[2]}")
                if len(side) > options.show:
                    print(f"    {label}: … {len(side) - options.show} more")
    print(f"\nfiles: {len(files)}; windows: {len(WINDOWS)}; (file, window) pairs with occurrences: {pairs}; "
          f"(file, window) pairs skipped because recurring-ical-events cannot read the file: {skipped}")
    if pairs:
        print(f"pairs agreeing exactly: {agreeing}/{pairs} = {100 * agreeing / pairs:.1f}%")
    if total:
        print(f"occurrences agreeing: {common}/{total} = {100 * common / total:.2f}%")


if __name__ == "__main__":
    main()
