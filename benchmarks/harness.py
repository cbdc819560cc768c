"""What the load and crash scripts share: the real server, and a phone that plays hands.

The server is started with `manage.py serve`, the command `make run` uses (gunicorn), on
127.0.0.1 only. Traffic never leaves the loopback interface.
"""

import http.cookiejar
import os
import random
import re
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid
from decimal import Decimal
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from scoresheet import scoring  # noqa: E402

NAMES = ["Ana", "Ben", "Chloé", "Dan", "Élise"]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """The app under gunicorn on a loopback port; SQLite in a temporary file unless the
    environment has DATABASE_URL."""

    def __init__(self, workers: int = 3):
        self.port = free_port()
        self.workers = workers
        self.tmp = tempfile.TemporaryDirectory(prefix="tarot-bench-")
        self.env = {
            **os.environ,
            "SECRET_KEY": "benchmark-" + uuid.uuid4().hex,
            "ALLOWED_HOSTS": "127.0.0.1,localhost",
            "DEBUG": "0",
        }
        if not os.environ.get("DATABASE_URL"):
            self.env["SQLITE_PATH"] = str(Path(self.tmp.name) / "db.sqlite3")
        self.process = None

    @property
    def database(self) -> str:
        return "PostgreSQL" if os.environ.get("DATABASE_URL") else "SQLite"

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def manage(self, *args):
        subprocess.run(
            [sys.executable, "manage.py", *args],
            cwd=ROOT,
            env=self.env,
            check=True,
            stdout=subprocess.DEVNULL,
        )

    def start(self):
        if self.process is None:
            self.manage("migrate", "--no-input", "-v0")
            self.manage("collectstatic", "--no-input", "-v0")
        self.process = subprocess.Popen(
            [
                sys.executable,
                "manage.py",
                "serve",
                "--host=127.0.0.1",
                f"--port={self.port}",
                f"--workers={self.workers}",
            ],
            cwd=ROOT,
            env=self.env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,  # its own process group: kill -9 reaches every worker
        )
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                urllib.request.urlopen(self.base + "/", timeout=2).read()
                return self
            except OSError:
                time.sleep(0.1)
        self.stop()
        raise RuntimeError("the server did not start")

    def kill(self):
        """kill -9 the master and every worker, as a power cut would."""
        os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait()

    def stop(self):
        if self.process and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.kill()

    def close(self):
        self.stop()
        self.tmp.cleanup()

    def django(self):
        """Django set up in this process on the server's database, to check what it stored."""
        os.environ.update({k: v for k, v in self.env.items() if k != "DEBUG"})
        os.environ["DJANGO_SETTINGS_MODULE"] = "scoresheet.settings"
        import django

        django.setup()


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


class Phone:
    """One browser: its own cookies, plain form posts as a phone without JavaScript sends."""

    def __init__(self, base: str, seed: int):
        self.base = base
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(self.jar), NoRedirect
        )
        self.random = random.Random(seed)
        self.latencies: list[float] = []

    def csrf(self) -> str:
        return next(c.value for c in self.jar if c.name == "csrftoken")

    def request(self, path: str, data: dict | None = None, timeout: float = 30):
        """(status, headers, body); a redirect is an answer, not an error."""
        body = None
        if data is not None:
            body = urllib.parse.urlencode({**data, "csrfmiddlewaretoken": self.csrf()}).encode()
        started = time.perf_counter()
        try:
            response = self.opener.open(self.base + path, body, timeout=timeout)
            result = response.status, response.headers, response.read()
        except urllib.error.HTTPError as error:
            result = error.code, error.headers, error.read()
        self.latencies.append(time.perf_counter() - started)
        return result

    def new_sheet(self, players: int) -> str:
        """Create a session through the form; its full-access token."""
        self.request("/new/")
        fields = {"players": players, "first_dealer": 0, "name": "Bench"}
        fields |= {f"player_{seat}": NAMES[seat] for seat in range(players)}
        status, headers, _ = self.request("/new/", fields)
        assert status == 302, status
        return re.search(r"/s/([^/]+)/", headers["Location"]).group(1)

    def open_sheet(self, token: str):
        self.request(f"/s/{token}/")

    def random_hand(self, players: int) -> dict:
        """A valid hand, as the form's fields."""
        r = self.random
        bouts = r.randint(0, 3)
        low, high = 4 * bouts, 91 - 4 * (3 - bouts)
        step = Decimal("0.5") if players in (3, 5) else Decimal(1)
        points = low + step * r.randint(0, int((high - low) / step))
        hand = {
            "taker": r.randrange(players),
            "contract": r.choice(list(scoring.Contract)).value,
            "bouts": bouts,
            "points": str(points),
        }
        if players == 5:
            partner = r.randrange(players)
            hand["partner"] = "alone" if partner == hand["taker"] else partner
        if r.random() < 0.3:
            hand["petit_au_bout"] = r.choice(["attack", "defence"])
        if r.random() < 0.2:
            hand[f"poignee_{r.randrange(players)}"] = "simple"
        return hand

    def play(self, token: str, hand: dict) -> tuple[str, bool]:
        """Save a hand; (its key, acknowledged), acknowledged when the server said saved."""
        key = str(uuid.uuid4())
        status, _, _ = self.request(f"/s/{token}/hands/new/", {"key": key, **hand})
        return key, status == 302


def percentiles(values: list[float]) -> dict:
    ordered = sorted(values)
    if not ordered:
        return {}

    def at(fraction):
        return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))] * 1000

    return {"p50_ms": at(0.5), "p90_ms": at(0.9), "p99_ms": at(0.99), "max_ms": ordered[-1] * 1000}


def missing_hands(acknowledged: list[str]) -> int:
    """How many acknowledged hands (by form key) the database does not hold."""
    from scoresheet.models import Hand

    keys = [uuid.UUID(key) for key in acknowledged]
    stored = 0
    for start in range(0, len(keys), 500):
        stored += Hand.objects.filter(key__in=keys[start : start + 500]).count()
    return len(keys) - stored


def sheet_adds_up(phone: Phone, token: str) -> bool:
    """The sheet as the server exports it: each total is the sum of its column of rows."""
    import csv
    import io

    status, _, body = phone.request(f"/s/{token}/export.csv")
    rows = list(csv.reader(io.StringIO(body.decode("utf-8-sig"))))
    header, hands, total = rows[0], rows[1:-1], rows[-1]
    first = header.index("Chelem") + 1
    columns = [sum(int(row[i]) for row in hands) for i in range(first, len(header))]
    balanced = all(sum(int(c) for c in row[first:]) == 0 for row in hands)
    return status == 200 and balanced and [int(c) for c in total[first:]] == columns


# The report every benchmark ends with (`make bench`): each figure beside its target and the
# physical floor of one commit on this machine, and an exit status that says whether all were met.


def commit_floor(runs: int = 200) -> float:
    """The physical floor of one write on this machine and database, in seconds: the median
    of ``runs`` transactions that each insert a row and update it, committed (WAL and
    ``synchronous=FULL`` on SQLite, as the app's connection has them). No save can cost less.
    Needs Django set up on the database measured (``Server.django``, or the script's own)."""
    import statistics

    from django.db import connection, transaction

    table = connection.ops.quote_name("bench_commit_floor")
    with connection.cursor() as cursor:
        cursor.execute(f"DROP TABLE IF EXISTS {table}")
        cursor.execute(f"CREATE TABLE {table} (id integer PRIMARY KEY, n integer NOT NULL)")
    times = []
    try:
        for run in range(runs):
            started = time.perf_counter()
            with transaction.atomic(), connection.cursor() as cursor:
                cursor.execute(f"INSERT INTO {table} (id, n) VALUES (%s, 0)", [run])
                cursor.execute(f"UPDATE {table} SET n = n + 1 WHERE id = %s", [run])
            times.append(time.perf_counter() - started)
    finally:
        with connection.cursor() as cursor:
            cursor.execute(f"DROP TABLE {table}")
    return statistics.median(times)


class Report:
    """Figures against their targets, printed as one table: name, measured, target, and for a
    time how many times the floor of one commit (``commit_floor``, printed above) it costs.
    ``exit`` ends the script with 1 when a target is missed.

        report = Report("over HTTP, SQLite", floor=commit_floor())
        report.time("correct hand 3 at 10,000 hands", 0.042, 0.1)
        report.ratio("correct hand 3, 10,000 / 20 hands", 1.8, 3)
        report.exit()
    """

    def __init__(self, title: str, floor: float | None = None):
        self.title = title
        self.floor = floor
        # (name, measured text, target text, floor text, met)
        self.lines: list[tuple[str, str, str, str, bool]] = []

    def add(self, name: str, measured: str, target: str, met: bool, floor: str = "") -> bool:
        self.lines.append((name, measured, target, floor, met))
        return met

    def time(self, name: str, seconds: float, target: float) -> bool:
        """A time in seconds, met when at most ``target``; beside it, how many commits' floor."""
        floor = f"{seconds / self.floor:,.0f}×" if self.floor else ""
        return self.add(
            name, _duration(seconds), f"≤ {_duration(target)}", seconds <= target, floor
        )

    def ratio(self, name: str, ratio: float, target: float) -> bool:
        """A ratio between two sizes measured in one run, met when at most ``target``."""
        return self.add(name, f"{ratio:.2f}×", f"≤ {target:g}×", ratio <= target)

    def size(self, name: str, found: float, target: float, unit: str = "KB") -> bool:
        """An amount (bytes in ``unit``s, megabytes…), met when at most ``target``."""
        return self.add(name, f"{found:,.1f} {unit}", f"≤ {target:,.1f} {unit}", found <= target)

    @property
    def missed(self) -> list[str]:
        return [
            f"{name}: {measured}, target {target}"
            for name, measured, target, _f, met in self.lines
            if not met
        ]

    def print(self) -> None:
        width = max([len(line[0]) for line in self.lines] + [20])
        print(f"\n{self.title}")
        if self.floor:
            print(f"floor: one commit (INSERT + UPDATE) {self.floor * 1000:.2f} ms; {_load()}")
        else:
            print(_load())
        print(f"{'figure':<{width}}  {'measured':>12}  {'target':>12}  {'× floor':>9}")
        for name, measured, target, floor, met in self.lines:
            mark = "" if met else "  MISSED"
            print(f"{name:<{width}}  {measured:>12}  {target:>12}  {floor:>9}{mark}")
        print(f"{len(self.missed)} of {len(self.lines)} target(s) missed")

    def exit(self) -> None:
        """Print the table; exit 1 when a target was missed, else 0."""
        self.print()
        raise SystemExit(1 if self.missed else 0)


def _duration(seconds: float) -> str:
    return f"{seconds:.2f} s" if seconds >= 1 else f"{seconds * 1000:.1f} ms"


def _load() -> str:
    one, five, fifteen = os.getloadavg()
    return f"load average {one:.2f} {five:.2f} {fifteen:.2f} ({os.cpu_count()} cores, shared)"
