#!/bin/sh
# Peak RSS of convert, export and import for one event with a file attachment of SIZE bytes
# (default 20,000,000), against the Graph emulator: docs/performance.md, "Attachments".
#   scripts/attachment-memory.sh [BUILD_DIR (.build/release)] [SIZE]
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/.build/release}
size=${2:-20000000}
work=$(mktemp -d)
trap 'kill $emulator 2>/dev/null; rm -rf "$work"' EXIT
token=measure-token
python3 "$root/Tests/GraphServiceTests/Emulator/graph_emulator.py" --port 0 --token $token >"$work/port" &
emulator=$!
while ! grep -q PORT "$work/port" 2>/dev/null; do sleep 0.1; done
port=$(sed -n 's/^PORT //p' "$work/port")
graph=http://127.0.0.1:$port/v1.0
head -c "$size" /dev/urandom >"$work/file.bin"
id=$(curl -s -H "Authorization: Bearer $token" -H 'Content-Type: application/json' "$graph/me/events" -d \
  '{"subject":"Big file","start":{"dateTime":"2027-03-02T10:00:00","timeZone":"UTC"},"end":{"dateTime":"2027-03-02T11:00:00","timeZone":"UTC"}}' |
  python3 -c 'import json,sys; print(json.load(sys.stdin)["id"])')
curl -s "http://127.0.0.1:$port/_emulator/attach" -d \
  "{\"event\":\"$id\",\"name\":\"file.bin\",\"contentType\":\"application/octet-stream\",\"path\":\"$work/file.bin\"}" >/dev/null
# GNU time reports the largest peak of calport and of the calport-http helpers it runs (one a
# request), so each helper runs under GNU time of its own too, and their largest peak is shown.
cat >"$work/helper" <<EOF
#!/bin/sh
exec /usr/bin/time -f %M -a -o "$work/helpers" "$build/calport-http" "\$@"
EOF
chmod +x "$work/helper"
measure() { # label, command...
  label=$1
  shift
  : >"$work/helpers"
  CALPORT_HTTP_HELPER="$work/helper" /usr/bin/time -v "$@" 2>"$work/time" >/dev/null || { cat "$work/time"; exit 1; }
  rss=$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$work/time")
  helpers=$(sort -n "$work/helpers" | tail -1)
  echo "$label: peak RSS $((rss / 1024)) MiB${helpers:+ (largest calport-http: $((helpers / 1024)) MiB)}"
}
export CALPORT_GRAPH_URL=$graph CALPORT_TOKEN=$token
echo "attachment: $size bytes"
measure "export" "$build/calport" export --start 2027-03-01 --end 2027-03-05 --tz UTC -o "$work/out.ics"
measure "convert ics->ics" "$build/calport" convert --to ics -o "$work/copy.ics" "$work/out.ics"
cmp -s "$work/out.ics" "$work/copy.ics" && echo "convert: output byte-identical to its input"
measure "import" "$build/calport" import --calendar Second "$work/out.ics"
