#!/usr/bin/env bash
# Serving OpenAPI documents.
# 1. Start-up: a generated Stripe-sized description (bench/gen-openapi.py: ~4 MB of JSON, 600
#    operations, 241 schemas in cycles), 5 runs: time from exec to the first answer, mockd's CPU
#    time (user + sys) by then, and peak RSS (goal: within 1 s, <= 100 MB). On a busy machine the
#    wall time follows the load; the CPU time does not.
# 2. Unless SKIP_WRK=1: wrk (mockd on CPU 0, wrk on CPU 1, 127.0.0.1 only, DURATION s each),
#    ROUNDS interleaved rounds of
#      plain file, example answer, generated body      the same 17 bytes (bench/openapi-answers.yaml)
#      file of 1.6 KB, generated body of 1.6 KB        the Stripe-like document's GET /v1/the_items/{id}
#                                                      and a file holding the same bytes
#      POST to a file, to an operation without a body schema, to one that validates the small
#      JSON body                                       the same request, the same 17-byte answer
#    then the medians: req/s against the file's (goal >= 0.8x) and mockd's CPU per request against
#    the plain answer's (goal: validating <= 2x). bench/openapi-instructions.sh counts the same
#    workloads' instructions with callgrind, which the load on the machine does not move.
#   make release && bench/openapi.sh        (SKIP_WRK=1: start-up only; ROUNDS=3 DURATION=5)
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
source "$HERE/common.sh"

python3 "$HERE/gen-openapi.py" >"$WORK/stripe-like.json"
cp "$HERE/openapi-answers.yaml" "$WORK/answers.yaml"
mkdir -p "$WORK/MockData" "$WORK/routes"
printf '{\n  "ok": true\n}\n' >"$WORK/MockData/mock_plain_get.json"
cp "$WORK/MockData/mock_plain_get.json" "$WORK/MockData/mock_plain_post.json"
echo "document: $(( $(stat -c %s "$WORK/stripe-like.json") / 1024 )) KiB"

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
  cpu_ms=$(( $(cpu_ticks "$MOCKD_PID") * 1000 / HZ ))
  rss=$(peak_rss_mib "$MOCKD_PID")
  echo "run $run: answering after $ms ms ($cpu_ms ms of CPU), peak RSS $rss MiB"
  if [[ $run == 5 ]]; then
    head -1 "$WORK/mockd.out"
    # A file of the same bytes as the generated body, for the comparison below.
    curl -sf -H 'Authorization: Bearer x' "http://127.0.0.1:$PORT/v1/the_items/ch_1" -o "$WORK/MockData/mock_same_get.json"
  fi
  stop_mockd
done

[[ "${SKIP_WRK:-}" == 1 ]] && exit 0
start_mockd --root MockData --routes routes --openapi stripe-like.json --openapi answers.yaml --log-level warning --no-watch
URL=http://127.0.0.1:$PORT
AUTH=(-H 'Authorization: Bearer x')
cat >"$WORK/post.lua" <<'LUA'
wrk.method = "POST"
wrk.body = '{"name": "coffee", "amount": 250, "currency": "eur", "metadata": {"order": "42"}}'
wrk.headers["Content-Type"] = "application/json"
LUA
POST=(-s "$WORK/post.lua")
body='{"name": "coffee", "amount": 250, "currency": "eur", "metadata": {"order": "42"}}'

# The answers compared are the same bytes, and each comes from where it should.
same() {  # source-prefix file curl-args...
  local prefix=$1 file=$2; shift 2
  local headers
  headers=$(curl -sf -D - -o "$WORK/got" "$@")
  grep -qi "^X-Mockd-Source: $prefix" <<<"$headers" || { echo "unexpected source for $*: $headers" >&2; exit 1; }
  cmp -s "$WORK/got" "$WORK/MockData/$file" || { echo "not the same bytes as $file: $*" >&2; exit 1; }
}
same "openapi answers.yaml GET /example 200 example" mock_plain_get.json "$URL/example"
same "openapi answers.yaml GET /generated 200 generated" mock_plain_get.json "$URL/generated"
same "file mock_same_get.json" mock_same_get.json "${AUTH[@]}" "$URL/same"
same "openapi stripe-like.json GET /v1/the_items/{id} 200 generated" mock_same_get.json "${AUTH[@]}" "$URL/v1/the_items/ch_1"
same "file mock_plain_post.json" mock_plain_get.json -H 'Content-Type: application/json' -d "$body" "$URL/plain"
same "openapi answers.yaml POST /unchecked 200 example" mock_plain_get.json -H 'Content-Type: application/json' -d "$body" "$URL/unchecked"
same "openapi answers.yaml POST /checked 200 example" mock_plain_get.json -H 'Content-Type: application/json' -d "$body" "$URL/checked"
invalid=$(curl -s -o /dev/null -w '%{http_code}' -H 'Content-Type: application/json' -d '{"name": 1}' "$URL/checked")
[[ "$invalid" == 422 ]] || { echo "the body is not validated: an invalid one got $invalid" >&2; exit 1; }
echo "answers checked: the same bytes from files and operations; an invalid body gets 422"

names=(plain-get example generated same-file-1.6k generated-1.6k plain-post unchecked-post checked-post)
declare -A rps cpu
for round in $(seq "${ROUNDS:-3}"); do
  line="round $round:"
  for name in "${names[@]}"; do
    case $name in
      plain-get) args=("$URL/plain") ;;
      example) args=("$URL/example") ;;
      generated) args=("$URL/generated") ;;
      same-file-1.6k) args=("$URL/same" "${AUTH[@]}") ;;
      generated-1.6k) args=("$URL/v1/the_items/ch_1" "${AUTH[@]}") ;;
      plain-post) args=("$URL/plain" "${POST[@]}") ;;
      unchecked-post) args=("$URL/unchecked" "${POST[@]}") ;;
      checked-post) args=("$URL/checked" "${POST[@]}") ;;
    esac
    read -r r c <<<"$(wrk_cost "${args[@]}")"
    rps[$name]+="$r "
    cpu[$name]+="$c "
    line+=" $name $r/s ${c}µs;"
  done
  echo "$line"
done

median() { tr ' ' '\n' | grep -v '^$' | sort -g | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }
declare -A mr mc
for name in "${names[@]}"; do
  mr[$name]=$(median <<<"${rps[$name]}")
  mc[$name]=$(median <<<"${cpu[$name]}")
done
ratio() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.2f", a / b}'; }
echo
echo "medians of ${ROUNDS:-3} rounds, ${DURATION:-5} s each, wrk -t1 -c64:"
printf '| %-15s | %8s | %9s | %-22s |\n' workload "req/s" "µs CPU" "against"
echo "|---|---|---|---|"
row() {  # name base-name
  printf '| %-15s | %8s | %9s | %-22s |\n' "$1" "${mr[$1]}" "${mc[$1]}" \
    "$([[ -n "${2:-}" ]] && echo "$(ratio "${mr[$1]}" "${mr[$2]}")x req/s, $(ratio "${mc[$1]}" "${mc[$2]}")x CPU of $2")"
}
row plain-get
row example plain-get
row generated plain-get
row same-file-1.6k
row generated-1.6k same-file-1.6k
row plain-post
row unchecked-post plain-post
row checked-post plain-post
echo "validating the small body: $(ratio "${mc[checked-post]}" "${mc[plain-get]}")x the CPU of a plain GET answer, $(ratio "${mc[checked-post]}" "${mc[plain-post]}")x that of the same POST to a file"
