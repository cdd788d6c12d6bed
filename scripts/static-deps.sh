#!/usr/bin/env bash
# Builds the two C libraries a fully static mockd links, from Debian's own sources (apt-get
# source, with Debian's patches), into PREFIX (default .build/static-deps):
#
#   libmicrohttpd.a  1.0.x from Debian 13 (trixie)'s source, without HTTPS: the same build as
#                    `make test-mhd1` tests (build_libmicrohttpd in debian-source.sh), so the
#                    image runs the library the suite ran on, with its stricter request parsing.
#                    mockd serves plain HTTP only; Debian's libmicrohttpd.a is built with
#                    GnuTLS, whose static chain needs libp11-kit.a and libunistring.a, which
#                    Debian does not ship. Without TLS it needs nothing.
#   libcurl.a        bookworm's (the build image's release), HTTP and HTTPS only, with OpenSSL
#                    and zlib (Debian ships libssl.a, libcrypto.a, libz.a), CA bundle
#                    /etc/ssl/certs/ca-certificates.crt. Debian's libcurl.a needs nghttp2, ssh2,
#                    rtmp, psl, ldap, gssapi, zstd as .a, which it does not ship; and a static
#                    glibc program cannot reliably dlopen the shared libcurl, so the static mockd
#                    links it (MOCKD_STATIC_CURL, see Sources/CCurl/shim.h).
#
# Used by `make static` and the Dockerfile's build stage (a bookworm container). Needs apt
# (deb-src is read from private lists, the system's apt configuration is not changed; trixie's
# index is checked with the trixie keys of bookworm's debian-archive-keyring), dpkg-dev, gcc,
# make, libssl-dev, zlib1g-dev. Idempotent: a finished PREFIX is kept (delete it to rebuild);
# one from before it built libmicrohttpd 1.0 (bookworm's 0.9.75, an empty .done) is rebuilt.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/debian-source.sh"

PREFIX=$(realpath -m "${1:-.build/static-deps}")
# .done names what was built.
grep -qs '^libmicrohttpd 1\.' "$PREFIX/.done" && { echo "static-deps: $PREFIX is ready ($(cat "$PREFIX/.done"))" >&2; exit 0; }
JOBS=$(nproc)
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
log() { printf '[static-deps] %s\n' "$*" >&2; }

# ---- libmicrohttpd: trixie's 1.0.x, the library only, no TLS
build_libmicrohttpd "$WORK" "$PREFIX"

# ---- curl's source: bookworm's (the build image's release) and its security updates, through
# a private apt list
mkdir -p "$WORK/curl-source"
debian_source "$WORK/curl-source" bookworm bookworm-security -- curl
curl_version=$(cd "$WORK/curl-source" && ls curl_*.dsc | sed 's/^curl_//; s/\.dsc$//')

# ---- libcurl: HTTP(S) only
log "building libcurl (HTTP and HTTPS, OpenSSL, zlib)"
(cd "$WORK/curl-source/curl" && ./configure -q --prefix="$PREFIX" --enable-static --disable-shared \
   --with-openssl --with-zlib --with-ca-bundle=/etc/ssl/certs/ca-certificates.crt --without-ca-path \
   --without-libpsl --without-nghttp2 --without-libidn2 --without-brotli --without-zstd \
   --without-libssh2 --without-librtmp --without-gssapi --disable-ldap --disable-ldaps \
   --disable-ftp --disable-file --disable-rtsp --disable-dict --disable-telnet --disable-tftp \
   --disable-pop3 --disable-imap --disable-smb --disable-smtp --disable-gopher --disable-mqtt \
   --disable-manual --disable-docs --disable-ntlm-wb --enable-threaded-resolver >&2 \
 && make -s -j"$JOBS" -C lib >&2 && make -s -C lib install >&2 && make -s -C include install >&2 \
 && install -D -m 0644 libcurl.pc "$PREFIX/lib/pkgconfig/libcurl.pc")
[ -f "$PREFIX/lib/libcurl.a" ] || { log "libcurl.a was not built"; exit 1; }

echo "libmicrohttpd $MHD_DEBIAN_VERSION (trixie), curl $curl_version (bookworm)" > "$PREFIX/.done"
log "ready in $PREFIX: $(cd "$PREFIX/lib" && ls *.a | tr '\n' ' ')"
