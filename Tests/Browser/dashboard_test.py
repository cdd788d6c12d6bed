"""The dashboard at /__mockd/ in headless Chromium against a real mockd (run by scripts/browser-test.sh).

Every wait is a WebDriverWait on a condition, bounded by WAIT seconds; nothing sleeps a fixed time.
Prints one line per check and a closing `N passed, M failed`; exits 1 on any failure.
"""
import argparse
import base64
import hashlib
import json
import os
import socket
import struct
import subprocess
import sys
import threading
import traceback
from urllib.parse import urlsplit

from selenium import webdriver
from selenium.common.exceptions import StaleElementReferenceException, TimeoutException, WebDriverException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select, WebDriverWait

WAIT = 15  # seconds, for every wait

parser = argparse.ArgumentParser()
parser.add_argument("--base", required=True, help="http://127.0.0.1:PORT of the mockd under test")
parser.add_argument("--token-base", help="a second mockd started with --admin-token (checks the token form)")
parser.add_argument("--token", default="")
parser.add_argument("--screenshot", help="where to save the screenshot (PNG)")
parser.add_argument("--chromium", default="/usr/bin/chromium")
parser.add_argument("--chromedriver", default="/usr/bin/chromedriver")
args = parser.parse_args()
BASE = args.base.rstrip("/")
PAGE = BASE + "/__mockd/"


def curl(path, method="GET", headers=(), data=None):
    """(status, body) of a request made with curl, as an app would make it."""
    command = ["curl", "-sS", "--max-time", "10", "-X", method, "-o", "-", "-w", "\n%{http_code}"]
    for header in headers:
        command += ["-H", header]
    if data is not None:
        command += ["-H", "Content-Type: application/json", "--data-binary", data]
    output = subprocess.run(command + [BASE + path], capture_output=True, text=True, timeout=20, check=True).stdout
    body, _, status = output.rpartition("\n")
    return int(status), body


options = webdriver.ChromeOptions()
options.binary_location = args.chromium
for flag in ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1280,800", "--disable-gpu",
             "--no-first-run", "--disable-extensions", "--disable-background-networking", "--disable-component-update",
             "--disable-sync", "--disable-default-apps", "--force-device-scale-factor=1"]:
    options.add_argument(flag)
options.set_capability("goog:loggingPrefs", {"browser": "ALL", "performance": "ALL"})
driver = webdriver.Chrome(service=Service(executable_path=args.chromedriver), options=options)
wait = WebDriverWait(driver, WAIT, ignored_exceptions=[StaleElementReferenceException])
console = []  # every browser log entry seen (reading the log empties it)
network = []  # every URL the browser asked for (Chrome's performance log)


def drain_logs():
    console.extend(driver.get_log("browser"))
    for entry in driver.get_log("performance"):
        message = json.loads(entry["message"])["message"]
        if message.get("method") == "Network.requestWillBeSent":
            network.append(message["params"]["request"]["url"])


def find(css):
    return driver.find_element(By.CSS_SELECTOR, css)


def wait_for(description, condition):
    try:
        return wait.until(lambda _: condition())
    except TimeoutException:
        raise AssertionError(f"timed out after {WAIT} s waiting for {description}") from None


def click(css):
    """Clicks the element once it exists (the page may redraw it meanwhile)."""
    def attempt():
        try:
            find(css).click()
            return True
        except (StaleElementReferenceException, WebDriverException) as error:
            if "no such element" in str(error) or isinstance(error, StaleElementReferenceException):
                return False
            raise
    wait_for(css, attempt)


def text(css):
    elements = driver.find_elements(By.CSS_SELECTOR, css)
    try:
        return elements[0].text if elements else None
    except StaleElementReferenceException:
        return None


def row_css(path, status):
    return f'tr[data-testid="request-row"][data-path="{path}"][data-status="{status}"]'


class WebSocketApp:
    """An app's WebSocket connection to mockd over a raw socket (as scripts/ws-probe.py, no library).

    A thread reads what mockd sends: text messages into `texts`, and a close frame, which it
    answers as RFC 6455 asks and keeps in `close_code`. The test waits on these with wait_for.
    """

    GUID = b"258EAFA5-E914-47DA-95CA-C5AB0DC85B11"

    def __init__(self, path, session):
        origin = urlsplit(BASE)
        self.texts = []
        self.close_code = None
        self.error = None
        self.lock = threading.Lock()
        self.writing = threading.Lock()  # the reader answers pings and the close while the test sends
        key = base64.b64encode(os.urandom(16))
        self.socket = socket.create_connection((origin.hostname, origin.port), timeout=WAIT)
        self.socket.sendall(
            b"GET " + path.encode() + b" HTTP/1.1\r\nHost: " + origin.netloc.encode() + b"\r\nUpgrade: websocket\r\n"
            b"Connection: Upgrade\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: " + key +
            b"\r\nX-Mock-Session: " + session.encode() + b"\r\n\r\n")
        head = b""
        while b"\r\n\r\n" not in head:
            chunk = self.socket.recv(1)
            if not chunk:
                raise AssertionError(f"the upgrade of {path} ended after {head!r}")
            head += chunk
        status, *lines = head.decode("latin-1").split("\r\n")
        headers = {name.strip().lower(): value.strip() for name, _, value in (line.partition(":") for line in lines if line)}
        accept = base64.b64encode(hashlib.sha1(key + self.GUID).digest()).decode()
        assert status.startswith("HTTP/1.1 101"), f"the upgrade of {path} got {status!r}"
        assert headers.get("sec-websocket-accept") == accept, f"wrong Sec-WebSocket-Accept: {headers!r}"
        self.socket.settimeout(None)  # the reader waits as long as the connection lasts
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _exactly(self, count):
        data = b""
        while len(data) < count:
            chunk = self.socket.recv(count - len(data))
            if not chunk:
                raise EOFError(f"closed after {len(data)} of {count} bytes")
            data += chunk
        return data

    def _read(self):
        try:
            while True:
                first, second = self._exactly(2)
                length = second & 0x7F
                if length == 126:
                    length = struct.unpack("!H", self._exactly(2))[0]
                elif length == 127:
                    length = struct.unpack("!Q", self._exactly(8))[0]
                payload = self._exactly(length)
                opcode = first & 0x0F
                if opcode == 0x1:
                    with self.lock:
                        self.texts.append(payload.decode())
                elif opcode == 0x9:
                    self._send(0xA, payload)
                elif opcode == 0x8:
                    self._send(0x8, payload[:2])  # the close handshake's answer
                    with self.lock:
                        self.close_code = struct.unpack("!H", payload[:2])[0] if len(payload) >= 2 else 1005
                    return
        except (OSError, EOFError, ValueError) as error:
            with self.lock:
                self.error = error

    def _send(self, opcode, payload):
        """One final frame, masked as a client must."""
        mask = os.urandom(4)
        assert len(payload) < 126
        masked = bytes(byte ^ mask[index % 4] for index, byte in enumerate(payload))
        with self.writing:
            self.socket.sendall(bytes([0x80 | opcode, 0x80 | len(payload)]) + mask + masked)

    def send_text(self, text):
        self._send(0x1, text.encode())

    def received(self):
        with self.lock:
            return list(self.texts)

    def close(self):
        try:
            self.socket.close()
        except OSError:
            pass


results = []


def check(name):
    def run(function):
        try:
            function()
            results.append((name, None))
            print(f"browser-test: PASS {name}", flush=True)
        except Exception as error:  # noqa: BLE001 - every failure is reported, then the next check runs
            results.append((name, error))
            print(f"browser-test: FAIL {name}: {error}", flush=True)
            if not isinstance(error, AssertionError):
                traceback.print_exc()
        return function
    return run


try:
    # Exactly 1280×800 of page (the window's size would include the browser's own frame).
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": 1280, "height": 800, "deviceScaleFactor": 1, "mobile": False})
    driver.get(PAGE)

    @check("the sources are listed (a file, an overlay and a route)")
    def _():
        wait_for("the file mock_api_users_get.json", lambda: driver.find_elements(By.CSS_SELECTOR, '[data-testid="source-item"][data-origin$="mock_api_users_get.json"]'))
        wait_for("a route from app.json", lambda: driver.find_elements(By.CSS_SELECTOR, '[data-testid="source-item"][data-kind="route"][data-origin*="app.json#"]'))
        wait_for("the empty overlay", lambda: driver.find_elements(By.CSS_SELECTOR, '[data-testid="source-item"][data-origin*="scenarios/empty/"]'))

    @check("selecting a source shows its body")
    def _():
        click('[data-testid="source-item"][data-kind="file"][data-origin$="mock_api_users_get.json"]:not([data-origin*="scenarios/"])')
        wait_for("the body with Ada Lovelace", lambda: "Ada Lovelace" in (text('[data-testid="source-body"]') or ""))

    @check("a request made with curl appears without reloading the page")
    def _():
        status, _ = curl("/api/users?page=2")
        assert status == 200, f"curl got {status}"
        wait_for("the /api/users row", lambda: driver.find_elements(By.CSS_SELECTOR, row_css("/api/users", 200)))
        shown = find(row_css("/api/users", 200) + " .path").get_attribute("textContent")
        assert shown == "GET /api/users?page=2", f"the row shows {shown!r}"

    @check("a 404 shows the file mockd looked for")
    def _():
        status, _ = curl("/api/feed")
        assert status == 404, f"curl got {status}"
        click(row_css("/api/feed", 404))
        wait_for("mock_api_feed_get.json in the miss box", lambda: text('[data-testid="miss-file"]') == "mock_api_feed_get.json")

    @check("a scenario button changes what curl gets")
    def _():
        click('[data-testid="scenario-button"][data-scenario="empty"]')
        wait_for("the empty button pressed", lambda: driver.find_element(By.CSS_SELECTOR, '[data-testid="scenario-button"][data-scenario="empty"]').get_attribute("aria-pressed") == "true")
        status, body = curl("/api/users")
        assert status == 200 and "empty overlay" in body, f"in scenario empty, curl got {status} {body!r}"
        click('[data-testid="scenario-button"][data-scenario="error"]')
        wait_for("the current scenario to read error", lambda: (text('[data-testid="current-scenario"]') or "").startswith("error"))
        status, body = curl("/api/users")
        assert status == 500, f"in scenario error, curl got {status} {body!r}"
        click('[data-testid="scenario-reset"]')
        wait_for("the current scenario to read default", lambda: (text('[data-testid="current-scenario"]') or "").startswith("default"))
        status, body = curl("/api/users")
        assert status == 200 and "Ada Lovelace" in body, f"after the reset, curl got {status} {body!r}"

    @check("a mock created from the 404 entry is served at once")
    def _():
        click(row_css("/api/feed", 404))
        editor = wait_for("the mock editor", lambda: driver.find_elements(By.CSS_SELECTOR, '[data-testid="mock-body"]'))[0]
        assert editor.get_attribute("value") == "{}", f"the editor starts with {editor.get_attribute('value')!r}, not {{}}"
        editor.clear()
        editor.send_keys('{"items": [{"id": 7, "title": "made in the dashboard"}]}')
        click('[data-testid="mock-save"]')
        wait_for("the result line", lambda: (text('[data-testid="mock-result"]') or "").startswith(("Wrote", "4")))
        result = text('[data-testid="mock-result"]')
        assert "mock_api_feed_get.json" in result, f"the page says {result!r}"
        status, body = curl("/api/feed")
        assert status == 200, f"curl got {status} {body!r}"
        assert json.loads(body) == {"items": [{"id": 7, "title": "made in the dashboard"}]}, f"curl got {body!r}"
        wait_for("the 200 for /api/feed in the live list", lambda: driver.find_elements(By.CSS_SELECTOR, row_css("/api/feed", 200)))

    @check("creating the same mock again is refused, never overwritten")
    def _():
        click(row_css("/api/feed", 404))
        wait_for("the mock editor", lambda: driver.find_elements(By.CSS_SELECTOR, '[data-testid="mock-body"]'))
        click('[data-testid="mock-save"]')
        wait_for("a 409 in the result line", lambda: (text('[data-testid="mock-result"]') or "").startswith("409"))
        status, body = curl("/api/feed")
        assert status == 200 and "made in the dashboard" in body, f"curl got {status} {body!r}"
        drain_logs()
        # The refusal is an answer, not a page error: drop the browser's own "Failed to load
        # resource: … 409" line for it, which the console check would otherwise count.
        console[:] = [entry for entry in console if not ("/__mockd/mocks" in entry.get("message", "") and "409" in entry.get("message", ""))]

    @check("a resource's items are shown, and an item created with curl appears, per session")
    def _():
        resource = '[data-testid="resource-item"][data-path="/api/notes"]'
        wait_for("the /api/notes resource", lambda: driver.find_elements(By.CSS_SELECTOR, resource))
        click(resource)
        wait_for("the seeded note", lambda: "seeded note" in (text('[data-testid="resource-items"]') or ""))
        status, body = curl("/api/notes", "POST", data='{"text": "made with curl"}')
        assert status == 201, f"curl got {status} {body!r}"
        wait_for("the new item in the items shown", lambda: "made with curl" in (text('[data-testid="resource-items"]') or ""))
        rows = len(driver.find_elements(By.CSS_SELECTOR, '[data-testid="resource-row"]'))
        assert rows == 2, f"{rows} rows shown, not 2"
        wait_for("the count of the global copy", lambda: "no session: 2" in (text(resource + ' [data-testid="resource-copies"]') or ""))
        # A session's item is in its own copy only.
        status, body = curl("/api/notes", "POST", headers=["X-Mock-Session: notes-1"], data='{"text": "only in notes-1"}')
        assert status == 201, f"curl got {status} {body!r}"
        wait_for("session notes-1 in the picker", lambda: driver.find_elements(By.CSS_SELECTOR, '#resource-session option[value="notes-1"]'))
        assert "only in notes-1" not in (text('[data-testid="resource-items"]') or ""), "the session's item is shown without a session"
        driver.execute_script("const s = document.getElementById('resource-session'); s.value = 'notes-1'; s.dispatchEvent(new Event('change'))")
        wait_for("the session's item", lambda: "only in notes-1" in (text('[data-testid="resource-items"]') or ""))
        shown = text('[data-testid="resource-items"]') or ""
        assert "seeded note" in shown and "made with curl" not in shown, f"session notes-1 shows {shown!r}"

    @check("an open WebSocket connection is listed live with its messages both ways; the send box and the close button reach it")
    def _():
        app = WebSocketApp("/ws/echo", session="ws-1")
        try:
            card = '[data-testid="ws-connection"][data-path="/ws/echo"][data-session="ws-1"]'
            wait_for("the connection in the list", lambda: driver.find_elements(By.CSS_SELECTOR, card))
            wait_for("the app to get the welcome", lambda: '{"type":"welcome"}' in app.received())
            app.send_text("hello from the app")
            wait_for("the app to get the echo", lambda: "echo: hello from the app" in app.received())
            click(card)

            def shown(direction):
                return [item.text for item in driver.find_elements(By.CSS_SELECTOR, f'[data-testid="ws-message"][data-direction="{direction}"] .payload')]
            wait_for("the app's message in the list", lambda: shown("in") == ["hello from the app"])
            wait_for("mockd's two messages in the list", lambda: shown("out") == ['{"type":"welcome"}', "echo: hello from the app"])

            # The send box: JSON to the connection's session and path.
            Select(find('[data-testid="ws-kind"]')).select_by_value("json")
            find('[data-testid="ws-body"]').send_keys('{"type": "goal", "minute": 90}')
            click('[data-testid="ws-send"]')
            wait_for("the send's result", lambda: text('[data-testid="ws-result"]') == "Sent to 1 connection.")

            def goals():
                parsed = []
                for message in app.received():
                    try:
                        parsed.append(json.loads(message))
                    except ValueError:
                        pass
                return [value for value in parsed if value == {"type": "goal", "minute": 90}]
            wait_for("the app to get the goal", lambda: len(goals()) == 1)
            wait_for("the goal in the list", lambda: len(shown("out")) == 3 and json.loads(shown("out")[2]) == {"type": "goal", "minute": 90})
            wait_for("the counts each way", lambda: (text(card + ' [data-testid="ws-counts"]') or "").endswith("1 in, 3 out"))

            # The close button: mockd's close frame reaches the app, and the connection leaves the list.
            click('[data-testid="ws-close"]')
            wait_for("the app to get the close frame", lambda: app.close_code is not None)
            assert app.close_code == 1000, f"the app got close code {app.close_code}"
            wait_for("the connection to leave the list", lambda: not driver.find_elements(By.CSS_SELECTOR, card))
            wait_for("the detail to say it ended", lambda: text('[data-testid="ws-state"]') == "ended")
            assert len(shown("in")) == 1 and len(shown("out")) == 3, "the messages of the ended connection stay shown"
        finally:
            app.close()

    # A realistic state for the screenshot: a few requests, a session, a 404 with near names selected.
    curl("/api/v1/login", "POST", data='{"email": "wrong@example.com", "password": "x"}')
    curl("/api/users", headers=["X-Mock-Session: sim-3"])
    curl("/api/health")
    curl("/api/user")

    @check("a session seen in the journal is offered as a target")
    def _():
        wait_for("session sim-3 in the target selector", lambda: driver.find_elements(By.CSS_SELECTOR, '#scenario-target option[value="sim-3"]'))

    @check("a push button sends its payload, and the push is listed with the requests")
    def _():
        click('[data-testid="push-button"][data-push="new-message"]')
        wait_for("the push's result", lambda: (text('[data-testid="push-status"]') or "").startswith("new-message: sent"))
        wait_for("the push among the live requests", lambda: driver.find_elements(By.CSS_SELECTOR, row_css("new-message", 201)))

    @check("reload: the button shows the result")
    def _():
        click('[data-testid="reload-button"]')
        wait_for("an ok reload status", lambda: (text('[data-testid="reload-status"]') or "").startswith("ok"))

    @check("the 404 near names are shown")
    def _():
        click(row_css("/api/user", 404))
        wait_for("mock_api_user_get.json", lambda: text('[data-testid="miss-file"]') == "mock_api_user_get.json")
        wait_for("mock_api_users_get.json among the near names", lambda: "mock_api_users_get.json" in (text('[data-testid="near-names"]') or ""))

    if args.screenshot:
        driver.execute_script("document.activeElement && document.activeElement.blur()")
        driver.save_screenshot(args.screenshot)

    @check("no JavaScript errors in the console")
    def _():
        drain_logs()
        severe = [entry["message"] for entry in console if entry.get("level") == "SEVERE"]
        assert not severe, "console errors:\n  " + "\n  ".join(severe)

    @check("nothing was loaded from outside the mockd under test")
    def _():
        drain_logs()
        origin = urlsplit(BASE)
        timed = driver.execute_script("return performance.getEntries().map(e => e.name).filter(n => /^[a-z]+:/.test(n))")
        urls = set(network) | set(timed)
        assert any(url.endswith("/__mockd/dashboard.js") for url in urls), "the performance log missed dashboard.js: " + repr(sorted(urls))
        outside = sorted(url for url in urls if not url.startswith("data:")
                         and (urlsplit(url).hostname, urlsplit(url).port) != (origin.hostname, origin.port))
        assert not outside, "loaded from elsewhere: " + ", ".join(outside)

    if args.token_base:
        @check("with --admin-token, the page asks for the token once and then works")
        def _():
            driver.get(args.token_base.rstrip("/") + "/__mockd/")
            wait_for("the token form", lambda: find('[data-testid="token-form"]').is_displayed())
            find('[data-testid="token-input"]').send_keys(args.token)
            click('[data-testid="token-submit"]')
            wait_for("the sources", lambda: driver.find_elements(By.CSS_SELECTOR, '[data-testid="source-item"]'))
            wait_for("the live connection", lambda: text('[data-testid="connection"]') == "live")
            assert not find('[data-testid="token-form"]').is_displayed(), "the token form is still shown"
            driver.refresh()  # the token is kept for the session: no second question
            wait_for("the sources after a reload", lambda: driver.find_elements(By.CSS_SELECTOR, '[data-testid="source-item"]'))
            assert not find('[data-testid="token-form"]').is_displayed(), "the token was asked again after a reload"
finally:
    driver.quit()

failed = [name for name, error in results if error is not None]
print(f"{len(results) - len(failed)} passed, {len(failed)} failed")
sys.exit(1 if failed else 0)
