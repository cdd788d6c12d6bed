#!/usr/bin/env python3
"""WebSocket measurements against a running mockd (127.0.0.1 only, bounded in time), with the
`websockets` client library. bench/websocket.sh starts mockd with the routes these phases use.

  websocket.py idle URL PID N SECONDS      N idle connections held SECONDS: mockd's CPU (% of a
                                           core) and RSS per connection
  websocket.py timeline URL N              N connections, each sent 20 messages 50 ms apart
                                           (websocket.sh times it with websocket-client.c):
                                           spacing error p50/p99 as the client saw it
  websocket.py push URL SESSIONS EACH      SESSIONS x EACH connections, one push per session:
                                           every connection must get its session's push only
  websocket.py echo URL PID ROUNDS         round trips on one connection (p50/p99), then messages
                                           a second one connection gets echoed, with mockd's CPU
  websocket.py hold URL N SECONDS          hold N idle connections (for an HTTP run beside them)
"""
import asyncio, json, os, statistics, sys, time, urllib.request
import websockets

HZ = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid):
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / HZ


def rss_kib(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def ws_url(url, path):
    return url.replace("http://", "ws://") + path


def percentile(values, p):
    values = sorted(values)
    return values[min(len(values) - 1, int(len(values) * p))]


async def open_many(url, path, n, headers=None):
    connections = []
    for start in range(0, n, 100):
        batch = [websockets.connect(ws_url(url, path), additional_headers=headers or {}, ping_interval=None,
                                    open_timeout=30, max_queue=None) for _ in range(start, min(n, start + 100))]
        connections += await asyncio.gather(*batch)
    return connections


async def idle(url, pid, n, seconds):
    base_rss = rss_kib(pid)
    connections = await open_many(url, "/ws/idle", n)
    await asyncio.sleep(1)  # let the opens settle before measuring what idling costs
    rss = rss_kib(pid)
    cpu0, t0 = cpu_seconds(pid), time.monotonic()
    await asyncio.sleep(seconds)
    cpu1, t1 = cpu_seconds(pid), time.monotonic()
    print(f"idle: {n} connections for {t1 - t0:.0f} s: mockd CPU {100 * (cpu1 - cpu0) / (t1 - t0):.2f} % of a core; "
          f"RSS {base_rss / 1024:.1f} -> {rss / 1024:.1f} MiB, {(rss - base_rss) / n:.1f} KiB per connection")
    await asyncio.gather(*(c.close() for c in connections))


async def timeline(url, n):
    gaps = []

    async def one():
        # Each connection reads from its open on: messages that waited in a buffer would
        # measure the client, not mockd's spacing.
        async with websockets.connect(ws_url(url, "/ws/timeline"), ping_interval=None, open_timeout=60, max_queue=None) as c:
            times = []
            for _ in range(20):
                await c.recv()
                times.append(time.monotonic())
            gaps.extend(abs((b - a) * 1000 - 50) for a, b in zip(times, times[1:]))

    await asyncio.gather(*(one() for _ in range(n)))
    print(f"timeline: {n} connections x 20 messages at intervalMs 50: spacing error p50 {percentile(gaps, 0.5):.1f} ms, "
          f"p99 {percentile(gaps, 0.99):.1f} ms, max {max(gaps):.1f} ms (as this one-threaded client saw it)")


async def push(url, sessions, each):
    groups = {}
    for s in range(sessions):
        groups[f"bench-{s}"] = await open_many(url, "/ws/push", each, {"X-Mock-Session": f"bench-{s}"})

    def send(session):
        body = json.dumps({"session": session, "path": "/ws/push", "message": {"text": session}}).encode()
        request = urllib.request.Request(url + "/__mockd/ws/send", data=body, method="POST")
        with urllib.request.urlopen(request, timeout=10) as answer:
            return json.load(answer)["sent"]

    sent = await asyncio.gather(*(asyncio.to_thread(send, s) for s in groups))
    wrong = sum(1 for count in sent if count != each)
    got = await asyncio.gather(*(asyncio.wait_for(c.recv(), 10) for cs in groups.values() for c in cs))
    expected = [s for s, cs in groups.items() for _ in cs]
    mismatched = sum(1 for a, b in zip(got, expected) if a != b)
    # Nothing more may come: a push that reached another session's connection would be here.
    extra = 0
    for cs in groups.values():
        for c in cs:
            try:
                await asyncio.wait_for(c.recv(), 0.01)
                extra += 1
            except asyncio.TimeoutError:
                pass
    ok = wrong == 0 and mismatched == 0 and extra == 0
    print(f"push: {sessions} sessions x {each} connections: every send reached {each}: {wrong == 0}; "
          f"messages to the wrong session: {mismatched}; extra messages: {extra} -> {'ok' if ok else 'FAILED'}")
    for cs in groups.values():
        await asyncio.gather(*(c.close() for c in cs))
    return ok


async def echo(url, pid, rounds):
    async with websockets.connect(ws_url(url, "/ws/echo"), ping_interval=None, max_queue=None) as connection:
        times = []
        for i in range(rounds):
            t = time.perf_counter()
            await connection.send(f"m{i}")
            await connection.recv()
            times.append((time.perf_counter() - t) * 1e6)
        print(f"echo: {rounds} round trips on one connection: p50 {percentile(times, 0.5):.0f} µs, p99 {percentile(times, 0.99):.0f} µs")
        n = rounds * 5
        cpu0, t0 = cpu_seconds(pid), time.monotonic()

        async def sender():
            for i in range(n):
                await connection.send(f"m{i}")

        async def receiver():
            for _ in range(n):
                await connection.recv()

        await asyncio.gather(sender(), receiver())
        cpu1, t1 = cpu_seconds(pid), time.monotonic()
        print(f"echo: {n} messages pipelined on one connection: {n / (t1 - t0):.0f} messages a second echoed; "
              f"mockd CPU {1e6 * (cpu1 - cpu0) / n:.1f} µs a message (both ways)")


async def hold(url, n, seconds):
    connections = await open_many(url, "/ws/idle", n)
    print("holding", flush=True)
    await asyncio.sleep(seconds)
    await asyncio.gather(*(c.close() for c in connections))


def main():
    phase, url = sys.argv[1], sys.argv[2]
    args = [int(a) for a in sys.argv[3:]]
    if phase == "idle":
        asyncio.run(idle(url, *args))
    elif phase == "timeline":
        asyncio.run(timeline(url, *args))
    elif phase == "push":
        sys.exit(0 if asyncio.run(push(url, *args)) else 1)
    elif phase == "echo":
        asyncio.run(echo(url, *args))
    elif phase == "hold":
        asyncio.run(hold(url, *args))


if __name__ == "__main__":
    main()
