#!/usr/bin/env bash
# Memory per mock file beside its bytes (goal: ≤ 700 B), for mockd and bare libmicrohttpd:
# resident memory after one request with one 325 B file, then with the 10,000-file fixture, then
# after every one of the 10,000 files has been asked for once (mockd makes libmicrohttpd's
# response for a file on its first request). Three starts each; medians.
#
#   bench/file-memory.sh                       the release build
#   MOCKD=.build/static/mockd bench/file-memory.sh
source "$(dirname "$0")/common.sh"
FIXTURE=$("$HERE/fixtures.py")
MHD_RAW=$("$HERE/peer/build.sh")
WORK=$(mktemp -d)
SERVER_PID=""
trap 'stop_pid "$SERVER_PID"; stop_mockd; rm -rf "$WORK"' EXIT
mkdir -p "$WORK/one"
cp "$FIXTURE/mock_bench_small_get.json" "$WORK/one/"
FILES=$(find "$FIXTURE" -name 'mock_*.json' | wc -l)
BYTES=$(find "$FIXTURE" -name 'mock_*.json' -printf '%s\n' | awk '{s += $1} END {print s}')
for i in $(seq 1 10000); do printf 'url = "http://127.0.0.1:PORT/bench/items/%d"\noutput = "/dev/null"\n' "$i"; done >"$WORK/items.template"

rss_kib() { awk '/VmRSS/ {print $2}' "/proc/$1/status"; }
median() { sort -n | awk '{a[NR] = $1} END {print a[int((NR + 1) / 2)]}'; }
ask_all() {  # port: every item once, on one connection
  sed "s/PORT/$1/" "$WORK/items.template" >"$WORK/items"
  curl -s --config "$WORK/items"
}

# server root -> "rss-after-one-request rss-after-every-file" (KiB)
measure_mockd() {
  start_mockd --root "$1" --no-watch
  curl -s -o /dev/null "http://127.0.0.1:$PORT/bench/small"
  local first all
  first=$(rss_kib "$MOCKD_PID")
  [[ "$1" == "$FIXTURE" ]] && ask_all "$PORT"
  all=$(rss_kib "$MOCKD_PID")
  stop_mockd
  echo "$first $all"
}
measure_mhd() {
  local port
  port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  taskset -c 0 "$MHD_RAW" --root "$1" --port "$port" >/dev/null 2>&1 &
  SERVER_PID=$!
  for _ in $(seq 200); do curl -s -o /dev/null "http://127.0.0.1:$port/bench/small" && break; sleep 0.05; done
  local first all
  first=$(rss_kib "$SERVER_PID")
  [[ "$1" == "$FIXTURE" ]] && ask_all "$port"
  all=$(rss_kib "$SERVER_PID")
  stop_pid "$SERVER_PID"; SERVER_PID=""
  echo "$first $all"
}

report() {  # name measure-function
  local one=() many=() all=()
  for _ in 1 2 3; do
    one+=("$($2 "$WORK/one" | cut -d' ' -f1)")
    read -r m a <<<"$($2 "$FIXTURE")"
    many+=("$m"); all+=("$a")
  done
  local o m a
  o=$(printf '%s\n' "${one[@]}" | median); m=$(printf '%s\n' "${many[@]}" | median); a=$(printf '%s\n' "${all[@]}" | median)
  awk -v name="$1" -v o="$o" -v m="$m" -v a="$a" -v n="$FILES" -v b="$BYTES" 'BEGIN {
    printf "| %s | %.1f MiB | %.1f MiB | %.1f MiB | %d B | %d B |\n", name, o / 1024, m / 1024, a / 1024,
      (m - o) * 1024 / n - b / n, (a - o) * 1024 / n - b / n }'
}

echo "$FILES files, $BYTES bytes of bodies ($(( BYTES / FILES )) B each on average); medians of three starts"
echo
echo "| server | one file | 10,000 files, one request | 10,000 files, each asked for once | per file beside its bytes | the same, after every file |"
echo "|---|---|---|---|---|---|"
report "mockd ($(basename "$MOCKD"))" measure_mockd
report "bare libmicrohttpd (mhd_raw)" measure_mhd
