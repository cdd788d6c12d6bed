#!/usr/bin/env bash
# Delays never hold a thread: wrk on a plain file with and without 2,000 connections
# parked on a 2 s delay; 2,000 requests delayed 100 ms at once; mockd's CPU while only parked
# requests exist; peak RSS with 2,000 parked connections.
#   make release && bench/parked.sh
source "$(dirname "$0")/common.sh"
mkdir -p "$WORK/MockData" "$WORK/routes"
echo '{"ok":true}' >"$WORK/MockData/mock_plain_get.json"
cat >"$WORK/routes/delays.json" <<'JSON'
{"routes": [
  {"method": "GET", "path": "/delay/2s", "response": {"json": {"slept": 2000}, "delayMs": 2000}},
  {"method": "GET", "path": "/delay/100ms", "response": {"json": {"slept": 100}, "delayMs": 100}},
  {"method": "GET", "path": "/delay/5s", "response": {"json": {"slept": 5000}, "delayMs": 5000}}
]}
JSON
start_mockd --root "$WORK/MockData" --routes "$WORK/routes" --log-level warning
URL=http://127.0.0.1:$PORT

read -r base base_us <<<"$(wrk_cost "$URL/plain")"
taskset -c 1 python3 "$HERE/load.py" park 2000 "$URL/delay/2s" 10 >"$WORK/park.txt" &
LOAD=$!
sleep 2.5   # let the 2,000 connections open and park
parked_now=$(curl -s "$URL/__mockd/health" >/dev/null; echo ok)
read -r busy busy_us <<<"$(wrk_cost "$URL/plain")"
wait $LOAD
echo "plain file, nothing parked:        $base req/s, $base_us µs of mockd CPU per request"
echo "plain file, 2,000 parked on 2 s:   $busy req/s, $busy_us µs per request (ratio $(awk -v a="$busy" -v b="$base" 'BEGIN {printf "%.2f", a / b}'))"
echo "  (the parked connections' client shares CPU 1 with wrk: it re-requests 1,000 times a second)"
echo "the parked connections:            $(cat "$WORK/park.txt")"

taskset -c 1 python3 "$HERE/load.py" burst 2000 "$URL/delay/100ms"

taskset -c 1 python3 "$HERE/load.py" park 2000 "$URL/delay/5s" 8 >"$WORK/park5.txt" &
LOAD=$!
sleep 2.5
t0=$(cpu_ticks "$MOCKD_PID"); sleep 2; t1=$(cpu_ticks "$MOCKD_PID")
echo "mockd CPU with only 2,000 parked requests: $(( (t1 - t0) * 100 / HZ / 2 ))% of one core (over 2 s)"
echo "peak RSS with 2,000 parked connections: $(peak_rss_mib "$MOCKD_PID") MiB"
wait $LOAD
