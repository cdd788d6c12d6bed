#!/usr/bin/env bash
# Builds libmicrohttpd 1.0.x from Debian 13 (trixie)'s source package (apt-get source, with
# Debian's patches; apt checks every file against the signed Sources index) into PREFIX (default
# .build-mhd1/prefix, ignored by git), for `make test-mhd1`: the version Homebrew installs on
# every Mac and Debian 13 ships, while this machine's system library is bookworm's 0.9.75.
#
# Static library only, without HTTPS (mockd serves plain HTTP; no GnuTLS chain to link): a
# mockd linked through this prefix's pkg-config file holds 1.0 itself, so no loader path can
# pick the system's 0.9.75 instead (`ldd` lists no libmicrohttpd at all). The static binary and
# the image link the same build (static-deps.sh calls the same build_libmicrohttpd), so what the
# tests run is what they run.
#
# Needs apt (deb-src read from a private list, the system's apt configuration is not changed),
# dpkg-dev, gcc, make. Idempotent: a finished PREFIX is kept (delete it to rebuild).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/debian-source.sh"

PREFIX=$(realpath -m "${1:-.build-mhd1/prefix}")
[ -f "$PREFIX/.done" ] && { echo "mhd1-deps: $PREFIX is ready ($(cat "$PREFIX/.done"))" >&2; exit 0; }
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
log() { printf '[mhd1-deps] %s\n' "$*" >&2; }

build_libmicrohttpd "$WORK" "$PREFIX"
pkgversion=$(PKG_CONFIG_PATH="$PREFIX/lib/pkgconfig" pkg-config --modversion libmicrohttpd)
echo "$MHD_DEBIAN_VERSION" > "$PREFIX/.done"
log "ready: libmicrohttpd $pkgversion in $PREFIX"
