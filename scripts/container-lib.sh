# Shared by docker-test.sh and systemd-test.sh (sourced after `TEST=<name>`): reporting, and
# podman set up through ../shared/tools/container-env.sh with stand-ins for the Dockerfile's
# FROM images.

say() { printf '[%s] %s\n' "$TEST" "$*" >&2; }
skip() { echo "SKIPPED $TEST: $*"; exit 3; }
passed=0 failed=0
ok() { passed=$((passed + 1)); say "ok   $*"; }
bad() { failed=$((failed + 1)); say "FAIL $*"; }
die() { say "FAIL $*"; echo "$TEST: $passed passed, $((failed + 1)) failed"; exit 1; }
now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'; }

SWIFT_IMAGE=$(sed -n 's/^ARG SWIFT_IMAGE=//p' Dockerfile)
# The image's runtime stage is `scratch`; systemd-test builds its test image on Debian.
RUNTIME_IMAGE=docker.io/library/debian:bookworm-slim

# Sets CONTAINER_ENV to container-env.sh's path, or to nothing when it is not here.
find_container_env() {
  CONTAINER_ENV=${CONTAINER_ENV_SH:-}
  for candidate in ../shared/tools/container-env.sh /work/shared/tools/container-env.sh; do
    [ -n "$CONTAINER_ENV" ] || { [ -x "$candidate" ] && CONTAINER_ENV=$candidate; } || true
  done
}

# Runs container-env.sh and takes its exports; skips (exit 3) when containers cannot run here.
load_container_env() {
  local env_log env_lines rc reason
  env_log=$(mktemp)
  set +e
  env_lines=$("$CONTAINER_ENV" "$SWIFT_IMAGE" "$RUNTIME_IMAGE" 2>"$env_log")
  rc=$?
  set -e
  cat "$env_log" >&2
  reason=$(sed -n 's/^\[container-env\] //p' "$env_log" | tail -1)
  rm -f "$env_log"
  [ $rc -eq 3 ] && skip "containers cannot run on this machine (container-env.sh: ${reason:-exit 3})"
  [ $rc -eq 0 ] || die "container-env.sh exited $rc"
  eval "$env_lines"
}
