#!/usr/bin/env bash
# GraphQL's costs, counted by callgrind as in bench/instructions.sh (figures the load on a busy
# machine does not move), and the time and memory GitHub's public schema takes to load.
#   plain-post        a POST with the GraphQL request's bytes, answered by a mock file
#   file-named        the same request to /graphql, named by operationName: graphql/GetFeed.json
#   file-parsed       the same without operationName: the document is parsed to name it
#   schema-cached     a 3-level query answered from GitHub's schema, the same document each time
#   schema-new        a new document each request (an alias numbered per request): parsed,
#                     validated against the schema and answered, nothing kept helps
# Valgrind builds the schema slowly: up to five minutes to start.
# Goal (issue 39): file-named <= 1.3x plain-post. The schema: loads in under 1 s, RSS under 100 MiB.
#
#   make release && bench/graphql-instructions.sh         (REQUESTS=2000 by default)
#   MOCKD=/tmp/old/mockd bench/graphql-instructions.sh    another build
#   SCHEMA=path.graphqls                                  another schema (default: ../shared's GitHub schema)
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
source "$HERE/callgrind.sh"
release_mockd
SCHEMA=${SCHEMA:-$HERE/../../shared/data/graphql/github-schema.graphql}
[[ -f "$SCHEMA" ]] || { echo "no schema at $SCHEMA (SCHEMA=FILE)" >&2; exit 1; }
cp "$SCHEMA" "$WORK/schema.graphqls"
mkdir -p "$WORK/MockData/graphql" "$WORK/routes"
printf '{"data": {"feed": [{"__typename": "Post", "id": "1"}]}}\n' >"$WORK/MockData/graphql/GetFeed.json"
cp "$WORK/MockData/graphql/GetFeed.json" "$WORK/MockData/mock_plain_post.json"
ARGS=(--port 0 --root MockData --routes routes --graphql /graphql --graphql-schema schema.graphqls --no-watch)

# Loading the schema, outside valgrind: from start to the first health answer, and the RSS then.
start=$(date +%s.%N)
(cd "$WORK" && exec "$MOCKD" "${ARGS[@]}" --log-level warning >"$WORK/out" 2>"$WORK/err") &
PID=$!
for _ in $(seq 600); do
  PORT=$(sed -n 's|.*http://127.0.0.1:\([0-9]*\).*|\1|p' "$WORK/out" | head -1)
  [[ -n "$PORT" ]] && curl -sf -o /dev/null "http://127.0.0.1:$PORT/__mockd/health" && break
  sleep 0.02
done
loaded=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN {printf "%.2f", b - a}')
rss=$(awk '/^VmRSS/ {printf "%.1f", $2 / 1024}' "/proc/$PID/status")
kill -TERM "$PID"; wait "$PID" 2>/dev/null || true; PID=""
: >"$WORK/out"

TRIES=3000 start_under_callgrind "$WORK" "$MOCKD" "${ARGS[@]}"

named='{"query": "query GetFeed { feed { id } }", "operationName": "GetFeed"}'
unnamed='{"query": "query GetFeed { feed { id } }"}'
repo='repository(owner: "apple", name: "swift") { name owner { login } issues(first: 2) { nodes { title author { login } } } }'
encode() { python3 -c 'import sys, urllib.parse; print(urllib.parse.quote(sys.argv[1], safe=""))' "$1"; }
cached="/graphql?query=$(encode "query Repo { $repo }")"
# {i} becomes a different number for each request (bench/callgrind.sh): a new document each time.
fresh="/graphql?query=$(encode "query Repo { a")%7Bi%7D$(encode ": $repo }")"
fresh=${fresh//%7Bi%7D/\{i\}}

JSON=(-H 'Content-Type: application/json')
workload plain-post /plain "file mock_plain_post.json" "${JSON[@]}" --data-binary "$named"
workload file-named /graphql "file graphql/GetFeed.json" "${JSON[@]}" --data-binary "$named"
workload file-parsed /graphql "file graphql/GetFeed.json" "${JSON[@]}" --data-binary "$unnamed"
workload schema-cached "$cached" "graphql schema.graphqls query Repo"
workload schema-new "$fresh" "graphql schema.graphqls query Repo"

results_table
row plain-post
row file-named plain-post
row file-parsed plain-post
row schema-cached plain-post
row schema-new schema-cached
echo
echo "$(basename "$SCHEMA"): $(wc -l <"$SCHEMA") lines, loaded and answering in ${loaded} s, RSS ${rss} MiB"
