#!/usr/bin/env bash
# Instructions per request, counted by callgrind: a figure that does not move with the load on
# the machine (wall-clock benchmarks do), for comparing two builds of mockd on a busy box.
#
#   bench/instructions.sh                         the release build, 2,000 requests a workload
#   MOCKD=/tmp/old/mockd bench/instructions.sh    another build (run both, compare the columns)
#   REQUESTS=500 bench/instructions.sh            fewer requests (valgrind is ~50x slower)
#   PEER=../shared/bench/peers/build/mhd_raw bench/instructions.sh
#                                                 the same counts for bare libmicrohttpd
#   BARE=1 bench/instructions.sh                  requests with only a Host header, as wrk sends them
#                                                 (compare.sh); otherwise curl's three headers
#   CACHE=1 bench/instructions.sh                 also simulate the caches: last-level data misses
#                                                 per request (cold memory, which instructions miss)
#   KEEP=/tmp/cg bench/instructions.sh            keep each workload's callgrind file there
#                                                 (callgrind_annotate --inclusive=yes FILE)
#
# mockd runs under valgrind with the fixture of ../shared/bench (10,000 item files plus the
# small, medium and large bodies). For each workload the counters are zeroed, curl sends exactly
# N requests on one keep-alive connection, and the counters are dumped: the total divided by N is
# what one request cost mockd, every thread included (the access log and the journal too).
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO="$(cd "$HERE/.." && pwd)"
MOCKD=${MOCKD:-$REPO/.build/release/mockd}
[[ "$MOCKD" == /* ]] || MOCKD="$PWD/$MOCKD"
REQUESTS=${REQUESTS:-2000}
FIX=${FIXTURES:-$REPO/../shared/bench/fixtures/out/MockData}
PEER=${PEER:-}
[[ -z "$PEER" || "$PEER" == /* ]] || PEER="$PWD/$PEER"
[[ -n "$PEER" || -x "$MOCKD" ]] || { echo "no mockd at $MOCKD: run 'make release' first" >&2; exit 1; }
[[ -d "$FIX" ]] || { echo "no fixtures at $FIX: run ../shared/bench/setup.sh" >&2; exit 1; }
command -v valgrind >/dev/null || { echo "valgrind is not installed (apt-get install valgrind)" >&2; exit 1; }

WORK=$(mktemp -d)
PID=""
cleanup() {
  if [[ -n "$PID" ]]; then
    kill -TERM "$PID" 2>/dev/null || true
    for _ in $(seq 200); do kill -0 "$PID" 2>/dev/null || break; sleep 0.1; done
    kill -KILL "$PID" 2>/dev/null || true
  fi
  rm -rf "$WORK"
}
trap cleanup EXIT

if [[ -n "$PEER" ]]; then  # mhd_raw takes a port and says nothing on stdout
  PEER_PORT=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  SERVER=("$PEER" --root "$FIX" --port "$PEER_PORT")
  echo "http://127.0.0.1:$PEER_PORT/" >"$WORK/out"
else
  SERVER=("$MOCKD" --root "$FIX" --port 0 --no-watch)
fi
CACHE_ARGS=()
[[ -n "${CACHE:-}" ]] && CACHE_ARGS=(--cache-sim=yes)
(cd "$WORK" && exec valgrind --tool=callgrind "${CACHE_ARGS[@]}" --compress-strings=no --callgrind-out-file="$WORK/cg.%p" \
   "${SERVER[@]}" >>"$WORK/out" 2>"$WORK/err") &
PID=$!
PORT=""
for _ in $(seq 600); do  # valgrind starts slowly: up to a minute
  PORT=$(sed -n 's|.*http://127.0.0.1:\([0-9]*\).*|\1|p' "$WORK/out" | head -1)
  [[ -n "$PORT" ]] && curl -s -o /dev/null "http://127.0.0.1:$PORT/__mockd/health" && break
  PORT=""
  sleep 0.1
done
[[ -n "$PORT" ]] || { echo "mockd did not start under valgrind:" >&2; cat "$WORK/err" >&2; exit 1; }

# Exactly N requests on one connection: curl reuses it for every URL of one invocation.
requests() {  # name url-path [curl args]
  local name=$1 path=$2; shift 2
  local config=$WORK/urls
  : >"$config"
  for i in $(seq "$REQUESTS"); do
    local p=${path//\{i\}/$(( (i * 7919) % 10000 + 1 ))}
    printf 'url = "http://127.0.0.1:%s%s"\noutput = "/dev/null"\n' "$PORT" "$p" >>"$config"
  done
  curl -s -o /dev/null "http://127.0.0.1:$PORT$path" >/dev/null 2>&1 || true  # warm: first-touch costs out
  callgrind_control -z "$PID" >/dev/null 2>&1
  local bare=()
  [[ -n "${BARE:-}" ]] && bare=(-H 'User-Agent:' -H 'Accept:')
  curl -s --config "$config" "${bare[@]}" "$@"
  callgrind_control -d "workload-$name" "$PID" >/dev/null 2>&1
  local dump="" total
  for _ in $(seq 300); do  # the dump is written when mockd's threads next run under valgrind
    dump=$(ls -t "$WORK"/cg.*.* 2>/dev/null | head -1 || true)
    [[ -n "$dump" ]] && grep -q '^totals:' "$dump" && break
    sleep 0.1
  done
  total=$(awk '/^totals:/ {print $2}' "$dump")
  if [[ -n "${CACHE:-}" ]]; then  # events: Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw
    local misses
    misses=$(awk -v n="$REQUESTS" '/^totals:/ {printf "%.1f | %.2f", ($6 + $7) / n, ($9 + $10) / n}' "$dump")
    printf '| %s | %s | %s |\n' "$name" "$(( total / REQUESTS ))" "$misses"
  else
    printf '| %s | %s |\n' "$name" "$(( total / REQUESTS ))"
  fi
  [[ -n "${KEEP:-}" ]] && mkdir -p "$KEEP" && cp "$dump" "$KEEP/$name.callgrind"
  rm -f "$WORK"/cg.*.*
}

if [[ -n "$PEER" ]]; then what="$(basename "$PEER")"; else what="$(basename "$MOCKD") ($("$MOCKD" --version 2>/dev/null || echo '?'))"; fi
echo "instructions per request, $REQUESTS requests each, $what"
echo
if [[ -n "${CACHE:-}" ]]; then
  echo "| workload | instructions / request | L1 data misses / request | last-level data misses / request |"
  echo "|---|---|---|---|"
else
  echo "| workload | instructions / request |"
  echo "|---|---|"
fi
requests small /bench/small
# A new connection per request, as wrk's small-close: accept, the first read, the close.
requests small-close /bench/small -H 'Connection: close'
requests medium /bench/medium
requests large /bench/large
requests items-rand '/bench/items/{i}'
requests 404 /bench/no/such/mock
