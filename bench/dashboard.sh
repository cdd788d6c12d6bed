#!/usr/bin/env bash
# Dashboards never slow the mocks: wrk on a plain file with no dashboard and with 10
# dashboards long-polling GET /__mockd/events, in ROUNDS interleaved rounds (req/s and µs of
# mockd CPU per request); then mockd's CPU with 10 idle dashboards (no requests at all).
#   make release && bench/dashboard.sh            (ROUNDS=3 DURATION=5 by default)
source "$(dirname "$0")/common.sh"
mkdir -p "$WORK/MockData"
echo '{"ok":true}' >"$WORK/MockData/mock_plain_get.json"
start_mockd --root "$WORK/MockData" --log-level warning
URL=http://127.0.0.1:$PORT
ROUNDS=${ROUNDS:-3}
DURATION=${DURATION:-5}

for round in $(seq "$ROUNDS"); do
  read -r base base_us <<<"$(wrk_cost "$URL/plain")"
  # The dashboards share CPU 1 with wrk, as a browser would share a laptop with the app.
  taskset -c 1 python3 "$HERE/dashboards.py" 10 "$URL" "$((DURATION + 2))" >"$WORK/dash.txt" &
  DASH=$!
  curl -s -o /dev/null "$URL/plain"   # the dashboards' first answer is immediate; this is news for their second
  read -r busy busy_us <<<"$(wrk_cost "$URL/plain")"
  wait $DASH
  echo "round $round: no dashboard $base req/s ($base_us µs/request); 10 dashboards $busy req/s ($busy_us µs/request);" \
       "ratio $(awk -v a="$busy" -v b="$base" 'BEGIN {printf "%.2f", a / b}'); dashboards: $(cat "$WORK/dash.txt")"
done

taskset -c 1 python3 "$HERE/dashboards.py" 10 "$URL" 12 >"$WORK/idle.txt" &
DASH=$!
sleep 1   # the ten first polls (answered at once) and the ten waiting ones
t0=$(cpu_ticks "$MOCKD_PID"); sleep 10; t1=$(cpu_ticks "$MOCKD_PID")
wait $DASH
echo "10 idle dashboards: mockd used $((t1 - t0)) CPU ticks ($HZ a second) in 10 s; dashboards: $(cat "$WORK/idle.txt")"
