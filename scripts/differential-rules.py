#!/usr/bin/env python3
"""Random RRULEs expanded by `calport expand` and by python-dateutil, compared occurrence by occurrence.

Usage: scripts/differential-rules.py [SEED…]   (uses the venv of differential-expand.py; 300 rules a seed)
Rules whose DTSTART is not an instance (RFC 5545 §3.8.5.1: the set is then undefined) and rules dateutil
cannot handle or loops on are not compared.
"""
import os, random, subprocess, json, datetime, sys, signal, tempfile
from pathlib import Path
ROOT = Path(__file__).resolve().parent.parent
VENV = ROOT / ".build" / "differential-venv"
if Path(sys.prefix).resolve() != VENV.resolve():
    if not (VENV / "bin" / "python").exists():
        sys.exit("run scripts/differential-expand.py once first: it creates " + str(VENV))
    os.execv(str(VENV / "bin" / "python"), [str(VENV / "bin" / "python"), __file__] + sys.argv[1:])
def _alarm(*a): raise TimeoutError()
signal.signal(signal.SIGALRM, _alarm)
from dateutil.rrule import rrulestr
FREQS = ["YEARLY","MONTHLY","WEEKLY","DAILY","HOURLY"]
DAYS = ["MO","TU","WE","TH","FR","SA","SU"]
def rule():
    f = random.choice(FREQS)
    parts = [f"FREQ={f}"]
    if random.random() < 0.4: parts.append(f"INTERVAL={random.randint(1,4)}")
    if random.random() < 0.35: parts.append("BYMONTH=" + ",".join(map(str, sorted(random.sample(range(1,13), random.randint(1,3))))))
    if f == "YEARLY" and random.random() < 0.2: parts.append("BYWEEKNO=" + ",".join(map(str, random.sample([1,2,10,20,26,52,53,-1,-2], random.randint(1,2)))))
    if f in ("YEARLY","HOURLY","MINUTELY") and random.random() < 0.2: parts.append("BYYEARDAY=" + ",".join(map(str, random.sample([1,2,32,60,100,200,365,366,-1,-100], random.randint(1,3)))))
    if f != "WEEKLY" and random.random() < 0.35: parts.append("BYMONTHDAY=" + ",".join(map(str, random.sample([1,2,13,15,28,29,30,31,-1,-2,-7], random.randint(1,3)))))
    if random.random() < 0.5:
        ds = random.sample(DAYS, random.randint(1,4))
        if f in ("MONTHLY","YEARLY") and random.random() < 0.5 and "BYWEEKNO" not in ";".join(parts):
            ds = [f"{random.choice([1,2,3,-1,-2,4,5,20])}{d}" for d in ds]
        parts.append("BYDAY=" + ",".join(ds))
    if f in ("YEARLY","MONTHLY","WEEKLY","DAILY") and random.random() < 0.25: parts.append("BYHOUR=" + ",".join(map(str, sorted(random.sample(range(24), random.randint(1,2))))))
    if f in ("HOURLY",) and random.random() < 0.5: parts.append("BYHOUR=" + ",".join(map(str, sorted(random.sample(range(24), random.randint(1,5))))))
    if random.random() < 0.2: parts.append("BYMINUTE=" + ",".join(map(str, sorted(random.sample([0,15,30,45], random.randint(1,2))))))
    if random.random() < 0.3: parts.append("BYSETPOS=" + ",".join(map(str, random.sample([1,2,-1,-2,3], random.randint(1,2)))))
    if random.random() < 0.3: parts.append("WKST=" + random.choice(DAYS))
    return ";".join(parts)
def compare(seed, ics):
    random.seed(seed)
    N = 300
    events = []
    for i in range(N):
        start = datetime.datetime(2020, random.randint(1,12), random.randint(1,28), random.randint(0,23), random.choice([0,15,30]))
        r = rule()
        # Anchor DTSTART on the rule's first instance so that the set is defined (RFC 5545 3.8.5.1).
        try:
            signal.alarm(2)
            first = rrulestr(r, dtstart=start).after(start, inc=True)
            if first is not None and first.year < 2021: start = first
        except Exception:
            pass
        finally:
            signal.alarm(0)
        if random.random() < 0.3:
            r += ";COUNT=" + str(random.randint(1, 40))
        events.append((f"u{i}", start, r))
    lines = ["BEGIN:VCALENDAR","VERSION:2.0","PRODID:-//f//EN"]
    for uid, start, r in events:
        lines += ["BEGIN:VEVENT", f"UID:{uid}", "DTSTART:" + start.strftime("%Y%m%dT%H%M%S"), f"RRULE:{r}", "END:VEVENT"]
    lines.append("END:VCALENDAR")
    open(ics,"w").write("\r\n".join(lines)+"\r\n")
    ws, we = datetime.datetime(2020,1,1), datetime.datetime(2021,7,1)
    out = subprocess.run([str(ROOT / ".build" / "debug" / "calport"),"expand","--quiet","--max-occurrences","0","--start","2020-01-01","--end","2021-07-01",ics],capture_output=True,text=True).stdout
    ours = {}
    for line in out.splitlines():
        o = json.loads(line); ours.setdefault(o["uid"], []).append(o["start"][:19])
    bad = 0
    compared = 0
    for uid, start, r in events:
        try:
            signal.alarm(2)
            rr = rrulestr(r, dtstart=start)
            if "COUNT" in r:
                exp = rr.between(start, we, inc=True)
                if start not in exp: continue
            else:
                exp = rr.between(ws, we, inc=True)
                if start not in rr.between(start, start, inc=True): continue  # DTSTART off the rule: set undefined (RFC 5545 3.8.5.1)
        except Exception:
            continue
        finally:
            signal.alarm(0)
        compared = compared + 1
        exp = [d.strftime("%Y-%m-%dT%H:%M:%S") for d in exp if ws <= d < we]
        got = ours.get(uid, [])
        if exp != got:
            bad += 1
            if bad <= 6:
                print("MISMATCH", uid, start, r)
                print("  dateutil", exp[:8], len(exp))
                print("  calport ", got[:8], len(got))
                diff_a = sorted(set(exp)-set(got))[:4]; diff_b = sorted(set(got)-set(exp))[:4]
                print("  only dateutil", diff_a, " only calport", diff_b)
    print(f"seed {seed}: {bad} mismatches among {compared} rules compared (of {N})")


with tempfile.TemporaryDirectory() as directory:
    for seed in [int(a) for a in sys.argv[1:]] or [1]:
        compare(seed, os.path.join(directory, "rules.ics"))
