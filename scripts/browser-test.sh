#!/usr/bin/env bash
# The dashboard (/__mockd/) in headless Chromium, driven by Selenium, against a real mockd on
# port 0 serving a temporary copy of Tests/Browser/fixture: sources listed, live requests, a 404
# turned into a mock, scenario buttons, no console errors, nothing loaded from elsewhere
# (Tests/Browser/dashboard_test.py). Saves a screenshot to .build/dashboard.png (the README's is
# BROWSER_SCREENSHOT=docs/dashboard.png scripts/browser-test.sh). Called by `make test`;
# SKIP_BROWSER=1 skips it (no apt or PyPI access).
# Installs Debian's chromium and chromium-driver when missing, and Selenium into a venv.
# Environment: MOCKD (default .build/debug/mockd), BROWSER_VENV, BROWSER_SCREENSHOT.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ "${SKIP_BROWSER:-}" = 1 ]; then echo "browser-test: skipped (SKIP_BROWSER=1)"; exit 0; fi
MOCKD=${MOCKD:-.build/debug/mockd}
[[ "$MOCKD" == /* ]] || MOCKD="$PWD/$MOCKD"
VENV=${BROWSER_VENV:-.build/browser-venv}
[[ "$VENV" == /* ]] || VENV="$PWD/$VENV"
SCREENSHOT=${BROWSER_SCREENSHOT:-.build/dashboard.png}
VERSION=4.51.0
TOKEN=browser-test-token

if [ ! -x /usr/bin/chromium ] || [ ! -x /usr/bin/chromedriver ]; then
  echo "browser-test: installing Debian's chromium and chromium-driver" >&2
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver > /dev/null
fi
if [ ! -x "$VENV/bin/python" ] || ! "$VENV/bin/python" -c "import selenium, sys; sys.exit(selenium.__version__ != '$VERSION')" 2> /dev/null; then
  echo "browser-test: installing selenium $VERSION into $VENV" >&2
  python3 -m venv "$VENV"
  "$VENV/bin/pip" install --quiet "selenium==$VERSION"
fi

work=$(mktemp -d)
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT
cp -a Tests/Browser/fixture/. "$work/"

# start NAME ARGS…: starts mockd on port 0, logging to $work/NAME.out; sets $port.
start() {
  local name=$1; shift
  # From $work with relative folders, as a user runs it: origins read routes/app.json#0.
  (cd "$work" && exec "$MOCKD" serve --port 0 --root MockData --routes routes --log-level warning "$@") > "$work/$name.out" 2>&1 &
  local pid=$!
  pids+=("$pid")
  port=
  for _ in $(seq 1 300); do  # up to 30 s: a busy CI machine starts slowly
    port=$(grep -o 'listening on http://127.0.0.1:[0-9]*' "$work/$name.out" | grep -o '[0-9]*$' || true)
    [ -n "$port" ] && break
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.1
  done
  if [ -z "$port" ]; then echo "browser-test: mockd ($name) did not start:"; cat "$work/$name.out"; echo "0 passed, 1 failed"; exit 1; fi
}
# /bin/true stands in for xcrun (simctl is macOS only): the dashboard's push buttons send.
start main --push-command /bin/true
main_port=$port
start token --admin-token "$TOKEN" --no-watch
token_port=$port

mkdir -p "$(dirname "$SCREENSHOT")"
status=0
# HOME in $work: Chromium writes its profile and crash folders there, not in the user's home.
HOME="$work" SE_OFFLINE=true timeout 300 "$VENV/bin/python" Tests/Browser/dashboard_test.py \
  --base "http://127.0.0.1:$main_port" --token-base "http://127.0.0.1:$token_port" --token "$TOKEN" \
  --screenshot "$SCREENSHOT" || status=$?
if [ "$status" = 124 ]; then echo "browser-test: timed out after 300 s"; echo "0 passed, 1 failed"; fi
if [ "$status" != 0 ]; then echo "browser-test: mockd's output:"; cat "$work/main.out"; fi
exit $status
