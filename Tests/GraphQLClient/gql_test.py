"""GraphQL over WebSocket with a client others wrote: Python's `gql` (its WebsocketsTransport, on the
`websockets` package) subscribes to a real mockd in both protocols it speaks, `graphql-transport-ws`
and the older `graphql-ws` (Apollo's), and runs a query over the same socket and over HTTP.

It serves a small root from a temporary folder with `mockd serve --port 0 --graphql /graphql`: a
subscription's events from a route's stream (with the operation's variables in them), another's
from a `graphql/<Operation>.ws` file, a query from a `.json` file, and an operation nothing answers.
Prints one line per check and exits 1 if any failed.
"""

import asyncio
import json
import os
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "PythonSupport"))
import mockd_process  # noqa: E402
from gql import Client, gql
from gql.transport.exceptions import TransportQueryError
from gql.transport.requests import RequestsHTTPTransport
from gql.transport.websockets import WebsocketsTransport

MOCKD = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else ".build/debug/mockd")
TIMEOUT = 30
failures = []


def check(name, condition, detail=""):
    print(("ok   " if condition else "FAIL ") + name + ("" if condition else f": {detail}"))
    if not condition:
        failures.append(name)


def write(folder, path, text):
    full = os.path.join(folder, path)
    os.makedirs(os.path.dirname(full), exist_ok=True)
    with open(full, "w") as handle:
        handle.write(text)


def make_root(folder):
    write(folder, "MockData/graphql/GetFeed.json",
          json.dumps({"data": {"feed": [{"__typename": "Post", "id": "1", "title": "Hello"}]}}))
    write(folder, "MockData/graphql/OnComment.ws",
          json.dumps({"send": {"json": {"data": {"commentAdded": {"__typename": "Comment", "id": "c1"}}}}}) + "\n"
          + json.dumps({"send": {"json": {"data": {"commentAdded": {"__typename": "Comment", "id": "c2"}}}}, "afterMs": 50})
          + "\n")
    write(folder, "routes/graphql.json", json.dumps({"routes": [
        {"path": "/graphql", "graphql": {"operation": "OnScore"}, "response": {"template": True, "stream": {"events": [
            {"data": {"data": {"score": {"__typename": "Score", "game": "{{variables.game}}", "home": 1}}}},
            {"data": {"data": {"score": {"__typename": "Score", "game": "{{variables.game}}", "home": 2}}}, "delayMs": 50},
            {"data": {"data": {"score": {"__typename": "Score", "game": "{{variables.game}}", "home": 3}}}, "delayMs": 50},
        ]}}},
    ]}))


def start_mockd(folder):
    return mockd_process.start(
        MOCKD, ["--root", os.path.join(folder, "MockData"), "--routes", os.path.join(folder, "routes"),
                "--graphql", "/graphql", "--no-watch", "--log-level", "info"], TIMEOUT)


SCORE = gql("subscription OnScore($game: ID!) { score(game: $game) { __typename game home } }")
COMMENT = gql("subscription OnComment { commentAdded { __typename id } }")
FEED = gql("query GetFeed { feed { __typename id title } }")
MISSING = gql("subscription OnNothing { nothing }")


async def over_websocket(port, subprotocol):
    transport = WebsocketsTransport(url=f"ws://127.0.0.1:{port}/graphql", subprotocols=[subprotocol])
    async with Client(transport=transport) as session:
        scores = []
        async for result in session.subscribe(SCORE, variable_values={"game": "g7"}):
            scores.append(result)
            if len(scores) == 3:
                break  # the client stops it: mockd keeps a subscription open, as a server does
        check(f"{subprotocol}: a route's three events in order, with the variables",
              [s["score"]["home"] for s in scores] == [1, 2, 3] and all(s["score"]["game"] == "g7" for s in scores), scores)
        comments = []
        async for result in session.subscribe(COMMENT):
            comments.append(result["commentAdded"]["id"])
            if len(comments) == 2:
                break
        check(f"{subprotocol}: a .ws file's events", comments == ["c1", "c2"], comments)
        feed = await session.execute(FEED)
        check(f"{subprotocol}: a query over the socket completes with its file's answer",
              feed == {"feed": [{"__typename": "Post", "id": "1", "title": "Hello"}]}, feed)
        try:
            async for result in session.subscribe(MISSING):
                check(f"{subprotocol}: an operation nothing answers is an error", False, result)
                break
        except TransportQueryError as error:
            check(f"{subprotocol}: an operation nothing answers is an error",
                  "no mock for subscription OnNothing" in str(error), str(error))


async def main():
    with tempfile.TemporaryDirectory() as folder:
        make_root(folder)
        process, port = start_mockd(folder)
        try:
            for subprotocol in (WebsocketsTransport.GRAPHQLWS_SUBPROTOCOL, WebsocketsTransport.APOLLO_SUBPROTOCOL):
                await asyncio.wait_for(over_websocket(port, subprotocol), TIMEOUT)
            http = Client(transport=RequestsHTTPTransport(url=f"http://127.0.0.1:{port}/graphql", timeout=TIMEOUT))
            feed = http.execute(FEED)
            check("the same query over HTTP", feed["feed"][0]["title"] == "Hello", feed)
        finally:
            mockd_process.stop(process, TIMEOUT)
    print(f"{len(failures)} failed")
    sys.exit(1 if failures else 0)


asyncio.run(main())
