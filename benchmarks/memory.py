"""A worker's memory over a server's life (`make bench`): `manage.py serve` (gunicorn, 3 workers)
answers 10,000 requests of every kind, on a 20-hand and a 10,000-hand session: the sheet and
its earlier hands, the live poll, saves, a correction and an undo, the chart, the statistics,
the summary and its picture, and now and then the long session's files (CSV, backup, XLSX,
printed sheet). Each worker's resident size (VmRSS) is read from /proc after the warm-up (the
first 300 requests) and every 500 requests; gunicorn replaces a worker after about a thousand
requests (scoresheet/gunicorn_conf.py), so a worker slot's size is whichever process holds it.

Prints the largest size a worker slot reached against its size after the warm-up (target:
at most 1.5 times), through ``harness.Report``, and exits 1 when it is missed. Loopback only.

    python benchmarks/memory.py [--requests 10000]
    scripts/with-postgres python benchmarks/memory.py
"""

import argparse
import itertools
import random
import re
import time
from pathlib import Path

from harness import Report, Server
from over_http import Browser, build_sessions, random_hand

TARGET = 1.5
WARM_UP = 300
EVERY = 500


def workers(master: int) -> list[int]:
    """The gunicorn workers of ``master``: its children."""
    found = []
    for status in Path("/proc").glob("[0-9]*/status"):
        try:
            text = status.read_text()
        except OSError:
            continue
        if re.search(rf"^PPid:\s+{master}$", text, re.M):
            found.append(int(status.parent.name))
    return sorted(found)


def resident_mb(pid: int) -> float:
    try:
        text = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return 0.0
    return int(re.search(r"^VmRSS:\s+(\d+) kB", text, re.M).group(1)) / 1024


def requests(browser: Browser, short: str, long: str):
    """An endless mix of every kind of request, the long session's files among them."""
    rng = random.Random(4)

    def save(token):
        hand = None
        while hand is None:
            hand = random_hand(rng)
        return browser.save(token, hand)

    def undo(token):
        save(token)
        page = browser.get(f"/s/{token}/").body
        key = re.search(rb'action="[^"]*/undo/".*?name="key" value="([^"]+)"', page, re.S)
        return browser.post(f"/s/{token}/undo/", {"key": key.group(1).decode()}, htmx=True)

    def correct(token):
        form = browser.get(f"/s/{token}/hands/3/edit/", htmx=True).body
        fields = {
            name: re.search(rb'name="%s" value="([^"]+)"' % name.encode(), form).group(1)
            for name in ("key", "version")
        }
        hand = {"taker": rng.randrange(5), "contract": "garde", "bouts": 2, "points": 49}
        fields = {k: v.decode() for k, v in fields.items()} | hand | {"partner": "alone"}
        return browser.post(f"/s/{token}/hands/3/edit/", fields, htmx=True)

    light = [
        lambda t: browser.get(f"/s/{t}/"),
        lambda t: browser.get(f"/s/{t}/?before=8"),
        lambda t: browser.get(f"/s/{t}/live/?revision=0"),
        lambda t: browser.get(f"/s/{t}/chart/", htmx=True),
        lambda t: browser.get(f"/s/{t}/stats/"),
        lambda t: browser.get(f"/s/{t}/summary/"),
        save,
        correct,
        undo,
        lambda t: browser.get("/"),
    ]
    heavy = [
        lambda t: browser.get(f"/s/{t}/export.csv"),
        lambda t: browser.get(f"/s/{t}/backup.json"),
        lambda t: browser.get(f"/s/{t}/export.xlsx"),
        lambda t: browser.get(f"/s/{t}/print/"),
        lambda t: browser.get(f"/s/{t}/summary/"),
    ]
    for number in itertools.count():
        if number % 25 == 24:
            yield heavy[(number // 25) % len(heavy)], long
        else:
            yield light[number % len(light)], short if number % 2 else long


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=10_000)
    args = parser.parse_args()
    server = Server(workers=3)
    server.env["WEB_CONCURRENCY"] = "3"
    # Every request comes from 127.0.0.1: the limit per address (120 posts a minute) would
    # answer most writes 429 and leave them out of the measure.
    server.env["RATE_LIMIT"] = "100000/m"
    sizes = []
    try:
        server.manage("migrate", "--no-input", "-v0")
        server.django()
        from django.db import connections

        short, long = (build_sessions(size, 1)[0] for size in (20, 10_000))
        connections.close_all()
        server.start()
        browser = Browser(server.port)
        browser.get("/")
        master = server.process.pid
        mix = requests(browser, short, long)
        started = time.monotonic()
        failed = 0
        for number in range(1, args.requests + 1):
            call, token = next(mix)
            answer = call(token)
            failed += answer.status not in (200, 204, 302)
            if number == WARM_UP or number % EVERY == 0:
                found = [resident_mb(pid) for pid in workers(master)]
                sizes.append((number, found))
                print(
                    f"{number:>6} requests, {time.monotonic() - started:6.0f} s: "
                    + ", ".join(f"{mb:.0f} MB" for mb in found),
                    flush=True,
                )
    finally:
        server.close()
    after_warm_up = max(sizes[0][1])
    largest = max(max(found) for _number, found in sizes)
    report = Report(f"memory, {server.database}: 3 workers, {args.requests:,} requests")
    report.size("a worker's resident size after the warm-up", after_warm_up, 1000, "MB")
    report.size("the largest a worker reached", largest, TARGET * after_warm_up, "MB")
    report.ratio("largest / after the warm-up", largest / after_warm_up, TARGET)
    if failed:
        report.add("requests that failed", str(failed), "0", False)
    report.exit()


if __name__ == "__main__":
    main()
