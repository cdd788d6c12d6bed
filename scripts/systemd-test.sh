#!/usr/bin/env bash
# make systemd-test: checks systemd/mockd.service, then runs it for real under systemd.
#
#   1. `systemd-analyze verify` prints nothing, and `systemd-analyze security --offline=true`
#      rates the unit's exposure at most $MAX_EXPOSURE;
#   2. in a container with systemd as PID 1 (podman --systemd=always), the unit reaches
#      `active (running)` through READY=1, serves a mock, `systemctl reload mockd` serves a
#      changed file without a restart, and `systemctl stop mockd` ends with Result=success.
# The binary is the one from the Docker image (`docker build -t mockd .`, cached after
# docker-test). systemd-analyze runs inside the test image, so the host needs no systemd.
#
# Exit status: 0 all passed, 1 a check failed, 3 containers cannot run on this machine
# (a line `SKIPPED systemd-test: <reason>` says why).
set -euo pipefail
cd "$(dirname "$0")/.."

MAX_EXPOSURE=${MAX_EXPOSURE:-2.0}
IMAGE=${MOCKD_IMAGE:-mockd}
TEST_IMAGE=localhost/mockd-systemd-test
NAME=mockd-systemd-test-$$
UNIT=systemd/mockd.service
MOCK=MockData/mock_api_health_get.json

TEST=systemd-test
source scripts/container-lib.sh

# ---- the engine: podman (through container-env.sh), which runs systemd as PID 1
find_container_env
if ! command -v podman >/dev/null && [ -z "$CONTAINER_ENV" ]; then
  skip "neither podman nor container-env.sh is here"
fi
if [ -n "$CONTAINER_ENV" ]; then
  load_container_env
fi
podman info >/dev/null 2>&1 || skip "podman does not run here"

TMP=$(mktemp -d)
cleanup() {
  podman rm -f -t 5 "$NAME" >/dev/null 2>&1 || true
  rm -rf "$TMP"
}
trap cleanup EXIT

# ---- the test image: the runtime base + systemd, mockd from the Docker image, the unit
say "building $IMAGE (cached when docker-test ran)"
timeout 2400 podman build -t "$IMAGE" . >"$TMP/build.log" 2>&1 \
  || { tail -40 "$TMP/build.log" >&2; die "podman build -t $IMAGE ."; }
mkdir -p "$TMP/ctx"
cp "$UNIT" "$TMP/ctx/mockd.service"
cp -r MockData "$TMP/ctx/MockData"
cp -r routes "$TMP/ctx/routes"
cat > "$TMP/ctx/Containerfile" <<EOF
FROM $IMAGE AS app
FROM $RUNTIME_IMAGE
RUN apt-get -q update \\
 && DEBIAN_FRONTEND=noninteractive apt-get -q install -y --no-install-recommends \\
      systemd procps curl ca-certificates \\
 && rm -rf /var/lib/apt/lists/* \\
 && systemctl mask getty.target console-getty.service systemd-logind.service \\
      systemd-remount-fs.service systemd-udevd.service systemd-udev-trigger.service
COPY --from=app /usr/local/bin/mockd /usr/local/bin/mockd
COPY MockData/ /srv/mockd/MockData/
COPY routes/ /srv/mockd/routes/
COPY mockd.service /etc/systemd/system/mockd.service
RUN systemctl enable mockd.service
STOPSIGNAL SIGRTMIN+3
CMD ["/lib/systemd/systemd"]
EOF
say "building $TEST_IMAGE"
timeout 900 podman build -t "$TEST_IMAGE" "$TMP/ctx" >"$TMP/build.log" 2>&1 \
  || { tail -40 "$TMP/build.log" >&2; die "podman build $TEST_IMAGE"; }

# ---- static checks, with the test image's systemd-analyze (the host may have none)
analyze=(podman run --rm -e SYSTEMD_COLORS=0 -e SYSTEMD_URLIFY=0 -e SYSTEMD_PAGER= "$TEST_IMAGE" systemd-analyze)
verify=$("${analyze[@]}" verify /etc/systemd/system/mockd.service 2>&1) \
  || die "systemd-analyze verify exited non-zero: $verify"
if [ -z "$verify" ]; then ok "systemd-analyze verify prints nothing"; else bad "systemd-analyze verify: $verify"; fi

security=$("${analyze[@]}" security --offline=true \
  /etc/systemd/system/mockd.service 2>&1) || true
exposure=$(printf '%s\n' "$security" | sed -n 's/.*Overall exposure level for mockd.service: \([0-9.]*\).*/\1/p')
[ -n "$exposure" ] || die "no 'Overall exposure level' in: $security"
if awk -v e="$exposure" -v m="$MAX_EXPOSURE" 'BEGIN { exit !(e <= m) }'; then
  ok "exposure $exposure <= $MAX_EXPOSURE"
else
  printf '%s\n' "$security" | grep '✗' >&2 || true
  bad "exposure $exposure > $MAX_EXPOSURE"
fi

# ---- the real thing: systemd as PID 1
inside() { timeout 30 podman exec "$NAME" "$@"; }
say "starting systemd in $NAME"
podman run -d --name "$NAME" --systemd=always --cap-add SYS_ADMIN "$TEST_IMAGE" >/dev/null \
  || die "podman run --systemd=always"

state=""
for _ in $(seq 1 60); do
  state=$(inside systemctl is-active mockd 2>/dev/null) || true
  [ "$state" = active ] || [ "$state" = failed ] && break
  # a start that failed and is being retried (Restart=on-failure) will not get better
  [ "$(inside systemctl show -p NRestarts --value mockd 2>/dev/null)" = 0 ] || break
  sleep 1
done
status=$(inside systemctl status --no-pager mockd 2>&1) || true
if [ "$state" = active ] && grep -q 'active (running)' <<<"$status"; then
  ok "mockd.service is active (running)"
else
  printf '%s\n' "$status" >&2
  inside journalctl --no-pager -u mockd >&2 || true
  die "mockd.service did not reach active (running) (state: ${state:-unknown})"
fi
# Type=notify only goes active on READY=1; the STATUS= sent with it proves it came from mockd.
status_text=$(inside systemctl show -p StatusText --value mockd)
if [[ $status_text == serving* ]]; then ok "READY=1 with STATUS: $status_text"; else bad "StatusText: '$status_text'"; fi

pid=$(inside systemctl show -p MainPID --value mockd)
uid=$(inside awk '/^Uid:/ { print $2 }' "/proc/$pid/status")
if [ -n "$uid" ] && [ "$uid" != 0 ]; then ok "runs as a dynamic user (uid $uid)"; else bad "runs as uid '${uid}'"; fi

fetch() { inside curl -sS --max-time 5 http://127.0.0.1:8080/api/health; }
body=$(fetch) || body=""
if [ "$body" = "$(cat "$MOCK")" ]; then ok "serves $MOCK"; else bad "GET /api/health: '$body'"; fi

# ---- reload picks up a changed file, same process
new='{"status":"reloaded"}'
inside sh -c "printf '%s' '$new' > /srv/mockd/$MOCK"
timeout 30 podman exec "$NAME" systemctl reload mockd || bad "systemctl reload mockd"
body=""
for _ in $(seq 1 20); do
  body=$(fetch) || true
  [ "$body" = "$new" ] && break
  sleep 0.5
done
if [ "$body" = "$new" ]; then ok "systemctl reload mockd serves the changed file"; else bad "after reload: '$body'"; fi
pid_after=$(inside systemctl show -p MainPID --value mockd)
if [ "$pid_after" = "$pid" ]; then ok "reload kept the process ($pid)"; else bad "reload restarted mockd ($pid -> $pid_after)"; fi

# ---- stop ends cleanly
timeout 30 podman exec "$NAME" systemctl stop mockd || bad "systemctl stop mockd"
result=$(inside systemctl show -p Result,ExecMainStatus mockd | tr '\n' ' ')
if [[ $result == *Result=success* && $result == *ExecMainStatus=0* ]]; then
  ok "systemctl stop mockd: $result"
else
  inside journalctl --no-pager -u mockd >&2 || true
  bad "systemctl stop mockd: $result"
fi

echo "systemd-test: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
