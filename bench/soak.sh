#!/usr/bin/env bash
# Soak: minutes of mixed load (mocks, misses, POSTs, admin calls, 1 % hostile
# requests) on the bundled MockData while mockd reloads every second (SIGHUP). Prints, every
# 10 s, the requests answered and the errors (failed connections, unexpected statuses), and
# mockd's RSS, so a leak or a stall shows as a trend.
#   make release && SOAK_SECONDS=300 bench/soak.sh
source "$(dirname "$0")/common.sh"
SECONDS_TOTAL=${SOAK_SECONDS:-300}
CONNECTIONS=${SOAK_CONNECTIONS:-32}
cp -r "$REPO/MockData" "$WORK/MockData"
start_mockd --root "$WORK/MockData" --log-level warning --no-watch
URL=http://127.0.0.1:$PORT
taskset -c 1 python3 "$HERE/soak.py" "$URL" "$SECONDS_TOTAL" "$CONNECTIONS" >"$WORK/soak.txt" &
LOAD=$!
rss() { awk '/VmRSS/ {printf "%.1f", $2 / 1024}' "/proc/$MOCKD_PID/status"; }
echo "t(s) rss(MiB)"
start=$(date +%s)
hups=0
while kill -0 "$LOAD" 2>/dev/null; do
  kill -HUP "$MOCKD_PID"
  hups=$((hups + 1))
  now=$(( $(date +%s) - start ))
  (( now % 10 == 0 )) && echo "$now $(rss)"
  sleep 1
done
wait "$LOAD"
cat "$WORK/soak.txt"
echo "peak RSS $(peak_rss_mib "$MOCKD_PID") MiB; $hups reloads asked (SIGHUP); last: $(curl -s "$URL/__mockd/health" | python3 -c 'import json,sys; print(json.load(sys.stdin).get("lastReload"))')"
kill -0 "$MOCKD_PID" || { echo "mockd died" >&2; exit 1; }
grep -q "errors=0" <(tail -1 "$WORK/soak.txt") || { echo "soak: errors" >&2; exit 1; }
