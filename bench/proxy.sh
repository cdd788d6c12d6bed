#!/usr/bin/env bash
# Proxying: proxied req/s and added latency against a local upstream (a second
# mockd), and mocked answers' req/s while 200 proxied requests wait on a slow upstream.
#   make release && bench/proxy.sh
source "$(dirname "$0")/common.sh"
mkdir -p "$WORK/up/MockData" "$WORK/up/routes" "$WORK/MockData"
printf '{"from": "upstream"}' >"$WORK/up/MockData/mock_real_get.json"
echo '{"routes": [{"method": "GET", "path": "/slow", "response": {"json": {"slow": true}, "delayMs": 3000}}]}' >"$WORK/up/routes/slow.json"
printf '{"from": "mock"}' >"$WORK/MockData/mock_mocked_get.json"

# The upstream: another mockd on CPU 1 with the load generator.
(cd "$WORK" && exec taskset -c 1 "$MOCKD" --root "$WORK/up/MockData" --routes "$WORK/up/routes" --port 0 --log-level warning >"$WORK/up.out" 2>&1) &
UP_PID=$!
trap 'stop_pid "${UP_PID:-}"; stop_mockd; rm -rf "$WORK"' EXIT
for _ in $(seq 200); do UP_PORT=$(sed -n 's|.*http://127.0.0.1:\([0-9]*\).*|\1|p' "$WORK/up.out" | head -1); [[ -n "$UP_PORT" ]] && break; sleep 0.05; done
UP=http://127.0.0.1:$UP_PORT

start_mockd --root "$WORK/MockData" --proxy "$UP" --log-level warning
URL=http://127.0.0.1:$PORT
direct=$(DURATION=4 wrk_rps "$UP/real")
proxied=$(DURATION=4 wrk_rps "$URL/real")
lat_direct=$(curl -s -o /dev/null -w '%{time_total}' "$UP/real"; for _ in $(seq 20); do curl -s -o /dev/null -w ' %{time_total}' "$UP/real"; done)
lat_proxied=$(curl -s -o /dev/null -w '%{time_total}' "$URL/real"; for _ in $(seq 20); do curl -s -o /dev/null -w ' %{time_total}' "$URL/real"; done)
median() { tr ' ' '\n' | sort -n | awk '{a[NR] = $1} END {printf "%.2f", a[int((NR + 1) / 2)] * 1000}'; }
echo "upstream direct: $direct req/s; through mockd --proxy: $proxied req/s"
echo "median latency (curl, 21 requests): direct $(echo "$lat_direct" | median) ms, proxied $(echo "$lat_proxied" | median) ms"

mocked=$(DURATION=4 wrk_rps "$URL/mocked")
taskset -c 1 python3 "$HERE/load.py" burst 200 "$URL/slow" >"$WORK/slow.txt" &
LOAD=$!
sleep 1
mocked_busy=$(DURATION=4 wrk_rps "$URL/mocked")
wait $LOAD
echo "mocked file: $mocked req/s alone, $mocked_busy req/s while 200 proxied requests wait 3 s upstream (ratio $(awk -v a="$mocked_busy" -v b="$mocked" 'BEGIN {printf "%.2f", a / b}'))"
echo "the slow proxied requests: $(cat "$WORK/slow.txt")"
