#!/usr/bin/env bash
# Serving OpenAPI documents (issue 13): a generated Stripe-sized description (bench/gen-openapi.py:
# ~4 MB of JSON, 600 operations, 241 schemas in cycles) — time from exec to answering, and peak
# RSS once ready (goal: < 1 s, <= 100 MB). Then, unless SKIP_WRK=1, wrk: an answer from the
# document vs. a plain file (goal >= 0.8x), and a POST whose small JSON body is validated
# (goal: <= 2x a plain answer's mockd CPU per request).
#   make release && bench/openapi.sh        (SKIP_WRK=1 bench/openapi.sh: start-up only)
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
source "$HERE/common.sh"

python3 "$HERE/gen-openapi.py" >"$WORK/stripe-like.json"
mkdir -p "$WORK/MockData" "$WORK/routes"
echo '{"ok":true}' >"$WORK/MockData/mock_plain_get.json"
echo "document: $(( $(stat -c %s "$WORK/stripe-like.json") / 1024 )) KiB"

best=""
for run in 1 2 3 4 5; do
  start=$(date +%s%N)
  (cd "$WORK" && exec taskset -c 0 "$MOCKD" --port 0 --root MockData --routes routes --openapi stripe-like.json \
      --log-level warning --no-watch >"$WORK/mockd.out" 2>"$WORK/mockd.log") &
  MOCKD_PID=$!
  PORT=""
  for _ in $(seq 3000); do
    PORT=$(sed -n 's|.*http://127.0.0.1:\([0-9]*\).*|\1|p' "$WORK/mockd.out" | head -1)
    [[ -n "$PORT" ]] && curl -s -o /dev/null -H 'Authorization: Bearer x' "http://127.0.0.1:$PORT/v1/the_items/ch_1" && break
    PORT=""
    sleep 0.005
  done
  [[ -n "$PORT" ]] || { echo "mockd did not start:" >&2; cat "$WORK/mockd.log" >&2; exit 1; }
  ms=$(( ($(date +%s%N) - start) / 1000000 ))
  rss=$(peak_rss_mib "$MOCKD_PID")
  echo "run $run: answering after $ms ms, peak RSS $rss MiB"
  [[ $run == 5 ]] || stop_mockd
done
head -1 "$WORK/mockd.out"

[[ "${SKIP_WRK:-}" == 1 ]] && exit 0
URL=http://127.0.0.1:$PORT
read -r plain plain_us <<<"$(wrk_cost "$URL/plain")"
read -r spec spec_us <<<"$(wrk_cost "$URL/v1/the_items/ch_1" -H 'Authorization: Bearer x')"
cat >"$WORK/post.lua" <<'LUA'
wrk.method = "POST"
wrk.body = '{"field_0": "a", "field_1": "b", "metadata": {"k": "v"}}'
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Authorization"] = "Bearer x"
LUA
read -r post post_us <<<"$(wrk_cost "$URL/v1/the_items/ch_1" -s "$WORK/post.lua")"
echo "plain file:                         $plain req/s, $plain_us µs of mockd CPU per request"
echo "operation (generated body):         $spec req/s, $spec_us µs ($(awk -v a="$spec" -v b="$plain" 'BEGIN {printf "%.2f", a / b}')x the file's req/s)"
echo "operation, validated small body:    $post req/s, $post_us µs ($(awk -v a="$post_us" -v b="$plain_us" 'BEGIN {printf "%.2f", a / b}')x the file's CPU)"
