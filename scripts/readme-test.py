#!/usr/bin/env python3
"""Runs every shell example of README.md against a real mockd and fails when one answers
differently from what the README shows beside it, so the README cannot go stale.

    scripts/readme-test.py [--mockd PATH] [--keep] [FILE.md ...]     (default: README.md)

How it runs them: one temporary folder holding a copy of the bundled MockData/ and routes/,
one mockd started there as `make run` starts it (`--root MockData --routes routes --graphql /graphql`, on a free
port, with PATH leading to that mockd), and every ```sh block of the file run in order, in
that folder, by bash. `8080` in a command or an expected output is rewritten to mockd's real
port. Examples share the server and the folder, so one that changes state (a file written, a
scenario set) is seen by the next, as it would be for a reader following the README.

The conventions the README follows (write new examples the same way):

  * A block whose lines start with `$ ` is a transcript: each `$ ` line is a command, and the
    lines under it, up to the next `$ ` line, are what it prints. A block without `$ ` lines
    is a list of commands, one a line (a trailing `\\` continues one); a comment
    `# → TEXT` after a command says a line of its output contains TEXT (`...` inside it
    matches any text), and `# → exit N` that it exits N. Other comments are prose.
  * Every command must exit 0, unless its expected output starts with `exit N`.
  * An expected output is compared where it is stable:
      - It starts with a status line (`HTTP/1.1 200 OK`): the status line must be the same,
        each header shown must be sent with that value (other headers, such as Date, may be
        there too), and the body after the blank line is compared as below.
      - A body that is JSON must be JSON with the same keys, the same values and arrays of
        the same length; the string "..." matches any value, `...` inside a string any text,
        and a last array element "..." any further elements.
      - Anything else: each line shown must be printed, in that order (other lines may come
        between); `...` in a line matches any text. Nothing shown: not compared.
  * `<!-- readme-test: skip REASON -->` on the line before a block: not run (it starts a
    server of its own, needs Docker, the network or a second terminal). Say why.
  * `<!-- readme-test: startup -->` before a block: it is compared, as text, with what the
    test's own mockd printed when it started.

It also checks that every relative link in README.md and docs/*.md leads to a file that
exists and, with a `#fragment`, to a heading of that file.

Every process it starts is stopped by its PID; each command may take COMMAND_SECONDS (10),
the whole run RUN_SECONDS (180).
"""

import argparse
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
COMMAND_SECONDS = float(os.environ.get("COMMAND_SECONDS", "10"))
RUN_SECONDS = float(os.environ.get("RUN_SECONDS", "180"))
ARROW = "# →"


class Example:
    """One command of a block, with what the README says it prints."""

    def __init__(self, source, line, command, expected):
        self.source, self.line, self.command, self.expected = source, line, command, expected

    def name(self):
        first = self.command.splitlines()[0]
        return f"{self.source}:{self.line}: {first[:100]}"


# ---------------------------------------------------------------- reading the examples

def blocks(text):
    """(line number of the fence, language, lines, directive) for each fenced block."""
    lines = text.split("\n")
    found, i = [], 0
    while i < len(lines):
        fence = re.match(r"^(\s*)```(\S*)\s*$", lines[i])
        if not fence:
            i += 1
            continue
        directive = None
        j = i - 1
        while j >= 0 and lines[j].strip() == "":
            j -= 1
        if j >= 0:
            marker = re.match(r"^\s*<!--\s*readme-test:\s*(\S+)(.*?)-->\s*$", lines[j])
            if marker:
                directive = (marker.group(1), marker.group(2).strip())
        start, body = i, []
        i += 1
        while i < len(lines) and not re.match(r"^\s*```\s*$", lines[i]):
            body.append(lines[i])
            i += 1
        found.append((start + 1, fence.group(2), body, directive))
        i += 1
    return found


def examples_of(source, first_line, body):
    """The commands of one ```sh block, each with its expected output."""
    found = []
    if any(line.startswith("$ ") for line in body):
        current = None
        for offset, line in enumerate(body):
            if line.startswith("$ "):
                if current:
                    found.append(current)
                current = Example(source, first_line + 1 + offset, line[2:], [])
            elif current and current.command.endswith("\\") and not current.expected:
                current.command += "\n" + line
            elif current:
                current.expected.append(line)
        if current:
            found.append(current)
        for example in found:
            while example.expected and example.expected[-1].strip() == "":
                example.expected.pop()
        return found
    pending = None
    for offset, line in enumerate(body):
        if pending is not None:
            pending.command += "\n" + line
        elif line.strip() and not line.lstrip().startswith("#"):
            pending = Example(source, first_line + 1 + offset, line, [])
        else:
            continue
        if pending.command.rstrip().endswith("\\"):
            continue
        if ARROW in pending.command:
            command, _, expected = pending.command.rpartition(ARROW)
            expected = expected.strip()
            pending.command = command.rstrip()
            pending.expected = [expected] if re.match(r"^exit \d+$", expected) else [f"...{expected}..."]
        found.append(pending)
        pending = None
    return found


# ---------------------------------------------------------------- comparing

def wildcard(pattern):
    """A regular expression for a line where `...` (or `…`) matches any text."""
    parts = re.split(r"\.\.\.|…", pattern)
    return re.compile("^" + ".*".join(re.escape(p) for p in parts) + "$", re.DOTALL)


def same_json(expected, actual, where="$"):
    """None when `actual` matches `expected`, else where and how it differs."""
    if expected == "...":
        return None
    if isinstance(expected, dict):
        if not isinstance(actual, dict):
            return f"{where}: expected an object, found {json.dumps(actual)[:80]}"
        if list(expected) != list(actual) and set(expected) != set(actual):
            missing = [k for k in expected if k not in actual]
            extra = [k for k in actual if k not in expected]
            return f"{where}: keys differ (the README shows {missing} that is not sent, and not {extra})"
        for key in expected:
            problem = same_json(expected[key], actual[key], f"{where}.{key}")
            if problem:
                return problem
        return None
    if isinstance(expected, list):
        if not isinstance(actual, list):
            return f"{where}: expected an array, found {json.dumps(actual)[:80]}"
        open_ended = bool(expected) and expected[-1] == "..."
        items = expected[:-1] if open_ended else expected
        if len(actual) < len(items) or (not open_ended and len(actual) != len(items)):
            return f"{where}: expected {len(items)}{' or more' if open_ended else ''} items, found {len(actual)}"
        for index, item in enumerate(items):
            problem = same_json(item, actual[index], f"{where}[{index}]")
            if problem:
                return problem
        return None
    if isinstance(expected, str) and isinstance(actual, str) and ("..." in expected or "…" in expected):
        return None if wildcard(expected).match(actual) else f"{where}: {json.dumps(actual)} does not match {json.dumps(expected)}"
    if expected != actual or type(expected) is not type(actual):
        return f"{where}: expected {json.dumps(expected)}, found {json.dumps(actual)}"
    return None


def same_lines(expected, actual):
    """Each expected line printed, in order; None or the first one missing."""
    position = 0
    for line in expected:
        if not line.strip():
            continue
        pattern = wildcard(line.rstrip())
        while position < len(actual) and not pattern.match(actual[position].rstrip()):
            position += 1
        if position == len(actual):
            return f"not printed (in this order): {line.strip()!r}"
        position += 1
    return None


def same_body(expected, actual):
    text = "\n".join(expected).strip()
    if not text:
        return None
    try:
        wanted = json.loads(text)
    except ValueError:
        return same_lines(expected, actual)
    try:
        found = json.loads("\n".join(actual))
    except ValueError:
        return f"expected a JSON body, found: {' '.join(actual)[:200]!r}"
    return same_json(wanted, found)


def compare(expected, output):
    """None when the output matches what the README shows, else why not."""
    lines = [line.rstrip("\r") for line in output.replace("\r\n", "\n").split("\n")]
    if expected and expected[0].startswith("HTTP/"):
        blank = expected.index("") if "" in expected else len(expected)
        head, body = expected[:blank], expected[blank + 1:]
        got_blank = lines.index("") if "" in lines else len(lines)
        got_head, got_body = lines[:got_blank], lines[got_blank + 1:]
        if not got_head or got_head[0].strip() != head[0].strip():
            return f"status: expected {head[0]!r}, found {(got_head or [''])[0]!r}"
        sent = {}
        for line in got_head[1:]:
            name, _, value = line.partition(":")
            sent.setdefault(name.strip().lower(), []).append(value.strip())
        for line in head[1:]:
            name, _, value = line.partition(":")
            values = sent.get(name.strip().lower())
            if values is None:
                return f"header {name.strip()} not sent"
            if not any(wildcard(value.strip()).match(v) for v in values):
                return f"header {name.strip()}: expected {value.strip()!r}, found {values}"
        return same_body(body, got_body)
    return same_body(expected, lines)


# ---------------------------------------------------------------- running

class Server:
    """The mockd the examples talk to, stopped by its PID."""

    def __init__(self, mockd, folder, bin_dir):
        self.output = []
        self.process = subprocess.Popen(
            [mockd, "--root", "MockData", "--routes", "routes", "--graphql", "/graphql", "--host", "127.0.0.1", "--port", "0"],
            cwd=folder, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
            env=dict(os.environ, PATH=f"{bin_dir}:{os.environ['PATH']}"))
        self.listening = threading.Event()
        self.port = None
        threading.Thread(target=self._read, daemon=True).start()
        if not self.listening.wait(30):
            self.stop()
            raise SystemExit("readme-test: mockd did not start within 30 s:\n" + "\n".join(self.output))

    def _read(self):
        for line in self.process.stdout:
            self.output.append(line.rstrip("\n"))
            found = re.search(r"listening on http://127\.0\.0\.1:(\d+)", line)
            if found and not self.port:
                self.port = found.group(1)
                self.listening.set()

    def startup(self):
        """What it printed before its first access line (`<time> GET /path …`)."""
        lines = []
        for line in self.output:
            if re.match(r"^\d{4}-\d\d-\d\dT\S+ [A-Z]+ /", line):
                break
            lines.append(line)
        return lines

    def stop(self):
        if self.process.poll() is None:
            os.kill(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                os.kill(self.process.pid, signal.SIGKILL)
                self.process.wait()


def run(command, folder, env):
    """(exit status, output) of one command, in its own process group, stopped when late."""
    process = subprocess.Popen(["bash", "-o", "pipefail", "-c", command], cwd=folder, env=env,
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                               start_new_session=True)
    try:
        output, _ = process.communicate(timeout=COMMAND_SECONDS)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        output, _ = process.communicate()
        return None, output
    return process.returncode, output


def mockd_binary(given):
    if given:
        return str(Path(given).resolve())
    binary = REPO / ".build" / "debug" / "mockd"
    if not binary.exists():
        print("readme-test: building .build/debug/mockd", file=sys.stderr)
        subprocess.run([os.environ.get("SWIFT", "swift"), "build", "--product", "mockd"], cwd=REPO, check=True)
    return str(binary)


def test_file(path, server, folder, env, failures, startups):
    text = (REPO / path).read_text()
    count = 0
    for line, language, body, directive in blocks(text):
        if directive and directive[0] == "startup":
            # Compared at the end: mockd writes its log lines in batches, up to 100 ms late.
            startups.append((f"{path}:{line}", [re.sub(r"\b8080\b", server.port, b) for b in body]))
            count += 1
            continue
        if language != "sh":
            continue
        if directive and directive[0] == "skip":
            if not directive[1]:
                failures.append(f"{path}:{line}: a skipped block must say why")
            continue
        if directive:
            failures.append(f"{path}:{line}: unknown readme-test directive {directive[0]!r}")
            continue
        for example in examples_of(str(path), line, body):
            command = re.sub(r"\b8080\b", server.port, example.command)
            expected = [re.sub(r"\b8080\b", server.port, e) for e in example.expected]
            status, output = run(command, folder, env)
            count += 1
            wanted_status = 0
            if expected and re.match(r"^exit \d+$", expected[0]):
                wanted_status = int(expected[0].split()[1])
                expected = expected[1:]
            if status is None:
                problem = f"still running after {COMMAND_SECONDS:g} s"
            elif status != wanted_status:
                problem = f"exited {status}, expected {wanted_status}"
            else:
                problem = compare(expected, output)
            if problem:
                failures.append(f"{example.name()}\n  {problem}\n  it printed:\n    "
                                + "\n    ".join(output.rstrip().split("\n")[:40]))
    return count


# ---------------------------------------------------------------- links

def slug(heading):
    text = re.sub(r"[`*_]|\[|\]|\(.*?\)", lambda m: "" if m.group(0)[0] in "`*_[]" else m.group(0), heading)
    text = re.sub(r"[^\w\- ]", "", text.strip().lower())
    return text.replace(" ", "-")


def anchors(path):
    found, fenced = set(), False
    for line in path.read_text().split("\n"):
        if line.lstrip().startswith("```"):
            fenced = not fenced
        elif not fenced and line.startswith("#"):
            found.add(slug(line.lstrip("#")))
    return found


def check_links(failures):
    pages = [REPO / "README.md"] + sorted((REPO / "docs").glob("*.md"))
    count = 0
    for page in pages:
        fenced = False
        for number, line in enumerate(page.read_text().split("\n"), 1):
            if line.lstrip().startswith("```"):
                fenced = not fenced
            if fenced:
                continue
            for target in re.findall(r"\]\(([^)\s]+)\)", re.sub(r"`[^`]*`", "", line)):
                if re.match(r"^[a-z]+:", target):
                    continue
                count += 1
                file, _, fragment = target.partition("#")
                linked = (page.parent / file).resolve() if file else page
                where = f"{page.relative_to(REPO)}:{number}: link {target}"
                if not linked.exists():
                    failures.append(f"{where}: no such file")
                elif fragment and linked.suffix == ".md" and fragment not in anchors(linked):
                    failures.append(f"{where}: no heading #{fragment} in {linked.relative_to(REPO)}")
    return count


# ---------------------------------------------------------------- main

def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--mockd", help="the mockd to test (default: .build/debug/mockd, built when missing)")
    parser.add_argument("--keep", action="store_true", help="keep the temporary folder")
    parser.add_argument("files", nargs="*", default=["README.md"])
    options = parser.parse_args()

    failures = []
    links = check_links(failures)
    mockd = mockd_binary(options.mockd)
    folder = tempfile.mkdtemp(prefix="mockd-readme-")
    bin_dir = os.path.join(folder, ".bin")
    os.mkdir(bin_dir)
    os.symlink(mockd, os.path.join(bin_dir, "mockd"))
    shutil.copytree(REPO / "MockData", os.path.join(folder, "MockData"))
    shutil.copytree(REPO / "routes", os.path.join(folder, "routes"))
    # curl prints a progress meter when its output is not a terminal; a reader at one sees none.
    with open(os.path.join(bin_dir, ".curlrc"), "w") as curlrc:
        curlrc.write("no-progress-meter\n")
    env = dict(os.environ, PATH=f"{bin_dir}:{os.environ['PATH']}", CURL_HOME=bin_dir)

    # The whole run is bounded: past RUN_SECONDS, stop the server and fail.
    deadline = threading.Timer(RUN_SECONDS, lambda: (print(f"readme-test: over {RUN_SECONDS:g} s", file=sys.stderr),
                                                     server.stop(), os._exit(1)))
    server = Server(mockd, folder, bin_dir)
    deadline.start()
    count, startups = 0, []
    try:
        for file in options.files:
            count += test_file(file, server, folder, env, failures, startups)
        for where, expected in startups:
            problem = same_lines(expected, server.startup())
            if problem:
                failures.append(f"{where}: the startup lines: {problem}\n  mockd printed:\n    "
                                + "\n    ".join(server.startup()))
    finally:
        deadline.cancel()
        server.stop()
        if options.keep:
            print(f"readme-test: kept {folder}", file=sys.stderr)
        else:
            shutil.rmtree(folder, ignore_errors=True)

    for failure in failures:
        print(f"FAIL {failure}\n", file=sys.stderr)
    print(f"readme-test: {count} examples, {links} links, {len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
