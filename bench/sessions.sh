#!/usr/bin/env bash
# Session ports (POST /__mockd/sessions) measured: isolation under parallel load with a reset
# half-way, how soon a waiting GET /__mockd/requests?count=&wait= answers, 200 sessions opened and
# closed (open files and threads back where they were), and req/s on a session port against the
# main port (wrk, ROUNDS interleaved rounds).
#   make release && bench/sessions.sh            (ROUNDS=3 DURATION=5 by default)
source "$(dirname "$0")/common.sh"
mkdir -p "$WORK/MockData"
echo '{"ok":true}' >"$WORK/MockData/mock_plain_get.json"
# Scenario names the isolation run uses must be known: one overlay folder each.
for index in 0 1 2 3 4 5 6 7; do mkdir -p "$WORK/MockData/scenarios/s$index"; echo '{}' >"$WORK/MockData/scenarios/s$index/mock_unused_get.json"; done
start_mockd --root "$WORK/MockData" --log-level warning --journal-size 20000 --max-sessions 256
URL=http://127.0.0.1:$PORT
ROUNDS=${ROUNDS:-3}
DURATION=${DURATION:-5}
status=0

taskset -c 1 python3 "$HERE/sessions.py" isolation "$URL" || status=1
taskset -c 1 python3 "$HERE/sessions.py" wait "$URL" || status=1
taskset -c 1 python3 "$HERE/sessions.py" churn "$URL" "$MOCKD_PID" || status=1

SESSION=$(python3 "$HERE/sessions.py" open "$URL" wrk)
for round in $(seq "$ROUNDS"); do
  read -r main main_us <<<"$(wrk_cost "$URL/plain")"
  read -r session session_us <<<"$(wrk_cost "$SESSION/plain")"
  echo "round $round: main port $main req/s ($main_us µs/request); session port $session req/s ($session_us µs/request);" \
       "ratio $(awk -v a="$session" -v b="$main" 'BEGIN {printf "%.2f", a / b}')"
done
exit $status
