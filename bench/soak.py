#!/usr/bin/env python3
"""Mixed load for bench/soak.sh (127.0.0.1 only, bounded in time).

  soak.py URLBASE SECONDS CONNECTIONS
Keeps CONNECTIONS keep-alive clients busy with a mix: mocked GETs, misses (404), POSTs with
bodies, admin health calls, and now and then a hostile request (conflicting Content-Lengths,
an unknown Transfer-Encoding, a dribbled head abandoned half-way). Every 10 s it prints the
requests answered and the errors: a failed connection or an unexpected status.
"""
import asyncio, random, sys, time
from urllib.parse import urlparse

EXPECTED = {
    "GET /api/users": {200},
    "GET /api/user/123": {200},
    "GET /nothing/here": {404},
    "POST /api/v1/login": {200},
    "GET /__mockd/health": {200},
}


async def read_response(reader):
    head = await reader.readuntil(b"\r\n\r\n")
    status = int(head.split(b" ", 2)[1])
    length = 0
    close = False
    for line in head.split(b"\r\n"):
        lower = line.lower()
        if lower.startswith(b"content-length:"):
            length = int(line.split(b":", 1)[1])
        if lower.startswith(b"connection:") and b"close" in lower:
            close = True
    await reader.readexactly(length)
    return status, close


async def main(base, seconds, connections):
    u = urlparse(base)
    host, port = u.hostname, u.port
    stats = {"ok": 0, "errors": 0, "hostile": 0}
    deadline = time.monotonic() + seconds

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
                stats["hostile"] += 1
                return
            await writer.drain()
            status, _ = await asyncio.wait_for(read_response(reader), 5)
            stats["hostile"] += 1
            if status not in (400, 501):
                stats["errors"] += 1
            writer.close()
        except Exception:  # noqa: BLE001 - counted
            stats["errors"] += 1

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
                status, close = await asyncio.wait_for(read_response(reader), 10)
                if status in EXPECTED[key]:
                    stats["ok"] += 1
                else:
                    stats["errors"] += 1
                if close:
                    writer.close()
                    writer = None
            except Exception:  # noqa: BLE001 - counted
                stats["errors"] += 1
                writer = None

    async def report():
        start = time.monotonic()
        last = dict(stats)
        while time.monotonic() < deadline:
            await asyncio.sleep(10)
            now = dict(stats)
            print(f"t={time.monotonic() - start:5.0f}s answered={now['ok'] - last['ok']} "
                  f"hostile={now['hostile'] - last['hostile']} errors={now['errors'] - last['errors']}", flush=True)
            last = now

    await asyncio.gather(report(), *[client() for _ in range(connections)])
    print(f"total answered={stats['ok']} hostile={stats['hostile']} errors={stats['errors']}", flush=True)


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], float(sys.argv[2]), int(sys.argv[3])))
