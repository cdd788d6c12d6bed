#!/usr/bin/env bash
# Builds mockd as one fully static executable (no shared library, no dynamic loader): the
# container image's binary. `make static` runs it; the Dockerfile's build stage too.
#
#   scripts/build-static.sh [OUT]     OUT defaults to .build/static/mockd
#
# libmicrohttpd, libcurl and libwslay come from scripts/static-deps.sh (STATIC_DEPS, default
# .build/static-deps); the Swift runtime and Foundation from the toolchain's static
# libraries; glibc, OpenSSL and zlib from Debian's .a files. MOCKD_STATIC_CURL makes
# Sources/CCurl/shim.h take libcurl's functions from the link instead of dlopen, which a
# static glibc program cannot do reliably.
#
# MOCKD_NO_WEBSOCKET in the environment (any value, as Package.swift reads it) builds without
# WebSocket: no wslay linked, upgrades get 501. The image does not set it.
set -euo pipefail
cd "$(dirname "$0")/.."
DEPS=$(realpath -m "${STATIC_DEPS:-.build/static-deps}")
OUT=${1:-.build/static/mockd}
SWIFT=${SWIFT:-swift}
# No `mockd mcp` in the static build: see Package.swift (agentServer).
export MOCKD_NO_MCP=1

scripts/static-deps.sh "$DEPS"
export PKG_CONFIG_PATH=$DEPS/lib/pkgconfig
# wslay's header from DEPS/include (-I comes before /usr/include, where libwslay-dev may have
# put its own); the link is static, so -lwslay (Sources/CWslay's module map asks for it too)
# can only be DEPS/lib's libwslay.a, never the system's libwslay.so.
flags=(-c release --product mockd --scratch-path .build/static
       --static-swift-stdlib -Xswiftc -static-executable
       -Xcc -DMOCKD_STATIC_CURL -Xcc "-I$DEPS/include"
       -Xlinker "-L$DEPS/lib" -Xlinker -lcurl -Xlinker -lssl -Xlinker -lcrypto -Xlinker -lz)
[ -n "${MOCKD_NO_WEBSOCKET+set}" ] || flags+=(-Xlinker -lwslay)
"$SWIFT" build "${flags[@]}"
bin="$("$SWIFT" build "${flags[@]}" --show-bin-path)/mockd"
if [ "$(realpath -m "$OUT")" != "$(realpath "$bin")" ]; then
  install -D -m 0755 "$bin" "$OUT"
fi
strip "$OUT"
echo "static mockd: $OUT ($(du -h "$OUT" | cut -f1))" >&2
