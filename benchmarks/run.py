"""In-process figures (`make bench` runs it before over_http.py): queries, server time, bytes,
then slow-phone timings.

Builds sessions of 10, 100, 1,000 and 10,000 hands (4 and 5 players, with announcements) in a
temporary database, measures each action in-process, then drives a real server with Chromium
(4× CPU throttling, "Slow 4G"), prints a table and one JSON line with the same figures. The
figures over HTTP, against the real server with three phones saving, are over_http.py's.

    python benchmarks/run.py                   # SQLite in a temporary file
    python benchmarks/run.py --players 5 --sizes 10,10000    # what `make bench` runs
    scripts/with-postgres python benchmarks/run.py
"""

import argparse
import gzip
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
import tracemalloc
import uuid
from pathlib import Path

from harness import Report, commit_floor

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def setup_django(tmp: str) -> None:
    os.environ.setdefault("SECRET_KEY", "benchmark-" + uuid.uuid4().hex)
    os.environ.setdefault("ALLOWED_HOSTS", "testserver,127.0.0.1,localhost")
    if not os.environ.get("DATABASE_URL"):
        os.environ["SQLITE_PATH"] = str(Path(tmp) / "bench.sqlite3")
    os.environ["DJANGO_SETTINGS_MODULE"] = "scoresheet.settings"
    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command

    # In-process requests render pages without collectstatic's manifest.
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }
    call_command("migrate", verbosity=0)


def build_sheet(players: int, hands: int, seed: int):
    """A session of ``hands`` valid hands with announcements, stored in bulk through the write
    path (as an import stores them: scored, with their running totals)."""
    import random

    from harness import NAMES

    from scoresheet import scoring
    from scoresheet.sheets import writes

    rng = random.Random(seed)
    rows = []
    while len(rows) < hands:
        if rng.random() < 0.05:
            rows.append((None, None))
            continue
        bouts = rng.randint(0, 3)
        low, high = 4 * bouts, 91 - 4 * (3 - bouts)
        half = players in (3, 5)
        points = rng.randint(low * 2, high * 2) / 2 if half else rng.randint(low, high)
        partner = rng.randrange(players) if players == 5 else None
        taker = rng.randrange(players)
        hand = scoring.Hand(
            seats=players,
            taker=taker,
            contract=rng.choice(list(scoring.Contract)),
            bouts=bouts,
            points=str(points),
            partner=None if partner == taker else partner,
            petit_au_bout=rng.choice([None, None, "attack", "defence"]),
            poignees={rng.randrange(players): "simple"} if rng.random() < 0.2 else {},
            chelem="announced_failed" if rng.random() < 0.01 else None,
        )
        if not scoring.validate(hand):
            rows.append((None, hand))
    return writes.create_sheet(f"{players}p × {hands}", list(NAMES[:players]), 0, hands=rows)


def measure(call, repeat: int) -> dict:
    """Median server time (ms) and the queries and bytes of one call."""
    from django.db import connection, reset_queries
    from django.test.utils import CaptureQueriesContext

    reset_queries()  # the log keeps 9,000 queries at most: start each count from empty
    with CaptureQueriesContext(connection) as queries:
        response = call()
        body = b"".join(response.streaming_content) if response.streaming else response.content
    count = len(queries)  # now: the next request clears Django's query log
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        response = call()
        if response.streaming:
            b"".join(response.streaming_content)
        times.append((time.perf_counter() - started) * 1000)
    return {
        "queries": count,
        "ms": statistics.median(times),
        "bytes": len(body),
        "gzip_bytes": len(gzip.compress(body)),
        "status": response.status_code,
    }


def first_byte(call, repeat: int) -> float:
    """Median time (ms) from the request to the first chunk of its body."""
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        response = call()
        if response.streaming:
            stream = iter(response.streaming_content)
            next(stream, b"")
            times.append((time.perf_counter() - started) * 1000)
            for _chunk in stream:
                pass
        else:
            times.append((time.perf_counter() - started) * 1000)
        response.close()
    return statistics.median(times)


def peak_memory(call) -> int:
    """The most memory (bytes) Python held while producing and consuming one response."""
    tracemalloc.start()
    try:
        response = call()
        if response.streaming:
            for _chunk in response.streaming_content:
                pass
        response.close()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def server_figures(sheet, repeat: int) -> dict:
    from django.test import Client

    client = Client()
    htmx = Client(headers={"HX-Request": "true"})
    base = f"/s/{sheet.token}/"
    players = sheet.seats.count()
    hand = {
        "taker": "1",
        "contract": "garde",
        "bouts": "2",
        "points": "49",
        "petit_au_bout": "attack",
        "poignee_1": "simple",
    }
    if players == 5:
        hand["partner"] = "3"

    def save():
        # Each run adds a hand: the session grows by the number of runs (21 by default),
        # which the 10-hand figure includes.
        return htmx.post(base + "hands/new/", {"key": str(uuid.uuid4()), **hand})

    # The session's size grows the reading actions' cost: fewer runs of them at 10,000 hands.
    slow = repeat if sheet.hands.count() < 10_000 else max(3, repeat // 3)
    save()  # the first request warms the process (imports, templates): not timed
    return {
        "sheet": measure(lambda: client.get(base), slow),
        "save": measure(save, repeat),
        "preview": measure(
            lambda: htmx.post(base + "hands/preview/", {"key": str(uuid.uuid4()), **hand}),
            repeat,
        ),
        "csv": measure(lambda: client.get(base + "export.csv"), slow),
        "backup": measure(lambda: client.get(base + "backup.json"), slow),
        # Issue 23: after the game.
        "xlsx": measure(lambda: client.get(base + "export.xlsx"), slow),
        "summary": measure(lambda: client.get(base + "summary/"), slow),
        "picture": measure(lambda: client.get(f"/v/{sheet.view_token}/summary.png"), slow),
        "print": measure(lambda: client.get(base + "print/"), slow),
        "first_byte": {
            name: first_byte(lambda name=name: client.get(base + name), slow)
            for name in ("export.csv", "backup.json", "export.xlsx", "print/")
        },
        "peak_kb": {
            name: peak_memory(lambda name=name: client.get(base + name)) // 1024
            for name in ("export.csv", "backup.json", "export.xlsx")
        },
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=21, help="timed runs per action")
    parser.add_argument("--no-browser", action="store_true", help="skip the Chromium figures")
    parser.add_argument("--players", default="4,5", help="table sizes, e.g. 4,5")
    parser.add_argument("--sizes", default="10,100,1000,10000", help="session sizes in hands")
    args = parser.parse_args()
    tables = [int(players) for players in args.players.split(",")]
    sizes = [int(size) for size in args.sizes.split(",")]

    results = {"database": "PostgreSQL" if os.environ.get("DATABASE_URL") else "SQLite"}
    with tempfile.TemporaryDirectory(prefix="tarot-bench-") as tmp:
        setup_django(tmp)
        floor = commit_floor()
        rows = []
        for players in tables:
            for size in sizes:
                sheet = build_sheet(players, size, seed=size + players)
                figures = server_figures(sheet, args.repeat)
                results[f"{players}p_{size}"] = figures
                rows.append((players, size, figures))
    report(results, rows, tables, sizes)
    targets = Report(f"in-process, {results['database']}", floor=floor)
    budget(targets, results, tables, sizes)
    if not args.no_browser and not Path("/usr/bin/chromium").exists():
        print("\nslow phone: skipped, no /usr/bin/chromium (apt-get install chromium)")
    elif not args.no_browser:
        # Its own process: it serves the app with gunicorn on its own database.
        found = subprocess.run(
            [sys.executable, str(Path(__file__).with_name("slow_phone.py"))],
            capture_output=True,
            text=True,
            check=True,
        )
        results["slow_phone"] = json.loads(found.stdout.strip().splitlines()[-1])
        print()
        for name, value in results["slow_phone"].items():
            print(f"slow phone  {name:<42} {value}")
        # Issue 15: the row and totals from scoring.js on the phone, before the server answers.
        found = subprocess.run(
            [sys.executable, str(Path(__file__).with_name("instant_save.py"))],
            capture_output=True,
            text=True,
            check=True,
        )
        results["instant_save"] = json.loads(found.stdout.strip().splitlines()[-1])
        for name, value in results["instant_save"].items():
            print(f"slow phone  {name:<42} {value}")
        targets.size(
            "slow phone: a sheet's first visit",
            results["slow_phone"]["first_visit_bytes"] / 1024,
            FIRST_VISIT_KB,
        )
    print(json.dumps(results))
    targets.exit()


# Issue 23's budget for the files at 10,000 hands: server time and first byte.
FILE_BUDGET = {"csv": "export.csv", "xlsx": "export.xlsx", "backup": "backup.json"}
SERVER_TIME_MS = 300
FIRST_BYTE_MS = 50
# Issue 34: the printed sheet to its last byte, the summary flat, a sheet's first visit.
PRINT_SECONDS = 1
SUMMARY_RATIO = 1.5
FIRST_VISIT_KB = 40


def budget(targets: Report, results: dict, tables: list[int], sizes: list[int]) -> None:
    """The targets of the files, the printed sheet and the summary at the largest size (at
    least 10,000 hands), against the smallest for the summary's ratio."""
    if sizes[-1] < 10_000:
        return
    for players in tables:
        small, big = results[f"{players}p_{sizes[0]}"], results[f"{players}p_{sizes[-1]}"]
        at = f"{players}p, {sizes[-1]:,} hands"
        for action, path in FILE_BUDGET.items():
            targets.time(f"{action} at {at}", big[action]["ms"] / 1000, SERVER_TIME_MS / 1000)
            if action != "xlsx":
                # A zip file's first byte is its last: the XLSX's whole time is its target.
                first = big["first_byte"][path] / 1000
                targets.time(f"{action} first byte at {at}", first, FIRST_BYTE_MS / 1000)
        targets.time(f"printed sheet at {at}", big["print"]["ms"] / 1000, PRINT_SECONDS)
        ratio = big["summary"]["ms"] / small["summary"]["ms"]
        targets.ratio(f"summary {players}p, {sizes[-1]:,} / {sizes[0]:,}", ratio, SUMMARY_RATIO)


def report(results: dict, rows: list, tables: list[int], sizes: list[int]) -> None:
    actions = ("sheet", "save", "preview", "csv", "backup", "xlsx", "summary", "picture", "print")
    print(f"database: {results['database']}\n")
    print(f"{'players':>7} {'hands':>6}  " + "  ".join(f"{a + ' q/ms/KB':>20}" for a in actions))
    for players, size, figures in rows:
        cells = []
        for action in actions:
            found = figures[action]
            cells.append(
                f"{found['queries']:>3} {found['ms']:>8.1f} {found['bytes'] / 1024:>7.1f}"
            )
        print(f"{players:>7} {size:>6}  " + "  ".join(f"{c:>20}" for c in cells))
    print()
    first, last = sizes[0], sizes[-1]
    for players in tables:
        small = results[f"{players}p_{first}"]
        for size in sizes[1:]:
            big = results[f"{players}p_{size}"]
            ratios = {a: big[a]["ms"] / small[a]["ms"] for a in ("sheet", "save", "preview")}
            results[f"{players}p_ratio_{size}_{first}"] = ratios
            text = ", ".join(f"{a} {r:.2f}" for a, r in ratios.items())
            print(f"{players} players, time ratio {size:,} / {first:,} hands: {text}")
        save = results[f"{players}p_{last}"]["save"]
        print(
            f"{players} players, saved-hand response: {save['bytes']} bytes "
            f"({save['gzip_bytes']} gzipped)"
        )
    print()
    print("after the game (issue 23): server time, first byte, peak Python memory")
    for players in tables:
        for size in sizes:
            figures = results[f"{players}p_{size}"]
            for action, path in FILE_BUDGET.items():
                ms, first = figures[action]["ms"], figures["first_byte"][path]
                budget = ""
                if size >= 10_000:
                    fits = ms <= SERVER_TIME_MS and first <= FIRST_BYTE_MS
                    budget = (
                        f"  target ≤ {SERVER_TIME_MS} ms, first byte ≤ {FIRST_BYTE_MS} ms: "
                        + ("met" if fits else "MISSED")
                    )
                print(
                    f"{players}p {size:>6,} hands  {action:<7} {ms:>8.1f} ms  first byte "
                    f"{first:>7.1f} ms  peak {figures['peak_kb'][path]:>6,} KB{budget}"
                )
            print(
                f"{players}p {size:>6,} hands  print   first byte "
                f"{figures['first_byte']['print/']:.1f} ms, whole page "
                f"{figures['print']['ms']:.1f} ms; summary {figures['summary']['ms']:.1f} ms "
                f"({figures['summary']['queries']} queries), picture "
                f"{figures['picture']['ms']:.1f} ms"
            )
        first, last = results[f"{players}p_{sizes[0]}"], results[f"{players}p_{sizes[-1]}"]
        ratios = ", ".join(
            f"{name} {last['peak_kb'][name] / max(first['peak_kb'][name], 1):.2f}"
            for name in ("export.csv", "backup.json", "export.xlsx")
        )
        print(f"{players}p peak memory ratio {sizes[-1]:,} / {sizes[0]:,} hands: {ratios}")


if __name__ == "__main__":
    main()
