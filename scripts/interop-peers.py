"""Sends each input and calport's .ics of it through real calendar software and counts the events each accepts.

Readers: Radicale (a CalDAV server, started here on 127.0.0.1 with a temporary storage; each file is PUT
one calendar object per UID, as CalDAV clients store a calendar), khal (`khal import --batch` into an empty
vdir), calcurse (`calcurse -i` into an empty data directory) and libical's parser (scripts/interop-libical.c:
a VEVENT counts when libical reports no X-LIC-ERROR in it). For every input the original (when it is an
.ics) and calport's output are read alike; the run fails when a reader rejects more events of calport's
output than of the original (for a Graph JSON input, which no reader reads: any event of the output),
when Radicale refuses the object of a UID from the output that it stored from the original, and when
a reader accepts no event of the output at all (a broken install).

Usage: python3 interop-peers.py --calport BIN --libical HELPER --radicale PYTHON --work DIR [--sample]
       [--jobs N] [INPUT...]
Without INPUTs: every .ics and Graph .json under ../shared/corpus and Samples/. --sample: a fixed
selection of them (every file that once showed a fault, and every 8th file), for CI.
Prints the table (reader, files read, events accepted in output / in original) and every shortfall;
WORK/peers.json has the counts per file.
"""

import argparse
import concurrent.futures
import hashlib
import http.client
import json
import os
import re
import shutil
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time

import interop_inputs

# Inputs that showed a fault of calport's output in one reader or another (issue 26), always in the sample.
SAMPLE_ALWAYS = (
    "invalid_duration.ics", "issue_1633_rdate_with_dates.ics", "beta-event-get.response-4.json",
    "multiple_calendar_components.ics", "pacific_fiji.ics", "issue_526_calendar_with_events.ics",
    "event_with_unicode_fields.ics", "recur_instances.ics", "team-week.ics",
)
SAMPLE_EVERY = 8

READERS = ("radicale", "khal", "calcurse", "libical")


# ---------- content lines, as every reader sees them ----------

def logical_lines(text):
    """(name, raw text) per content line: folded lines joined for the name, kept as written for output."""
    lines, raw = [], []
    for physical in re.split(r"\r?\n", text):
        if physical[:1] in (" ", "\t") and raw:
            raw.append(physical)
            continue
        if raw:
            lines.append(raw)
        raw = [physical] if physical.strip() else []
    if raw:
        lines.append(raw)
    result = []
    for raw in lines:
        joined = "".join([raw[0]] + [r[1:] for r in raw[1:]])
        name = re.split(r"[;:]", joined, maxsplit=1)[0].strip().upper()
        value = joined.split(":", 1)[1] if ":" in joined else ""
        result.append((name, value.strip(), "\r\n".join(raw)))
    return result


def calendars(text):
    """Each VCALENDAR as (header lines, VTIMEZONE blocks, other top-level components), blocks as line lists.
    Components outside any VCALENDAR (a file of bare VEVENTs) make one calendar without properties.
    A component never closed is left out; a calendar never closed is kept."""
    found, calendar, bare, block, depth = [], None, None, [], 0
    for name, value, raw in logical_lines(text):
        if depth == 0 and not (name == "BEGIN" and value.upper() != "VCALENDAR"):
            if name == "BEGIN" and calendar is None:
                calendar = ([], [], [])
            elif name == "END" and calendar is not None:
                found.append(calendar)
                calendar = None
            elif calendar is not None:
                calendar[0].append((name, value, raw))
            continue
        block.append((name, value, raw))
        depth += 1 if name == "BEGIN" else -1 if name == "END" else 0
        if depth == 0:
            owner = calendar
            if owner is None:
                if bare is None:
                    bare = ([], [], [])
                    found.append(bare)
                owner = bare
            (owner[1] if block[0][1].upper() == "VTIMEZONE" else owner[2]).append(block)
            block = []
    if calendar is not None:  # a calendar never closed: readers keep what it had
        found.append(calendar)
    return found


def component_kind(block):
    return block[0][1].upper()


def top_level_uid(block):
    """The UID property of the component itself, not of an alarm inside it."""
    depth = 0
    for name, value, _ in block:
        if name == "BEGIN":
            depth += 1
        elif name == "END":
            depth -= 1
        elif name == "UID" and depth == 1:
            return value
    return None


def count_events(text):
    return sum(component_kind(c) == "VEVENT" for _, _, components in calendars(text) for c in components)


def calendar_objects(text):
    """The calendar objects a CalDAV client stores for a file: one per UID (a master with its overrides),
    one per component without UID, each with the calendar's properties and VTIMEZONEs; METHOD left out
    (RFC 4791 §4.1: a calendar object resource must not have one). Yields (events, object text, UID)."""
    for header, zones, components in calendars(text):
        groups, order = {}, []
        for position, block in enumerate(components):
            uid = top_level_uid(block)
            key = ("uid", uid) if uid else ("alone", position)
            if key not in groups:
                groups[key] = []
                order.append(key)
            groups[key].append(block)
        for key in order:
            blocks = groups[key]
            lines = ["BEGIN:VCALENDAR"] + [raw for name, _, raw in header if name != "METHOD"]
            for block in zones + blocks:
                lines += [raw for _, _, raw in block]
            lines.append("END:VCALENDAR")
            uid = key[1] if key[0] == "uid" else None
            yield sum(component_kind(b) == "VEVENT" for b in blocks), "\r\n".join(lines) + "\r\n", uid


# ---------- the readers ----------

class Radicale:
    """A Radicale server on a free 127.0.0.1 port with its storage in `folder`; stopped by `stop`."""

    def __init__(self, python, folder):
        # The free port is found by binding port 0 and closing it, so another process of a
        # parallel test run can take it before Radicale binds it; Radicale then exits at once. A
        # few attempts on new ports, each with its own log.
        for attempt in range(3):
            with socket.socket() as probe:
                probe.bind(("127.0.0.1", 0))
                self.port = probe.getsockname()[1]
            self.log = open(os.path.join(folder, f"radicale-{attempt}.log"), "w")
            self.process = subprocess.Popen(
                [python, "-m", "radicale", "--server-hosts", f"127.0.0.1:{self.port}",
                 "--storage-filesystem-folder", os.path.join(folder, "storage"), "--auth-type", "none",
                 "--rights-type", "owner_only", "--logging-level", "warning"],
                stdout=self.log, stderr=subprocess.STDOUT)
            deadline = time.monotonic() + 30
            while not self._listening() and self.process.poll() is None and time.monotonic() < deadline:
                time.sleep(0.1)
            if self._listening():
                break
            self.stop()
        else:
            raise RuntimeError(f"Radicale did not start; see {self.log.name}")
        self.version = subprocess.run([python, "-m", "radicale", "--version"], capture_output=True,
                                      text=True).stdout.strip()

    def _listening(self):
        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=0.5):
                return True
        except OSError:
            return False

    def request(self, method, path, body=None):
        # Under load (16 PUTs at once beside a build) Radicale's server resets or times out some
        # connections; PUT and MKCALENDAR are idempotent here, so they are sent again.
        for attempt in range(5):
            try:
                return self._send(method, path, body)
            except (OSError, http.client.HTTPException):
                if attempt == 4:
                    raise
                time.sleep(0.2 * 2 ** attempt)

    def _send(self, method, path, body):
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        # auth none takes any login as the user; owner_only lets it write below /peers/.
        headers = {"Authorization": "Basic cGVlcnM6eA==", "Content-Type": "text/calendar; charset=utf-8"}
        try:
            connection.request(method, path, body=body, headers=headers)
            response = connection.getresponse()
            response.read()
            return response.status
        finally:
            connection.close()

    def stop(self):
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self.log.close()


def read_radicale(server, pool, verdicts):
    """Events Radicale stores; `verdicts[path]` gets whether it stored each UID's object, so that an
    object it takes from the original and refuses from the output is found, not only a count."""
    collections = iter(range(1 << 30))

    def read(path, text):
        collection = f"/peers/c{next(collections)}/"
        if server.request("MKCALENDAR", collection) != 201:
            raise RuntimeError("MKCALENDAR failed")
        objects = list(calendar_objects(text))

        def put(item):
            position, (events, body, uid) = item
            name = hashlib.sha256(body.encode("utf-8", "surrogateescape")).hexdigest()[:24]
            status = server.request("PUT", f"{collection}{position}-{name}.ics",
                                    body.encode("utf-8", "surrogateescape"))
            return uid, events if status in (200, 201, 204) else 0
        stored = list(pool.map(put, enumerate(objects)))
        verdicts[path] = {uid: events > 0 for uid, events in stored if uid}
        return sum(events for _, events in stored)
    return read


KHAL_CONFIG = """[calendars]
[[peer]]
path = {vdir}
type = calendar
[locale]
timeformat = %H:%M
dateformat = %Y-%m-%d
longdateformat = %Y-%m-%d
datetimeformat = %Y-%m-%d %H:%M
longdatetimeformat = %Y-%m-%d %H:%M
local_timezone = UTC
default_timezone = UTC
[sqlite]
path = {database}
"""


def read_khal(path, text):
    """Events khal keeps after `import --batch`: those of stored items it could place in time (in its
    cache's recurrence tables, which `khal list` reads)."""
    with tempfile.TemporaryDirectory(prefix="calport-khal-") as folder:
        vdir, database = os.path.join(folder, "vdir"), os.path.join(folder, "khal.sqlite")
        os.mkdir(vdir)
        config = os.path.join(folder, "config")
        with open(config, "w") as f:
            f.write(KHAL_CONFIG.format(vdir=vdir, database=database))
        subprocess.run(["khal", "-c", config, "import", "--batch", "-a", "peer", path], capture_output=True,
                       stdin=subprocess.DEVNULL, timeout=600)
        if not os.path.exists(database):
            return 0
        with sqlite3.connect(database) as db:
            rows = db.execute("SELECT item FROM events WHERE href IN "
                              "(SELECT href FROM recs_loc UNION SELECT href FROM recs_float)").fetchall()
        return sum(count_events(item) for (item,) in rows)


IMPORT_REPORT = re.compile(r"(\d+) apps? / (\d+) events? / (\d+) todos? / (\d+) skipped")


def read_calcurse(path, text):
    """Appointments and (all-day) events calcurse imports with `-i`; a crash imports nothing."""
    with tempfile.TemporaryDirectory(prefix="calport-calcurse-") as folder:
        # calcurse writes an import log under TMPDIR and leaves it there: in the folder, it goes with it.
        out = subprocess.run(["calcurse", "-D", folder, "-i", path], capture_output=True, text=True,
                             errors="replace", stdin=subprocess.DEVNULL, timeout=600,
                             env=dict(os.environ, TMPDIR=folder))
        found = IMPORT_REPORT.search(out.stdout)
        return int(found.group(1)) + int(found.group(2)) if out.returncode == 0 and found else 0


def read_libical(helper):
    def read(path, text):
        out = subprocess.run([helper, "--accepted", path], capture_output=True, text=True, timeout=600)
        return int(out.stdout.strip()) if out.returncode == 0 and out.stdout.strip().isdigit() else 0
    return read


def reader_versions(radicale):
    def first_line(command):
        try:
            return subprocess.run(command, capture_output=True, text=True).stdout.splitlines()[0]
        except (OSError, IndexError):
            return "?"
    return {
        "radicale": f"Radicale {radicale.version}",
        "khal": first_line(["khal", "--version"]),
        "calcurse": first_line(["calcurse", "--version"]).split(" --")[0],
        "libical": "libical " + first_line(["pkg-config", "--modversion", "libical"]),
    }


# ---------- the run ----------

def sample(files):
    return [f for i, f in enumerate(files) if i % SAMPLE_EVERY == 0 or os.path.basename(f) in SAMPLE_ALWAYS]


def convert(calport, source, work):
    out = os.path.join(work, re.sub(r"[^A-Za-z0-9._-]", "_", os.path.relpath(source, "/")) + ".ics")
    if os.path.exists(out):
        os.remove(out)
    subprocess.run([calport, "convert", "--quiet", "--to", "ics", "-o", out, source], capture_output=True,
                   timeout=600)
    return out if os.path.exists(out) else None


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--calport", required=True)
    parser.add_argument("--libical", required=True)
    parser.add_argument("--radicale", required=True, help="a Python that has Radicale installed")
    parser.add_argument("--work", required=True)
    parser.add_argument("--sample", action="store_true")
    parser.add_argument("--jobs", type=int, default=4)
    parser.add_argument("inputs", nargs="*")
    args = parser.parse_args()
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    files = args.inputs or interop_inputs.inputs(root)
    if args.sample and not args.inputs:
        files = sample(files)
    os.makedirs(args.work, exist_ok=True)
    server = Radicale(args.radicale, tempfile.mkdtemp(prefix="radicale-", dir=args.work))
    try:
        pool = concurrent.futures.ThreadPoolExecutor(max_workers=16)
        verdicts = {}
        readers = {"radicale": read_radicale(server, pool, verdicts), "khal": read_khal, "calcurse": read_calcurse,
                   "libical": read_libical(args.libical)}
        versions = reader_versions(server)

        def one(source):
            output = convert(args.calport, source, args.work)
            variants = {"output": output} if output else {}
            if source.endswith(".ics"):
                variants["original"] = source
            result = {"source": source, "converted": output is not None}
            for variant, path in variants.items():
                text = open(path, encoding="utf-8", errors="surrogateescape").read()
                result[variant] = {"events": count_events(text)}
                for name in READERS:
                    result[variant][name] = readers[name](path, text)
                result[variant]["radicale_uids"] = verdicts.get(path, {})
            return result
        with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as files_pool:
            results = list(files_pool.map(one, files))
        pool.shutdown()
    finally:
        server.stop()
    with open(os.path.join(args.work, "peers.json"), "w") as f:
        json.dump(results, f, indent=1)
    return report(results, versions, root)


def report(results, versions, root):
    print(f"calport peers: {len(results)} inputs, {sum(r['converted'] for r in results)} converted to .ics; "
          f"events accepted in calport's output / in the original (.ics inputs; Graph JSON has no original a reader reads)\n")
    print("| reader | version | files | events in output | accepted in output | events in original | accepted in original |")
    print("|---|---|---:|---:|---:|---:|---:|")
    shortfalls = []
    for name in READERS:
        files = out_events = out_ok = orig_events = orig_ok = 0
        for r in results:
            if "output" not in r:
                continue
            files += 1
            out, orig = r["output"], r.get("original")
            out_events += out["events"]
            out_ok += out[name]
            # Shares, not counts: calport writes an RDATE period as an override VEVENT of its own
            # (docs/interop.md), so its output can hold more VEVENTs than the original.
            rejected_out = out["events"] - out[name]
            rejected_orig = orig["events"] - orig[name] if orig else 0
            share_out = rejected_out / out["events"] if out["events"] else 0
            share_orig = rejected_orig / orig["events"] if orig and orig["events"] else 0
            if orig:
                orig_events += orig["events"]
                orig_ok += orig[name]
            if name == "radicale" and orig:
                refused = sorted(uid for uid, stored in orig["radicale_uids"].items()
                                 if stored and out["radicale_uids"].get(uid) is False)
                if refused:
                    rel = os.path.relpath(r["source"], os.path.dirname(root))
                    shortfalls.append(f"radicale: {rel}: stores UID {', '.join(refused)} from the original, "
                                      f"refuses it from calport's output")
            if share_out > share_orig:
                rel = os.path.relpath(r["source"], os.path.dirname(root))
                shortfalls.append(f"{name}: {rel}: rejects {rejected_out} of {out['events']} events in calport's "
                                  f"output" + (f", {rejected_orig} of {orig['events']} in the original" if orig else ""))
        print(f"| {name} | {versions[name]} | {files} | {out_events} | {out_ok} | {orig_events} | {orig_ok} |")
        if out_ok == 0 and out_events > 0:
            # A reader that accepts nothing is not working here (a broken install), not strict.
            shortfalls.append(f"{name}: accepted no event at all; is it installed and working?")
    for r in results:
        if not r["converted"]:
            print(f"note: calport wrote no .ics for {os.path.relpath(r['source'], os.path.dirname(root))}")
    if shortfalls:
        print("\nrejected in calport's output, not in the original:")
        for line in shortfalls:
            print("  " + line)
    return 1 if shortfalls else 0


if __name__ == "__main__":
    sys.exit(main())
