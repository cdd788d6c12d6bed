#!/usr/bin/env python3
"""Resources under load. Starts its own mockd (MOCKD, default .build/release/mockd) on a
fixture of its own, stops it by PID, and talks to 127.0.0.1 only; every wait is bounded.

    resources.py writers     16 clients x 1,000 POSTs on one session: every id unique, the
                             final count exact (no lost update)
    resources.py sessions    64 sessions each write once to a 1,000-item resource: RSS before
                             and after (a copy is made only at a session's first write)
    resources.py seed        a 100,000-item seed: how long mockd takes to start serving it
"""
import http.client, json, os, subprocess, sys, tempfile, threading, time

MOCKD = os.path.abspath(os.environ.get("MOCKD", os.path.join(os.path.dirname(__file__), "..", ".build", "release", "mockd")))


def fixture(folder, items):
    os.makedirs(f"{folder}/MockData", exist_ok=True)
    os.makedirs(f"{folder}/routes", exist_ok=True)
    seed = [{"id": i, "user_id": i % 50, "started_at": "2024-05-01T22:10:00Z", "quality": i % 5} for i in range(1, items + 1)]
    with open(f"{folder}/MockData/seed.json", "w") as f:
        json.dump(seed, f)
    with open(f"{folder}/routes/r.json", "w") as f:
        json.dump({"routes": [{"resource": "/api/entries", "seed": "seed.json"}]}, f)


def start(folder):
    started = time.monotonic()
    process = subprocess.Popen([MOCKD, "--root", "MockData", "--routes", "routes", "--port", "0", "--no-watch", "--log-level", "warning"],
                               cwd=folder, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    line = process.stdout.readline()  # the startup line, once it serves
    took = time.monotonic() - started
    port = int(line.split("http://127.0.0.1:")[1].split(" ")[0])
    return process, port, took


def stop(process):
    process.terminate()
    try:
        process.wait(timeout=30)
    except subprocess.TimeoutExpired:
        process.kill()


def call(port, method, path, body=None, headers=None, connection=None):
    own = connection is None
    connection = connection or http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    try:
        connection.request(method, path, body=body, headers=headers or {})
        response = connection.getresponse()
        return response.status, response.getheader("Location"), response.read()
    finally:
        if own:
            connection.close()


def rss_kib(pid):
    with open(f"/proc/{pid}/status") as f:
        return next(int(line.split()[1]) for line in f if line.startswith("VmRSS:"))


def writers(port, clients=16, posts=1000):
    ids, failures, lock = [], [], threading.Lock()

    def client(number):
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        mine = []
        for post in range(posts):
            status, location, _ = call(port, "POST", "/api/entries", json.dumps({"client": number, "post": post}),
                                       {"X-Mock-Session": "busy", "Content-Type": "application/json"}, connection)
            if status != 201:
                failures.append(status)
            else:
                mine.append(int(location.rsplit("/", 1)[1]))
        connection.close()
        with lock:
            ids.extend(mine)

    started = time.monotonic()
    threads = [threading.Thread(target=client, args=(n,)) for n in range(clients)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=600)
    took = time.monotonic() - started
    status, _, body = call(port, "GET", "/__mockd/resources?path=/api/entries&session=busy")
    count = json.loads(body)["count"]
    expected = 1000 + clients * posts
    print(f"{clients} clients x {posts} POSTs in {took:.1f} s: {len(ids)} created, {len(set(ids))} unique ids, "
          f"final count {count} (expected {expected}), failures {len(failures)}")
    return len(ids) == len(set(ids)) == clients * posts and count == expected and not failures


def sessions(port, pid, count=64):
    before = rss_kib(pid)
    for n in range(count):
        status, _, _ = call(port, "GET", "/api/entries", headers={"X-Mock-Session": f"s{n}"})
        assert status == 200, status
    reads = rss_kib(pid)
    for n in range(count):
        status, _, _ = call(port, "POST", "/api/entries", json.dumps({"n": n}), {"X-Mock-Session": f"s{n}"})
        assert status == 201, status
    after = rss_kib(pid)
    print(f"RSS: {before} KiB at start, {reads} KiB after {count} sessions read, {after} KiB after each wrote once "
          f"({(after - reads) / count:.0f} KiB a session's copy of 1,000 items)")
    return True


def main():
    what = sys.argv[1] if len(sys.argv) > 1 else "writers"
    items = 100_000 if what == "seed" else 1000
    with tempfile.TemporaryDirectory() as folder:
        fixture(folder, items)
        process, port, took = start(folder)
        try:
            if what == "seed":
                print(f"{items} items in the seed: serving after {took:.2f} s (process start included)")
                ok = True
            elif what == "sessions":
                ok = sessions(port, process.pid)
            else:
                ok = writers(port)
        finally:
            stop(process)
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
