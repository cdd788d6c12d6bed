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
#   libwslay.a       wslay 1.1.1 (WebSocket framing, Sources/CWslay), the copy bookworm's aria2
#                    source package vendors in deps/wslay: Debian ships wslay as a shared library
#                    only (libwslay-dev has no .a), and wslay's own source package is not on
#                    every mirror, aria2's is. aria2 does not patch it (its Debian changes are
#                    in debian/ only). The four .c files are compiled directly: what wslay's
#                    configure would put in config.h is two header checks and the byte order.
#
# Used by `make static` and the Dockerfile's build stage (a bookworm container). Needs apt
# (deb-src is read from private lists, the system's apt configuration is not changed; trixie's
# index is checked with the trixie keys of bookworm's debian-archive-keyring), dpkg-dev, gcc,
# make, libssl-dev, zlib1g-dev. Idempotent: a finished PREFIX is kept (delete it to rebuild);
# one from before it built libmicrohttpd 1.0 (bookworm's 0.9.75, an empty .done) is rebuilt;
# one from before it built wslay gets libwslay.a added, the rest kept.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/debian-source.sh"

PREFIX=$(realpath -m "${1:-.build/static-deps}")
# .done names libmicrohttpd and libcurl as built, .done-wslay wslay.
mhd_curl_ready() { grep -qs '^libmicrohttpd 1\.' "$PREFIX/.done"; }
wslay_ready() { grep -qs '^wslay ' "$PREFIX/.done-wslay" && [ -f "$PREFIX/lib/libwslay.a" ]; }
if mhd_curl_ready && wslay_ready; then
  echo "static-deps: $PREFIX is ready ($(cat "$PREFIX/.done"), $(cat "$PREFIX/.done-wslay"))" >&2
  exit 0
fi
JOBS=$(nproc)
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
log() { printf '[static-deps] %s\n' "$*" >&2; }

# ---- wslay: deps/wslay of bookworm's aria2 source (see above), into PREFIX as libwslay.a,
# wslay/wslay.h, wslay/wslayver.h and libwslay.pc
build_wslay() {
  local src version cc=${CC:-cc} object objects=() defines
  mkdir -p "$WORK/aria2-source"
  debian_source "$WORK/aria2-source" bookworm bookworm-security -- aria2
  src=$WORK/aria2-source/aria2/deps/wslay
  version=$(sed -n 's/^AC_INIT(\[wslay\], *\[\([^]]*\)\].*/\1/p' "$src/configure.ac")
  case "$version" in
    1.*) ;;
    *) log "aria2's deps/wslay is '$version', not wslay 1.x"; return 1 ;;
  esac
  log "building wslay $version (aria2 $(cd "$WORK/aria2-source" && ls aria2_*.dsc | sed 's/^aria2_//; s/\.dsc$//')'s deps/wslay, static) into $PREFIX"
  mkdir -p "$PREFIX/include/wslay" "$PREFIX/lib/pkgconfig" "$WORK/wslay"
  install -m 0644 "$src/lib/includes/wslay/wslay.h" "$PREFIX/include/wslay/wslay.h"
  sed "s/@PACKAGE_VERSION@/$version/" "$src/lib/includes/wslay/wslayver.h.in" > "$PREFIX/include/wslay/wslayver.h"
  # config.h's part the sources read: wslay_net.h includes <arpa/inet.h> (ntohl) and
  # <netinet/in.h> when told they exist, and byte-swaps 64-bit lengths unless WORDS_BIGENDIAN.
  defines=(-DHAVE_ARPA_INET_H=1 -DHAVE_NETINET_IN_H=1)
  if printf '#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__\nbig\n#endif\n' | "$cc" -E -P -x c - | grep -q big; then
    defines+=(-DWORDS_BIGENDIAN=1)
  fi
  # The installed headers, not the tree's pre-generated wslayver.h.
  for object in wslay_event wslay_frame wslay_net wslay_queue; do
    "$cc" -O2 -fPIC -Wall "${defines[@]}" -I"$PREFIX/include" -I"$src/lib" \
      -c "$src/lib/$object.c" -o "$WORK/wslay/$object.o" >&2
    objects+=("$WORK/wslay/$object.o")
  done
  rm -f "$PREFIX/lib/libwslay.a"
  ar rcs "$PREFIX/lib/libwslay.a" "${objects[@]}"
  sed -e "s,@prefix@,$PREFIX," -e 's,@exec_prefix@,${prefix},' -e 's,@libdir@,${exec_prefix}/lib,' \
      -e 's,@includedir@,${prefix}/include,' -e "s,@VERSION@,$version," \
      "$src/lib/libwslay.pc.in" > "$PREFIX/lib/pkgconfig/libwslay.pc"
  echo "wslay $version (aria2 source, bookworm)" > "$PREFIX/.done-wslay"
}

if mhd_curl_ready; then
  build_wslay
  log "ready in $PREFIX: $(cd "$PREFIX/lib" && ls *.a | tr '\n' ' ')"
  exit 0
fi

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
wslay_ready || build_wslay
log "ready in $PREFIX: $(cd "$PREFIX/lib" && ls *.a | tr '\n' ' ')"
