#!/usr/bin/env python3
"""Mixed load for bench/soak.sh (127.0.0.1 only, bounded in time).

  soak.py URLBASE SECONDS CONNECTIONS [PID]
Keeps CONNECTIONS keep-alive clients busy with a mix: mocked GETs, misses (404), POSTs with
bodies, admin health calls, and now and then (1 %) a hostile request (conflicting
Content-Lengths, an unknown Transfer-Encoding, a dribbled head abandoned half-way). Beside them:

- sessions: 64 opened and closed over the run, one after another (POST /__mockd/sessions, a few
  mocks on the session's port, a session stub asked with X-Mock-Session, the session reset,
  which removes the stub, then DELETE /__mockd/sessions/ID);
- stubs: added, asked and removed through the admin API, about two a second;
- streams: two clients asking /soak/ticks (server-sent events, routes/soak.json of soak.sh), read
  whole or left after the first event;
- WebSocket: two clients on /ws/chat/ROOM (routes/live.json): upgrade, welcome, one message
  echoed, then a `bye` (close 1000) or a connection dropped without a close.

Every 10 s it prints what was answered in those 10 s, by kind, and the errors (a failed
connection or an unexpected answer); with PID, also mockd's RSS, open descriptors and threads.
The last line is the totals, with each kind of error counted.
"""
import asyncio
import base64
import collections
import hashlib
import json
import os
import random
import struct
import sys
import time
from urllib.parse import urlparse

EXPECTED = {
    "GET /api/users": {200},
    "GET /api/user/123": {200},
    "GET /nothing/here": {404},
    "POST /api/v1/login": {200},
    "GET /__mockd/health": {200},
}
SESSIONS = 64
STREAM_CLIENTS = 2
WEBSOCKET_CLIENTS = 2
GUID = b"258EAFA5-E914-47DA-95CA-C5AB0DC85B11"


async def read_response(reader):
    """(status, close, body) of one answer: Content-Length or chunked."""
    head = await reader.readuntil(b"\r\n\r\n")
    status = int(head.split(b" ", 2)[1])
    length = 0
    close = chunked = False
    for line in head.split(b"\r\n"):
        lower = line.lower()
        if lower.startswith(b"content-length:"):
            length = int(line.split(b":", 1)[1])
        if lower.startswith(b"connection:") and b"close" in lower:
            close = True
        if lower.startswith(b"transfer-encoding:") and b"chunked" in lower:
            chunked = True
    if not chunked:
        return status, close, await reader.readexactly(length)
    body = b""
    while True:
        size = int((await reader.readuntil(b"\r\n")).split(b";")[0], 16)
        body += (await reader.readexactly(size + 2))[:size]
        if size == 0:
            return status, close, body


def proc_figures(pid):
    """(RSS MiB, open descriptors, threads) of PID, or None once it is gone."""
    try:
        with open(f"/proc/{pid}/status") as status:
            fields = dict(line.split(":", 1) for line in status if ":" in line)
        return int(fields["VmRSS"].split()[0]) / 1024, len(os.listdir(f"/proc/{pid}/fd")), int(fields["Threads"])
    except (OSError, KeyError, ValueError):
        return None


async def main(base, seconds, connections, pid):
    u = urlparse(base)
    host, port = u.hostname, u.port
    answered = collections.Counter()  # kind -> answers (or conversations) as expected
    errors = collections.Counter()  # kind -> failures
    deadline = time.monotonic() + seconds

    def fail(kind):
        errors[kind] += 1

    async def request(method, path, body=b"", headers=(), to_port=None, timeout=10):
        """One request on a connection of its own: (status, body)."""
        reader, writer = await asyncio.wait_for(asyncio.open_connection(host, to_port or port), timeout)
        try:
            extra = "".join(f"{name}: {value}\r\n" for name, value in headers)
            writer.write(f"{method} {path} HTTP/1.1\r\nHost: {host}\r\nContent-Length: {len(body)}\r\n{extra}"
                         f"Connection: close\r\n\r\n".encode() + body)
            await writer.drain()
            status, _, answer = await asyncio.wait_for(read_response(reader), timeout)
            return status, answer
        finally:
            writer.close()

    async def expect(kind, statuses, method, path, body=b"", headers=(), to_port=None):
        """The request's answer body when its status is one of `statuses`, else None (counted)."""
        try:
            status, answer = await request(method, path, body, headers, to_port)
        except Exception:  # noqa: BLE001 - counted
            fail(kind)
            return None
        if status not in statuses:
            fail(kind)
            return None
        answered[kind] += 1
        return answer

    async def hostile():
        kind = random.choice(["cl", "te", "dribble"])
        try:
            reader, writer = await asyncio.open_connection(host, port)
            if kind == "cl":
                writer.write(b"POST /api/v1/login HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab")
            elif kind == "te":
                writer.write(b"POST /api/v1/login HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: foo\r\n\r\n")
            else:
                writer.write(b"GET /api/us")
                await writer.drain()
                writer.close()
                answered["hostile"] += 1
                return
            await writer.drain()
            status, _, _ = await asyncio.wait_for(read_response(reader), 5)
            if status in (400, 501):
                answered["hostile"] += 1
            else:
                fail("hostile")
            writer.close()
        except Exception:  # noqa: BLE001 - counted
            fail("hostile")

    async def client():
        reader = writer = None
        while time.monotonic() < deadline:
            if random.random() < 0.01:
                await hostile()
                continue
            key = random.choice(list(EXPECTED))
            method, path = key.split(" ", 1)
            try:
                if writer is None:
                    reader, writer = await asyncio.open_connection(host, port)
                body = b'{"user": "ada"}' if method == "POST" else b""
                writer.write(f"{method} {path} HTTP/1.1\r\nHost: {host}\r\nContent-Length: {len(body)}\r\n\r\n".encode() + body)
                await writer.drain()
                status, close, _ = await asyncio.wait_for(read_response(reader), 10)
                if status in EXPECTED[key]:
                    answered["mix"] += 1
                else:
                    fail("mix")
                if close:
                    writer.close()
                    writer = None
            except Exception:  # noqa: BLE001 - counted
                fail("mix")
                writer = None

    async def sessions():
        # SESSIONS sessions spread over the run, each open for about half its share of it.
        share = seconds / SESSIONS
        start = time.monotonic()
        for number in range(SESSIONS):
            await asyncio.sleep(max(0.0, start + number * share - time.monotonic()))
            ident = f"soak-{number}"
            opened = await expect("session", {201}, "POST", "/__mockd/sessions", json.dumps({"id": ident}).encode())
            if opened is None:
                continue
            session_port = urlparse(json.loads(opened)["baseURL"]).port
            header = (("X-Mock-Session", ident),)
            stub = {"method": "GET", "path": "/soak/mine", "session": ident, "response": {"json": {"session": ident}}}
            until = time.monotonic() + min(share / 2, 5)
            ok = await expect("session", {201}, "POST", "/__mockd/stubs", json.dumps(stub).encode()) is not None
            while ok and time.monotonic() < until:
                ok = (await expect("session", {200}, "GET", "/api/users", to_port=session_port) is not None
                      and await expect("session", {200}, "GET", "/soak/mine", headers=header) is not None)
                await asyncio.sleep(0.2)
            # The reset removes the session's stub.
            await expect("session", {200}, "POST", "/__mockd/reset", json.dumps({"session": ident}).encode())
            await expect("session", {404}, "GET", "/soak/mine", headers=header)
            await expect("session", {200, 204}, "DELETE", f"/__mockd/sessions/{ident}")
            answered["sessions closed"] += 1

    async def stubs():
        number = 0
        while time.monotonic() < deadline - 1:
            number += 1
            path = f"/soak/stub/{number}"
            stub = {"method": "GET", "path": path, "response": {"json": {"n": number}}}
            added = await expect("stub", {201}, "POST", "/__mockd/stubs", json.dumps(stub).encode())
            if added is not None:
                ident = json.loads(added)["id"]
                await expect("stub", {200}, "GET", path)
                await expect("stub", {200, 204}, "DELETE", f"/__mockd/stubs/{ident}")
                await expect("stub", {404}, "GET", path)
            await asyncio.sleep(0.5)

    async def streams():
        while time.monotonic() < deadline - 2:
            whole = random.random() < 0.5
            try:
                reader, writer = await asyncio.open_connection(host, port)
                try:
                    writer.write(f"GET /soak/ticks HTTP/1.1\r\nHost: {host}\r\n\r\n".encode())
                    await writer.drain()
                    if whole:
                        status, _, body = await asyncio.wait_for(read_response(reader), 10)
                        good = status == 200 and body.count(b"data:") == 5
                    else:  # left after the first event: mockd must notice and end the stream
                        head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 10)
                        first = await asyncio.wait_for(reader.readuntil(b"\n\n"), 10)
                        good = head.startswith(b"HTTP/1.1 200") and b"data:" in first
                finally:
                    writer.close()
                if good:
                    answered["stream"] += 1
                else:
                    fail("stream")
            except Exception:  # noqa: BLE001 - counted
                fail("stream")
            await asyncio.sleep(0.1)

    async def websockets(client_number):
        conversation = 0
        while time.monotonic() < deadline - 2:
            conversation += 1
            room = f"soak{client_number}x{conversation}"  # a room each: no broadcast from others
            try:
                await asyncio.wait_for(websocket(room, polite=random.random() < 0.5), 10)
                answered["websocket"] += 1
            except Exception:  # noqa: BLE001 - counted
                fail("websocket")
            await asyncio.sleep(0.1)

    async def websocket(room, polite):
        key = base64.b64encode(os.urandom(16))
        accept = base64.b64encode(hashlib.sha1(key + GUID).digest())
        reader, writer = await asyncio.open_connection(host, port)

        async def frame():
            first, second = await reader.readexactly(2)
            length = second & 0x7F
            if length == 126:
                length = struct.unpack("!H", await reader.readexactly(2))[0]
            elif length == 127:
                length = struct.unpack("!Q", await reader.readexactly(8))[0]
            return first & 0x0F, await reader.readexactly(length)

        def send(opcode, payload):
            mask = os.urandom(4)
            masked = bytes(byte ^ mask[index % 4] for index, byte in enumerate(payload))
            writer.write(bytes([0x80 | opcode, 0x80 | len(payload)]) + mask + masked)

        try:
            writer.write(b"GET /ws/chat/" + room.encode() + b" HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n"
                         b"Connection: Upgrade\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: " + key +
                         b"\r\nSec-WebSocket-Protocol: chat.v1\r\n\r\n")
            head = await reader.readuntil(b"\r\n\r\n")
            if not head.startswith(b"HTTP/1.1 101") or accept not in head:
                raise ValueError(f"upgrade: {head[:60]!r}")
            opcode, payload = await frame()
            if opcode != 1 or b"welcome" not in payload:
                raise ValueError(f"welcome: {payload!r}")
            send(0x1, b"say:soak")
            while True:  # "ready" (onOpen, 100 ms) may come before or after the echo
                opcode, payload = await frame()
                if opcode == 1 and payload == b"say:soak":
                    break
                if opcode != 1 or payload != b"ready":
                    raise ValueError(f"echo: {opcode} {payload!r}")
            if polite:
                send(0x1, b"bye")
                while True:
                    opcode, payload = await frame()
                    if opcode == 8:
                        break
                if struct.unpack("!H", payload[:2])[0] != 1000:
                    raise ValueError(f"close: {payload!r}")
                send(0x8, payload[:2])
                await writer.drain()
        finally:
            writer.close()

    async def report():
        start = time.monotonic()
        last = collections.Counter()
        last_errors = collections.Counter()
        while time.monotonic() < deadline:
            await asyncio.sleep(min(10, max(0.1, deadline - time.monotonic())))
            now, now_errors = answered.copy(), errors.copy()
            kinds = " ".join(f"{kind.replace(' ', '_')}={now[kind] - last[kind]}" for kind in sorted(now))
            process = proc_figures(pid) if pid else None
            figures = f" rss={process[0]:.1f}MiB fds={process[1]} threads={process[2]}" if process else ""
            print(f"t={time.monotonic() - start:5.0f}s answered={sum(now.values()) - sum(last.values())} ({kinds}) "
                  f"errors={sum(now_errors.values()) - sum(last_errors.values())}{figures}", flush=True)
            last, last_errors = now, now_errors

    await asyncio.gather(report(), sessions(), stubs(), *[streams() for _ in range(STREAM_CLIENTS)],
                         *[websockets(number) for number in range(WEBSOCKET_CLIENTS)],
                         *[client() for _ in range(connections)])
    kinds = " ".join(f"{kind.replace(' ', '_')}={answered[kind]}" for kind in sorted(answered))
    failed = ", ".join(f"{kind} {count}" for kind, count in sorted(errors.items())) or "none"
    print(f"total answered={sum(answered.values())} ({kinds}) errors={sum(errors.values())} ({failed})", flush=True)


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], float(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]) if len(sys.argv) > 4 else 0))
