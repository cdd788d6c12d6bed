#!/usr/bin/env bash
# WebSocket routes measured (docs/WEBSOCKET.md): idle connections' CPU and memory, a timeline's
# spacing at many connections, pushes reaching exactly their session, echo round trips and
# messages a second, and plain HTTP req/s beside idle connections against without them.
#   make release && bench/websocket.sh     (N=1000 IDLE_SECONDS=60 DURATION=5 by default;
#                                            ONLY=timeline for that phase alone)
# The client is Python's `websockets` in a venv of its own (.build/ws-bench-venv).
source "$(dirname "$0")/common.sh"
N=${N:-1000}
IDLE_SECONDS=${IDLE_SECONDS:-60}
VENV=${WS_BENCH_VENV:-$REPO/.build/ws-bench-venv}
[[ -x "$VENV/bin/python" ]] || { python3 -m venv "$VENV" && "$VENV/bin/pip" -q install websockets; }
PY="taskset -c 1 $VENV/bin/python $HERE/websocket.py"

mkdir -p "$WORK/MockData" "$WORK/routes"
echo '{"ok":true}' >"$WORK/MockData/mock_plain_get.json"
cat >"$WORK/routes/ws.json" <<'JSON'
{ "routes": [
  { "path": "/ws/idle", "websocket": {} },
  { "path": "/ws/push", "websocket": {} },
  { "path": "/ws/echo", "websocket": { "onMessage": [ { "reply": { "text": "{{message}}" } } ] } },
  { "path": "/ws/timeline", "websocket": { "intervalMs": 50, "onOpen": [
    {"text": "m"}, {"text": "m"}, {"text": "m"}, {"text": "m"}, {"text": "m"}, {"text": "m"}, {"text": "m"},
    {"text": "m"}, {"text": "m"}, {"text": "m"}, {"text": "m"}, {"text": "m"}, {"text": "m"}, {"text": "m"},
    {"text": "m"}, {"text": "m"}, {"text": "m"}, {"text": "m"}, {"text": "m"}, {"text": "m"} ] } }
] }
JSON
# No journal: these runs measure the connections, not the journal's ring of their messages.
start_mockd --root "$WORK/MockData" --routes "$WORK/routes" --log-level warning --journal-size 0 --max-connections 8192
URL=http://127.0.0.1:$PORT
status=0

[[ -n "${ONLY:-}" && "${ONLY}" != idle ]] || $PY idle "$URL" "$MOCKD_PID" "$N" "$IDLE_SECONDS" || status=1
$PY timeline "$URL" "$N" || status=1
[[ "${ONLY:-}" != timeline ]] || exit $status
$PY push "$URL" 100 10 || status=1
$PY echo "$URL" "$MOCKD_PID" 2000 || status=1

# Plain HTTP beside N idle connections, against without them (interleaved).
for round in 1 2; do
  without=$(wrk_rps "$URL/plain")
  $PY hold "$URL" "$N" $((${DURATION:-5} + 5)) >"$WORK/hold.out" &
  holder=$!
  for _ in $(seq 600); do grep -q holding "$WORK/hold.out" 2>/dev/null && break; sleep 0.05; done
  beside=$(wrk_rps "$URL/plain")
  stop_pid "$holder"
  echo "http round $round: $without req/s without WebSocket connections, $beside beside $N idle ones:" \
       "ratio $(awk -v a="$beside" -v b="$without" 'BEGIN {printf "%.2f", a / b}')"
done
exit $status
