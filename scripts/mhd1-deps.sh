#!/usr/bin/env bash
# Builds libmicrohttpd 1.0.x from Debian 13 (trixie)'s source package (apt-get source, with
# Debian's patches; apt checks every file against the signed Sources index) into PREFIX (default
# .build-mhd1/prefix, ignored by git), for `make test-mhd1`: the version Homebrew installs on
# every Mac and Debian 13 ships, while this machine's system library is bookworm's 0.9.75.
#
# Static library only, without HTTPS (mockd serves plain HTTP; no GnuTLS chain to link): a
# mockd linked through this prefix's pkg-config file holds 1.0 itself, so no loader path can
# pick the system's 0.9.75 instead (`ldd` lists no libmicrohttpd at all), and what the tests
# run is what the static binary and the image run.
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

# ---- sources: trixie's, through a private apt list
debian_source "$WORK" trixie -- libmicrohttpd
version=$(cd "$WORK" && ls libmicrohttpd_*.dsc | sed 's/^libmicrohttpd_//; s/\.dsc$//')
case "$version" in
  1.*) ;;
  *) log "trixie's libmicrohttpd is $version, not 1.x"; exit 1 ;;
esac

# ---- the library only, no TLS
log "building libmicrohttpd $version (static, no HTTPS) into $PREFIX"
mkdir -p "$PREFIX"
(cd "$WORK/libmicrohttpd" && ./configure -q --prefix="$PREFIX" --enable-static --disable-shared --disable-https \
   --disable-doc --disable-examples --disable-curl --disable-nls --without-gnutls >&2 \
 && make -s -j"$(nproc)" -C src/microhttpd install >&2 \
 && make -s -C src/include install >&2 && make -s install-pkgconfigDATA >&2)
[ -f "$PREFIX/lib/libmicrohttpd.a" ] || { log "libmicrohttpd.a was not built"; exit 1; }
pkgversion=$(PKG_CONFIG_PATH="$PREFIX/lib/pkgconfig" pkg-config --modversion libmicrohttpd)
echo "$version" > "$PREFIX/.done"
log "ready: libmicrohttpd $pkgversion in $PREFIX"
