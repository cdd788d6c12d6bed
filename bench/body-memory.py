#!/usr/bin/env python3
"""Concurrent large uploads for bench/body-memory.sh (127.0.0.1 only, bounded in time).

  body-memory.py PORT PATH CLIENTS BYTES
CLIENTS threads each open a connection, wait for all the others (so the heads arrive together),
then send one POST of BYTES bytes with a Content-Length and read the answer. Prints one line:
served=N refused503=N other=N errors=N seconds=S (other: any other status; errors: a connection
that failed or timed out).
"""
import socket
import sys
import threading
import time

TIMEOUT = 120


def read_status(connection):
    head = b""
    while b"\r\n" not in head:
        chunk = connection.recv(4096)
        if not chunk:
            raise EOFError("closed before the status line")
        head += chunk
    return int(head.split(b" ", 2)[1])


def main():
    port, path, clients, size = int(sys.argv[1]), sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    body = b"x" * size
    head = (f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: text/plain\r\n"
            f"Content-Length: {size}\r\nConnection: close\r\n\r\n").encode()
    statuses = []
    lock = threading.Lock()
    ready = threading.Barrier(clients, timeout=TIMEOUT)

    def upload():
        status = None
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=TIMEOUT) as connection:
                ready.wait()
                connection.sendall(head)
                # A refused body is still read and dropped by mockd, so sending all of it is
                # fine; a server that answered early and closed shows as an error.
                connection.sendall(body)
                status = read_status(connection)
        except Exception:  # noqa: BLE001 - counted as an error
            status = None
        with lock:
            statuses.append(status)

    start = time.monotonic()
    threads = [threading.Thread(target=upload) for _ in range(clients)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(TIMEOUT + 10)
    seconds = time.monotonic() - start
    served = sum(1 for s in statuses if s is not None and 200 <= s < 300)
    refused = sum(1 for s in statuses if s == 503)
    errors = sum(1 for s in statuses if s is None) + (clients - len(statuses))
    other = len(statuses) - served - refused - sum(1 for s in statuses if s is None)
    print(f"served={served} refused503={refused} other={other} errors={errors} seconds={seconds:.1f}", flush=True)


if __name__ == "__main__":
    main()
