#!/usr/bin/env bash
# What libmicrohttpd's suspend/resume support costs by itself, against mockd's goal of at
# least 0.9× bare libmicrohttpd's req/s (docs/BENCHMARKS.md): bare libmicrohttpd
# (bench/peer/mhd_raw.c), the same program started with
# MHD_ALLOW_SUSPEND_RESUME (which mockd needs to park delayed requests without a thread),
# and mockd, each serving the 10,000-file fixture, in rounds. Prints req/s and µs of server
# CPU per request for small files, random files and 404s.
#   make release && bench/suspend-cost.sh
# ROUNDS (default 3) and DURATION (seconds per cell, default 4) change the length.
source "$(dirname "$0")/common.sh"
FIXTURE=$("$HERE/fixtures.py")
MHD_RAW=$("$HERE/peer/build.sh")  # the variant is the same program with --suspend-resume

SERVER_PID=""
stop_server() { stop_pid "$SERVER_PID"; SERVER_PID=""; }
trap 'stop_server; stop_mockd; rm -rf "$WORK"' EXIT

# A free port for the two C servers (they take no port 0).
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

measure() {  # name pid port
  local name=$1 pid=$2 port=$3 line
  line=$(printf "%-12s" "$name")
  taskset -c 1 wrk -t1 -c16 -d1s "http://127.0.0.1:$port/bench/small" >/dev/null
  for workload in small items 404; do
    local url="http://127.0.0.1:$port/bench/small" env=() out t0 t1
    [[ $workload == items ]] && { url="http://127.0.0.1:$port/"; env=(WRK_ITEMS=10000); }
    [[ $workload == 404 ]] && url="http://127.0.0.1:$port/bench/no/such/mock"
    t0=$(cpu_ticks "$pid")
    out=$(env "${env[@]}" taskset -c 1 wrk -t1 -c64 -d"${DURATION:-4}s" -s "$HERE/wrk.lua" "$url")
    t1=$(cpu_ticks "$pid")
    line+=$(echo "$out" | awk -v w="$workload" -v ticks=$((t1 - t0)) -v hz="$HZ" \
      '/requests in/ {n = $1} /Requests\/sec/ {r = $2} END {printf "  %s %7d req/s %5.1f µs", w, r, ticks * 1000000 / hz / n}')
  done
  echo "$line"
}

start_c_server() {  # binary [options] -> SERVER_PID, PORT
  PORT=$(free_port)
  taskset -c 0 "$@" --root "$FIXTURE" --port "$PORT" --host 127.0.0.1 >"$WORK/c.log" 2>&1 &
  SERVER_PID=$!
  for _ in $(seq 200); do curl -s -o /dev/null "http://127.0.0.1:$PORT/bench/small" && return 0; sleep 0.05; done
  echo "$1 did not start" >&2; cat "$WORK/c.log" >&2; exit 1
}

for round in $(seq "${ROUNDS:-3}"); do
  echo "round $round"
  start_c_server "$MHD_RAW"; measure mhd_raw "$SERVER_PID" "$PORT"; stop_server
  start_c_server "$MHD_RAW" --suspend-resume; measure mhd_suspend "$SERVER_PID" "$PORT"; stop_server
  start_mockd --root "$FIXTURE"; measure mockd "$MOCKD_PID" "$PORT"; stop_mockd
done
