#!/usr/bin/env bash
# Soak: minutes of mixed load (mocks, misses, POSTs, admin calls, 1 % hostile requests; 64
# sessions opened and closed; stubs added and removed; streams read whole or left half-way;
# WebSocket conversations, closed or dropped) on the bundled MockData, with routes/live.json and
# a stream route, while mockd reloads every second (SIGHUP). bench/soak.py prints, every 10 s,
# what was answered and the errors (failed connections, unexpected answers) with mockd's RSS,
# open descriptors and threads, so a leak or a stall shows as a trend; at the end, those
# figures at the start and at the end (5 s after the load stopped, and 35 s after, once the 30 s
# head and idle timeouts have closed what clients left), and the peak RSS.
#   make release && SOAK_SECONDS=300 bench/soak.sh
#   MOCKD=.build/static/mockd SOAK_SECONDS=600 bench/soak.sh    the image's static binary
source "$(dirname "$0")/common.sh"
SECONDS_TOTAL=${SOAK_SECONDS:-300}
CONNECTIONS=${SOAK_CONNECTIONS:-32}
LOAD=""
trap 'stop_pid "$LOAD"; stop_mockd; rm -rf "$WORK"' EXIT
cp -r "$REPO/MockData" "$WORK/MockData"
mkdir -p "$WORK/routes"
cp "$REPO/routes/live.json" "$WORK/routes/"
cat >"$WORK/routes/soak.json" <<'JSON'
{"routes": [{"method": "GET", "path": "/soak/ticks", "response": {"stream": {"events": [
  {"data": {"n": 1}}, {"data": {"n": 2}}, {"data": {"n": 3}}, {"data": {"n": 4}}, {"event": "done", "data": "[DONE]"}
], "intervalMs": 100}}}]}
JSON
start_mockd --root "$WORK/MockData" --routes "$WORK/routes" --log-level warning --no-watch
URL=http://127.0.0.1:$PORT
figures() {  # "RSS MiB, descriptors, threads" now
  echo "RSS $(awk -v k="$(status_field "$MOCKD_PID" VmRSS)" 'BEGIN {printf "%.1f", k / 1024}') MiB," \
    "$(ls "/proc/$MOCKD_PID/fd" | wc -l) open descriptors, $(status_field "$MOCKD_PID" Threads) threads"
}
curl -s -o /dev/null "$URL/api/users"
echo "binary: $MOCKD; $SECONDS_TOTAL s, $CONNECTIONS mixed-load connections"
echo "start: $(figures)"
taskset -c 1 python3 "$HERE/soak.py" "$URL" "$SECONDS_TOTAL" "$CONNECTIONS" "$MOCKD_PID" > >(tee "$WORK/soak.txt") &
LOAD=$!
hups=0
while kill -0 "$LOAD" 2>/dev/null; do
  kill -HUP "$MOCKD_PID"
  hups=$((hups + 1))
  sleep 1
done
wait "$LOAD" || true
LOAD=""
sleep 5
kill -0 "$MOCKD_PID" || { echo "mockd died" >&2; exit 1; }
echo "end (5 s after the load): $(figures)"
# A connection whose client left is closed at the latest by --head-timeout / --idle-timeout (30 s).
sleep 30
echo "end (35 s after the load, past the 30 s timeouts): $(figures)"
echo "peak RSS $(peak_rss_mib "$MOCKD_PID") MiB; $hups reloads asked (SIGHUP); last: $(curl -s "$URL/__mockd/health" | python3 -c 'import json,sys; print(json.load(sys.stdin).get("lastReload"))')"
grep -q "errors=0 " <(tail -1 "$WORK/soak.txt") || { echo "soak: errors" >&2; exit 1; }
