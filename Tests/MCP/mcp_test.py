#!/usr/bin/env python3
"""`mockd mcp` driven by a real MCP client (the `mcp` package from PyPI) against a real mockd.

Run by scripts/mcp-test.sh, which installs the client in a venv: python3 Tests/MCP/mcp_test.py MOCKD.
It serves a small root from a temporary folder with `mockd serve --port 0`, starts MCP servers
on stdio as an agent does, calls every tool, and prints `N passed, N failed`; the exit status is 1
when a check failed. Every wait is bounded; every process started is stopped by its PID.
"""

import asyncio
import json
import os
import shutil
import select
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from contextlib import AsyncExitStack

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "PythonSupport"))
import mockd_process  # noqa: E402
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

MOCKD = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else ".build/debug/mockd")
TIMEOUT = 20  # seconds any one step may take
PETSTORE = os.path.abspath(os.path.join(os.path.dirname(__file__), "../Fixtures/openapi/petstore.yaml"))

passed = 0
failed = 0


def check(name, condition, detail=""):
    global passed, failed
    if condition:
        passed += 1
        print(f"ok   {name}")
    else:
        failed += 1
        print(f"FAIL {name} {detail}")


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as file:
        file.write(text)


def small_root(folder):
    """A root with one mock, its `empty` scenario, and a route table beside it."""
    root = os.path.join(folder, "MockData")
    write(os.path.join(root, "mock_api_users_get.json"), '{"users": ["ada", "linus"]}\n')
    write(os.path.join(root, "scenarios/empty/mock_api_users_get.json"), '{"users": []}\n')
    write(os.path.join(folder, "routes/health.json"),
          '{"routes": [{"method": "GET", "path": "/api/ping", "response": {"json": {"pong": true}}}]}\n')
    return root


def http(url, method="GET"):
    """(status, body text) of one request; errors are answers too."""
    request = urllib.request.Request(url, method=method)
    try:
        with urllib.request.urlopen(request, timeout=TIMEOUT) as answer:
            return answer.status, answer.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()


def start_mockd(root):
    """`mockd serve --port 0` with the petstore document: the port is read from its `listening on` line, within TIMEOUT."""
    return mockd_process.start(
        MOCKD, ["--root", root, "--routes", os.path.join(os.path.dirname(root), "routes"),
                "--openapi", PETSTORE, "--no-watch", "--log-level", "info"], TIMEOUT)


def stop(process):
    mockd_process.stop(process, TIMEOUT)


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def answers(port):
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=2):
            return True
    except OSError:
        return False


def pids_serving(root):
    """The processes whose command line names `root` after `serve`: the mockd `mcp --root` started."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/cmdline", "rb") as file:
                words = file.read().split(b"\0")
        except OSError:
            continue
        if b"serve" in words and root.encode() in words:
            found.append(int(entry))
    return found


def gone(pid, seconds):
    """True once `pid` has exited (or is a zombie), asked until `seconds` have passed."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            with open(f"/proc/{pid}/stat") as file:
                if file.read().split(") ")[1].startswith("Z"):
                    return True
        except OSError:
            return True
        time.sleep(0.05)
    return False


async def open_mcp(stack, *arguments):
    parameters = StdioServerParameters(command=MOCKD, args=["mcp", *arguments], env=dict(os.environ))
    read, write_stream = await stack.enter_async_context(stdio_client(parameters))
    session = await stack.enter_async_context(ClientSession(read, write_stream))
    initialized = await asyncio.wait_for(session.initialize(), TIMEOUT)
    return session, initialized


async def call(session, tool, arguments=None):
    """(isError, JSON result or error text)."""
    result = await asyncio.wait_for(session.call_tool(tool, arguments or {}), TIMEOUT + 60)
    text = "".join(part.text for part in result.content if getattr(part, "text", None) is not None)
    if result.is_error:
        return True, text
    return False, json.loads(text)


EXPECTED_TOOLS = {
    "status", "explain_request", "create_mock", "add_stub", "remove_stub", "list_stubs", "set_scenario",
    "open_session", "list_sessions", "close_session", "list_requests", "wait_for_requests", "reset", "check",
    "import", "create_route_table",
}


async def against_running_mockd(folder, root, port):
    url = f"http://127.0.0.1:{port}"
    async with AsyncExitStack() as stack:
        a, initialized = await open_mcp(stack, "--url", url)
        b, _ = await open_mcp(stack, "--url", url)
        called = set()

        async def tool(session, name, arguments=None):
            called.add(name)
            return await call(session, name, arguments)

        tools = {t.name for t in (await a.list_tools()).tools}
        check("tools: every tool is listed", tools == EXPECTED_TOOLS, f"{sorted(tools)}")

        error, status = await tool(a, "status")
        own = status["mcpSession"]
        check("status: own session with a base URL", not error and own["baseURL"].startswith("http://127.0.0.1:"), status)
        check("status: the instructions name the session's base URL", own["baseURL"] in (initialized.instructions or ""))
        check("status: root and scenarios", status["server"]["root"] == os.path.realpath(root)
              and "empty" in status["knownScenarios"], status)
        _, status_b = await tool(b, "status")
        own_b = status_b["mcpSession"]
        check("two MCP servers have two sessions", own["id"] != own_b["id"] and own["baseURL"] != own_b["baseURL"])
        ids = {s["id"] for s in status["sessions"]} | {s["id"] for s in status_b["sessions"]}
        check("status: sessions listed", own["id"] in ids)

        error, explained = await tool(a, "explain_request", {"method": "GET", "path": "/api/users"})
        check("explain_request: the file that answers", not error and explained["status"] == 200
              and "mock_api_users_get.json" in explained.get("source", ""), explained)
        error, explained = await tool(a, "explain_request", {"method": "GET", "path": "/api/userz"})
        check("explain_request: a miss is the 404 report", not error and explained["status"] == 404
              and "mock_api_userz_get.json" in json.dumps(explained["notFound"]), explained)
        error, explained = await tool(a, "explain_request", {"method": "GET", "path": "/api/users", "scenario": "empty"})
        check("explain_request: in a scenario", not error and "scenarios/empty" in explained.get("source", ""), explained)

        # A mock written by the agent: a file mockd check accepts, served at once.
        error, created = await tool(a, "create_mock", {"method": "GET", "path": "/api/feed", "body": {"items": [1, 2]}})
        written = os.path.join(root, "mock_api_feed_get.json")
        check("create_mock: written as a file", not error and os.path.exists(written), created)
        checked = subprocess.run([MOCKD, "check", "--root", root, "--routes", os.path.join(folder, "routes")],
                                 capture_output=True, text=True, timeout=TIMEOUT)
        check("create_mock: mockd check accepts the root", checked.returncode == 0, checked.stdout + checked.stderr)
        answer = http(own_b["baseURL"] + "/api/feed")
        check("create_mock: the next request gets it (any session)", answer[0] == 200 and json.loads(answer[1]) == {"items": [1, 2]},
              answer)
        error, text = await tool(a, "create_mock", {"method": "GET", "path": "/api/feed", "body": "{}"})
        check("create_mock: never overwrites (409, says so)", error and "409" in text and "overwrite" in text, text)
        before = sorted(os.listdir(root))
        error, text = await tool(a, "create_mock", {"method": "GET", "path": "/api/broken", "body": "{not json"})
        check("create_mock: bad JSON is refused and writes nothing",
              error and "not JSON" in text and sorted(os.listdir(root)) == before, text)
        # Off-contract: the served OpenAPI document's Pet has an integer id and a name.
        error, text = await tool(a, "create_mock", {"method": "GET", "path": "/v1/pets/7", "body": {"id": "seven"}})
        check("create_mock: an off-contract body is refused with its violations and writes nothing",
              error and "422" in text and "body.id: expected integer" in text and "body.name: required" in text
              and sorted(os.listdir(root)) == before, text)
        error, created = await tool(a, "create_mock", {"method": "GET", "path": "/v1/pets/7", "body": {"id": 7, "name": "Rex"}})
        check("create_mock: an on-contract body is written", not error and created.get("file") == "mock_v1_pets_7_get.json", created)

        # A route table: path parameters, written in the routes folder, served at once.
        routes_folder = os.path.join(folder, "routes")
        route = {"method": "GET", "path": "/api/orders/:id", "response": {"json": {"order": "{{path.id}}"}, "template": True}}
        error, created = await tool(a, "create_route_table", {"table": "orders.json", "routes": [route]})
        check("create_route_table: written in the routes folder", not error and os.path.exists(os.path.join(routes_folder, "orders.json")),
              created)
        answer = http(own_b["baseURL"] + "/api/orders/42")
        check("create_route_table: the next request gets it", answer[0] == 200 and json.loads(answer[1]) == {"order": "42"}, answer)
        checked = subprocess.run([MOCKD, "check", "--root", root, "--routes", routes_folder],
                                 capture_output=True, text=True, timeout=TIMEOUT)
        check("create_route_table: mockd check accepts it", checked.returncode == 0, checked.stdout + checked.stderr)
        tables = sorted(os.listdir(routes_folder))
        error, text = await tool(a, "create_route_table", {"table": "orders.json", "routes": [route]})
        check("create_route_table: never overwrites (409)", error and "409" in text and "overwrite" in text, text)
        error, text = await tool(a, "create_route_table",
                                 {"table": "pets.json", "routes": [{"method": "GET", "path": "/v1/pets/:id", "response": {"json": {"id": "x"}}},
                                                                   {"method": "GET", "path": "/x"}]})
        check("create_route_table: a bad route is refused, every error listed, nothing written",
              error and "routes[1]" in text and sorted(os.listdir(routes_folder)) == tables, text)
        error, text = await tool(a, "create_route_table",
                                 {"table": "pets.json", "routes": [{"method": "GET", "path": "/v1/pets/:id", "response": {"json": {"id": "x"}}}]})
        check("create_route_table: an off-contract answer is refused (422), nothing written",
              error and "422" in text and "body.id: expected integer" in text and sorted(os.listdir(routes_folder)) == tables, text)

        # Stubs: in the agent's session only.
        error, stub = await tool(a, "add_stub", {"route": {"method": "GET", "path": "/api/stubbed", "response": {"json": {"from": "a"}}}})
        check("add_stub: added", not error and "id" in stub, stub)
        check("add_stub: answers in its session", http(own["baseURL"] + "/api/stubbed")[0] == 200)
        check("add_stub: not seen by the other MCP server's session", http(own_b["baseURL"] + "/api/stubbed")[0] == 404)
        error, stubs = await tool(b, "list_stubs")
        check("list_stubs: lists it", not error and any(s["id"] == stub["id"] for s in stubs["stubs"]), stubs)
        error, removed = await tool(a, "remove_stub", {"id": stub["id"]})
        check("remove_stub: removed", not error and http(own["baseURL"] + "/api/stubbed")[0] == 404, removed)
        error, text = await tool(a, "add_stub", {"route": {"method": "GET", "path": "/api/x", "response": {"status": "x"}}})
        check("add_stub: a bad route is mockd's own message", error and "stub.response.status" in text, text)

        # Scenarios: the session's, the server's only when asked.
        error, _ = await tool(a, "set_scenario", {"scenario": "empty"})
        check("set_scenario: the session's", not error and json.loads(http(own["baseURL"] + "/api/users")[1]) == {"users": []})
        check("set_scenario: the other session keeps its own", json.loads(http(own_b["baseURL"] + "/api/users")[1])["users"] != [])
        error, text = await tool(a, "set_scenario", {"scenario": "nope"})
        check("set_scenario: unknown names the known ones", error and "empty" in text, text)
        error, _ = await tool(b, "set_scenario", {"scenario": "empty", "global": True})
        check("set_scenario: global with the argument", not error and json.loads(http(url + "/api/users")[1]) == {"users": []})
        await tool(b, "set_scenario", {"scenario": "default", "global": True})

        # Sessions.
        error, opened = await tool(a, "open_session", {"id": "sim-3"})
        check("open_session", not error and opened["id"] == "sim-3", opened)
        error, listed = await tool(a, "list_sessions")
        check("list_sessions", not error and {"sim-3", own["id"], own_b["id"]} <= {s["id"] for s in listed["sessions"]}, listed)
        error, _ = await tool(a, "explain_request", {"method": "GET", "path": "/api/ping", "session": "sim-3"})
        check("explain_request: in a named session", not error)
        error, _ = await tool(a, "close_session", {"id": "sim-3"})
        check("close_session", not error)
        error, text = await tool(a, "close_session", {"id": own["id"]})
        check("close_session: not its own", error, text)

        # The journal.
        http(own["baseURL"] + "/api/ping")
        error, requests = await tool(a, "list_requests", {"path": "/api/ping"})
        check("list_requests: the session's", not error and len(requests["requests"]) >= 1
              and all(r.get("session") == own["id"] for r in requests["requests"]), requests)
        error, requests_b = await tool(b, "list_requests", {"path": "/api/ping"})
        check("list_requests: not the other session's", not error and requests_b["requests"] == [], requests_b)
        error, waited = await tool(a, "wait_for_requests", {"method": "GET", "path": "/api/ping", "count": 1, "wait": 5})
        check("wait_for_requests: there already", not error and waited.get("complete") is True, waited)
        started = time.monotonic()
        error, waited = await tool(b, "wait_for_requests", {"path": "/api/never", "count": 1, "wait": 1})
        check("wait_for_requests: times out, bounded", not error and waited.get("complete") is False
              and time.monotonic() - started < 15, waited)

        # Resets: the session's by default; everything only with "global": true.
        await tool(b, "add_stub", {"route": {"method": "GET", "path": "/api/global", "response": {"json": {}}}, "global": True})
        await tool(a, "add_stub", {"route": {"method": "GET", "path": "/api/mine", "response": {"json": {}}}})
        error, _ = await tool(a, "reset")
        check("reset: the session's stubs go", not error and http(own["baseURL"] + "/api/mine")[0] == 404)
        check("reset: without the argument, the global stub stays", http(url + "/api/global")[0] == 200)
        error, text = await tool(a, "reset", {"session": own["id"], "global": True})
        check("reset: session and global together are refused", error, text)
        error, text = await tool(a, "reset", {"global": "yes"})
        check("reset: global must be true, not a word", error and "true or false" in text, text)
        error, _ = await tool(a, "reset", {"global": True})
        check("reset: global with the argument", not error and http(url + "/api/global")[0] == 404)

        error, report = await tool(a, "check")
        check("check: ok", not error and report.get("ok") is True, report)
        broken = os.path.join(folder, "routes/broken.json")
        write(broken, '{"routes": [{"method": "GET"}]}\n')
        error, report = await tool(a, "check")
        check("check: a broken route table is reported, not a tool error",
              not error and report.get("ok") is False and "broken.json" in json.dumps(report.get("errors")), report)
        os.remove(broken)
        error, report = await tool(a, "check")
        check("check: ok again once it is gone", not error and report.get("ok") is True, report)

        # Import: a dry run first, which writes nothing.
        har = os.path.join(folder, "traffic.har")
        write(har, json.dumps({"log": {"version": "1.2", "creator": {"name": "t", "version": "1"}, "entries": [{
            "startedDateTime": "2026-01-01T00:00:00Z", "time": 1,
            "request": {"method": "GET", "url": "https://api.example.com/api/orders", "httpVersion": "HTTP/1.1",
                        "headers": [], "queryString": [], "cookies": [], "headersSize": -1, "bodySize": 0},
            "response": {"status": 200, "statusText": "OK", "httpVersion": "HTTP/1.1",
                         "headers": [{"name": "Content-Type", "value": "application/json"}], "cookies": [],
                         "content": {"size": 13, "mimeType": "application/json", "text": "{\"orders\":[]}"},
                         "redirectURL": "", "headersSize": -1, "bodySize": 13},
            "cache": {}, "timings": {"send": 0, "wait": 1, "receive": 0}}]}}))
        before = sorted(os.listdir(root))
        error, dry = await tool(a, "import", {"file": har})
        check("import: a dry run writes nothing", not error and dry["dryRun"] is True and sorted(os.listdir(root)) == before, dry)
        error, done = await tool(a, "import", {"file": har, "dry_run": False})
        names = {name for _, _, files in os.walk(root) for name in files}
        check("import: written and served", not error and "mock_api_orders_get.json" in names
              and http(url + "/api/orders")[0] == 200, done)

        # Resources.
        resources = {str(r.uri) for r in (await a.list_resources()).resources}
        check("resources: listed", {"mockd://sources", "mockd://journal", "mockd://docs/naming", "mockd://docs/routes"} <= resources,
              resources)
        contents = {}
        for uri in sorted(resources):
            read = await a.read_resource(uri)
            contents[uri] = read.contents[0].text
        check("resources: sources", "mock_api_users_get.json" in contents["mockd://sources"])
        check("resources: journal", "/api/ping" in contents["mockd://journal"] or "requests" in contents["mockd://journal"])
        check("resources: naming rule", "mock_a_b_c_<method>.json" in contents["mockd://docs/naming"])
        check("resources: route format", "responses" in contents["mockd://docs/routes"])

        error, text = await call(a, "no_such_tool")
        check("an unknown tool is a tool error", error and "no tool" in text, text)
        error, text = await call(a, "status", {"sesion": "x"})
        check("an unknown argument is a tool error", error and "sesion" in text, text)

        check("every tool was called", called == EXPECTED_TOOLS, sorted(EXPECTED_TOOLS - called))
        sessions_before = {s["id"] for s in json.loads(http(url + "/__mockd/sessions")[1])["sessions"]}
        check("both sessions open while connected", {own["id"], own_b["id"]} <= sessions_before)
    # The agents went: their sessions are closed (the MCP processes have exited).
    sessions_after = {s["id"] for s in json.loads(http(url + "/__mockd/sessions")[1])["sessions"]}
    check("sessions closed when the agents go", not ({own["id"], own_b["id"]} & sessions_after), sessions_after)


def sigterm_closes_the_session(url):
    """SIGTERM (an agent stopping its tools) ends `mockd mcp` as the end of its input does."""
    process = subprocess.Popen([MOCKD, "mcp", "--url", url], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        process.stdin.write(json.dumps({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}}) + "\n")
        process.stdin.flush()
        ready = select.select([process.stdout], [], [], TIMEOUT)[0]
        answer = json.loads(process.stdout.readline()) if ready else {}
        instructions = answer.get("result", {}).get("instructions", "")
        session = next((s["id"] for s in json.loads(http(url + "/__mockd/sessions")[1])["sessions"]
                        if s["baseURL"] in instructions), None)
        check("SIGTERM: the session was open", session is not None, instructions)
        process.send_signal(signal.SIGTERM)
        code = process.wait(timeout=TIMEOUT)
        open_sessions = {s["id"] for s in json.loads(http(url + "/__mockd/sessions")[1])["sessions"]}
        check("SIGTERM: exits 0 with its session closed", code == 0 and session not in open_sessions, (code, open_sessions))
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()


async def root_mode(folder):
    """`mockd mcp --root`: starts a mockd when none answers, stops it when the client disconnects."""
    root = small_root(os.path.join(folder, "started"))
    port = free_port()
    log = os.path.join(folder, "started.log")
    async with AsyncExitStack() as stack:
        # The token through MOCKD_ADMIN_TOKEN: the started mockd requires it, and the tools send it.
        os.environ["MOCKD_ADMIN_TOKEN"] = "agent-secret"
        try:
            session, _ = await open_mcp(stack, "--url", f"http://127.0.0.1:{port}", "--root", root, "--log-file", log,
                                        "--", "--routes", os.path.join(os.path.dirname(root), "routes"), "--openapi", PETSTORE)
        finally:
            del os.environ["MOCKD_ADMIN_TOKEN"]
        error, status = await call(session, "status")
        check("--root: a mockd was started on the URL's port", not error and status["server"]["root"] == os.path.realpath(root), status)
        check("--root: serve options after -- reach it (an OpenAPI document)",
              status["served"]["operations"] > 0 and any("petstore.yaml" in d for d in status["served"]["documents"]), status["served"])
        check("--root: with the admin token", http(f"http://127.0.0.1:{port}/__mockd/sessions")[0] == 401)
        error, _ = await call(session, "add_stub", {"route": {"method": "GET", "path": "/api/t", "response": {"json": {}}}})
        check("--root: tools send the token", not error)
        pids = pids_serving(root)
        check("--root: one mockd process", len(pids) == 1, pids)
        check("--root: it answers", answers(port))
    check("--root: stopped when the client disconnects", all(gone(pid, TIMEOUT) for pid in pids), pids)
    check("--root: its port is free again", not answers(port))


async def main():
    folder = tempfile.mkdtemp(prefix="mockd-mcp-test-")
    mockd = None
    try:
        root = small_root(folder)
        mockd, port = start_mockd(root)
        await against_running_mockd(folder, root, port)
        sigterm_closes_the_session(f"http://127.0.0.1:{port}")
        await root_mode(folder)
        error_text = subprocess.run([MOCKD, "mcp", "--url", f"http://127.0.0.1:{free_port()}"], capture_output=True, text=True,
                                    stdin=subprocess.DEVNULL, timeout=TIMEOUT)
        check("no mockd and no --root: exits 1 saying so", error_text.returncode == 1 and "--root" in error_text.stderr,
              error_text.stderr)
    finally:
        if mockd:
            stop(mockd)
        shutil.rmtree(folder, ignore_errors=True)
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
