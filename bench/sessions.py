#!/usr/bin/env python3
"""Session ports under load, for bench/sessions.sh. Talks to 127.0.0.1 only; every wait is bounded.

    sessions.py isolation URL         8 sessions, each its own scenario, 1,000 requests each from 8
                                      concurrent clients (no header), one session reset half-way
    sessions.py wait URL              how long after the matching request is answered a waiting
                                      GET /__mockd/requests?count=1&wait= answers (100 samples)
    sessions.py churn URL PID         200 sessions opened and closed: open files and threads before/after
    sessions.py open URL ID           opens one session, prints its base URL (for wrk)
"""
import http.client, json, os, sys, threading, time, urllib.parse


def call(url, method="GET", path="/", body=None, headers=None):
    parts = urllib.parse.urlsplit(url)
    connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=70)
    try:
        connection.request(method, path, body=body, headers=headers or {})
        response = connection.getresponse()
        return response.status, response.read()
    finally:
        connection.close()


def admin(url, method, path, body=None):
    status, data = call(url, method, path, json.dumps(body) if body is not None else None)
    return status, (json.loads(data) if data else None)


def open_session(url, ident, scenario=None):
    body = {"id": ident}
    if scenario:
        body["scenario"] = scenario
    status, answer = admin(url, "POST", "/__mockd/sessions", body)
    if status != 201:
        sys.exit(f"POST /__mockd/sessions {ident}: {status} {answer}")
    return answer["baseURL"]


def isolation(url):
    # One scenario per session; each answers /api/who with its own body (stubs keyed by scenario).
    sessions = 8
    per_session = 1000
    for index in range(sessions):
        admin(url, "POST", "/__mockd/stubs", {"method": "GET", "path": "/api/who", "scenario": f"s{index}",
                                             "response": {"text": f"scenario s{index}"}})
    bases = [open_session(url, f"iso{index}", f"s{index}") for index in range(sessions)]
    wrong = [0] * sessions
    errors = [0] * sessions
    reset_done = threading.Event()

    def client(index):
        parts = urllib.parse.urlsplit(bases[index])
        connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=30)
        for number in range(per_session):
            if index == 0 and number == per_session // 2:
                # Session 0 is reset half-way: the others must not notice. It sets its scenario again.
                admin(url, "POST", "/__mockd/reset", {"session": "iso0"})
                admin(url, "PUT", "/__mockd/scenario", {"scenario": "s0", "session": "iso0"})
                reset_done.set()
            connection.request("GET", "/api/who")
            response = connection.getresponse()
            text = response.read().decode()
            if response.status != 200:
                errors[index] += 1
            elif text != f"scenario s{index}":
                wrong[index] += 1
        connection.close()

    started = time.monotonic()
    threads = [threading.Thread(target=client, args=(index,)) for index in range(sessions)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    elapsed = time.monotonic() - started
    counts = []
    for index in range(sessions):
        _, answer = admin(url, "GET", f"/__mockd/requests?session=iso{index}&path=/api/who")
        counts.append(len(answer["requests"]))
    print(f"isolation: {sessions} sessions x {per_session} requests in {elapsed:.1f} s; answers from another session's scenario: {sum(wrong)};"
          f" errors: {sum(errors)}; journal entries per session: {counts} (session 0 reset half-way: it holds the {per_session - per_session // 2} after the reset)")
    for index in range(sessions):
        admin(url, "DELETE", f"/__mockd/sessions/iso{index}")
    admin(url, "POST", "/__mockd/reset")
    return 0 if sum(wrong) == 0 and sum(errors) == 0 and counts[1:] == [per_session] * (sessions - 1) and counts[0] == per_session - per_session // 2 else 1


def wait(url):
    base = open_session(url, "waiting")
    admin(url, "POST", "/__mockd/stubs", {"method": "POST", "path": "/api/sleep", "session": "waiting", "response": {"status": 201, "json": {}}})
    delays = []
    for sample in range(100):
        admin(url, "DELETE", "/__mockd/requests?session=waiting")
        result = {}

        def waiter():
            call(url, "GET", "/__mockd/requests?session=waiting&method=POST&path=/api/sleep&count=1&wait=30")
            result["answered"] = time.monotonic()

        thread = threading.Thread(target=waiter)
        thread.start()
        time.sleep(0.02)  # let the wait park first (otherwise it answers at once, which measures nothing)
        call(base, "POST", "/api/sleep", body="{}")
        answered = time.monotonic()
        thread.join(timeout=35)
        delays.append((result.get("answered", answered + 99) - answered) * 1000)
    admin(url, "DELETE", "/__mockd/sessions/waiting")
    admin(url, "POST", "/__mockd/reset")
    delays.sort()
    print(f"wait: after the request's answer, the waiting call answered in p50 {delays[49]:.1f} ms, p95 {delays[94]:.1f} ms, max {delays[-1]:.1f} ms (100 samples)")
    return 0 if delays[94] <= 50 else 1


def resources(pid):
    files = len(os.listdir(f"/proc/{pid}/fd"))
    threads = len(os.listdir(f"/proc/{pid}/task"))
    return files, threads


def churn(url, pid):
    before = resources(pid)
    for index in range(200):
        base = open_session(url, f"churn{index}")
        status, _ = call(base, "GET", "/api/anything")
        admin(url, "DELETE", f"/__mockd/sessions/churn{index}")
    after = resources(pid)
    print(f"churn: 200 sessions opened, asked once and closed; open files {before[0]} -> {after[0]}, threads {before[1]} -> {after[1]}")
    return 0 if after == before else 1


if __name__ == "__main__":
    command = sys.argv[1]
    if command == "isolation":
        sys.exit(isolation(sys.argv[2]))
    if command == "wait":
        sys.exit(wait(sys.argv[2]))
    if command == "churn":
        sys.exit(churn(sys.argv[2], sys.argv[3]))
    if command == "open":
        print(open_session(sys.argv[2], sys.argv[3]))
        sys.exit(0)
    sys.exit(__doc__)
