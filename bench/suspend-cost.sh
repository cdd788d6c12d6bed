#!/usr/bin/env bash
# What libmicrohttpd's suspend/resume support costs by itself (issue 2's req/s goal): bare
# libmicrohttpd (../shared/bench's mhd_raw), the same program rebuilt with
# MHD_ALLOW_SUSPEND_RESUME (which mockd needs to park delayed requests without a thread),
# and mockd, each serving the 10,000-file fixture, in rounds. Prints req/s and µs of server
# CPU per request for small files, random files and 404s.
#   make release && ../shared/bench/setup.sh && bench/suspend-cost.sh
# ROUNDS (default 3) and DURATION (seconds per cell, default 4) change the length.
source "$(dirname "$0")/common.sh"
SHARED="$REPO/../shared/bench"
FIXTURE="$SHARED/fixtures/out/MockData"
[[ -d "$FIXTURE" && -f "$SHARED/peers/mhd_raw.c" ]] || { echo "run ../shared/bench/setup.sh first" >&2; exit 1; }

# The variant: mhd_raw.c with one more daemon flag, built in the temporary folder.
sed 's/MHD_USE_TURBO;/MHD_USE_TURBO | MHD_ALLOW_SUSPEND_RESUME;/' "$SHARED/peers/mhd_raw.c" >"$WORK/mhd_suspend.c"
grep -q MHD_ALLOW_SUSPEND_RESUME "$WORK/mhd_suspend.c" || { echo "mhd_raw.c changed: the flag was not added" >&2; exit 1; }
gcc -O2 -o "$WORK/mhd_suspend" "$WORK/mhd_suspend.c" $(pkg-config --cflags --libs libmicrohttpd)
[[ -x "$SHARED/peers/build/mhd_raw" ]] || gcc -O2 -o "$WORK/mhd_raw" "$SHARED/peers/mhd_raw.c" $(pkg-config --cflags --libs libmicrohttpd)
MHD_RAW=$SHARED/peers/build/mhd_raw
[[ -x "$MHD_RAW" ]] || MHD_RAW=$WORK/mhd_raw

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
    out=$(cd "$SHARED" && env "${env[@]}" taskset -c 1 wrk -t1 -c64 -d"${DURATION:-4}s" -s wrk/bench.lua "$url")
    t1=$(cpu_ticks "$pid")
    line+=$(echo "$out" | awk -v w="$workload" -v ticks=$((t1 - t0)) -v hz="$HZ" \
      '/requests in/ {n = $1} /Requests\/sec/ {r = $2} END {printf "  %s %7d req/s %5.1f µs", w, r, ticks * 1000000 / hz / n}')
  done
  echo "$line"
}

start_c_server() {  # binary -> SERVER_PID, PORT
  PORT=$(free_port)
  taskset -c 0 "$1" --root "$FIXTURE" --port "$PORT" --host 127.0.0.1 >"$WORK/c.log" 2>&1 &
  SERVER_PID=$!
  for _ in $(seq 200); do curl -s -o /dev/null "http://127.0.0.1:$PORT/bench/small" && return 0; sleep 0.05; done
  echo "$1 did not start" >&2; cat "$WORK/c.log" >&2; exit 1
}

for round in $(seq "${ROUNDS:-3}"); do
  echo "round $round"
  start_c_server "$MHD_RAW"; measure mhd_raw "$SERVER_PID" "$PORT"; stop_server
  start_c_server "$WORK/mhd_suspend"; measure mhd_suspend "$SERVER_PID" "$PORT"; stop_server
  start_mockd --root "$FIXTURE"; measure mockd "$MOCKD_PID" "$PORT"; stop_mockd
done
