#!/usr/bin/env bash
# Builds bench/peer/mhd_raw.c against the system's libmicrohttpd into bench/.build/mhd_raw (when
# the source is newer than the binary) and prints the binary's path.
#   bench/peer/build.sh
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO="$(cd "$HERE/../.." && pwd)"
OUT="$REPO/bench/.build/mhd_raw"
if ! pkg-config --exists libmicrohttpd 2>/dev/null; then
  "$REPO/scripts/install-deps.sh" >&2  # libmicrohttpd's development files, as mockd's build needs
fi
if [[ ! -x "$OUT" || "$HERE/mhd_raw.c" -nt "$OUT" ]]; then
  mkdir -p "$(dirname "$OUT")"
  # shellcheck disable=SC2046  # pkg-config prints a list of flags
  ${CC:-cc} -O2 -Wall -Wextra -Werror -o "$OUT.new" "$HERE/mhd_raw.c" $(pkg-config --cflags --libs libmicrohttpd) -lpthread
  mv "$OUT.new" "$OUT"
fi
echo "$OUT"
