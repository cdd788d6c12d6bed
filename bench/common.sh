# Shared by the bench scripts: start mockd pinned to CPU 0 on a free port, measure, stop by PID.
# Load generators run on CPU 1. Everything talks to 127.0.0.1 only and is bounded in time.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO="$(cd "$HERE/.." && pwd)"
MOCKD=${MOCKD:-$REPO/.build/release/mockd}
[[ "$MOCKD" == /* ]] || MOCKD="$PWD/$MOCKD"
[[ -x "$MOCKD" ]] || { echo "no mockd at $MOCKD: run 'make release' first" >&2; exit 1; }
command -v wrk >/dev/null || { echo "wrk is not installed (apt-get install wrk)" >&2; exit 1; }
ulimit -n 65536 2>/dev/null || true
HZ=$(getconf CLK_TCK)
MOCKD_PID=""
PORT=""

start_mockd() {  # args for mockd; sets MOCKD_PID and PORT
  local log=$WORK/mockd.log
  # From $WORK, so no ./routes folder is picked up by default.
  # MOCKD_CPUS=0,1 lets it use both (the load generator then shares CPU 1 with it).
  (cd "$WORK" && exec taskset -c "${MOCKD_CPUS:-0}" "$MOCKD" --port 0 "$@" >"$WORK/mockd.out" 2>"$log") &
  MOCKD_PID=$!
  for _ in $(seq 300); do
    PORT=$(sed -n 's|.*http://127.0.0.1:\([0-9]*\).*|\1|p' "$WORK/mockd.out" | head -1)
    [[ -n "$PORT" ]] && curl -s -o /dev/null "http://127.0.0.1:$PORT/__mockd/health" && return 0
    sleep 0.05
  done
  echo "mockd did not start:" >&2; cat "$log" >&2; exit 1
}

stop_pid() {  # pid: SIGTERM, up to 5 s to exit, then SIGKILL
  [[ -n "$1" ]] || return 0
  kill -TERM "$1" 2>/dev/null || true
  for _ in $(seq 100); do kill -0 "$1" 2>/dev/null || break; sleep 0.05; done
  kill -KILL "$1" 2>/dev/null || true
  wait "$1" 2>/dev/null || true
}

stop_mockd() { stop_pid "$MOCKD_PID"; MOCKD_PID=""; }

cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
status_field() { awk -v key="$2:" '$1 == key {print $2}' "/proc/$1/status"; }  # pid key: its number (kB for memory)
peak_rss_mib() { awk '/VmHWM/ {printf "%.1f", $2 / 1024}' "/proc/$1/status"; }
wrk_rps() {  # url [wrk args...] -> req/s
  local url=$1; shift
  taskset -c 1 wrk -t1 -c64 -d"${DURATION:-5}s" "$@" "$url" | awk '/Requests\/sec/ {printf "%d", $2}'
}
wrk_cost() {  # url [wrk args...] -> "req/s µs-of-mockd-CPU-per-request"
  local url=$1 out t0 t1; shift
  t0=$(cpu_ticks "$MOCKD_PID")
  out=$(taskset -c 1 wrk -t1 -c64 -d"${DURATION:-5}s" "$@" "$url")
  t1=$(cpu_ticks "$MOCKD_PID")
  echo "$out" | awk -v ticks=$((t1 - t0)) -v hz="$HZ" '/requests in/ {n = $1} /Requests\/sec/ {r = $2} END {printf "%d %.1f", r, ticks * 1000000 / hz / n}'
}

WORK=$(mktemp -d)
trap 'stop_mockd; rm -rf "$WORK"' EXIT
