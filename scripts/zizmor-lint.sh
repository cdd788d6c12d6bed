#!/usr/bin/env bash
# zizmor (a linter for GitHub Actions workflows, from PyPI) on .github/workflows/*.yml, with the
# policy in zizmor.yml. The workflows are the only CI a fork or a Mac user sees run, and no
# machine here runs them: they are linted here instead. Called by `make lint`; installs zizmor
# into a venv in the build folder on first use (python3 with venv, and PyPI).
# Environment: ZIZMOR_VENV (default .build/zizmor-venv); SKIP_ZIZMOR=1 skips it (no PyPI here).
set -euo pipefail
cd "$(dirname "$0")/.."

if [ "${SKIP_ZIZMOR:-}" = 1 ]; then echo "zizmor-lint: skipped (SKIP_ZIZMOR=1)"; exit 0; fi

VENV=${ZIZMOR_VENV:-.build/zizmor-venv}
[[ "$VENV" == /* ]] || VENV="$PWD/$VENV"
VERSION=1.32.0

if [ ! -x "$VENV/bin/zizmor" ] || ! "$VENV/bin/zizmor" --version | grep -q "$VERSION"; then
  echo "zizmor-lint: installing zizmor $VERSION into $VENV" >&2
  # Debian keeps venv's pip apart (python3-venv); a fresh machine may not have it yet.
  if ! python3 -c 'import ensurepip' 2> /dev/null && command -v apt-get > /dev/null; then
    SUDO=""; [ "$(id -u)" = 0 ] || SUDO="sudo"
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq python3-venv > /dev/null
  fi
  rm -rf "$VENV"
  python3 -m venv "$VENV"
  "$VENV/bin/pip" install --quiet "zizmor==$VERSION"
fi

# --offline: the audits that ask GitHub's API (a pinned commit that no tag points at, known
# vulnerable actions) need a token and the network; the rest are the same everywhere, so the
# lint gives the same answer on every machine.
exec "$VENV/bin/zizmor" --offline --config zizmor.yml --no-progress .github/workflows/
