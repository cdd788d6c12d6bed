#!/usr/bin/env bash
# Writes scripts/link-order.txt: the functions mockd runs to answer requests (the most
# instructions first), then those it runs to start. Package.swift hands the list to the linker
# (Linux, release builds), which lays those functions out next to each other. The kernel maps a
# program's code in 64 KiB runs around each page it executes, so scattered hot functions pull in
# most of a 22 MB text section; packed, they pull in about 2.5 MiB less (docs/BENCHMARKS.md, Summary).
#
#   make release && scripts/link-order.sh
#
# Run it after changes that rename many functions on those paths. A stale list is harmless: the
# linker skips names it does not know, and the layout only gives back part of the gain.
# Needs valgrind. Uses the example MockData and routes, and stops the server it starts by PID.
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO="$(cd "$HERE/.." && pwd)"
REQUESTS=20
source "$REPO/bench/callgrind.sh"
MOCKD=${MOCKD:-$REPO/.build/release/mockd}
[[ -x "$MOCKD" ]] || { echo "no mockd at $MOCKD: run 'make release' first" >&2; exit 1; }
OUT=$REPO/scripts/link-order.txt

# ROOT=other/MockData: another mock folder (without the example's route tables).
cp -R "${ROOT:-$REPO/MockData}" "$WORK/MockData"
mkdir "$WORK/routes"
[[ -z "${ROOT:-}" ]] && cp -R "$REPO/routes/." "$WORK/routes/"
# Mangled names (the linker's spelling), and a dump of the start before the requests' counts.
CALLGRIND_ARGS=--demangle=no start_under_callgrind "$WORK" "$MOCKD" --root MockData --routes routes --port 0
callgrind_control -d start "$PID" >/dev/null 2>&1
for _ in $(seq 300); do grep -qs '^totals:' "$WORK"/cg.*.* && break; sleep 0.1; done
mkdir -p "$WORK/dumps" && mv "$WORK"/cg.*.* "$WORK/dumps/1-start"

# Each kind of answer: a file, a route, HEAD, a query, a scenario, a session, a body, a 404,
# and the admin API. REQUESTS times each, so the request path's counts dominate its order.
for path in /api/health /api/users /api/users/1 '/api/users?page=2' /no/such/mock /__mockd/requests /__mockd/routes; do
  count_requests "get" "$path" -H 'X-Mock-Scenario: empty' -H 'X-Mock-Session: order'
  mv "$DUMP" "$WORK/dumps/2-$RANDOM"
  count_requests "head" "$path" -I
  mv "$DUMP" "$WORK/dumps/2-$RANDOM"
done
count_requests "post" /api/v1/login -H 'Content-Type: application/json' -d '{"user": "a", "password": "b"}'
mv "$DUMP" "$WORK/dumps/2-$RANDOM"

python3 - "$WORK/dumps" "$OUT" <<'PY'
import collections, os, sys
folder, out = sys.argv[1], sys.argv[2]

def self_costs(path):
    """Instructions per function spent in the function itself, from a callgrind dump."""
    costs, function, after_calls, binary = collections.Counter(), None, False, ""
    for line in open(path, errors="replace"):
        if line.startswith("ob="):
            binary = line[3:].strip()
        elif line.startswith("fn="):
            name = line[3:].strip()
            function = name.split(":", 1)[1] if name.startswith("???:") else name
            function = function if binary.endswith("/mockd") else None
        elif line.startswith("calls="):
            after_calls = True
        elif line[:1].isdigit() or line[:1] in "+-*":
            if function and not after_calls:
                parts = line.split()
                if len(parts) > 1:
                    costs[function] += int(parts[1])
            after_calls = False
    return costs

requests, start = collections.Counter(), collections.Counter()
for name in sorted(os.listdir(folder)):
    (start if name.startswith("1-") else requests).update(self_costs(os.path.join(folder, name)))
ordered = [f for f, _ in requests.most_common()] + [f for f, _ in start.most_common() if f not in requests]
# callgrind marks recursion as name'2; the linker knows the name.
seen, names = set(), []
for f in ordered:
    f = f.split("'")[0]
    if f not in seen:
        seen.add(f)
        names.append(f)
with open(out + ".tmp", "w") as file:
    file.write("\n".join(names) + "\n")
os.replace(out + ".tmp", out)
print(f"{out}: {len(names)} functions ({len([f for f in requests if f])} on the request path)")
PY
# SwiftPM does not know the list is an input of the link: make the next build link again.
if [[ "$MOCKD" == "$REPO/.build/release/mockd" ]]; then
  rm -f "$MOCKD"
  echo "removed .build/release/mockd: the next 'make release' links it with the new order"
fi
