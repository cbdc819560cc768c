"""The performance budget over HTTP (`make bench`): the real server, three phones saving.

Builds a fresh database (a temporary SQLite file, or DATABASE_URL's when it is set): for each
size, 10 and 10,000 hands, 30 sessions of 5 players (passed deals, every contract, petit au
bout, poignées, chelems), one restored by the app's backup import and 29 copies of it. Then
starts `manage.py serve` (gunicorn, as `make run` does) with 3 workers on a loopback port; one
browser opens the 30 sessions of a size, so that its home page lists them, and while three
other browsers keep saving hands on sessions of their own (htmx posts, each with its form's
key and the CSRF cookie) it times each request N times: the sheet page, saving a hand (htmx),
the home page, the chart, the statistics page, the CSV export (first byte and whole file).
Prints the median and p90, the bytes, the ratio of the medians at 10,000 and 10 hands (flagged
over 1.5), any response over 2 MB (flagged), a Markdown table for docs/performance.md and
one JSON line; last, in this process, the CSV export's peak memory at 10,000 hands
against holding its hands. Exits 1 when something is flagged. Loopback only; the server is
stopped at the end whatever happens.

    python benchmarks/over_http.py                          # SQLite in a temporary file
    scripts/with-postgres python benchmarks/over_http.py    # a throwaway PostgreSQL
"""

import argparse
import gzip
import http.client
import http.cookies
import json
import random
import re
import statistics
import threading
import time
import tracemalloc
import urllib.parse
from dataclasses import dataclass

from harness import NAMES, Report, Server, commit_floor

from scoresheet import scoring

LISTED = 30  # sessions on the home page: views.RECENT_SHEETS, the most it lists
WRITERS = 3
MAX_RATIO = 1.5
MAX_BYTES = 2 * 1024 * 1024
TIMEOUT = 30  # seconds: gunicorn's --timeout in `manage.py serve`
# Card points the attack needs by its bouts (docs/rules.md §2.1): the draws straddle them.
TARGETS = {0: 56, 1: 51, 2: 41, 3: 36}
ENDPOINTS = {
    "sheet": "sheet page",
    "save": "save a hand (htmx)",
    "home": f"home page ({LISTED} sessions listed)",
    "chart": "chart (htmx)",
    "statistics": "statistics page",
    "csv_first_byte": "CSV export, first byte",
    "csv": "CSV export, whole file",
}
# The whole CSV holds every hand: 1,000 times the rows at 10,000 hands as at 10, so its time
# grows with them by nature. What the server spends before answering is its first byte (the
# rows then stream from one query, in chunks, at a constant cost per hand and constant memory);
# the whole file's ratio is printed, and its cost per hand compared instead.
LINEAR = {"csv"}


@dataclass
class Response:
    status: int
    headers: http.client.HTTPMessage
    body: bytes  # decompressed
    wire: int  # bytes of the body as sent (gzip when the server compressed it)
    first_byte: float  # seconds from sending the request to the body's first byte
    seconds: float  # ... to its last byte


class Browser:
    """One phone's browser: its cookies, gzip, English; a new connection per request, as
    gunicorn's sync workers close each one."""

    def __init__(self, port: int, timeout: float = 60):
        self.port = port
        self.timeout = timeout
        self.cookies: dict[str, str] = {}

    def csrf(self) -> str:
        return self.cookies["csrftoken"]

    def request(
        self, method: str, path: str, *, fields=None, htmx=False, body=None, content_type=None
    ) -> Response:
        headers = {
            "Host": f"127.0.0.1:{self.port}",
            "Accept-Encoding": "gzip",
            "Accept-Language": "en",
        }
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        if htmx:
            headers["HX-Request"] = "true"
        if fields is not None:
            body = urllib.parse.urlencode(fields).encode()
            content_type = "application/x-www-form-urlencoded"
        if content_type is not None:
            headers["Content-Type"] = content_type
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=self.timeout)
        started = time.perf_counter()
        try:
            connection.request(method, path, body=body, headers=headers)
            answer = connection.getresponse()
            first = answer.read(1)
            first_byte = time.perf_counter()
            raw = first + answer.read()
            done = time.perf_counter()
        except (OSError, http.client.HTTPException):
            # No answer: gunicorn killed the worker past its timeout (30 s), say.
            failed = time.perf_counter() - started
            return Response(0, http.client.HTTPMessage(), b"", 0, failed, failed)
        finally:
            connection.close()
        for header in answer.headers.get_all("Set-Cookie") or []:
            for name, morsel in http.cookies.SimpleCookie(header).items():
                if morsel.value and morsel["max-age"] != "0":
                    self.cookies[name] = morsel.value
                else:
                    self.cookies.pop(name, None)
        compressed = answer.headers.get("Content-Encoding") == "gzip"
        return Response(
            status=answer.status,
            headers=answer.headers,
            body=gzip.decompress(raw) if compressed else raw,
            wire=len(raw),
            first_byte=first_byte - started,
            seconds=done - started,
        )

    def get(self, path: str, htmx=False) -> Response:
        return self.request("GET", path, htmx=htmx)

    def post(self, path: str, fields: dict, htmx=False) -> Response:
        fields = {**fields, "csrfmiddlewaretoken": self.csrf()}
        return self.request("POST", path, fields=fields, htmx=htmx)

    def form_key(self, token: str) -> str:
        """Open the hand form as the sheet's New hand button does; the key it carries."""
        form = self.get(f"/s/{token}/hands/new/", htmx=True)
        assert form.status == 200, form.status
        return re.search(rb'name="key" value="([^"]+)"', form.body).group(1).decode()

    def save(self, token: str, hand: dict) -> Response:
        """Save a hand with the key of a form opened just before (not timed here)."""
        key = self.form_key(token)
        return self.post(f"/s/{token}/hands/new/", {"key": key, **form_fields(hand)}, htmx=True)


# The sessions: 5 players, hands as a table plays them.


def random_hand(rng: random.Random, players: int = 5) -> dict | None:
    """A hand in the backup format: every contract, announcements now and then; None when
    the draw is one the rules refuse (the caller draws again)."""
    if rng.random() < 0.06:
        return {"passed": True}
    bouts = rng.choice([0, 1, 1, 2, 2, 2, 3])
    needed = TARGETS[bouts]
    points = min(91, max(0, needed + rng.randint(-20, 20) + rng.choice([0, 0.5])))
    taker = rng.randrange(players)
    partner = rng.randrange(players)
    chelem = None
    if rng.random() < 0.01:
        chelem, points, bouts = "announced_made", 91, 3
    elif rng.random() < 0.01:
        chelem = "announced_failed"
    hand = {
        "taker": taker,
        "contract": rng.choice(["prise", "prise", "garde", "garde", "garde_sans", "garde_contre"]),
        "bouts": bouts,
        "points": int(points) if points == int(points) else points,
        "partner": None if partner == taker else partner,
        "petit_au_bout": rng.choice([None] * 8 + ["attack", "defence"]),
        "poignees": (
            {str(rng.randrange(players)): rng.choice(["simple"] * 6 + ["double", "triple"])}
            if rng.random() < 0.15
            else {}
        ),
        "chelem": chelem,
        "defence_chelem": False,
    }
    checked = scoring.Hand(
        seats=players, **{**hand, "poignees": {int(s): k for s, k in hand["poignees"].items()}}
    )
    return None if scoring.validate(checked) else hand


def session_backup(size: int, seed: int) -> bytes:
    """A tarot-scoresheet/1 backup of ``size`` hands, one hand per line as the app writes it."""
    rng = random.Random(seed)
    hands = []
    while len(hands) < size:
        hand = random_hand(rng)
        if hand is not None:
            hands.append(hand)
    head = {
        "format": "tarot-scoresheet/1",
        "name": f"Bench {size}",
        "created": "2026-11-27T20:41:00+01:00",
        "players": NAMES[:5],
        "first_dealer": 0,
        "rules": {},
    }
    lines = ",\n".join(json.dumps(hand, ensure_ascii=False) for hand in hands)
    return (
        json.dumps(head, ensure_ascii=False)[:-1] + ', "hands": [\n' + lines + "\n]}\n"
    ).encode()


def form_fields(hand: dict) -> dict:
    """A backup-format hand as the hand form posts it."""
    if hand.get("passed"):
        return {"passed": "1"}
    fields = {
        "taker": hand["taker"],
        "contract": hand["contract"],
        "bouts": hand["bouts"],
        "points": hand["points"],
        "partner": "alone" if hand["partner"] is None else hand["partner"],
        "petit_au_bout": hand["petit_au_bout"] or "",
        "chelem": hand["chelem"] or "",
    }
    for seat, kind in hand["poignees"].items():
        fields[f"poignee_{seat}"] = kind
    return fields


def build_sessions(size: int, count: int) -> list[str]:
    """``count`` sessions of ``size`` hands in the server's database, before it starts: one
    restored from a backup by the app's own import (``backup.load``, what `manage.py
    import_session` does), then copied row for row. Their tokens."""
    from scoresheet.files import session_backup as backup

    sheet = backup.load(session_backup(size, seed=size))
    return [sheet.token, *(copy_session(sheet) for _ in range(count - 1))]


def copy_session(sheet) -> str:
    """A copy of a session: the sheet's row and every row that points to it (seats, hands,
    and whatever else the app stores about a sheet), each column as it is, with new secrets
    and keys. One INSERT … SELECT per table: copying 10,000 hands takes a fraction of a
    second, importing them again a second or more. Its token."""
    from django.db import connection, transaction

    sheet_model = type(sheet)
    copy = sheet_model.objects.get(pk=sheet.pk)
    copy.pk = None
    for field in sheet_model._meta.concrete_fields:
        if field.unique and not field.primary_key:
            setattr(copy, field.attname, field.get_default())
    quote = connection.ops.quote_name
    with transaction.atomic():
        copy.save(force_insert=True)
        for relation in sheet_model._meta.related_objects:
            if not relation.one_to_many:
                continue
            model, link = relation.related_model, relation.field
            columns, values = [], []
            for field in model._meta.concrete_fields:
                if field.primary_key:
                    continue
                columns.append(quote(field.column))
                if field is link:
                    values.append("%s")
                elif field.unique:
                    values.append(new_uuid(field))
                else:
                    values.append(quote(field.column))
            with connection.cursor() as cursor:
                cursor.execute(
                    f"INSERT INTO {quote(model._meta.db_table)} ({', '.join(columns)}) "
                    f"SELECT {', '.join(values)} FROM {quote(model._meta.db_table)} "
                    f"WHERE {quote(link.column)} = %s ORDER BY {quote(model._meta.pk.column)}",
                    [copy.pk, sheet.pk],
                )
    return copy.token


def new_uuid(field) -> str:
    """SQL for a fresh random value of a unique UUID column (the hands' form keys)."""
    from django.db import connection, models

    if not isinstance(field, models.UUIDField):
        raise NotImplementedError(f"copy_session: a new value for {field}")
    if connection.vendor == "postgresql":
        return "gen_random_uuid()"
    return "lower(hex(randomblob(16)))"  # SQLite: Django keeps a UUID as 32 hex digits


def open_sessions(browser: Browser, tokens: list[str]) -> None:
    """Open each session's link, oldest first, as the players did: the browser's home page
    then lists them all (its list lives in its session cookie)."""
    from importlib import import_module

    from django.conf import settings

    for token in reversed(tokens):
        assert browser.get(f"/s/{token}/").status == 200
    # Read from the cookie, not from the home page: today that page may not answer in time.
    cookie = browser.cookies[settings.SESSION_COOKIE_NAME]
    kept = str(import_module(settings.SESSION_ENGINE).SessionStore(session_key=cookie).load())
    listed = sum(token in kept for token in tokens)
    assert listed == len(tokens), f"the browser's session keeps {listed} of {len(tokens)}"


# Measuring


class Writers:
    """Three phones, each saving hands on its own session until stopped (bounded anyway)."""

    def __init__(self, port: int, tokens: list[str], pause: float, limit: int = 20_000):
        self.pause = pause
        self.limit = limit
        self.stop = threading.Event()
        self.saved = 0
        self.failed = 0
        self.lock = threading.Lock()
        self.threads = [
            threading.Thread(target=self.play, args=(Browser(port), token, seed), daemon=True)
            for seed, token in enumerate(tokens)
        ]

    def play(self, browser: Browser, token: str, seed: int):
        rng = random.Random(seed)
        for _ in range(self.limit):
            if self.stop.is_set():
                return
            hand = None
            while hand is None:
                hand = random_hand(rng)
            try:
                ok = browser.save(token, hand).status == 200
            except (OSError, AssertionError, http.client.HTTPException):
                ok = False
            with self.lock:
                if ok:
                    self.saved += 1
                else:
                    self.failed += 1
            self.stop.wait(self.pause)

    def __enter__(self):
        for thread in self.threads:
            thread.start()
        return self

    def __exit__(self, *exc):
        self.stop.set()
        for thread in self.threads:
            thread.join(timeout=90)


def summary(samples: list[Response], first_byte=False) -> dict:
    times = sorted((s.first_byte if first_byte else s.seconds) * 1000 for s in samples)
    last = samples[-1]
    return {
        "runs": len(times),
        "median_ms": statistics.median(times),
        "p90_ms": times[min(len(times) - 1, round(0.9 * (len(times) - 1)))],
        "bytes": max(len(s.body) for s in samples),
        "wire_bytes": max(s.wire for s in samples),
        "statuses": sorted({s.status for s in samples}),
        "ok": all(s.status == 200 for s in samples),
        "content_type": last.headers.get("Content-Type", ""),
    }


def measure_size(browser: Browser, token: str, repeat: int, budget: float, warm: int) -> dict:
    """Each request ``repeat`` times, or fewer once ``budget`` seconds are spent on it (a slow
    page at 10,000 hands must not hold the run for minutes), after ``warm`` untimed runs: each
    worker compiles its templates on its first requests. A run slower than the budget, warm or
    not, is the one measure taken; a request that fails is not sent again."""
    rng = random.Random(1)

    def save():
        hand = None
        while hand is None or hand.get("passed"):
            hand = random_hand(rng)
        return browser.save(token, hand)

    calls = {
        "sheet": lambda: browser.get(f"/s/{token}/"),
        "save": save,
        "home": lambda: browser.get("/"),
        "chart": lambda: browser.get(f"/s/{token}/chart/", htmx=True),
        "statistics": lambda: browser.get(f"/s/{token}/stats/"),
        "csv": lambda: browser.get(f"/s/{token}/export.csv"),
    }
    figures = {}
    for name, call in calls.items():
        samples = []
        for _ in range(warm):
            answer = call()
            if answer.status != 200 or answer.seconds > budget:
                samples = [answer]
                break
        started = time.monotonic()
        while not samples or (
            len(samples) < repeat
            and time.monotonic() - started < budget
            and samples[-1].status == 200
        ):
            samples.append(call())
        figures[name] = summary(samples)
        if name == "csv":
            figures["csv_first_byte"] = summary(samples, first_byte=True)
    return figures


# A change and the files after the game, at both sizes (issue 34): each write at most 3 times
# its cost at the small size and 0.1 s; a change of rules 0.5 s; the XLSX 0.3 s, the printed
# sheet 1 s to its last byte; the summary at most 1.5 times its cost at the small size.
CHANGES = {
    "correct": "correct hand 3 (htmx)",
    "delete": "delete hand 1 (htmx)",
    "middle": "delete the middle hand (htmx)",
    "undo": "undo (htmx)",
    "rules": "change of rules (confirmed)",
    "xlsx": "XLSX export, whole file",
    "print": "printed sheet, last byte",
    "summary": "summary page",
}
WRITE_RATIO, WRITE_SECONDS = 3, 0.1
# Printed for information, with no target: deleting the middle hand moves half the others, the
# most a deletion moves (the hands on its shorter side: scoresheet/sheets/writes.py).
INFORMATION = {"middle"}
LIMITS = {"rules": 0.5, "xlsx": 0.3, "print": 1.0}
# Two hands a correction swaps between, so that each one changes the scores.
SWAPPED = [
    {"taker": 0, "contract": "garde", "bouts": 2, "points": 49, "partner": 2},
    {"taker": 1, "contract": "prise", "bouts": 1, "points": 40, "partner": 3},
]


def hidden(body: bytes, name: str) -> str:
    return re.search(rb'name="%s" value="([^"]+)"' % name.encode(), body).group(1).decode()


def measure_changes(browser: Browser, token: str, size: int, repeat: int, budget: float) -> dict:
    """Each change and file of ``CHANGES`` timed on session ``token`` of ``size`` hands, which
    it keeps at that size: a hand deleted or undone is saved again (not timed). The keys and
    versions each form carries are read from the form first (not timed), as a phone opens
    it."""
    rng = random.Random(2)
    base = f"/s/{token}/"

    def refill():
        hand = None
        while hand is None or hand.get("passed"):
            hand = random_hand(rng)
        assert browser.save(token, hand).status == 200

    def correct(turn=[0]):  # noqa: B006 (the turn, kept between calls)
        form = browser.get(base + "hands/3/edit/", htmx=True).body
        key, version = hidden(form, "key"), hidden(form, "version")
        turn[0] += 1
        fields = {"key": key, "version": version, **SWAPPED[turn[0] % 2]}
        return lambda: browser.post(base + "hands/3/edit/", fields, htmx=True)

    def delete(number=1):
        path = base + f"hands/{number}/delete/"
        key = hidden(browser.get(path, htmx=True).body, "key")
        return lambda: browser.post(path, {"key": key}, htmx=True)

    def undo():
        refill()
        page = browser.get(base).body
        form = re.search(rb'action="[^"]*/undo/".*?name="key" value="([^"]+)"', page, re.S)
        key = form.group(1).decode()
        return lambda: browser.post(base + "undo/", {"key": key}, htmx=True)

    def rules(turn=[0]):  # noqa: B006
        revision = browser.get(base + "live/").headers["X-Sheet-Revision"]
        turn[0] += 1
        fields = {"rounding": "10" if turn[0] % 2 else "1", "confirm": "1", "revision": revision}
        return lambda: browser.post(base + "rules/", fields)

    prepared = {
        "correct": correct,
        "delete": delete,
        "middle": lambda: delete(size // 2),
        "undo": undo,
        "rules": rules,
        "xlsx": lambda: lambda: browser.get(base + "export.xlsx"),
        "print": lambda: lambda: browser.get(base + "print/"),
        "summary": lambda: lambda: browser.get(base + "summary/"),
    }
    after = {"delete": refill, "middle": refill}
    figures = {}
    for name, prepare in prepared.items():
        samples = []
        started = time.monotonic()
        # One untimed run first: each worker compiles what it has not yet.
        for timed in [False] + [True] * repeat:
            call = prepare()
            answer = call()
            if name in after:
                after[name]()
            if timed:
                samples.append(answer)
            if answer.status not in (200, 302) or (
                samples and time.monotonic() - started > budget
            ):
                samples = samples or [answer]
                break
        for sample in samples:
            # A redirect (the plain form of a change of rules) is its answer.
            sample.status = 200 if sample.status == 302 else sample.status
        figures[name] = summary(samples)
    return figures


def csv_memory(token: str) -> dict:
    """Peak Python memory streaming the CSV export of a session, against holding its hands."""
    # Imported once Django is set up (server.django()): it imports the models.
    from scoresheet.files import session_csv
    from scoresheet.models import Sheet

    sheet = Sheet.objects.get(token=token)

    def peak(work) -> int:
        tracemalloc.start()
        try:
            work()
            return tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()

    streaming = peak(lambda: sum(len(line) for line in session_csv.csv_lines(sheet)))
    holding = peak(lambda: list(sheet.hands.all()))
    return {"hands": sheet.hands.count(), "streaming_bytes": streaming, "holding_bytes": holding}


# Reporting


def timing(found: dict) -> str:
    """Median / p90, or how the request failed."""
    if not found["ok"] and found["median_ms"] > TIMEOUT * 1000:
        # gunicorn kills a worker past its timeout: a 500 of its own, or no answer at all.
        return f"over {TIMEOUT} s: worker killed"
    text = f"{found['median_ms']:.1f} / {found['p90_ms']:.1f} ms"
    return text if found["ok"] else f"{text}, status {found['statuses']}"


def report(results: dict) -> list[str]:
    """Print the figures; the problems found (ratio over 1.5, response over 2 MB, errors)."""
    problems = []
    sizes = [int(size) for size in results["sizes"]]
    small, big = results["sizes"].values()
    print(
        f"\ndatabase: {results['database']}, {results['workers']} workers, {WRITERS} phones "
        f"saving meanwhile ({results['writers_saved']} hands saved, "
        f"{results['writers_failed']} failed)"
    )
    print(
        f"{'request':<36} {'hands':>6} {'runs':>4} {'median / p90':>24} {'bytes':>10} {'gzip':>9}"
    )
    for name, label in ENDPOINTS.items():
        for size, figures in zip(sizes, (small, big), strict=True):
            found = figures[name]
            print(
                f"{label:<36} {size:>6,} {found['runs']:>4} {timing(found):>24} "
                f"{found['bytes']:>10,} {found['wire_bytes']:>9,}"
            )
            if not found["ok"]:
                problems.append(f"{label} at {size} hands: {timing(found)}")
            if found["bytes"] > MAX_BYTES:
                problems.append(f"{label} at {size} hands: {found['bytes']:,} bytes > 2 MB")
    print()
    between = f"{sizes[1]:,} / {sizes[0]:,} hands"
    results["ratios"] = {}
    for name, label in ENDPOINTS.items():
        # A request that got no answer counts for the time it waited: a lower bound.
        ratio = big[name]["median_ms"] / small[name]["median_ms"]
        bound = ">" if not big[name]["ok"] else ""
        results["ratios"][name] = ratio
        if name in LINEAR:
            # Per hand: the whole file's time over its hands, at each size.
            per_hand = [
                f[name]["median_ms"] / size for f, size in zip((small, big), sizes, strict=True)
            ]
            results["ratios"][name + "_per_hand"] = per_hand[1] / per_hand[0]
            print(
                f"{label:<36} {between}: {ratio:.2f} (a file of every hand); per hand "
                f"{per_hand[0]:.3f} → {per_hand[1]:.3f} ms"
            )
            continue
        flag = f"  <-- over {MAX_RATIO}" if ratio > MAX_RATIO else ""
        print(f"{label:<36} {between}: {bound}{ratio:.2f}{flag}")
        if ratio > MAX_RATIO:
            problems.append(f"{label}: {between} = {bound}{ratio:.2f} > {MAX_RATIO}")
    memory = results["csv_memory"]
    share = memory["streaming_bytes"] / memory["holding_bytes"]
    print(
        f"\nCSV export at {memory['hands']:,} hands, peak memory: "
        f"{memory['streaming_bytes'] / 1024:,.0f} KB streamed, against "
        f"{memory['holding_bytes'] / 1024:,.0f} KB to hold its hands ({share:.2f}×)"
    )
    # One chunk of hands at a time, not all of them at once.
    if share > 1 / 3:
        problems.append(f"CSV export streaming peak is {share:.2f} of holding the hands (> 1/3)")

    print(
        f"\n| request (3 workers, 3 phones saving) | {sizes[0]:,} hands: median / p90 | "
        f"{sizes[1]:,} hands: median / p90 | {sizes[1]:,} / {sizes[0]:,} | "
        f"response at {sizes[1]:,} (gzip) |"
    )
    print("|---|---|---|---|---|")
    for name, label in ENDPOINTS.items():
        ratio = results["ratios"][name]
        bound = ">" if not big[name]["ok"] else ""
        mark = " ⚠" if ratio > MAX_RATIO else ""
        if name in LINEAR:
            mark = f" (per hand {results['ratios'][name + '_per_hand']:.2f})"
        found = big[name]
        size = ""
        if name != "csv_first_byte" and found["ok"]:
            size = f"{found['bytes'] / 1024:,.1f} KB ({found['wire_bytes'] / 1024:,.1f} KB)"
        print(
            f"| {label} | {timing(small[name])} | {timing(found)} | {bound}{ratio:.2f}{mark} "
            f"| {size} |"
        )
    return problems


def changes_report(results: dict) -> list[str]:
    """Print the changes and files after the game against their targets (``harness.Report``,
    beside the floor of one commit); the targets missed."""
    sizes = [int(size) for size in results["sizes"]]
    small, big = (results["changes"][str(size)] for size in sizes)
    report = Report(
        f"changes and files, {results['database']}, {results['workers']} workers, "
        f"{WRITERS} phones saving: {sizes[0]:,} against {sizes[1]:,} hands",
        floor=results["floor_s"],
    )
    for name, label in CHANGES.items():
        a, b = small[name], big[name]
        print(f"{label:<36} {sizes[0]:>6,}: {timing(a):>22}   {sizes[1]:>6,}: {timing(b):>22}")
        if not (a["ok"] and b["ok"]):
            report.add(label, f"status {a['statuses']} {b['statuses']}", "200", False)
            continue
        ratio = b["median_ms"] / a["median_ms"]
        at = f"{label} at {sizes[1]:,}"
        if name in INFORMATION:
            continue
        if name in ("correct", "delete", "undo"):
            report.time(at, b["median_ms"] / 1000, WRITE_SECONDS)
            report.ratio(f"{label}, {sizes[1]:,} / {sizes[0]:,}", ratio, WRITE_RATIO)
        elif name == "summary":
            report.ratio(f"{label}, {sizes[1]:,} / {sizes[0]:,}", ratio, MAX_RATIO)
        else:
            report.time(at, b["median_ms"] / 1000, LIMITS[name])
    for name, label in ENDPOINTS.items():
        if name not in LINEAR:
            report.ratio(
                f"{label}, {sizes[1]:,} / {sizes[0]:,}", results["ratios"][name], MAX_RATIO
            )
    report.print()
    return report.missed


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=30, help="timed runs per request")
    parser.add_argument(
        "--budget", type=float, default=8, help="seconds per request and size, 1 run at least"
    )
    parser.add_argument(
        "--pause", type=float, default=1, help="seconds each saving phone waits between hands"
    )
    parser.add_argument(
        "--sizes", default="20,10000", help="the two session sizes compared, in hands"
    )
    args = parser.parse_args()
    sizes = [int(size) for size in args.sizes.split(",")]

    started = time.monotonic()
    server = Server(workers=3)
    server.env["WEB_CONCURRENCY"] = "3"
    # Every phone here posts from 127.0.0.1: the limit per address (120 a minute) would
    # answer the timed writes 429 once the machine is fast enough. This measures their cost.
    server.env["RATE_LIMIT"] = "100000/m"
    results = {"database": server.database, "workers": 3, "sizes": {}, "changes": {}}
    saved = failed = 0
    try:
        server.manage("migrate", "--no-input", "-v0")
        server.django()
        from django.db import connections

        tick = time.monotonic()
        sessions = {size: build_sessions(size, LISTED) for size in sizes}
        # The floor: one committed INSERT + UPDATE on this database, on this machine now.
        results["floor_s"] = commit_floor()
        connections.close_all()
        print(f"{LISTED} sessions of each size built in {time.monotonic() - tick:.1f} s")
        server.start()
        print(f"server: manage.py serve, 3 workers, {server.base}", flush=True)
        for size, tokens in sessions.items():
            tick = time.monotonic()
            home = Browser(server.port)
            open_sessions(home, tokens)
            measured, own = tokens[0], tokens[1 : 1 + WRITERS]
            with Writers(server.port, own, args.pause) as writers:
                # Each worker warms up on the small sessions (its first requests compile the
                # templates); at the large size, one untimed run of each request.
                warm = 6 if size == sizes[0] else 1
                results["sizes"][str(size)] = measure_size(
                    home, measured, args.repeat, args.budget, warm
                )
                results["changes"][str(size)] = measure_changes(
                    home, tokens[-1], size, args.repeat, args.budget
                )
            saved += writers.saved
            failed += writers.failed
            print(f"{size:,} hands: measured in {time.monotonic() - tick:.1f} s", flush=True)
    finally:
        server.stop()
    try:
        results["csv_memory"] = csv_memory(sessions[sizes[-1]][0])
    finally:
        server.close()
    results["writers_saved"] = saved
    results["writers_failed"] = failed
    problems = report(results)
    problems += changes_report(results)
    if failed:
        problems.append(f"{failed} saves by the phones in the background failed")
    results["problems"] = problems
    results["seconds"] = round(time.monotonic() - started, 1)
    print(f"\n{len(problems)} problem(s)" + "".join(f"\n  - {p}" for p in problems))
    print(f"took {results['seconds']} s")
    print(json.dumps(results))
    raise SystemExit(1 if problems else 0)


if __name__ == "__main__":
    main()
