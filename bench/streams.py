#!/usr/bin/env python3
"""Many streams at once, for bench/streams.sh: N clients each read GET PATH (server-sent events
at a fixed interval) on its own connection and note when each event arrives. Prints how late
events came against the schedule their stream's first event set (p50, p99, max, in ms).
Talks to 127.0.0.1 only; bounded by a timeout.

    streams.py PORT PATH CLIENTS EVENTS INTERVAL_MS
"""
import asyncio, sys, time


async def client(port, path, events, interval, late, failures):
    try:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
        await writer.drain()
        head = await reader.readuntil(b"\r\n\r\n")
        if b" 200 " not in head.split(b"\r\n")[0]:
            failures.append(head[:40])
            return
        seen, first, buffered = 0, None, b""
        while seen < events:
            data = await reader.read(65536)
            if not data:
                break
            now = time.monotonic()
            buffered += data
            arrived = buffered.count(b"\n\n")  # each event ends with a blank line
            buffered = buffered[buffered.rfind(b"\n\n") + 2:] if arrived else buffered
            for _ in range(arrived):
                if first is None:
                    first = now
                else:
                    late.append((now - (first + seen * interval)) * 1000)
                seen += 1
        if seen < events:
            failures.append(f"{seen} of {events} events")
        writer.close()
    except Exception as error:  # a refused or reset connection is a failure to report, not a crash
        failures.append(repr(error))


async def main(port, path, clients, events, interval_ms):
    late, failures = [], []
    interval = interval_ms / 1000
    started = time.monotonic()
    await asyncio.wait_for(asyncio.gather(*(client(port, path, events, interval, late, failures) for _ in range(clients))),
                           timeout=events * interval + 60)
    late.sort()
    def at(q):
        return late[min(len(late) - 1, int(q * len(late)))] if late else float("nan")
    print(f"{clients} streams x {events} events every {interval_ms} ms in {time.monotonic() - started:.1f} s: "
          f"lateness p50 {at(0.5):.1f} ms, p99 {at(0.99):.1f} ms, max {late[-1] if late else float('nan'):.1f} ms; failures: {len(failures)}"
          + (f" (first: {failures[0]})" if failures else ""))
    return 0 if not failures and at(0.99) <= 20 else 1


if __name__ == "__main__":
    port, path, clients, events, interval = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
    sys.exit(asyncio.run(main(int(port), path, clients, events, interval)))
