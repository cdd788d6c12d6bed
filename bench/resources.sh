#!/usr/bin/env bash
# What a resource costs a request, beside a file with the same bytes: instructions per request
# counted by callgrind, as bench/instructions.sh counts them.
#
#   bench/resources.sh                   the release build, 2,000 requests a workload
#   REQUESTS=500 bench/resources.sh      fewer (valgrind is ~50x slower)
#   MOCKD=/tmp/old/mockd bench/resources.sh
#
# The fixture: a resource `/bench/res` seeded with 1,000 items, and files answering
# `GET /bench/file` with the bytes of item 1 and `POST /bench/file` with a small object.
# Workloads: GET of a file, GET of one resource item (the same bytes), POST to the file, POST
# to the resource (each one adds an item: the collection grows by REQUESTS).
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
source "$HERE/callgrind.sh"
release_mockd

FIX="$WORK/fixture"
mkdir -p "$FIX/MockData" "$FIX/routes"
python3 - "$FIX" <<'EOF'
import json, sys
fix = sys.argv[1]
items = [{"id": i, "user_id": i % 50, "started_at": "2024-05-01T22:10:00Z", "quality": i % 5, "note": "slept well"} for i in range(1, 1001)]
with open(f"{fix}/MockData/seed.json", "w") as f:
    json.dump(items, f)
with open(f"{fix}/MockData/mock_bench_file_get.json", "w") as f:
    f.write(json.dumps(items[0], separators=(",", ":")))
with open(f"{fix}/MockData/mock_bench_file_post.json", "w") as f:
    f.write('{"id":1001,"user_id":3,"started_at":"2024-05-03T22:00:00Z"}')
with open(f"{fix}/routes/r.json", "w") as f:
    json.dump({"routes": [{"resource": "/bench/res", "seed": "seed.json"}]}, f)
EOF

start_under_callgrind "$FIX" "$MOCKD" --root MockData --routes routes --port 0 --no-watch ${MOCKD_ARGS:-}

requests() {  # name path [curl args]
  local name=$1 path=$2; shift 2
  curl -s -o /dev/null "http://127.0.0.1:$PORT$path" "$@" >/dev/null 2>&1 || true  # warm
  count_requests "$name" "$path" "$@"
  printf '| %s | %s |\n' "$name" "$(per_request)"
  dump_done "$name"
}

echo "instructions per request, $REQUESTS requests each, $(basename "$MOCKD") ($("$MOCKD" --version 2>/dev/null || echo '?'))"
echo
echo "| workload | instructions / request |"
echo "|---|---|"
requests file-get /bench/file
requests resource-get /bench/res/1
body='{"user_id":3,"started_at":"2024-05-03T22:00:00Z"}'
requests file-post /bench/file -H 'Content-Type: application/json' --data "$body"
requests resource-post /bench/res -H 'Content-Type: application/json' --data "$body"
