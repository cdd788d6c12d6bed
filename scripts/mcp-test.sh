#!/usr/bin/env bash
# `mockd mcp` driven by a real MCP client: the Python `mcp` package from PyPI, in a venv, runs
# Tests/MCP/mcp_test.py against a real mockd (started there on port 0, in a temporary copy of a
# small root): every tool called, two MCP servers in separate sessions, a created mock checked
# by `mockd check` and served, refused mocks writing nothing, a global reset only when asked,
# and `--root` starting a mockd and stopping it when the client disconnects.
# 0 failures expected. Called by `make test`; SKIP_MCP_TEST=1 skips it (no PyPI access).
# Environment: MOCKD (default .build/debug/mockd), MCP_VENV (default .build/mcp-venv).
set -euo pipefail
cd "$(dirname "$0")/.."

if [ "${SKIP_MCP_TEST:-}" = 1 ]; then echo "mcp-test: skipped (SKIP_MCP_TEST=1)"; exit 0; fi
MOCKD=${MOCKD:-.build/debug/mockd}
VENV=${MCP_VENV:-.build/mcp-venv}
[[ "$VENV" == /* ]] || VENV="$PWD/$VENV"
VERSION=2.3.0

if [ ! -x "$VENV/bin/python" ] || ! "$VENV/bin/python" -c "import importlib.metadata as m; assert m.version('mcp') == '$VERSION'" 2>/dev/null; then
  echo "mcp-test: installing mcp $VERSION into $VENV" >&2
  python3 -m venv "$VENV"
  "$VENV/bin/pip" install --quiet "mcp==$VERSION"
fi

# The whole run is bounded: each step has its own timeout, and this one catches a hang between them.
exec timeout 600 "$VENV/bin/python" Tests/MCP/mcp_test.py "$MOCKD"
