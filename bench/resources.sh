#!/usr/bin/env bash
# What a resource costs a request, beside a file with the same bytes: instructions per request
# counted by callgrind, as bench/instructions.sh counts them.
#
#   bench/resources.sh                   the release build, 2,000 requests a workload
#   REQUESTS=500 bench/resources.sh      fewer (valgrind is ~50x slower)
#   MOCKD=/tmp/old/mockd bench/resources.sh
#
# The fixture: a resource `/bench/res` seeded with 1,000 items, and files answering
# `GET /bench/file` with the bytes of item 1 and `POST /bench/file` with a small object.
# Workloads: GET of a file, GET of one resource item (the same bytes), POST to the file, POST
# to the resource (each one adds an item: the collection grows by REQUESTS), PUT of one item
# (the collection stays at 1,000). Then the two writes again on a server started with
# --state-dir: callgrind counts every thread, so the figure includes the writer thread's share
# (the whole collection written once per ~50 ms of changes).
#
# Then, unless WRK_SECONDS=0, the same writes in wall-clock time with wrk (the release build,
# not under valgrind, 16 connections for WRK_SECONDS, default 5), without and with --state-dir:
# requests a second, p50 and p99 latency, and mockd's CPU time (all threads) per request.
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
source "$HERE/callgrind.sh"
release_mockd

FIX="$WORK/fixture"
mkdir -p "$FIX/MockData" "$FIX/routes"
python3 - "$FIX" <<'EOF'
import json, sys
fix = sys.argv[1]
items = [{"id": i, "user_id": i % 50, "started_at": "2024-05-01T22:10:00Z", "quality": i % 5, "note": "slept well"} for i in range(1, 1001)]
with open(f"{fix}/MockData/seed.json", "w") as f:
    json.dump(items, f)
with open(f"{fix}/MockData/mock_bench_file_get.json", "w") as f:
    f.write(json.dumps(items[0], separators=(",", ":")))
with open(f"{fix}/MockData/mock_bench_file_post.json", "w") as f:
    f.write('{"id":1001,"user_id":3,"started_at":"2024-05-03T22:00:00Z"}')
with open(f"{fix}/routes/r.json", "w") as f:
    json.dump({"routes": [{"resource": "/bench/res", "seed": "seed.json"}]}, f)
EOF

start_under_callgrind "$FIX" "$MOCKD" --root MockData --routes routes --port 0 --no-watch ${MOCKD_ARGS:-}

requests() {  # name path [curl args]
  local name=$1 path=$2; shift 2
  curl -s -o /dev/null "http://127.0.0.1:$PORT$path" "$@" >/dev/null 2>&1 || true  # warm
  count_requests "$name" "$path" "$@"
  printf '| %s | %s |\n' "$name" "$(per_request)"
  dump_done "$name"
}

echo "instructions per request, $REQUESTS requests each, $(basename "$MOCKD") ($("$MOCKD" --version 2>/dev/null || echo '?'))"
echo
echo "| workload | instructions / request |"
echo "|---|---|"
requests file-get /bench/file
requests resource-get /bench/res/1
body='{"user_id":3,"started_at":"2024-05-03T22:00:00Z"}'
requests file-post /bench/file -H 'Content-Type: application/json' --data "$body"
requests resource-post /bench/res -H 'Content-Type: application/json' --data "$body"
requests resource-put /bench/res/1 -X PUT -H 'Content-Type: application/json' --data "$body"

# The same writes with the state saved: a new server, so the collection starts at 1,000 again.
stop_server() {
  kill -TERM "$PID" 2>/dev/null || true
  for _ in $(seq 600); do kill -0 "$PID" 2>/dev/null || break; sleep 0.1; done
  PID=""
}
stop_server
rm -f "$WORK/out"
start_under_callgrind "$FIX" "$MOCKD" --root MockData --routes routes --port 0 --no-watch --state-dir "$WORK/state" ${MOCKD_ARGS:-}
requests resource-post-state-dir /bench/res -H 'Content-Type: application/json' --data "$body"
requests resource-put-state-dir /bench/res/1 -X PUT -H 'Content-Type: application/json' --data "$body"
stop_server

[[ "${WRK_SECONDS:-5}" == 0 ]] && exit 0
command -v wrk >/dev/null || { echo "(wrk is not installed: no wall-clock figures)"; exit 0; }
printf 'dofile("%s/wrk.lua")\nwrk.method = os.getenv("WRK_METHOD")\nwrk.body = %s\nwrk.headers["Content-Type"] = "application/json"\n' \
  "$HERE" "'$body'" >"$WORK/write.lua"
echo
echo "wall clock: wrk -t1 -c16 -d${WRK_SECONDS:-5}s, mockd on CPU 0, wrk on CPU 1"
echo
echo "| workload | requests/s | p50 µs | p99 µs | mockd CPU µs / request (all threads) |"
echo "|---|---|---|---|---|"
for state in "" "--state-dir"; do
  for method in POST PUT; do
    rm -rf "$WORK/state" "$WORK/plain.out"
    extra=()
    [[ -n "$state" ]] && extra=(--state-dir "$WORK/state")
    (cd "$FIX" && exec taskset -c 0 "$MOCKD" --root MockData --routes routes --port 0 --no-watch --log-level warning "${extra[@]}" \
       >"$WORK/plain.out" 2>"$WORK/plain.err") &
    PID=$!
    PORT=""
    for _ in $(seq 300); do
      PORT=$(sed -n 's|.*http://127.0.0.1:\([0-9]*\).*|\1|p' "$WORK/plain.out" | head -1)
      [[ -n "$PORT" ]] && curl -s -o /dev/null "http://127.0.0.1:$PORT/__mockd/health" && break
      PORT=""
      sleep 0.05
    done
    [[ -n "$PORT" ]] || { echo "mockd did not start:" >&2; cat "$WORK/plain.err" >&2; exit 1; }
    target=/bench/res
    [[ $method == PUT ]] && target=/bench/res/1
    t0=$(awk '{print $14 + $15}' "/proc/$PID/stat")
    result=$(WRK_METHOD=$method taskset -c 1 wrk -t1 -c16 -d"${WRK_SECONDS:-5}s" -s "$WORK/write.lua" "http://127.0.0.1:$PORT$target" | grep '^RESULT')
    t1=$(awk '{print $14 + $15}' "/proc/$PID/stat")
    echo "$result" | awk -v name="resource-${method,,}${state:+ $state}" -v ticks=$((t1 - t0)) -v hz="$(getconf CLK_TCK)" '{
      for (i = 2; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
      printf "| %s | %d | %d | %d | %.1f |\n", name, v["rps"], v["p50_us"], v["p99_us"], ticks * 1000000 / hz / v["requests"] }'
    stop_server
  done
done
