#!/usr/bin/env python3
"""bench/compare.sh's report: its runs.tsv and servers.tsv as Markdown tables.

  compare-report.py DIR --duration S --seconds S --load "1.0 2.0 3.0" --mockd "VERSION (PATH)"

With several rounds a cell is the median of the rounds (of two values, their mean).
"""
import argparse, csv, os, platform, statistics, time

BARE, MOCKD = "mhd_raw", "mockd"
WORKLOADS = [("small-ka", "small keep-alive (c64)"), ("medium-ka", "medium keep-alive (c64)"),
             ("large-ka", "large keep-alive (c16)"), ("small-close", "small, Connection: close (c16)"),
             ("items-rand", "10k files, random (c64)"), ("404", "404 (c64)")]
NOISY = 20  # % of a core used by other processes during a run: the run's figures are suspect


def rows(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f, delimiter="\t"))


def number(value):
    try:
        return float(value)
    except (TypeError, ValueError):
        return None


def median(values):
    values = [v for v in values if v is not None]
    return statistics.median(values) if values else None


def show(value, digits=0, unit=""):
    if value is None:
        return "—"
    return f"{value:,.{digits}f}{unit}"


def main():
    p = argparse.ArgumentParser()
    p.add_argument("dir")
    p.add_argument("--duration", type=float, required=True)
    p.add_argument("--seconds", type=int, required=True)
    p.add_argument("--load", default="?")
    p.add_argument("--mockd", default="?")
    a = p.parse_args()
    runs = rows(os.path.join(a.dir, "runs.tsv"))
    servers = rows(os.path.join(a.dir, "servers.tsv"))
    rounds = sorted({r["round"] for r in runs} | {s["round"] for s in servers}, key=int)

    def cell(server, workload, field):
        return median(number(r[field]) for r in runs if r["server"] == server and r["workload"] == workload)

    def noisy(server, workload):
        return any(max(number(r["other_cpu0"]) or 0, number(r["other_cpu1"]) or 0) > NOISY
                   for r in runs if r["server"] == server and r["workload"] == workload)

    out = []
    out.append(f"## mockd against bare libmicrohttpd, {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}")
    out.append("")
    out.append(f"mockd {a.mockd}; {len(rounds)} round(s), wrk -t1 for {a.duration:g} s a workload, "
               f"server on CPU 0, wrk on CPU 1, 127.0.0.1; {os.cpu_count()} cores, {platform.machine()}, "
               f"load average before {a.load}; {a.seconds} s in all. Cells: median of the rounds.")
    out.append("")
    out.append("| workload | bare req/s | mockd req/s | ratio | p99 ms, bare / mockd "
               "| µs server CPU / request, bare / mockd | errors, bare / mockd |")
    out.append("|---|---|---|---|---|---|---|")
    for key, label in WORKLOADS:
        bare, mine = cell(BARE, key, "rps"), cell(MOCKD, key, "rps")
        ratio = mine / bare if bare and mine is not None else None
        star = " *" if noisy(BARE, key) or noisy(MOCKD, key) else ""
        p99 = "{} / {}".format(show(_ms(cell(BARE, key, "p99_us")), 2), show(_ms(cell(MOCKD, key, "p99_us")), 2))
        cpu = "{} / {}".format(show(cell(BARE, key, "us_per_request"), 1), show(cell(MOCKD, key, "us_per_request"), 1))
        errors = "{} / {}".format(show(cell(BARE, key, "errors")), show(cell(MOCKD, key, "errors")))
        out.append(f"| {label}{star} | {show(bare)} | {show(mine)} | **{show(ratio, 2)}** | {p99} | {cpu} | {errors} |")
    out.append("")

    def fact(server, field):
        return median(number(s[field]) for s in servers if s["server"] == server)

    start_bare, start_mine = fact(BARE, "startup_ms"), fact(MOCKD, "startup_ms")
    rss_bare, rss_mine = fact(BARE, "peak_rss_kib"), fact(MOCKD, "peak_rss_kib")
    out.append("| with the 10,000-file fixture | bare | mockd | ratio |")
    out.append("|---|---|---|---|")
    out.append(f"| startup: launch to the first 200 on /bench/small | {show(start_bare, 0, ' ms')} | "
               f"{show(start_mine, 0, ' ms')} | {show(_ratio(start_mine, start_bare), 2)} |")
    out.append(f"| peak RSS (VmHWM at the end of the runs) | {show(_mib(rss_bare), 1, ' MiB')} | "
               f"{show(_mib(rss_mine), 1, ' MiB')} | {show(_ratio(rss_mine, rss_bare), 2)} |")
    out.append("")

    others = [max(number(r["other_cpu0"]) or 0, number(r["other_cpu1"]) or 0) for r in runs]
    if others:
        out.append(f"Other processes' share of a core during the runs (the noise): median {statistics.median(others):.0f}%, "
                   f"max {max(others):.0f}%. A * marks a workload with a run over {NOISY}%: "
                   "compare ratios within one run, and the µs of CPU per request, which move less than req/s.")
        share = [number(r["server_cpu"]) for r in runs if number(r["server_cpu"]) is not None]
        if share:
            out.append("")
            out.append(f"The server's own share of its core under load: median {statistics.median(share):.0f}%, "
                       f"min {min(share):.0f}%. Errors: wrk's socket errors "
                       "plus answers that were not 2xx or 3xx (404s not counted on the 404 workload).")
        out.append("")
    for s in servers:
        if s["check"] != "ok":
            out.append(f"- round {s['round']}, {s['server']}: **{s['check']}**")
    if len(rounds) > 1:
        if out[-1]:
            out.append("")
        out.append("Ratio to bare in each round:")
        out.append("")
        out.append("| round | " + " | ".join(k for k, _ in WORKLOADS) + " |")
        out.append("|---|" + "---|" * len(WORKLOADS))
        for rnd in rounds:
            def one(server, key):
                return next((number(r["rps"]) for r in runs
                             if r["round"] == rnd and r["server"] == server and r["workload"] == key), None)
            out.append(f"| {rnd} | " + " | ".join(show(_ratio(one(MOCKD, k), one(BARE, k)), 2) for k, _ in WORKLOADS) + " |")
    print("\n".join(out).rstrip())


def _ms(us):
    return None if us is None else us / 1000


def _mib(kib):
    return None if kib is None else kib / 1024


def _ratio(a, b):
    return a / b if a is not None and b else None


if __name__ == "__main__":
    main()
