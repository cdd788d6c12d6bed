#!/usr/bin/env python3
"""One WebSocket conversation with routes/live.json's chat route on a mockd at 127.0.0.1:PORT,
over a raw socket (no client library: the images and machines that run it have plain python3):

    scripts/ws-probe.py PORT [PATH]        PATH defaults to /ws/chat/lobby

The upgrade must get 101 with the right Sec-WebSocket-Accept and the chat.v1 subprotocol;
the first message must be the route's onOpen welcome for the room; a masked `say:probe` must come
back (the onMessage reply); `bye` must get the close frame 1000. Prints one line per step, and
exits 0 when all passed, 1 otherwise (a 501 here is a build without WebSocket). docker-test.sh
runs it against the image; run it by hand against any mockd serving routes/.
"""

import base64
import hashlib
import os
import socket
import struct
import sys

TIMEOUT = 10
GUID = b"258EAFA5-E914-47DA-95CA-C5AB0DC85B11"


def read_exactly(connection, count):
    data = b""
    while len(data) < count:
        chunk = connection.recv(count - len(data))
        if not chunk:
            raise EOFError(f"closed after {len(data)} of {count} bytes")
        data += chunk
    return data


def read_frame(connection):
    """(opcode, payload) of the next frame; the server's frames are not masked."""
    first, second = read_exactly(connection, 2)
    length = second & 0x7F
    if length == 126:
        length = struct.unpack("!H", read_exactly(connection, 2))[0]
    elif length == 127:
        length = struct.unpack("!Q", read_exactly(connection, 8))[0]
    if second & 0x80:
        raise ValueError("the server masked a frame")
    return first & 0x0F, read_exactly(connection, length)


def send_frame(connection, opcode, payload):
    """One final frame, masked as a client must."""
    mask = os.urandom(4)
    assert len(payload) < 126
    masked = bytes(byte ^ mask[index % 4] for index, byte in enumerate(payload))
    connection.sendall(bytes([0x80 | opcode, 0x80 | len(payload)]) + mask + masked)


def send_text(connection, text):
    send_frame(connection, 0x1, text.encode())


def main():
    port = int(sys.argv[1])
    path = sys.argv[2] if len(sys.argv) > 2 else "/ws/chat/lobby"
    room = path.rsplit("/", 1)[-1]
    failures = 0

    def check(ok, what):
        nonlocal failures
        failures += 0 if ok else 1
        print(("ok   " if ok else "FAIL ") + what)

    key = base64.b64encode(os.urandom(16))
    accept = base64.b64encode(hashlib.sha1(key + GUID).digest()).decode()
    connection = socket.create_connection(("127.0.0.1", port), timeout=TIMEOUT)
    try:
        connection.sendall(
            b"GET " + path.encode() + b" HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n"
            b"Connection: Upgrade\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: " + key +
            b"\r\nSec-WebSocket-Protocol: chat.v1\r\n\r\n")
        head = b""
        while b"\r\n\r\n" not in head:
            chunk = connection.recv(1)
            if not chunk:
                break
            head += chunk
        lines = head.decode("latin-1").split("\r\n")
        headers = {name.strip().lower(): value.strip() for name, _, value in (line.partition(":") for line in lines[1:] if line)}
        status = lines[0]
        if not status.startswith("HTTP/1.1 101"):
            rest = b""
            try:
                rest = connection.recv(400)
            except OSError:
                pass
            check(False, f"upgrade: {status!r} {rest[:300].decode('utf-8', 'replace')!r}")
            return 1
        check(headers.get("sec-websocket-accept") == accept and headers.get("sec-websocket-protocol") == "chat.v1",
              f"upgrade: {status} (Sec-WebSocket-Accept {headers.get('sec-websocket-accept')}, "
              f"protocol {headers.get('sec-websocket-protocol')})")

        opcode, payload = read_frame(connection)
        welcome = '{"type":"welcome","room":"%s"}' % room
        check(opcode == 1 and payload.decode() == welcome, f"onOpen: text {payload.decode('utf-8', 'replace')}")
        opcode, payload = read_frame(connection)
        check(opcode == 1 and payload == b"ready", f"onOpen after 100 ms: text {payload.decode('utf-8', 'replace')}")

        send_text(connection, "say:probe")
        opcode, payload = read_frame(connection)
        check(opcode == 1 and payload == b"say:probe", f"onMessage: say:probe came back as {payload.decode('utf-8', 'replace')}")

        send_text(connection, "bye")
        opcode, payload = read_frame(connection)
        code = struct.unpack("!H", payload[:2])[0] if len(payload) >= 2 else None
        check(opcode == 8 and code == 1000, f"close: opcode {opcode} code {code} reason {payload[2:].decode('utf-8', 'replace')!r}")
        if opcode == 8:
            send_frame(connection, 0x8, payload[:2])  # the close handshake's answer
    except (OSError, EOFError, ValueError) as error:
        check(False, f"{type(error).__name__}: {error}")
    finally:
        connection.close()
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
