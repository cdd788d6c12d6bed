#!/usr/bin/env bash
# GraphQL over WebSocket driven by a real client: Python's `gql` from PyPI (its
# WebsocketsTransport on `websockets`, and its HTTP transport on `requests`), in a venv, runs
# Tests/GraphQLClient/gql_test.py against a real mockd started there on port 0: subscriptions in
# both protocols gql speaks (graphql-transport-ws, and Apollo's older graphql-ws), a query over
# the socket and over HTTP, and an operation nothing answers.
# 0 failures expected. Called by `make test`; SKIP_GRAPHQL_CLIENT_TEST=1 skips it (no PyPI access).
# Environment: MOCKD (default .build/debug/mockd), GQL_VENV (default .build/gql-venv).
set -euo pipefail
cd "$(dirname "$0")/.."

if [ "${SKIP_GRAPHQL_CLIENT_TEST:-}" = 1 ]; then echo "graphql-client-test: skipped (SKIP_GRAPHQL_CLIENT_TEST=1)"; exit 0; fi
MOCKD=${MOCKD:-.build/debug/mockd}
VENV=${GQL_VENV:-.build/gql-venv}
[[ "$VENV" == /* ]] || VENV="$PWD/$VENV"
VERSION=4.4.0

if [ ! -x "$VENV/bin/python" ] || ! "$VENV/bin/python" -c "import importlib.metadata as m; assert m.version('gql') == '$VERSION'" 2>/dev/null; then
  echo "graphql-client-test: installing gql $VERSION into $VENV" >&2
  python3 -m venv "$VENV"
  "$VENV/bin/pip" install --quiet "gql[websockets,requests]==$VERSION"
fi

# Bounded as a whole; each step inside has its own timeout too.
exec timeout 300 "$VENV/bin/python" Tests/GraphQLClient/gql_test.py "$MOCKD"
