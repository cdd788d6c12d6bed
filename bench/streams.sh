#!/usr/bin/env bash
# Streams measured: CLIENTS concurrent server-sent-event streams of EVENTS events every
# INTERVAL ms (how late events arrive against their schedule), req/s of plain requests beside
# them against without (wrk, same duration), and mockd's CPU while the streams only wait.
#   make release && bench/streams.sh      (CLIENTS=1000 EVENTS=100 INTERVAL=50 by default)
# Also prints the floor (bench/send-floor.c): the CPU a bare send() of each event costs.
source "$(dirname "$0")/common.sh"
CLIENTS=${CLIENTS:-1000}
EVENTS=${EVENTS:-100}
INTERVAL=${INTERVAL:-50}
DURATION=${DURATION:-4}
mkdir -p "$WORK/MockData" "$WORK/routes"
echo '{"ok":true}' >"$WORK/MockData/mock_plain_get.json"
python3 - "$EVENTS" "$INTERVAL" >"$WORK/routes/streams.json" <<'PY'
import json, sys
events, interval = int(sys.argv[1]), int(sys.argv[2])
print(json.dumps({"routes": [
    {"method": "GET", "path": "/stream", "response": {"stream": {"events": [{"data": {"n": n}} for n in range(events)], "intervalMs": interval}}},
    {"method": "GET", "path": "/idle", "response": {"stream": {"chunks": ["a", "b"], "intervalMs": 600000}}},
]}))
PY
start_mockd --root "$WORK/MockData" --routes "$WORK/routes" --log-level warning --max-connections 8192
URL=http://127.0.0.1:$PORT
status=0

read -r alone alone_us <<<"$(wrk_cost "$URL/plain")"
cc -O2 -o "$WORK/streams-client" "$HERE/streams-client.c"
# The streams alone first: mockd's CPU for each event sent (mockd runs on one core, so this is
# what the plain requests beside them lose).
t0=$(cpu_ticks "$MOCKD_PID")
taskset -c 1 "$WORK/streams-client" "$PORT" /stream "$CLIENTS" "$EVENTS" "$INTERVAL" >"$WORK/streams-alone.txt" || status=1
t1=$(cpu_ticks "$MOCKD_PID")
echo "alone: $(cat "$WORK/streams-alone.txt")"
echo "mockd CPU per event: $(awk -v ticks=$((t1 - t0)) -v hz="$HZ" -v n=$((CLIENTS * EVENTS)) 'BEGIN {printf "%.1f", ticks * 1000000 / hz / n}') µs"
# The floor: what one send() of an event costs a process on loopback (the receiver's side of
# TCP runs in the sender's system call there), paced at the streams' rate. No server can send
# the events for less, so 1 - (that share of a CPU) bounds the ratio below on mockd's one CPU.
cc -O2 -o "$WORK/send-floor" "$HERE/send-floor.c"
"$WORK/send-floor" "$CLIENTS" $((CLIENTS * 1000 / INTERVAL)) 3 | sed 's/^/floor: /'
taskset -c 1 "$WORK/streams-client" "$PORT" /stream "$CLIENTS" "$EVENTS" "$INTERVAL" >"$WORK/streams.txt" &
STREAMS=$!
sleep 0.5   # the streams connect first
read -r beside beside_us <<<"$(wrk_cost "$URL/plain")"
wait $STREAMS || status=1
echo "beside wrk: $(cat "$WORK/streams.txt")"
echo "plain requests: alone $alone req/s ($alone_us µs/request); beside $CLIENTS streams $beside req/s ($beside_us µs/request);" \
     "ratio $(awk -v a="$beside" -v b="$alone" 'BEGIN {printf "%.2f", a / b}')"

# Idle: streams waiting ten minutes for their next piece cost (almost) nothing.
taskset -c 1 python3 - "$PORT" 200 <<'PY' &
import socket, sys, time
port, count = int(sys.argv[1]), int(sys.argv[2])
held = []
for _ in range(count):
    connection = socket.create_connection(("127.0.0.1", port))
    connection.sendall(b"GET /idle HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
    held.append(connection)
time.sleep(12)
PY
IDLE=$!
sleep 1
t0=$(cpu_ticks "$MOCKD_PID"); sleep 10; t1=$(cpu_ticks "$MOCKD_PID")
wait $IDLE || true
echo "200 idle streams: mockd used $((t1 - t0)) CPU ticks ($HZ a second) in 10 s"
exit $status
