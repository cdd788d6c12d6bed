#!/usr/bin/env python3
"""Sends malformed and oversized requests to a mockd on 127.0.0.1:PORT, one raw connection
each, and prints one line per case: how many answers came back, the first one's status,
Content-Type and Connection, and whether the server then closed the connection.

    scripts/framing-probe.py PORT [MAX_BODY_BYTES [MAX_HEADER_BYTES]]

MAX_BODY_BYTES and MAX_HEADER_BYTES are the server's --max-body-bytes and --max-header-bytes
(defaults 10 MiB and 16 KiB). docker-test.sh checks the lines against the static build; run it
by hand against any mockd to see what its libmicrohttpd answers.

Each case reads for at most READ_SECONDS: a connection still open then is reported as such.
"""

import re
import socket
import sys
import time

READ_SECONDS = 10
STATUS_LINE = re.compile(rb"(?:^|\n)HTTP/1\.[01] (\d{3}) ")


def exchange(port, payload):
    """Sends payload, then reads until the server closes (or READ_SECONDS pass)."""
    connection = socket.create_connection(("127.0.0.1", port), timeout=READ_SECONDS)
    data, closed = b"", "open"
    try:
        try:
            connection.sendall(payload)
        except OSError:
            pass  # the server may answer and close before the whole payload is in
        deadline = time.monotonic() + READ_SECONDS
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                break
            connection.settimeout(left)
            try:
                chunk = connection.recv(65536)
            except socket.timeout:
                break
            except ConnectionResetError:
                closed = "reset"
                break
            if not chunk:
                closed = "closed"
                break
            data += chunk
    finally:
        connection.close()
    return data, closed


def describe(name, data, closed):
    statuses = STATUS_LINE.findall(data)
    head, _, body = data.partition(b"\r\n\r\n")
    headers = {}
    for line in head.split(b"\r\n")[1:]:
        key, _, value = line.partition(b":")
        headers.setdefault(key.strip().lower().decode("latin-1"), value.strip().decode("latin-1"))
    status = statuses[0].decode() if statuses else "none"
    kind = "json" if body.startswith(b"{") else "html" if body.startswith(b"<html>") else "empty" if not body else "other"
    return (
        f"{name}: answers={len(statuses)} status={status} body={kind} "
        f"content-type={headers.get('content-type', '-').replace(' ', '')} "
        f"connection={headers.get('connection', '-').lower()} then={closed}"
    )


def main():
    port = int(sys.argv[1])
    max_body = int(sys.argv[2]) if len(sys.argv) > 2 else 10 * 1024 * 1024
    max_header = int(sys.argv[3]) if len(sys.argv) > 3 else 16 * 1024
    host = b"Host: 127.0.0.1\r\n"
    over = max_body + 1
    cases = [
        ("content-length-abc", b"POST /api/v1/sleep HTTP/1.1\r\n" + host + b"Content-Length: abc\r\n\r\n"),
        ("request-line-one-word", b"GARBAGE\r\n\r\n"),
        ("request-line-binary", b"\x01\x02\x03 not http at all\r\n\r\n"),
        # One chunk announced and sent whole, one byte past the limit, then the last chunk.
        (
            "chunk-past-max-body",
            b"POST /api/v1/sleep HTTP/1.1\r\n" + host + b"Transfer-Encoding: chunked\r\n\r\n"
            + b"%x\r\n" % over + b"x" * over + b"\r\n0\r\n\r\n",
        ),
        # A chunk size no 64-bit count holds.
        (
            "chunk-size-overflow",
            b"POST /api/v1/sleep HTTP/1.1\r\n" + host + b"Transfer-Encoding: chunked\r\n\r\n" + b"1" + b"0" * 16 + b"\r\n",
        ),
        ("uri-too-long", b"GET /api/" + b"u" * (max_header + 1024) + b" HTTP/1.1\r\n" + host + b"\r\n"),
        ("headers-too-large", b"GET /api/users HTTP/1.1\r\n" + host + b"X-Big: " + b"h" * (max_header + 1024) + b"\r\n\r\n"),
        ("plain-get", b"GET /api/health HTTP/1.1\r\n" + host + b"Connection: close\r\n\r\n"),
    ]
    only = set(sys.argv[4].split(",")) if len(sys.argv) > 4 else None
    for name, payload in cases:
        if only and name not in only:
            continue
        print(describe(name, *exchange(port, payload)), flush=True)


if __name__ == "__main__":
    main()
