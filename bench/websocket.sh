#!/usr/bin/env bash
# WebSocket routes measured (docs/WEBSOCKET.md): idle connections' CPU and memory, a timeline's
# spacing at many connections, pushes reaching exactly their session, echo round trips and
# messages a second, and plain HTTP req/s beside idle connections against without them.
#   make release && bench/websocket.sh     (N=1000 IDLE_SECONDS=60 DURATION=5 by default;
#                                            ONLY=idle|timeline|push|echo|http for one phase)
# The timeline and the echo round trips are timed by bench/websocket-client.c (C, epoll: the
# Python client measured itself at 1,000 connections); beside mockd's echo, the same client
# against bench/wslay-echo.c, a bare wslay echo server (the floor; needs libwslay-dev and
# libssl-dev). The other phases use Python's `websockets` in a venv of its own
# (.build/ws-bench-venv).
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
want() { [[ -z "${ONLY:-}" || "$ONLY" == "$1" ]]; }
cc -O2 -o "$WORK/websocket-client" "$HERE/websocket-client.c"
CLIENT="taskset -c 1 $WORK/websocket-client"

! want idle || $PY idle "$URL" "$MOCKD_PID" "$N" "$IDLE_SECONDS" || status=1
if want timeline; then
  for n in 100 "$N"; do
    t0=$(cpu_ticks "$MOCKD_PID")
    $CLIENT timeline "$PORT" /ws/timeline "$n" 20 50 || status=1
    t1=$(cpu_ticks "$MOCKD_PID")
    echo "  mockd CPU: $(awk -v t=$((t1 - t0)) -v hz="$HZ" -v n=$((n * 20)) 'BEGIN {printf "%.0f µs a message", t * 1e6 / hz / n}') (opens included)"
  done
fi
! want push || $PY push "$URL" 100 10 || status=1
if want echo; then
  $CLIENT echo "$PORT" /ws/echo 5000 | sed 's/^echo:/echo, mockd:/' || status=1
  $PY echo "$URL" "$MOCKD_PID" 2000 || status=1
  # The floor: the same round trips against bare wslay, pinned to mockd's CPU, for 60 s at most.
  if cc -O2 -o "$WORK/wslay-echo" "$HERE/wslay-echo.c" -lwslay -lcrypto 2>"$WORK/wslay-cc.txt"; then
    WSLAY_PORT=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    taskset -c 0 "$WORK/wslay-echo" "$WSLAY_PORT" 60 >"$WORK/wslay.out" &
    WSLAY_PID=$!
    for _ in $(seq 100); do grep -q listening "$WORK/wslay.out" 2>/dev/null && break; sleep 0.05; done
    $CLIENT echo "$WSLAY_PORT" /ws/echo 5000 | sed 's/^echo:/echo, bare wslay:/' || status=1
    stop_pid "$WSLAY_PID"
  else
    echo "echo, bare wslay: not built (libwslay-dev and libssl-dev): $(head -1 "$WORK/wslay-cc.txt")"
  fi
fi
want http || exit $status

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
