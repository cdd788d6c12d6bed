"""A real mockd for the Python-driven tests (Tests/MCP, Tests/GraphQLClient): started with
`--port 0`, its port read from the `listening on` line, stopped by its PID."""

import signal
import subprocess
import threading
import time

MARKER = "listening on http://127.0.0.1:"


def start(mockd, arguments, timeout):
    """`mockd serve --port 0 ARGUMENTS`: (process, port), within `timeout` seconds."""
    process = subprocess.Popen([mockd, "serve", "--port", "0"] + arguments,
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    deadline = time.monotonic() + timeout
    seen = []
    while time.monotonic() < deadline:
        line = process.stdout.readline()
        if not line:
            break
        seen.append(line)
        if MARKER in line:
            port = int(line.split(MARKER)[1].split()[0].rstrip("/,;"))
            # Keep reading its output so a full pipe never stops it.
            threading.Thread(target=process.stdout.read, daemon=True).start()
            return process, port
    process.kill()
    raise SystemExit("mockd did not start:\n" + "".join(seen))


def stop(process, timeout):
    """SIGTERM, then SIGKILL after `timeout` seconds."""
    process.send_signal(signal.SIGTERM)
    try:
        process.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
