#!/usr/bin/env bash
# Installs what building mockd needs when it is missing: libmicrohttpd's development files
# (found through pkg-config), and curl for the CLI tests. Safe to run again.
set -euo pipefail

have_mhd() { command -v pkg-config >/dev/null && pkg-config --exists libmicrohttpd; }

if have_mhd && command -v curl >/dev/null; then exit 0; fi

if command -v apt-get >/dev/null; then
  SUDO=""; [ "$(id -u)" = 0 ] || SUDO="sudo"
  echo "install-deps: installing libmicrohttpd-dev, pkg-config and curl with apt-get" >&2
  $SUDO apt-get update -q
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q libmicrohttpd-dev pkg-config curl
elif command -v brew >/dev/null; then
  echo "install-deps: installing libmicrohttpd and pkg-config with brew" >&2
  brew install libmicrohttpd pkg-config
else
  echo "install-deps: libmicrohttpd not found and neither apt-get nor brew is here;" >&2
  echo "install libmicrohttpd's development files (pkg-config name: libmicrohttpd) and retry" >&2
  exit 1
fi
have_mhd || { echo "install-deps: pkg-config still cannot find libmicrohttpd" >&2; exit 1; }
