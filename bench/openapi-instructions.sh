#!/usr/bin/env bash
# Instructions per request for OpenAPI answers, counted by callgrind as in
# bench/instructions.sh: figures the load on a busy machine does not move. The workloads of
# bench/openapi.sh (which compares req/s and CPU time with wrk):
#   plain-get, example, generated     a file and two operations answering the same 17 bytes
#                                     (bench/openapi-answers.yaml)
#   same-file-1.6k, generated-1.6k    a file holding the bytes of the generated body of the
#                                     Stripe-like document's GET /v1/the_items/{id} (600
#                                     operations loaded), and that operation
#   plain-post, unchecked-post,       the same POST with a small JSON body to a file, to an
#   checked-post                      operation without a body schema, and to one that
#                                     validates the body; each answers the same 17 bytes
# Goals: an answer from a document >= 0.8x a file's req/s (here: about 1.25x its instructions
# at most); validating a small JSON body <= 2x a plain answer's CPU.
#
#   make release && bench/openapi-instructions.sh       (REQUESTS=2000 by default)
#   MOCKD=/tmp/old/mockd bench/openapi-instructions.sh  another build
#   KEEP=/tmp/cg bench/openapi-instructions.sh          keep each workload's callgrind file
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
source "$HERE/callgrind.sh"
release_mockd

python3 "$HERE/gen-openapi.py" >"$WORK/stripe-like.json"
cp "$HERE/openapi-answers.yaml" "$WORK/answers.yaml"
mkdir -p "$WORK/MockData" "$WORK/routes"
printf '{\n  "ok": true\n}\n' >"$WORK/MockData/mock_plain_get.json"
cp "$WORK/MockData/mock_plain_get.json" "$WORK/MockData/mock_plain_post.json"
# The generated body's bytes, written by the same build before valgrind starts.
(cd "$WORK" && exec "$MOCKD" --port 0 --root MockData --routes routes --openapi stripe-like.json --no-watch \
   --log-level warning >"$WORK/out" 2>"$WORK/err") &
PID=$!
for _ in $(seq 300); do
  PORT=$(sed -n 's|.*http://127.0.0.1:\([0-9]*\).*|\1|p' "$WORK/out" | head -1)
  [[ -n "$PORT" ]] && curl -sf -H 'Authorization: Bearer x' "http://127.0.0.1:$PORT/v1/the_items/ch_1" \
    -o "$WORK/MockData/mock_same_get.json" && break
  sleep 0.1
done
[[ -s "$WORK/MockData/mock_same_get.json" ]] || { echo "mockd did not answer:" >&2; cat "$WORK/err" >&2; exit 1; }
kill -TERM "$PID"; wait "$PID" 2>/dev/null || true; PID=""
: >"$WORK/out"

# Valgrind starts slowly, and the document is 4 MB: up to two minutes.
TRIES=1200 start_under_callgrind "$WORK" "$MOCKD" --port 0 --root MockData --routes routes \
  --openapi stripe-like.json --openapi answers.yaml --no-watch

body='{"name": "coffee", "amount": 250, "currency": "eur", "metadata": {"order": "42"}}'
AUTH=(-H 'Authorization: Bearer x')
POST=(-H 'Content-Type: application/json' --data-binary "$body")
workload plain-get /plain "file mock_plain_get.json"
workload example /example "openapi answers.yaml GET /example 200 example"
workload generated /generated "openapi answers.yaml GET /generated 200 generated"
workload same-file-1.6k /same "file mock_same_get.json" "${AUTH[@]}"
workload generated-1.6k /v1/the_items/ch_1 "openapi stripe-like.json GET /v1/the_items/{id} 200 generated" "${AUTH[@]}"
workload plain-post /plain "file mock_plain_post.json" "${POST[@]}"
workload unchecked-post /unchecked "openapi answers.yaml POST /unchecked 200 example" "${POST[@]}"
workload checked-post /checked "openapi answers.yaml POST /checked 200 example" "${POST[@]}"

results_table
row plain-get
row example plain-get
row generated plain-get
row same-file-1.6k
row generated-1.6k same-file-1.6k
row plain-post
row unchecked-post plain-post
row checked-post plain-post
echo
echo "validating the small body: $(ratio "${RESULT[checked-post]}" "${RESULT[plain-get]}")x a plain GET answer, $(ratio "${RESULT[checked-post]}" "${RESULT[plain-post]}")x the same POST to a file"
