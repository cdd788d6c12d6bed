"""N dashboards' long polls (GET /__mockd/events), as the page makes them, for a bounded time.
   python3 dashboards.py N URL SECONDS  -> prints "polls=P entries=E errors=X"
127.0.0.1 only; each dashboard re-polls as soon as its answer came, like the page. It reads only
what it needs to poll again (next, state, the number of entries), so that the load generator's
core is spent on wrk, not on parsing JSON a browser would parse on another machine's core."""
import re, sys, threading, time, urllib.request

count, base, seconds = int(sys.argv[1]), sys.argv[2].rstrip("/"), float(sys.argv[3])
assert base.startswith("http://127.0.0.1:"), "dashboards only poll 127.0.0.1"
deadline = time.monotonic() + seconds
totals = {"polls": 0, "entries": 0, "errors": 0}
lock = threading.Lock()

def dashboard():
    after, state = None, None
    while time.monotonic() < deadline:
        wait = max(1, int(deadline - time.monotonic()))
        query = "" if after is None else f"?after={after}&state={state}&wait={min(wait, 25)}"
        try:
            with urllib.request.urlopen(base + "/__mockd/events" + query, timeout=70) as response:
                text = response.read()
            after = int(re.search(rb'"next":(\d+)', text).group(1))
            state = int(re.search(rb'"state":(\d+)', text).group(1))
            with lock:
                totals["polls"] += 1
                totals["entries"] += text.count(b'"id":')
        except Exception:
            with lock:
                totals["errors"] += 1
            time.sleep(0.5)

threads = [threading.Thread(target=dashboard) for _ in range(count)]
for thread in threads: thread.start()
for thread in threads: thread.join()
print(" ".join(f"{key}={value}" for key, value in totals.items()))
