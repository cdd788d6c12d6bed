#!/usr/bin/env bash
# Route matching cost: req/s of a route with two header conditions and a path
# parameter, as a ratio to a plain file, with 200 other routes in the table.
#   make release && bench/routes.sh
source "$(dirname "$0")/common.sh"
mkdir -p "$WORK/MockData" "$WORK/routes"
printf '{"id": 42, "name": "plain"}' >"$WORK/MockData/mock_plain_get.json"
{
  echo '{"routes": ['
  for i in $(seq 200); do echo "{\"method\": \"GET\", \"path\": \"/other$i/:id\", \"response\": {\"json\": {\"n\": $i}}},"; done
  echo '{"method": "GET", "path": "/api/users/:id", "match": {"headers": {"X-API-Key": "*", "Authorization": "Bearer *"}},'
  echo ' "response": {"json": {"id": 42, "name": "route"}}}'
  echo ']}'
} >"$WORK/routes/many.json"
start_mockd --root "$WORK/MockData" --routes "$WORK/routes"
URL=http://127.0.0.1:$PORT
curl -sf -H 'X-API-Key: k' -H 'Authorization: Bearer t' "$URL/api/users/42" >/dev/null || { echo "the route did not answer" >&2; exit 1; }
for round in 1 2; do
  file=$(wrk_rps "$URL/plain")
  route=$(wrk_rps "$URL/api/users/42" -H 'X-API-Key: k' -H 'Authorization: Bearer t')
  echo "round $round: plain file $file req/s, route (2 header conditions + :id, 201 routes) $route req/s, ratio $(awk -v a="$route" -v b="$file" 'BEGIN {printf "%.2f", a / b}')"
done
