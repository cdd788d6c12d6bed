#!/usr/bin/env bash
# Installs what building mockd needs when it is missing: libmicrohttpd's development files
# (found through pkg-config) and wslay's (WebSocket framing; no pkg-config file on Debian); on Linux also libcurl's, which a release build links statically
# with FoundationNetworking (the proxy's URLSession); libstdc++'s static archive, which the
# executable links (scripts/link/libstdc++.so); and curl for the CLI tests. Safe to run again.
set -euo pipefail

have() { command -v pkg-config >/dev/null && pkg-config --exists "$1"; }
static_libstdcxx() { compgen -G "/usr/lib/gcc/*/*/libstdc++.a" >/dev/null; }
have_wslay() { [ -f /usr/include/wslay/wslay.h ] || [ -f /usr/local/include/wslay/wslay.h ]; }
missing_linux() { ! have libmicrohttpd || ! have_wslay || ! have libcurl || ! command -v curl >/dev/null || ! static_libstdcxx; }

case "$(uname -s)" in
  Darwin)
    have libmicrohttpd && [ -f "$(brew --prefix 2>/dev/null)/include/wslay/wslay.h" ] && exit 0
    command -v brew >/dev/null || { echo "install-deps: install libmicrohttpd and wslay (Homebrew: brew install libmicrohttpd wslay pkg-config)" >&2; exit 1; }
    echo "install-deps: installing libmicrohttpd, wslay and pkg-config with brew" >&2
    brew install libmicrohttpd wslay pkg-config
    ;;
  *)
    missing_linux || exit 0
    command -v apt-get >/dev/null || {
      echo "install-deps: need libmicrohttpd and libcurl development files (pkg-config names libmicrohttpd, libcurl), libstdc++.a and curl; no apt-get here" >&2
      exit 1
    }
    SUDO=""; [ "$(id -u)" = 0 ] || SUDO="sudo"
    echo "install-deps: installing libmicrohttpd-dev, libwslay-dev, libcurl4-openssl-dev, pkg-config and curl (and g++, for libstdc++.a, when missing) with apt-get" >&2
    $SUDO apt-get update -q
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q libmicrohttpd-dev libwslay-dev libcurl4-openssl-dev pkg-config curl
    # g++ brings the libstdc++-N-dev of the system's default GCC, the one clang links against.
    static_libstdcxx || DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q g++
    static_libstdcxx || { echo "install-deps: g++ is installed but no /usr/lib/gcc/*/*/libstdc++.a: install the libstdc++-N-dev of your GCC" >&2; exit 1; }
    ;;
esac
have libmicrohttpd || { echo "install-deps: pkg-config still cannot find libmicrohttpd" >&2; exit 1; }
