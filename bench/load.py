#!/usr/bin/env python3
"""Small load helpers for mockd's benchmarks (127.0.0.1 only, bounded in time).

  load.py burst N URL            N concurrent requests on N connections; prints wall time and statuses
  load.py park N URL SECONDS     keep N connections busy re-requesting URL for SECONDS; prints answers
  load.py verify URLBASE ROOT SECONDS
                                 fetch random mock_bench_items_<i>_get.json paths for SECONDS and compare
                                 every body with the file; prints checked/wrong/failed
"""
import asyncio, os, random, sys, time
from urllib.parse import urlparse


async def request(host, port, path, reader=None, writer=None, headers=""):
    if writer is None:
        reader, writer = await asyncio.open_connection(host, port)
    writer.write(f"GET {path} HTTP/1.1\r\nHost: {host}\r\n{headers}\r\n".encode())
    await writer.drain()
    head = await reader.readuntil(b"\r\n\r\n")
    status = int(head.split(b" ", 2)[1])
    length = 0
    for line in head.split(b"\r\n"):
        if line.lower().startswith(b"content-length:"):
            length = int(line.split(b":", 1)[1])
    body = await reader.readexactly(length)
    return status, body, reader, writer


async def burst(n, url):
    u = urlparse(url)
    start = time.monotonic()

    async def one():
        try:
            status, _, _, w = await request(u.hostname, u.port, u.path or "/")
            w.close()
            return status
        except Exception as error:  # noqa: BLE001 - counted, not fatal
            return type(error).__name__

    results = await asyncio.wait_for(asyncio.gather(*(one() for _ in range(n))), timeout=60)
    wall = time.monotonic() - start
    counts = {}
    for r in results:
        counts[r] = counts.get(r, 0) + 1
    print(f"burst {n} requests: wall {wall:.3f} s, results {counts}")


async def park(n, url, seconds):
    u = urlparse(url)
    deadline = time.monotonic() + seconds
    answered = 0
    errors = 0

    async def loop():
        nonlocal answered, errors
        reader = writer = None
        while time.monotonic() < deadline:
            try:
                _, _, reader, writer = await request(u.hostname, u.port, u.path, reader, writer)
                answered += 1
            except Exception:  # noqa: BLE001
                errors += 1
                reader = writer = None
                await asyncio.sleep(0.05)
        if writer:
            writer.close()

    await asyncio.wait_for(asyncio.gather(*(loop() for _ in range(n))), timeout=seconds + 30)
    print(f"park {n} connections for {seconds} s: {answered} answers, {errors} errors")


async def verify(base, root, seconds):
    u = urlparse(base)
    deadline = time.monotonic() + seconds
    files = {}
    checked = wrong = failed = 0

    async def loop():
        nonlocal checked, wrong, failed
        reader = writer = None
        while time.monotonic() < deadline:
            i = random.randint(1, 10000)
            path = f"/bench/items/{i}"
            if i not in files:
                with open(os.path.join(root, f"mock_bench_items_{i}_get.json"), "rb") as f:
                    files[i] = f.read()
            try:
                status, body, reader, writer = await request(u.hostname, u.port, path, reader, writer)
                checked += 1
                # A file may be edited by the reload loop: it appends whitespace, which is allowed.
                if status != 200 or body.rstrip() != files[i].rstrip():
                    wrong += 1
            except Exception:  # noqa: BLE001
                failed += 1
                reader = writer = None

    await asyncio.wait_for(asyncio.gather(*(loop() for _ in range(16))), timeout=seconds + 30)
    print(f"verify: {checked} checked, {wrong} wrong, {failed} failed")


if __name__ == "__main__":
    command = sys.argv[1]
    if command == "burst":
        asyncio.run(burst(int(sys.argv[2]), sys.argv[3]))
    elif command == "park":
        asyncio.run(park(int(sys.argv[2]), sys.argv[3], float(sys.argv[4])))
    elif command == "verify":
        asyncio.run(verify(sys.argv[2], sys.argv[3], float(sys.argv[4])))
    else:
        sys.exit(__doc__)
