#!/bin/sh
# Peak RSS and time of `calport export` of COUNT single events (default 20,000) and 50 weekly
# series across 2027, against the Graph emulator, in each --format: docs/performance.md, "Export".
#   scripts/export-memory.sh [BUILD_DIR (.build/release)] [COUNT]
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/.build/release}
count=${2:-20000}
work=$(mktemp -d)
trap 'kill $emulator 2>/dev/null; rm -rf "$work"' EXIT
token=measure-token
python3 "$root/Tests/GraphServiceTests/Emulator/graph_emulator.py" --port 0 --token $token \
  --mailbox-zone UTC >"$work/port" &
emulator=$!
while ! grep -q PORT "$work/port" 2>/dev/null; do sleep 0.1; done
port=$(sed -n 's/^PORT //p' "$work/port")
# Bodies as for POST /me/events: COUNT singles of 30 minutes with a paragraph of text and a room,
# spread over the year's working hours, and 50 weekly series of 52 occurrences.
python3 - "$count" >"$work/seed.json" <<'EOF'
import datetime as dt, json, sys
count = int(sys.argv[1])
text = "Agenda: review the open items, agree on next steps and owners. " * 5
def times(start, minutes):
    end = start + dt.timedelta(minutes=minutes)
    return {"start": {"dateTime": start.isoformat(), "timeZone": "UTC"},
            "end": {"dateTime": end.isoformat(), "timeZone": "UTC"}}
events = []
for index in range(count):
    day = dt.datetime(2027, 1, 1, 8) + dt.timedelta(days=index * 365 // count, minutes=30 * (index % 18))
    events.append({"subject": f"Meeting {index}", "body": {"contentType": "text", "content": text},
                   "location": {"displayName": f"Room {index % 40}"}, **times(day, 30)})
for index in range(50):
    start = dt.datetime(2027, 1, 4 + index % 5, 7 + index % 10)
    events.append({"subject": f"Weekly {index}", "body": {"contentType": "text", "content": text},
                   "recurrence": {"pattern": {"type": "weekly", "interval": 1,
                                              "daysOfWeek": [start.strftime("%A").lower()]},
                                  "range": {"type": "numbered", "startDate": start.date().isoformat(),
                                            "numberOfOccurrences": 52}}, **times(start, 60)})
json.dump({"events": events}, sys.stdout)
EOF
curl -s "http://127.0.0.1:$port/_emulator/seed" --data-binary @"$work/seed.json" >/dev/null
measure() { # label, command...
  label=$1
  shift
  /usr/bin/time -v "$@" 2>"$work/time" >/dev/null || { cat "$work/time"; exit 1; }
  rss=$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$work/time")
  elapsed=$(sed -n 's/.*Elapsed (wall clock) time (h:mm:ss or m:ss): //p' "$work/time")
  echo "$label: peak RSS $((rss / 1024)) MiB, $elapsed"
}
export CALPORT_GRAPH_URL=http://127.0.0.1:$port/v1.0 CALPORT_TOKEN=$token
echo "$count single events and 50 weekly series of 52 in 2027"
for format in ics ndjson graph; do
  measure "export --format $format" "$build/calport" export --start 2027-01-01 --end 2028-01-01 --quiet \
    --format $format -o "$work/out.$format"
done
echo "events written: $(grep -c '^BEGIN:VEVENT' "$work/out.ics") VEVENTs, $(wc -l <"$work/out.ndjson") NDJSON lines"
