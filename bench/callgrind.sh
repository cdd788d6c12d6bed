# Shared by bench/instructions.sh, openapi-instructions.sh and graphql-instructions.sh: a server under
# callgrind, exactly N requests on one keep-alive connection, and the counters for just those requests.
# Sets WORK (a temporary folder, removed on exit) and stops the server by PID on exit.
set -euo pipefail
command -v valgrind >/dev/null || { echo "valgrind is not installed (apt-get install valgrind)" >&2; exit 1; }
REQUESTS=${REQUESTS:-2000}
WORK=$(mktemp -d)
PID=""
PORT=""
cleanup() {
  if [[ -n "$PID" ]]; then
    kill -TERM "$PID" 2>/dev/null || true
    for _ in $(seq 200); do kill -0 "$PID" 2>/dev/null || break; sleep 0.1; done
    kill -KILL "$PID" 2>/dev/null || true
  fi
  rm -rf "$WORK"
}
trap cleanup EXIT

# release_mockd: MOCKD as given (made absolute), else the release build; stops when there is none.
release_mockd() {
  MOCKD=${MOCKD:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/.build/release/mockd}
  [[ "$MOCKD" == /* ]] || MOCKD="$PWD/$MOCKD"
  [[ -x "$MOCKD" ]] || { echo "no mockd at $MOCKD: run 'make release' first" >&2; exit 1; }
}

# start_under_callgrind DIR COMMAND...: runs COMMAND from DIR under callgrind (CACHE=1: with
# the cache simulation; CALLGRIND_ARGS: more valgrind options), its stdout appended to
# $WORK/out; then waits (up to TRIES tenths of a second, default 600: valgrind starts slowly)
# for a port on $WORK/out that answers /__mockd/health, or any HTTP answer when HEALTH_PATH is
# set to another path. Sets PID, PORT. COMMAND runs from a copy without debug information:
# valgrind 3.19 gives up on the DWARF that lld writes, and needs only the symbol table.
start_under_callgrind() {
  local dir=$1; shift
  local cache=()
  [[ -n "${CACHE:-}" ]] && cache=(--cache-sim=yes)
  local program="$WORK/$(basename "$1")"
  objcopy --strip-debug "$1" "$program"
  shift
  # shellcheck disable=SC2086  # CALLGRIND_ARGS is a list of options
  (cd "$dir" && exec valgrind --tool=callgrind "${cache[@]}" ${CALLGRIND_ARGS:-} --compress-strings=no \
     --callgrind-out-file="$WORK/cg.%p" "$program" "$@" >>"$WORK/out" 2>"$WORK/err") &
  PID=$!
  PORT=""
  for _ in $(seq "${TRIES:-600}"); do
    PORT=$(sed -n 's|.*http://127.0.0.1:\([0-9]*\).*|\1|p' "$WORK/out" | head -1)
    [[ -n "$PORT" ]] && curl -s -o /dev/null "http://127.0.0.1:$PORT${HEALTH_PATH:-/__mockd/health}" && return 0
    PORT=""
    sleep 0.1
  done
  echo "the server did not start under valgrind:" >&2; cat "$WORK/err" >&2; exit 1
}

# count_requests NAME PATH [CURL ARGS...]: zeroes the counters, sends PATH exactly REQUESTS
# times on one connection (curl reuses it for every URL of one invocation, and sends the extra
# arguments with each), dumps the counters. Sets DUMP to the dump's path (see dump_done).
count_requests() {
  local name=$1 path=$2; shift 2
  local config=$WORK/urls
  : >"$config"
  for i in $(seq "$REQUESTS"); do
    local p=${path//\{i\}/$(( (i * 7919) % 10000 + 1 ))}
    printf 'url = "http://127.0.0.1:%s%s"\noutput = "/dev/null"\n' "$PORT" "$p" >>"$config"
  done
  callgrind_control -z "$PID" >/dev/null 2>&1
  curl -s --config "$config" "$@"
  callgrind_control -d "workload-$name" "$PID" >/dev/null 2>&1
  DUMP=""
  for _ in $(seq 300); do  # the dump is written when the server's threads next run under valgrind
    DUMP=$(ls -t "$WORK"/cg.*.* 2>/dev/null | head -1 || true)
    [[ -n "$DUMP" ]] && grep -q '^totals:' "$DUMP" && break
    sleep 0.1
  done
}

# The dump's total instructions divided by REQUESTS.
per_request() { awk -v n="$REQUESTS" '/^totals:/ {printf "%d", $2 / n}' "$DUMP"; }

# dump_done NAME: keeps the dump in KEEP (when set) as NAME.callgrind, and removes it.
dump_done() {
  [[ -n "${KEEP:-}" ]] && mkdir -p "$KEEP" && cp "$DUMP" "$KEEP/$1.callgrind"
  rm -f "$WORK"/cg.*.*
}

# workload NAME PATH SOURCE [CURL ARGS...]: one warm request whose X-Mockd-Source must start
# with SOURCE (a workload answered by something else measures nothing), then count_requests;
# the figure goes into RESULT[NAME]. {i} in PATH is 0 for the warm request.
declare -A RESULT
workload() {
  local name=$1 path=$2 source=$3; shift 3
  local headers
  headers=$(curl -s -o /dev/null -D - "$@" "http://127.0.0.1:$PORT${path//\{i\}/0}")  # warm: first-touch costs out
  grep -qi "^X-Mockd-Source: $source" <<<"$headers" || { echo "$name: unexpected answer: $headers" >&2; exit 1; }
  count_requests "$name" "$path" "$@"
  RESULT[$name]=$(per_request)
  dump_done "$name"
}

# results_table: the heading of a table of RESULT rows for this build; row NAME [AGAINST] a row,
# with NAME's figure as a multiple of AGAINST's.
ratio() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.2f", a / b}'; }
results_table() {
  echo "instructions per request, $REQUESTS requests each, $(basename "$MOCKD") ($("$MOCKD" --version 2>/dev/null || echo '?'))"
  echo
  echo "| workload | instructions / request | against |"
  echo "|---|---|---|"
}
row() { echo "| $1 | ${RESULT[$1]} | $([[ -n "${2:-}" ]] && echo "$(ratio "${RESULT[$1]}" "${RESULT[$2]}")x $2") |"; }
