#!/usr/bin/env bash
# Instructions per request, counted by callgrind: a figure that does not move with the load on
# the machine (wall-clock benchmarks do), for comparing two builds of mockd on a busy box.
#
#   bench/instructions.sh                         the release build, 2,000 requests a workload
#   MOCKD=/tmp/old/mockd bench/instructions.sh    another build (run both, compare the columns)
#   REQUESTS=500 bench/instructions.sh            fewer requests (valgrind is ~50x slower)
#   PEER=$(bench/peer/build.sh) bench/instructions.sh
#                                                 the same counts for bare libmicrohttpd
#   BARE=1 bench/instructions.sh                  requests with only a Host header, as wrk sends them
#                                                 (compare.sh); otherwise curl's three headers
#   CACHE=1 bench/instructions.sh                 also simulate the caches: last-level data misses
#                                                 per request (cold memory, which instructions miss)
#   MOCKD_ARGS="--journal-size 0" bench/instructions.sh
#                                                 more mockd options (what a feature costs a request;
#                                                 not passed to a PEER)
#   KEEP=/tmp/cg bench/instructions.sh            keep each workload's callgrind file there
#                                                 (callgrind_annotate --inclusive=yes FILE)
#
# mockd runs under valgrind with the fixture bench/fixtures.py makes (10,000 item files plus the
# small, medium and large bodies; FIXTURES=DIR another folder). For each workload the counters are zeroed, curl sends exactly
# N requests on one keep-alive connection, and the counters are dumped: the total divided by N is
# what one request cost mockd, every thread included (the access log and the journal too).
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO="$(cd "$HERE/.." && pwd)"
source "$HERE/callgrind.sh"
MOCKD=${MOCKD:-$REPO/.build/release/mockd}
[[ "$MOCKD" == /* ]] || MOCKD="$PWD/$MOCKD"
FIX=${FIXTURES:-$("$HERE/fixtures.py")}
PEER=${PEER:-}
[[ -z "$PEER" || "$PEER" == /* ]] || PEER="$PWD/$PEER"
[[ -n "$PEER" || -x "$MOCKD" ]] || { echo "no mockd at $MOCKD: run 'make release' first" >&2; exit 1; }
[[ -d "$FIX" ]] || { echo "no fixtures at $FIX" >&2; exit 1; }

if [[ -n "$PEER" ]]; then  # mhd_raw takes a port, says nothing on stdout and has no health path
  PEER_PORT=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  echo "http://127.0.0.1:$PEER_PORT/" >"$WORK/out"
  HEALTH_PATH=/bench/small start_under_callgrind "$WORK" "$PEER" --root "$FIX" --port "$PEER_PORT"
else
  # shellcheck disable=SC2086  # MOCKD_ARGS is a list of options
  start_under_callgrind "$WORK" "$MOCKD" --root "$FIX" --port 0 --no-watch ${MOCKD_ARGS:-}
fi

requests() {  # name url-path [curl args]; {i} in the path becomes an item number
  local name=$1 path=$2; shift 2
  curl -s -o /dev/null "http://127.0.0.1:$PORT${path//\{i\}/1}" >/dev/null 2>&1 || true  # warm: first-touch costs out
  local bare=()
  [[ -n "${BARE:-}" ]] && bare=(-H 'User-Agent:' -H 'Accept:')
  count_requests "$name" "$path" "${bare[@]}" "$@"
  if [[ -n "${CACHE:-}" ]]; then  # events: Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw
    local misses
    misses=$(awk -v n="$REQUESTS" '/^totals:/ {printf "%.1f | %.2f", ($6 + $7) / n, ($9 + $10) / n}' "$DUMP")
    printf '| %s | %s | %s |\n' "$name" "$(per_request)" "$misses"
  else
    printf '| %s | %s |\n' "$name" "$(per_request)"
  fi
  dump_done "$name"
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
