#!/usr/bin/env bash
# Request-body memory under a burst of large uploads: CLIENTS (100) concurrent POSTs of BYTES
# (9.5 MB, under the 10 MiB --max-body-bytes) to a route table with a body match, so every
# body is held whole and --max-body-memory (256 MiB) must bound them. Per round (a fresh mockd
# each): how many were served, how many got the 503 of the budget, and mockd's RSS before, at
# its peak (VmHWM) and after (1 s after the last answer), with the anonymous memory at the
# sampled peak (smaps_rollup).
#
#   make release && bench/body-memory.sh
#   MOCKD=.build/static/mockd bench/body-memory.sh          the image's static binary
#   MOCKD_ARGS="--max-body-memory 134217728" ROUNDS=1 bench/body-memory.sh
#   MATCH=json bench/body-memory.sh                          a json match instead of a text one
# Environment such as MALLOC_ARENA_MAX reaches mockd as it is.
source "$(dirname "$0")/common.sh"
CLIENTS=${CLIENTS:-100}
BYTES=${BYTES:-9500000}
ROUNDS=${ROUNDS:-3}
LOAD=""
trap 'stop_pid "$LOAD"; stop_mockd; rm -rf "$WORK"' EXIT
mkdir -p "$WORK/MockData" "$WORK/routes"
echo '{"ok":true}' >"$WORK/MockData/mock_health_get.json"
# The match reads the body (so the snapshot holds bodies whole); a 9.5 MB body does not match
# it and falls to the second route.
# MATCH=json: a json match instead (the body is parsed, not copied into a string; 'xxx…' fails
# at its first byte).
if [[ "${MATCH:-text}" == json ]]; then match='{"json": {"a": 1}}'; else match='{"text": "x"}'; fi
cat >"$WORK/routes/upload.json" <<JSON
{"routes": [
  {"method": "POST", "path": "/upload", "match": $match, "response": {"text": "matched"}},
  {"method": "POST", "path": "/upload", "response": {"json": {"stored": true}}}
]}
JSON

mib() { awk -v k="$1" 'BEGIN {printf "%.1f", k / 1024}'; }

echo "binary: $MOCKD"
echo "round served 503 other errors seconds | RSS before peak after (MiB) | growth | anon at peak"
for round in $(seq "$ROUNDS"); do
  # shellcheck disable=SC2086 # MOCKD_ARGS is words
  start_mockd --root "$WORK/MockData" --routes "$WORK/routes" --log-level warning --no-watch ${MOCKD_ARGS:-}
  curl -s -o /dev/null "http://127.0.0.1:$PORT/health"
  before=$(status_field "$MOCKD_PID" VmRSS)
  taskset -c 1 timeout 300 python3 "$HERE/body-memory.py" "$PORT" /upload "$CLIENTS" "$BYTES" >"$WORK/load.txt" &
  LOAD=$!
  sampled=0
  while kill -0 "$LOAD" 2>/dev/null; do
    rss=$(status_field "$MOCKD_PID" VmRSS)
    if ((rss > sampled)); then sampled=$rss; cp "/proc/$MOCKD_PID/smaps_rollup" "$WORK/peak-smaps"; fi
    sleep 0.05
  done
  wait "$LOAD" || true
  LOAD=""
  sleep 1
  after=$(status_field "$MOCKD_PID" VmRSS)
  peak=$(status_field "$MOCKD_PID" VmHWM)
  anon=$(awk '/^Anonymous:/ {print $2}' "$WORK/peak-smaps")
  read -r served refused other errors seconds < <(sed 's/[a-z0-9]*=//g' "$WORK/load.txt")
  echo "$round $served $refused $other $errors $seconds | $(mib "$before") $(mib "$peak") $(mib "$after") |" \
       "+$(mib $((peak - before))) MiB | $(mib "$anon") MiB"
  kill -0 "$MOCKD_PID" || { echo "mockd died" >&2; exit 1; }
  stop_mockd
done
