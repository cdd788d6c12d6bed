#!/usr/bin/env bash
# mockd against bare libmicrohttpd (bench/peer/mhd_raw.c) serving the same bytes, with wrk:
# req/s, the ratio to bare, p99, µs of server CPU per request, startup and peak RSS with the
# 10,000-file fixture (bench/fixtures.py). A Markdown report on stdout.
#
#   bench/compare.sh                       the release build, 2 rounds, 5 s a workload (~3 min)
#   MOCKD=/tmp/old/mockd bench/compare.sh  another build
#   DURATION=8 bench/compare.sh            seconds a workload
#   ROUNDS=3 bench/compare.sh              rounds (each runs both servers; the order alternates)
#   QUICK=1 bench/compare.sh               smoke run: 1 s a workload, no warm-up, one round (~30 s)
#   START_LIMIT=120 bench/compare.sh       seconds a server may take to answer (default 60)
#
# The server runs pinned to CPU 0, wrk to CPU 1; traffic goes to 127.0.0.1 only; every wrk run
# is bounded by -d; servers are stopped by their PID. wrk is installed with apt-get when missing.
# Raw wrk output, server logs and the TSVs the report is made from: bench/.build/compare/.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"

if ! command -v wrk >/dev/null; then
  echo "compare.sh: installing wrk with apt-get" >&2
  SUDO=""; [[ "$(id -u)" == 0 ]] || SUDO=sudo
  $SUDO apt-get update -q >&2
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q wrk >&2
fi
source "$HERE/common.sh"  # MOCKD, REPO, WORK, HZ, stop_pid, cpu_ticks

DURATION=${DURATION:-5}
ROUNDS=${ROUNDS:-2}
WARMUP=1
if [[ -n "${QUICK:-}" ]]; then DURATION=1; ROUNDS=1; WARMUP=0; fi
FIX=$("$HERE/fixtures.py")
MHD_RAW=$("$HERE/peer/build.sh")
OUT="$HERE/.build/compare"
mkdir -p "$OUT"
rm -f "$OUT"/*.txt "$OUT"/*.log "$OUT"/*.out "$OUT"/*.tsv

# Two cores or more: the server on CPU 0 and wrk on CPU 1, so they do not take turns on one.
SERVER_CPU=(); CLIENT_CPU=()
if (($(nproc) >= 2)); then SERVER_CPU=(taskset -c 0); CLIENT_CPU=(taskset -c 1); fi

# name|connections|how|path   (how: close = a new connection per request, items = a random
# one of the 10,000 item files per request)
WORKLOADS=(
  "small-ka|64||/bench/small"
  "medium-ka|64||/bench/medium"
  "large-ka|16||/bench/large"
  "small-close|16|close|/bench/small"
  "items-rand|64|items|/"
  "404|64||/bench/no/such/mock"
)

server_command() {  # name -> CMD: serves the fixture on 127.0.0.1, a free port, URL on stdout
  case $1 in
    mhd_raw) CMD=("$MHD_RAW" --root "$FIX" --port 0 --host 127.0.0.1) ;;
    mockd) CMD=("$MOCKD" --root "$FIX" --port 0 --host 127.0.0.1) ;;
  esac
}

PID=""
PORT=""
stop_server() { stop_pid "$PID"; PID=""; }
trap 'stop_server; rm -rf "$WORK"' EXIT
trap 'exit 130' INT TERM  # the EXIT trap then stops the server

now_ms() { echo $(($(date +%s%N) / 1000000)); }

# start_server NAME LOG -> PID, PORT, STARTUP (ms from launch to the first 200 on /bench/small),
# or returns 1 with the reason in WHY. From an empty folder: mockd picks up no ./routes.
start_server() {
  server_command "$1"
  local t0 code
  t0=$(now_ms)
  (cd "$WORK" && exec "${SERVER_CPU[@]}" "${CMD[@]}" >"$2.out" 2>"$2") &
  PID=$!
  PORT=""
  while (($(now_ms) - t0 < ${START_LIMIT:-60} * 1000)); do
    kill -0 "$PID" 2>/dev/null || { WHY="exited at start (see $2)"; return 1; }
    [[ -n "$PORT" ]] || PORT=$(sed -n 's|.*http://127\.0\.0\.1:\([0-9][0-9]*\).*|\1|p' "$2.out" | head -1)
    if [[ -n "$PORT" ]]; then
      code=$(curl -s -m 1 -o /dev/null -w '%{http_code}' "http://127.0.0.1:$PORT/bench/small" || true)
      [[ "$code" == 200 ]] && { STARTUP=$(($(now_ms) - t0)); return 0; }
    fi
    sleep 0.01
  done
  WHY="no 200 on /bench/small within ${START_LIMIT:-60} s"
  return 1
}

# check PORT: the bodies are the files' bytes (a query string changes nothing), JSON's
# Content-Type, a 404 for a missing mock. Prints "ok" or what is wrong; status 1 when a body is
# wrong (then the server is not measured: its figures would not be for the same work).
check() {
  local base="http://127.0.0.1:$1" notes="" bad=0 path file code type
  for path in small medium large items/1 items/2 items/4999 items/10000 "items/77?page=2&x=%20"; do
    file="$FIX/mock_bench_$(tr / _ <<<"${path%%\?*}")_get.json"
    read -r code type < <(curl -s -m 5 -o "$WORK/body" -w '%{http_code} %{content_type}\n' "$base/bench/$path")
    if [[ "$code" != 200 ]] || ! cmp -s "$WORK/body" "$file"; then
      notes+="wrong answer to /bench/$path (HTTP $code); "; bad=1
    elif [[ "$type" != application/json* ]]; then
      notes+="Content-Type '$type' on /bench/$path; "
    fi
  done
  code=$(curl -s -m 5 -o /dev/null -w '%{http_code}' "$base/bench/no/such/mock")
  [[ "$code" == 404 ]] || notes+="a missing mock answered $code, not 404; "
  notes=${notes%; }
  echo "${notes:-ok}"
  return $bad
}

busy_cores() {  # -> "busy0 total0 busy1 total1" in ticks (busy: user, nice, system, steal)
  awk '/^cpu0 /{c0 = $2+$3+$4+$9 " " $2+$3+$4+$5+$6+$7+$8+$9} /^cpu1 /{c1 = $2+$3+$4+$9 " " $2+$3+$4+$5+$6+$7+$8+$9}
       END {print (c0 ? c0 : "0 0"), (c1 ? c1 : "0 0")}' /proc/stat
}

# measure SERVER ROUND WORKLOAD: one wrk run; appends a row to runs.tsv. Server CPU is the
# process's utime + stime before and after; "other" is what other processes used of each core;
# errors are wrk's socket errors plus answers that are not 2xx or 3xx (but on the 404 workload).
measure() {
  local server=$1 round=$2 name conns how path env=() args=() t0 t1 c0 c1 raw
  IFS='|' read -r name conns how path <<<"$3"
  [[ "$how" == items ]] && env=(WRK_ITEMS=10000)
  [[ "$how" == close ]] && args=(-H "Connection: close")
  raw="$OUT/$server.$name.r$round.txt"
  t0=$(cpu_ticks "$PID"); read -ra c0 <<<"$(busy_cores)"
  env "${env[@]}" "${CLIENT_CPU[@]}" /usr/bin/time -f "WRK_CPU %U %S" \
    wrk -t1 -c"$conns" -d"${DURATION}s" --latency -s "$HERE/wrk.lua" "${args[@]}" \
    "http://127.0.0.1:$PORT$path" >"$raw" 2>&1 || true
  t1=$(cpu_ticks "$PID"); read -ra c1 <<<"$(busy_cores)"
  awk -v server="$server" -v round="$round" -v name="$name" -v ticks=$((t1 - t0)) -v hz="$HZ" \
      -v seconds="$DURATION" -v b0=$((c1[0] - c0[0])) -v n0=$((c1[1] - c0[1])) \
      -v b1=$((c1[2] - c0[2])) -v n1=$((c1[3] - c0[3])) '
    /^RESULT/ { for (i = 2; i <= NF; i++) { split($i, kv, "="); r[kv[1]] = kv[2] } }
    /^WRK_CPU/ { wrk = ($2 + $3) * hz }
    END {
      if (!r["requests"]) { printf "%s\t%s\t%s\t-\t-\t-\t-\t-\t-\t-\t-\t-\n", round, server, name; exit }
      other0 = n0 ? (b0 - ticks) * 100 / n0 : 0; other1 = n1 ? (b1 - wrk) * 100 / n1 : 0
      printf "%s\t%s\t%s\t%.0f\t%d\t%d\t%d\t%d\t%.1f\t%.0f\t%.0f\t%.0f\n", round, server, name, r["rps"],
        r["p50_us"], r["p99_us"], r["requests"], r["connect"] + r["read"] + r["write"] + r["timeout"] + (name == "404" ? 0 : r["status"]),
        ticks * 1e6 / hz / r["requests"], ticks * 100 / hz / seconds, other0 < 0 ? 0 : other0, other1 < 0 ? 0 : other1
    }' "$raw" >>"$OUT/runs.tsv"
}

printf 'round\tserver\tworkload\trps\tp50_us\tp99_us\trequests\terrors\tus_per_request\tserver_cpu\tother_cpu0\tother_cpu1\n' >"$OUT/runs.tsv"
printf 'round\tserver\tstartup_ms\tpeak_rss_kib\tcheck\n' >"$OUT/servers.tsv"
LOAD_BEFORE=$(cut -d' ' -f1-3 /proc/loadavg)
START=$(date +%s)
FAILED=0
for round in $(seq "$ROUNDS"); do
  order=(mhd_raw mockd); ((round % 2 == 0)) && order=(mockd mhd_raw)  # alternate who goes first
  for server in "${order[@]}"; do
    log="$OUT/$server.r$round.log"
    if ! start_server "$server" "$log"; then
      printf '%s\t%s\t-\t-\tNOT MEASURED: %s\n' "$round" "$server" "$WHY" >>"$OUT/servers.tsv"
      echo "[$round] $server: $WHY" >&2; stop_server; FAILED=1; continue
    fi
    if ! verdict=$(check "$PORT"); then
      printf '%s\t%s\t%s\t-\tNOT MEASURED: %s\n' "$round" "$server" "$STARTUP" "$verdict" >>"$OUT/servers.tsv"
      echo "[$round] $server: not measured: $verdict" >&2; stop_server; FAILED=1; continue
    fi
    ((WARMUP)) && "${CLIENT_CPU[@]}" wrk -t1 -c16 -d1s "http://127.0.0.1:$PORT/bench/small" >/dev/null 2>&1
    for workload in "${WORKLOADS[@]}"; do
      measure "$server" "$round" "$workload"
      echo "[$round] $server ${workload%%|*}: $(tail -1 "$OUT/runs.tsv" | cut -f4-)" >&2
    done
    if kill -0 "$PID" 2>/dev/null; then
      rss=$(awk '/^VmHWM/ {print $2}' "/proc/$PID/status")
    else
      rss=-; verdict+="; EXITED during the runs"; FAILED=1
    fi
    printf '%s\t%s\t%s\t%s\t%s\n' "$round" "$server" "$STARTUP" "$rss" "$verdict" >>"$OUT/servers.tsv"
    stop_server
  done
done

python3 "$HERE/compare-report.py" "$OUT" --duration "$DURATION" --seconds $(($(date +%s) - START)) \
  --load "$LOAD_BEFORE" --mockd "$("$MOCKD" --version 2>/dev/null || echo '?') ($MOCKD)" | tee "$OUT/report.md"
exit $FAILED
