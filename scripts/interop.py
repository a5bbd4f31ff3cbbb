"""Reads calport's iCalendar output with independent parsers and compares what they see with calport's model.

Run through scripts/interop, which builds calport and the libical helper and sets up scripts/.venv.
For every input (../shared/corpus and Samples/, .ics and Graph .json) calport writes an .ics; each
parser reads it, and each event's start and end instants, summary, attendee count and, for a
series, its occurrences in the window are compared with `calport convert --to ndjson` (the model)
and `calport expand --format ndjson` (calport's occurrences). Mismatches a parser's documented bug
explains are listed as explained, citing docs/interop.md; the exit status is 1 if any other remains.
"""

import datetime as dt
import json
import logging
import os
import re
import subprocess
import sys
import zoneinfo
from importlib.metadata import version

import ics
import icalendar
import vobject
from dateutil import rrule

from interop_inputs import inputs

WINDOW = ("1900-01-01", "2100-01-01")
LAST_YEAR = 2100
# Occurrences compared per series; beyond this calport stops (--max-occurrences) and so do we.
CAP = 500
UTC = dt.timezone.utc

# Mismatches a documented behaviour of the parser, or an input calport keeps verbatim, explains: each
# entry is (parser, fields, test on the mismatch and calport's .ics, section of docs/interop.md).
def wall_clock_as_utc(item, text):
    """The parser read the local wall-clock time (TZID or floating) as if it were UTC."""
    theirs, wall = item["theirs"], item["wall"]
    return isinstance(theirs, str) and theirs.startswith("U:") and theirs[2:-1] in (wall or "")


def read_error(pattern):
    return lambda item, text: re.search(pattern, item["theirs"])


def event_without_start(item, text):
    """The VEVENT of this UID has no DTSTART (RFC 5545 §3.6.1 requires one): calport expands nothing."""
    for block in text.split("BEGIN:VEVENT")[1:]:
        block = block.split("END:VEVENT")[0]
        if ("\nUID:" + item["uid"] + "\n") in block and "\nDTSTART" not in block:
            return True
    return False


MIXED = "input mixes value types (kept verbatim)"
INVALID = "input breaks RFC 5545 (kept verbatim)"
EXPLAINED = [
    ("ics", {"start", "end"}, wall_clock_as_utc, "ics: TZID and floating times read as UTC"),
    ("ics", {"event"}, lambda i, t: i["uid"] == "", "ics: a UID for a VEVENT without one"),
    ("ics", {"event"}, lambda i, t: i["rid"] is not None or "TZID=" in t, "ics: no RECURRENCE-ID"),
    ("ics", {"read"}, read_error(r"VTODO must have at least one DTSTAMP|VALARM must have at least one DESCRIPTION|"
                                 r"VEVENT must have at most one DTSTART"), INVALID),
    ("icalendar", {"read"}, read_error(r"TypeError: \[datetime"), INVALID),
    ("icalendar", {"read"}, read_error(r"UNTIL values must be specified in UTC"), INVALID),
    ("icalendar", {"start", "end"}, lambda i, t: str(i["ours"]).startswith("L:"), "icalendar: a TZID nothing defines"),
    ("vobject", {"read"}, read_error(r"not a valid DATE-TIME|offset-naive and offset-aware"), MIXED),
    ("vobject", {"occurrences"}, lambda i, t: "VALUE=PERIOD" in t, "vobject: RDATE periods ignored"),
    ("libical", {"summary"}, lambda i, t: str(i["ours"]).strip() == i["theirs"], "libical: white space"),
    ("libical", {"occurrences"}, lambda i, t: "RSCALE=" in t, "RSCALE"),
    ("*", {"read"}, read_error(r"RSCALE"), "RSCALE"),
    ("*", {"read"}, read_error(r"OverflowError|'str' and 'datetime.timedelta'"), "durations beyond Python's timedelta"),
    ("*", {"end"}, lambda i, t: re.search(r"\nDURATION:P\d{9,}", t), "durations beyond Python's timedelta"),
    ("*", {"occurrences"}, lambda i, t: re.search(r"\n(RDATE|EXDATE)[^:\n]*VALUE=DATE[;:]", t), MIXED),
    ("ics", {"start", "end"}, lambda i, t: 'TZID="(UTC' in t, "ics: an Outlook display name read as a POSIX TZ"),
    ("*", {"occurrences"}, lambda i, t: re.search(r"\nRDATE;VALUE=PERIOD:\d{8}/\d{8}\n", t), INVALID),
    ("*", {"occurrences"}, event_without_start, INVALID),
    ("*", {"occurrences", "start", "end"}, lambda i, t: i["uid"] == "", INVALID),
]


# Time values, tagged as in interop-libical.c: D: date, F: floating, U: UTC instant, L: unresolved zone.
def tag_python(value):
    if value is None:
        return None
    if isinstance(value, dt.datetime):
        if value.tzinfo is None or value.utcoffset() is None:
            return "F:" + value.strftime("%Y-%m-%dT%H:%M:%S")
        return "U:" + value.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    if isinstance(value, dt.date):
        return "D:" + value.isoformat()
    raise TypeError(value)


def untag(tagged):
    kind, text = tagged[0], tagged[2:]
    if kind == "D":
        return dt.date.fromisoformat(text)
    if kind == "F":
        return dt.datetime.fromisoformat(text)
    if kind == "U":
        return dt.datetime.fromisoformat(text.replace("Z", "+00:00"))
    return None


def occurrence_key(tagged):
    """Occurrences in the window are compared as calport expand --tz UTC prints them: floating read as UTC."""
    return "U:" + tagged[2:] + "Z" if tagged.startswith("F:") else tagged


def add_duration(start, seconds, days):
    """RFC 5545 §3.3.6: days are nominal (same wall time), hours and smaller are exact."""
    if isinstance(start, dt.datetime):
        end = start + dt.timedelta(days=days)
        if end.tzinfo is not None:
            end = end.astimezone(UTC)
        return end + dt.timedelta(seconds=seconds)
    return start + dt.timedelta(days=days)


def effective_end(start, end, duration):
    """The end RFC 5545 §3.6.1 gives an event: DTEND, DTSTART + DURATION, a day for a date, else DTSTART."""
    if end is not None or start is None:
        return end
    if duration is not None:
        return add_duration(start, duration.seconds, duration.days) if duration >= dt.timedelta(0) else start + duration
    return start + dt.timedelta(days=1) if not isinstance(start, dt.datetime) else start


DURATION = re.compile(r"^([+-])?P(?:(\d+)W)?(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+)S)?)?$")


def parse_duration(text):
    m = DURATION.match(text)
    sign = -1 if m.group(1) == "-" else 1
    weeks, days, hours, minutes, seconds = (int(g or 0) for g in m.groups()[1:])
    try:
        return dt.timedelta(days=sign * (weeks * 7 + days), seconds=sign * (hours * 3600 + minutes * 60 + seconds))
    except OverflowError:
        return None


# ---------- calport's side ----------

def model_time(value):
    if value is None:
        return None
    if "date" in value:
        return dt.date.fromisoformat(value["date"])
    if "floating" in value:
        return dt.datetime.fromisoformat(value["floating"])
    if "utc" in value:
        return dt.datetime.fromisoformat(value["utc"].replace("Z", "+00:00"))
    if "iana" in value:
        return dt.datetime.fromisoformat(value["local"]).replace(tzinfo=zoneinfo.ZoneInfo(value["iana"]))
    return "L:" + value["local"] + "@" + value["timeZone"]


def model_events(calport, path):
    out = subprocess.run([calport, "convert", "--quiet", "--to", "ndjson", path], capture_output=True, text=True)
    events = []
    for line in out.stdout.splitlines():
        e = json.loads(line)
        start, end = model_time(e.get("start")), model_time(e.get("end"))
        duration = parse_duration(e["duration"]) if "duration" in e else None
        tagged = [v if isinstance(v, str) or v is None else tag_python(v) for v in (start, end)]
        if not isinstance(start, str) and not isinstance(end, str):
            tagged[1] = tag_python(effective_end(start, end, duration))
        elif isinstance(start, str) and end is None and duration is None:
            tagged[1] = start
        wall = " ".join(t.get("local") or t.get("floating") or "" for t in (e.get("start"), e.get("end")) if t)
        events.append({
            "uid": e.get("uid", ""), "recurrenceId": tag_any(model_time(e.get("recurrenceId"))), "wall": wall,
            "start": tagged[0], "end": tagged[1], "summary": e.get("summary"),
            "attendees": len(e.get("attendees", [])), "recurring": bool(e.get("rrules") or e.get("rdates")),
        })
    return events


def tag_any(value):
    return value if isinstance(value, str) or value is None else tag_python(value)


def model_occurrences(calport, path):
    """calport expand's occurrences per UID (recurrence ids), and each event's first (start, end) in UTC."""
    out = subprocess.run(
        [calport, "expand", "--quiet", "--start", WINDOW[0], "--end", WINDOW[1], "--max-occurrences", str(CAP),
         "--format", "ndjson", path], capture_output=True, text=True)
    series, firsts = {}, {}
    tag = lambda text: "D:" + text if len(text) == 10 else tag_python(dt.datetime.fromisoformat(text))
    for line in out.stdout.splitlines():
        o = json.loads(line)
        uid = o.get("uid", "")
        series.setdefault(uid, []).append(tag(o["recurrenceId"] or o["start"]))
        span = (tag(o["start"]), tag(o["end"]) if o.get("end") else None)
        key = (uid, tag(o["recurrenceId"]) if o["isOverride"] else None)
        firsts.setdefault(key, span)
    return {uid: sorted(set(keys)) for uid, keys in series.items()}, firsts


def resolve_with_expand(model, firsts, text):
    """A zone only the file's VTIMEZONE defines (no IANA match): take calport expand's instants instead."""
    for m in model:
        span = firsts.get((m["uid"], m["recurrenceId"]))
        zone = str(m["start"]).partition("@")[2]
        if span and str(m["start"]).startswith("L:") and "\nTZID:" + zone + "\n" in text:
            m["start"], m["end"] = span


# ---------- the parsers ----------

def expand_rules(rules, start):
    """dateutil's expansion of RRULE text from DTSTART, as icalendar's users do (recurring-ical-events)."""
    if isinstance(start, dt.datetime):
        dtstart = start
    else:
        dtstart = dt.datetime.combine(start, dt.time())
    found = []
    for text in rules:
        if not isinstance(start, dt.datetime):
            text = re.sub(r"UNTIL=(\d{8})(?!T)", r"UNTIL=\1T000000", text)
        elif start.tzinfo is not None:
            text = re.sub(r"UNTIL=(\d{8})(?!T)", r"UNTIL=\1T235959Z", text)
        rule = rrule.rrulestr(text, dtstart=dtstart, ignoretz=False)
        for i, t in enumerate(rule):
            if i >= 2 * CAP or t.year >= LAST_YEAR:
                break
            found.append(t if isinstance(start, dt.datetime) else t.date())
    return [tag_python(t) for t in found]


def read_icalendar(path):
    cal = icalendar.Calendar.from_ical(open(path, "rb").read())
    events = []
    for ev in cal.walk("VEVENT"):
        start = ev.decoded("DTSTART") if "DTSTART" in ev else None
        end = ev.decoded("DTEND") if "DTEND" in ev else None
        duration = ev.decoded("DURATION") if "DURATION" in ev else None
        attendees = ev.get("ATTENDEE", [])
        rules = ev.get("RRULE", [])
        rules = rules if isinstance(rules, list) else [rules]
        dates = lambda name: [tag_python(p.dt[0] if isinstance(p.dt, tuple) else p.dt)
                              for prop in as_list(ev.get(name)) for p in prop.dts]
        occurrences = expand_rules([r.to_ical().decode() for r in rules], start) if rules and start is not None else []
        events.append({
            "uid": str(ev.get("UID", "")),
            "recurrenceId": tag_python(ev.decoded("RECURRENCE-ID")) if "RECURRENCE-ID" in ev else None,
            "start": tag_python(start), "end": tag_python(effective_end(start, end, duration)),
            "summary": str(ev["SUMMARY"]) if "SUMMARY" in ev else None,
            "attendees": len(attendees) if isinstance(attendees, list) else 1,
            "occurrences": occurrences, "rdates": dates("RDATE"), "exdates": dates("EXDATE"),
        })
    return events


def as_list(value):
    return [] if value is None else value if isinstance(value, list) else [value]


def read_vobject(path):
    # vobject keeps VTIMEZONEs in a process-wide registry by TZID; a client reads each file afresh.
    vobject.icalendar.__dict__["__tzidMap"].clear()
    cal = vobject.readOne(open(path, encoding="utf-8").read())
    events = []
    for ev in getattr(cal, "vevent_list", []):
        start = ev.dtstart.value if hasattr(ev, "dtstart") else None
        end = ev.dtend.value if hasattr(ev, "dtend") else None
        duration = ev.duration.value if hasattr(ev, "duration") else None
        rid = ev.contents.get("recurrence-id")
        occurrences = []
        if ("rrule" in ev.contents or "rdate" in ev.contents) and start is not None:
            for i, t in enumerate(ev.getrruleset(addRDate=True)):
                if i >= 2 * CAP or t.year >= LAST_YEAR:
                    break
                occurrences.append(tag_python(t if isinstance(start, dt.datetime) else t.date()))
        events.append({
            "uid": ev.uid.value if hasattr(ev, "uid") else "",
            "recurrenceId": tag_python(rid[0].value) if rid else None,
            "start": tag_python(start), "end": tag_python(effective_end(start, end, duration)),
            "summary": ev.summary.value if hasattr(ev, "summary") else None,
            "attendees": len(ev.contents.get("attendee", [])),
            "occurrences": occurrences, "rdates": [], "exdates": [],
        })
    return events


def read_ics(path):
    cal = ics.Calendar(open(path, encoding="utf-8").read())
    events = []
    for ev in cal.events:
        rid = next((line for line in ev.extra if line.name == "RECURRENCE-ID"), None)
        start = None if ev.begin is None else ev.begin.date() if ev.all_day else ev.begin.datetime
        end = None if ev.end is None else ev.end.date() if ev.all_day else ev.end.datetime
        events.append({
            "uid": ev.uid or "", "recurrenceId": None if rid is None else ("RAW:" + rid.value),
            "start": tag_python(start), "end": tag_python(end), "summary": ev.name,
            "attendees": len(ev.attendees), "occurrences": None,
        })
    return events


def read_libical(helper):
    def read(path):
        out = subprocess.run([helper, path, str(2 * CAP), str(LAST_YEAR)], capture_output=True, text=True)
        if out.returncode != 0:
            raise RuntimeError(out.stderr.strip())
        events = [json.loads(line) for line in out.stdout.splitlines()]
        for e in events:
            if e["end"] is None and e["start"] is not None and e["start"][0] in "DFU":
                e["end"] = tag_python(effective_end(untag(e["start"]), None, None))
            elif e["end"] is None and e["start"] is not None and e["start"][0] == "L":
                e["end"] = e["start"]  # a DATE-TIME alone ends when it starts, in a zone or not
        return events
    return read


# ---------- comparison ----------

def series_occurrences(events):
    """Each series' recurrence ids as a parser sees them: rule occurrences and RDATEs, less EXDATEs, plus overrides."""
    by_uid = {}
    for e in events:
        if e.get("occurrences") is None:
            return None
        entry = by_uid.setdefault(e["uid"], set())
        if e["recurrenceId"] is None:
            # RFC 5545 §3.8.5.3: DTSTART is always the first instance; dateutil (hence icalendar's and
            # vobject's users) counts it only when it fits the rule, so it is added here for all.
            first = [e["start"]] if e["start"] else []
            entry |= set(map(occurrence_key, first + e["occurrences"] + e.get("rdates", [])))
            entry -= set(map(occurrence_key, e.get("exdates", [])))
        else:
            entry.add(occurrence_key(e["recurrenceId"]))
    return by_uid


def same_local_time(ours, theirs):
    """A TZID no VTIMEZONE defines and calport cannot resolve has no instant (RFC 5545 §3.2.19): its local time is all."""
    return isinstance(ours, str) and ours.startswith("L:") and theirs == "F:" + ours[2:].partition("@")[0]


def compare(name, model, reference_occurrences, events, report):
    def key(e):
        return (e["uid"], e["recurrenceId"])
    remaining = {}
    for e in events:
        remaining.setdefault(key(e), []).append(e)
    compared = 0
    for m in model:
        candidates = remaining.get(key(m))
        if not candidates and m["recurrenceId"] is not None:
            # ics keeps RECURRENCE-ID only as raw text: pair by UID and start instead.
            candidates = [e for e in events if e["uid"] == m["uid"] and e["start"] == m["start"]
                          and str(e["recurrenceId"]).startswith("RAW:") and e in remaining[key(e)]]
        if not candidates:
            report("event", m["uid"], m["recurrenceId"], "present", "missing", m["wall"])
            continue
        e = candidates[0]
        remaining[key(e)].remove(e)
        compared += 1
        for field in ("start", "end", "summary", "attendees"):
            if m[field] != e[field] and not same_local_time(m[field], e[field]):
                report(field, m["uid"], m["recurrenceId"], m[field], e[field], m["wall"])
    occurrences = series_occurrences(events)
    if occurrences is not None:
        recurring = {m["uid"] for m in model if m["recurring"]}
        for uid in sorted(recurring):
            ours = reference_occurrences.get(uid, [])
            theirs = sorted(occurrences.get(uid, set()))
            limit = ours[-1] if len(ours) >= CAP else None
            theirs = [t for t in theirs if limit is None or t <= limit]
            lo, hi = "U:" + WINDOW[0], "U:" + WINDOW[1]
            theirs = [t for t in theirs if (lo <= t < hi) or (t.startswith("D:") and WINDOW[0] <= t[2:] < WINDOW[1])]
            if ours != theirs:
                missing = [t for t in ours if t not in theirs][:3]
                extra = [t for t in theirs if t not in ours][:3]
                report("occurrences", uid, None, f"{len(ours)} (only calport: {missing})",
                       f"{len(theirs)} (only {name}: {extra})")
    return compared


def main():
    root, calport, helper, work = sys.argv[1:5]
    # icalendar and vobject log each TZID they cannot place; the comparison reports what matters.
    logging.disable(logging.CRITICAL)
    parsers = [
        ("icalendar", f"icalendar {version('icalendar')} + dateutil {version('python-dateutil')}", read_icalendar),
        ("vobject", f"vobject {version('vobject')}", read_vobject),
        ("ics", f"ics {version('ics')} (no RRULE support)", read_ics),
        ("libical", "libical " + subprocess.run(["pkg-config", "--modversion", "libical"], capture_output=True,
                                                text=True).stdout.strip(), read_libical(helper)),
    ]
    stats = {p[0]: {"files": 0, "read": 0, "events": 0, "mismatches": [], "explained": []} for p in parsers}
    written = 0
    sources = inputs(root)
    for source in sources:
        rel = os.path.relpath(source, os.path.join(root, ".."))
        out = os.path.join(work, re.sub(r"[^A-Za-z0-9._-]", "_", rel) + ".ics")
        if os.path.exists(out):
            os.remove(out)
        subprocess.run([calport, "convert", "--quiet", "--to", "ics", "-o", out, source], capture_output=True)
        if not os.path.exists(out):
            continue
        written += 1
        model = model_events(calport, source)
        reference, firsts = model_occurrences(calport, source if source.endswith(".ics") else out)
        text = open(out, encoding="utf-8", errors="replace").read()
        resolve_with_expand(model, firsts, text)
        for name, _, reader in parsers:
            s = stats[name]
            s["files"] += 1

            def report(field, uid, rid, ours, theirs, wall=None):
                item = (rel, field, uid, rid, ours, theirs)
                facts = {"uid": uid, "rid": rid, "ours": ours, "theirs": theirs, "wall": wall}
                why = next((e[3] for e in EXPLAINED
                            if e[0] in (name, "*") and field in e[1] and e[2](facts, text)), None)
                (s["explained"] if why else s["mismatches"]).append(item + ((why,) if why else ()))
            try:
                events = reader(out)
            except Exception as error:  # any failure to read is a finding, reported per file
                report("read", "", None, "readable", f"{type(error).__name__}: {str(error)[:160]}")
                continue
            s["read"] += 1
            s["events"] += compare(name, model, reference, events, report)
    print(f"calport interop: {len(sources)} inputs, {written} converted to .ics; window {WINDOW[0]}..{WINDOW[1]}, "
          f"at most {CAP} occurrences per series; occurrences are calport expand's\n")
    print(f"| parser | version | files read | events compared | mismatches | explained (docs/interop.md) |")
    print(f"|---|---|---:|---:|---:|---:|")
    for name, label, _ in parsers:
        s = stats[name]
        print(f"| {name} | {label} | {s['read']}/{s['files']} | {s['events']} | {len(s['mismatches'])} | "
              f"{len(s['explained'])} |")
    failed = False
    for name, _, _ in parsers:
        s = stats[name]
        for title, items in (("mismatches", s["mismatches"]), ("explained (docs/interop.md, section in brackets)", s["explained"])):
            if items:
                print(f"\n{name} {title}:")
                for item in items:
                    rel, field, uid, rid, ours, theirs = item[:6]
                    why = f"  [{item[6]}]" if len(item) > 6 else ""
                    print(f"  {rel} {uid}{' @' + rid if rid else ''} {field}: calport {ours!r}, {name} {theirs!r}{why}")
        failed = failed or bool(s["mismatches"])
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
