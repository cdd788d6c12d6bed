#!/usr/bin/env bash
# Reload under load: wrk on the 10,000-file fixture while the folder is reloaded 20
# times (10 edits picked up by --watch, 10 SIGHUPs), with a checker comparing every body it
# gets with the file. Reports failed or wrong answers, the reload times, and peak RSS.
#   make release && bench/reload.sh
source "$(dirname "$0")/common.sh"
FIXTURE=${FIXTURE:-$("$HERE/fixtures.py")}
[[ -f "$FIXTURE/mock_bench_items_1_get.json" ]] || { echo "no fixture at $FIXTURE" >&2; exit 1; }
cp -r "$FIXTURE" "$WORK/MockData"
start_mockd --root "$WORK/MockData" --log-level info
URL=http://127.0.0.1:$PORT
LUA="$HERE/wrk.lua"

DURATION=14
WRK_ITEMS=10000 taskset -c 1 wrk -t1 -c32 -d${DURATION}s -s "$LUA" "$URL/" >"$WORK/wrk.txt" 2>&1 &
WRK=$!
taskset -c 1 python3 "$HERE/load.py" verify "$URL" "$WORK/MockData" $((DURATION - 1)) >"$WORK/verify.txt" &
CHECK=$!
sleep 1
for i in $(seq 10); do
  # An edit the watcher sees (a trailing space keeps the JSON and the checker happy) ...
  printf ' ' >>"$WORK/MockData/mock_bench_items_$((i * 7))_get.json"
  sleep 0.6
  # ... and a SIGHUP.
  kill -HUP "$MOCKD_PID"
  sleep 0.6
done
wait $WRK $CHECK
reloads=$(grep -c ' info reloaded ' "$WORK/mockd.log" || true)
echo "reloads done: $reloads (10 by watch, 10 by SIGHUP asked)"
echo "reload time for 10,000 files (ms): $(grep ' info reloaded ' "$WORK/mockd.log" | sed -n 's/.*durationMs=\([0-9]*\).*/\1/p' | sort -n | tr '\n' ' ')"
awk '/^RESULT/ {print "wrk: " $0} /Socket errors|Non-2xx/ {print "wrk: " $0} /Requests\/sec/ {print "wrk: " $0}' "$WORK/wrk.txt"
cat "$WORK/verify.txt"
echo "peak RSS: $(peak_rss_mib "$MOCKD_PID") MiB"
