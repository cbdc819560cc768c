"""How many tables one app server (3 workers), and two, hold on PostgreSQL with p95 ≤ 200 ms.

A table is a session of 5 players in mid-evening (40 hands) and six phones: the five players'
on the full link and a spectator's on the read-only link. Each phone asks the sheet's live poll
every 2 s, as the page does (`…/live/?revision=N`: 204 while nothing changed, the new rows once
something did); one phone per table saves a hand every 30 s, as the app does it (the hand form
opened by htmx, then the hand posted with its key). The phones keep their connection to the
proxy open, as browsers do.

The app servers are `manage.py serve` (gunicorn) behind Caddy, configured as deploy/Caddyfile's
reverse_proxy (least connections, health checks; plain HTTP on loopback). Three setups: one app
server of 3 workers, two of 3, and one of 6 (two servers on one machine add workers, not cores:
the third says which counts). For each, the number of tables grows (10, 20, 40, … then halving
the gap) and each count is measured for --seconds after a ramp; a count holds when p95 ≤ 200 ms
and under 1 % of requests fail. The setups run side by side and their steps are taken in turn,
so that a load on the machine that comes and goes falls on all of them alike. Prints each step
(with each kind of request's p50 and p95), the capacity of each setup, a Markdown table and one
JSON line. The load generator, Caddy, PostgreSQL and the app servers share this machine's cores
(the machine's busy CPU and the load generator's share are printed).

    scripts/with-postgres python benchmarks/capacity.py
    scripts/with-postgres python benchmarks/capacity.py --quick     # as `make bench` runs it
"""

import argparse
import asyncio
import gzip
import json
import os
import random
import re
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.parse
from pathlib import Path

from harness import ROOT, Server, free_port
from over_http import copy_session, form_fields, random_hand, session_backup

P95_BUDGET_MS = 200
MAX_ERRORS = 0.01
POLL = 2.0  # seconds between a phone's live polls (app.js)
SAVE = 30.0  # seconds between a table's hands
PHONES = 6  # per table: five players and a spectator


class Connection:
    """One phone's keep-alive HTTP/1.1 connection to the proxy."""

    def __init__(self, port: int):
        self.port = port
        self.reader = self.writer = None
        self.cookies: dict[str, str] = {}

    async def request(self, method: str, path: str, fields=None, htmx=True, timeout=10.0):
        """(status, body); reconnects once if the proxy closed the idle connection."""
        for attempt in (1, 2):
            if self.writer is None:
                self.reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port)
            try:
                # asyncio.timeout, not wait_for: Python 3.11's wait_for can swallow the
                # cancellation that ends a step, and the phone would go on polling.
                async with asyncio.timeout(timeout):
                    return await self.exchange(method, path, fields, htmx)
            except (ConnectionError, asyncio.IncompleteReadError):
                self.close()
                if attempt == 2:
                    raise
            except BaseException:
                self.close()
                raise
        raise AssertionError("unreachable")

    async def exchange(self, method, path, fields, htmx):
        headers = [
            f"{method} {path} HTTP/1.1",
            f"Host: 127.0.0.1:{self.port}",
            "Accept-Encoding: gzip",
            "Accept-Language: en",
        ]
        if htmx:
            headers.append("HX-Request: true")
        if self.cookies:
            headers.append("Cookie: " + "; ".join(f"{k}={v}" for k, v in self.cookies.items()))
        body = b""
        if fields is not None:
            body = urllib.parse.urlencode(fields).encode()
            headers += [
                "Content-Type: application/x-www-form-urlencoded",
                f"X-CSRFToken: {self.cookies.get('csrftoken', '')}",
                f"Origin: http://127.0.0.1:{self.port}",
            ]
        headers.append(f"Content-Length: {len(body)}")
        self.writer.write(("\r\n".join(headers) + "\r\n\r\n").encode() + body)
        await self.writer.drain()
        status_line = await self.reader.readline()
        if not status_line:
            raise ConnectionError("closed")
        status = int(status_line.split()[1])
        length, chunked, encoding, close = None, False, "", False
        while (line := await self.reader.readline()) not in (b"\r\n", b""):
            name, _, value = line.decode("latin-1").partition(":")
            name, value = name.strip().lower(), value.strip()
            if name == "content-length":
                length = int(value)
            elif name == "transfer-encoding" and "chunked" in value:
                chunked = True
            elif name == "content-encoding":
                encoding = value
            elif name == "connection" and value.lower() == "close":
                close = True
            elif name == "set-cookie":
                cookie, _, _ = value.partition(";")
                key, _, val = cookie.partition("=")
                self.cookies[key.strip()] = val.strip()
        if chunked:
            content = b""
            while (size := int((await self.reader.readline()).split(b";")[0], 16)) > 0:
                content += await self.reader.readexactly(size)
                await self.reader.readline()
            await self.reader.readline()
        elif length is not None:
            content = await self.reader.readexactly(length)
        elif status in (204, 304):
            content = b""
        else:
            content = await self.reader.read()
            close = True
        if close:
            self.close()
        if encoding == "gzip" and content:
            content = gzip.decompress(content)
        return status, content

    def close(self):
        if self.writer is not None:
            self.writer.close()
        self.reader = self.writer = None


class Load:
    """Every request's latency and outcome during the measured window."""

    def __init__(self):
        self.stopping = False
        self.measuring = False
        self.latencies: list[float] = []
        self.kinds: dict[str, list[float]] = {}
        self.errors = 0
        self.saves = 0

    def record(self, kind: str, seconds: float, ok: bool):
        if self.measuring:
            self.latencies.append(seconds)
            self.kinds.setdefault(kind, []).append(seconds)
            self.errors += not ok


async def timed(load: Load, kind: str, call, ok_statuses):
    started = time.perf_counter()
    try:
        status, body = await call()
    except (TimeoutError, OSError, ConnectionError, ValueError):
        load.record(kind, time.perf_counter() - started, False)
        return None, b""
    if kind == "poll" and status == 200:
        kind = "poll (changed)"
    load.record(kind, time.perf_counter() - started, status in ok_statuses)
    return status, body


REVISION = re.compile(rb'data-revision="(\d+)"')


async def phone(port: int, load: Load, base: str, revision: int, saves: bool, seed: int):
    """One phone at a table: polls every 2 s; the table's saving phone also saves every 30 s."""
    rng = random.Random(seed)
    connection = Connection(port)
    try:
        await asyncio.sleep(rng.uniform(0, POLL))
        next_save = time.monotonic() + rng.uniform(0, SAVE)
        while not load.stopping:
            started = time.monotonic()
            status, body = await timed(
                load,
                "poll",
                lambda shown=revision: connection.request("GET", f"{base}live/?revision={shown}"),
                {200, 204},
            )
            if status == 200 and (found := REVISION.search(body)):
                revision = int(found[1])
            if saves and time.monotonic() >= next_save:
                next_save += SAVE
                # The answer brings the sheet at its new revision, as htmx swaps it in.
                saved = REVISION.search(await save(connection, load, base, rng))
                revision = int(saved[1]) if saved else revision
            await asyncio.sleep(max(0.0, started + POLL - time.monotonic()))
    finally:
        connection.close()


async def save(connection: Connection, load: Load, base: str, rng: random.Random) -> bytes:
    """Open the hand form and save a hand with its key, as the app does; the answer."""
    status, form = await timed(
        load, "hand form", lambda: connection.request("GET", f"{base}hands/new/"), {200}
    )
    key = re.search(rb'name="key" value="([^"]+)"', form or b"")
    if status != 200 or key is None:
        return b""
    hand = None
    while hand is None or hand.get("passed"):
        hand = random_hand(rng)
    fields = {"key": key[1].decode(), **form_fields(hand)}
    fields["csrfmiddlewaretoken"] = connection.cookies.get("csrftoken", "")
    status, answer = await timed(
        load, "save", lambda: connection.request("POST", f"{base}hands/new/", fields), {200}
    )
    load.saves += status == 200
    return answer or b""


async def step(port: int, tables: list, revisions: dict, ramp: float, seconds: float) -> dict:
    """The tables' phones for ``ramp`` + ``seconds``; figures of the last ``seconds``. Each
    phone shows its sheet at its ``revisions`` (the page is open): its polls answer 204 until a
    hand is saved at its table."""
    load = Load()
    tasks = []
    for number, (token, view_token) in enumerate(tables):
        for seat in range(PHONES):
            base = f"/v/{view_token}/" if seat == PHONES - 1 else f"/s/{token}/"
            revision = revisions[token]
            tasks.append(
                asyncio.create_task(
                    phone(port, load, base, revision, seat == 0, seed=number * 10 + seat)
                )
            )
    await asyncio.sleep(ramp)
    cpu = cpu_times()
    own = resource.getrusage(resource.RUSAGE_SELF)
    load.measuring = True
    started = time.monotonic()
    await asyncio.sleep(seconds)
    load.measuring = False
    elapsed = time.monotonic() - started
    busy = cpu_busy(cpu, cpu_times())
    mine = resource.getrusage(resource.RUSAGE_SELF)
    load.stopping = True
    for task in tasks:
        task.cancel()
    await asyncio.wait(tasks, timeout=30)
    times = sorted(t * 1000 for t in load.latencies)
    count = len(times)

    def at(q):
        return times[min(count - 1, int(q * count))] if times else float("inf")

    kinds = {}
    for kind, values in sorted(load.kinds.items()):
        ordered = sorted(v * 1000 for v in values)
        kinds[kind] = {
            "count": len(ordered),
            "p50_ms": ordered[len(ordered) // 2],
            "p95_ms": ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))],
        }
    return {
        "kinds": kinds,
        "tables": len(tables),
        "requests": count,
        "per_second": count / elapsed,
        "p50_ms": at(0.5),
        "p95_ms": at(0.95),
        "p99_ms": at(0.99),
        "errors": load.errors,
        "saves": load.saves,
        "cpu_busy": busy,
        "generator_cpu": (mine.ru_utime + mine.ru_stime - own.ru_utime - own.ru_stime) / elapsed,
    }


def holds(result: dict) -> bool:
    return result["p95_ms"] <= P95_BUDGET_MS and result["errors"] <= MAX_ERRORS * max(
        1, result["requests"]
    )


def cpu_times() -> list[int]:
    with open("/proc/stat") as stat:
        return [int(v) for v in stat.readline().split()[1:]]


def cpu_busy(before: list[int], after: list[int]) -> float:
    """The machine's share of CPU time spent busy (all cores), between two readings."""
    delta = [b - a for a, b in zip(before, after, strict=True)]
    idle = delta[3] + delta[4]
    return 1 - idle / max(1, sum(delta))


class Setup:
    """``count`` app servers (3 workers each) behind Caddy, as in deploy/Caddyfile."""

    def __init__(self, server: Server, count: int, workers: int):
        self.server = server
        self.ports = [free_port() for _ in range(count)]
        self.proxy = free_port()
        self.folder = Path(tempfile.mkdtemp(prefix="tarot-capacity-"))
        self.processes = []
        self.workers = workers

    def start(self):
        for port in self.ports:
            self.launch(
                [
                    sys.executable,
                    "manage.py",
                    "serve",
                    "--host=127.0.0.1",
                    f"--port={port}",
                    f"--workers={self.workers}",
                ],
                f"app-{port}",
            )
        upstreams = " ".join(f"127.0.0.1:{port}" for port in self.ports)
        (self.folder / "Caddyfile").write_text(
            "{\n\tadmin off\n\tauto_https off\n}\n"
            f"http://127.0.0.1:{self.proxy} {{\n"
            f"\treverse_proxy {upstreams} {{\n"
            "\t\tlb_policy least_conn\n\t\tlb_try_duration 5s\n\t\tlb_try_interval 250ms\n"
            "\t\tfail_duration 30s\n\t\thealth_uri /healthz\n\t\thealth_interval 5s\n"
            "\t\thealth_timeout 3s\n\t\thealth_headers {\n\t\t\tHost 127.0.0.1\n\t\t}\n"
            "\t}\n}\n"
        )
        self.launch(
            ["caddy", "run", "--adapter", "caddyfile", "--config", str(self.folder / "Caddyfile")],
            "caddy",
        )
        deadline = time.monotonic() + 60
        while not self.ready():
            if time.monotonic() > deadline:
                raise RuntimeError("the servers did not start")
            time.sleep(0.2)
        return self

    def ready(self) -> bool:
        import urllib.request

        try:
            for port in [*self.ports, self.proxy]:
                request = urllib.request.Request(
                    f"http://127.0.0.1:{port}/healthz", headers={"Host": "127.0.0.1"}
                )
                urllib.request.urlopen(request, timeout=2).read()
            return True
        except OSError:
            return False

    def launch(self, command: list[str], name: str):
        with open(self.folder / f"{name}.log", "w") as log:
            self.processes.append(
                subprocess.Popen(
                    command,
                    cwd=ROOT,
                    env=self.server.env,
                    stdout=log,
                    stderr=subprocess.STDOUT,
                    start_new_session=True,
                )
            )

    def stop(self):
        for process in self.processes:
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGTERM)
        for process in self.processes:
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()
        shutil.rmtree(self.folder, ignore_errors=True)


class Search:
    """The most tables one setup holds: counts tried in order until one fails, then the gap
    halved ``refine`` times. ``next()`` is the count to measure, None once found."""

    def __init__(self, counts: list[int], refine: int):
        self.counts = list(counts)
        self.refine = refine
        self.good, self.bad = 0, None
        self.steps: list[dict] = []

    def next(self) -> int | None:
        if self.bad is None:
            return self.counts.pop(0) if self.counts else None
        if self.refine <= 0 or self.bad - self.good <= max(2, self.good // 20):
            return None
        return (self.good + self.bad) // 2

    def found(self, tables: int, held: bool) -> None:
        if self.bad is not None:
            self.refine -= 1
        if held:
            self.good = tables
        else:
            self.bad = tables
            self.counts = []


def measure(name: str, setup: Setup, sessions, tables: int, ramp, seconds) -> dict:
    from scoresheet.models import Sheet

    tokens = [token for token, _view in sessions[:tables]]
    revisions = dict(Sheet.objects.filter(token__in=tokens).values_list("token", "revision"))
    result = asyncio.run(step(setup.proxy, sessions[:tables], revisions, ramp, seconds))
    print(
        f"  {name}, {tables:>3} tables: {result['per_second']:5.1f} req/s, p50 "
        f"{result['p50_ms']:6.1f} ms, p95 {result['p95_ms']:7.1f} ms, p99 "
        f"{result['p99_ms']:7.1f} ms, {result['errors']} errors, {result['saves']} saves, "
        f"CPU {result['cpu_busy']:.0%} busy (load generator {result['generator_cpu']:.0%} of a "
        f"core) -> {'holds' if holds(result) else 'too slow'}",
        flush=True,
    )
    print(
        "        "
        + "; ".join(
            f"{kind} ×{k['count']}: p50 {k['p50_ms']:.0f}, p95 {k['p95_ms']:.0f} ms"
            for kind, k in result.pop("kinds").items()
        ),
        flush=True,
    )
    time.sleep(2)
    return result


def search(setups: dict, sessions, counts, ramp, seconds, refine) -> dict:
    """Each setup's search, their steps taken in turn: a load on the machine that comes and goes
    (other work, the database warming up) falls on all of them alike."""
    searches = {name: Search(counts, refine) for name in setups}
    while True:
        pending = [(name, found.next()) for name, found in searches.items()]
        pending = [(name, tables) for name, tables in pending if tables is not None]
        if not pending:
            return searches
        for name, tables in pending:
            if tables > len(sessions):
                searches[name].found(tables, False)
                continue
            result = measure(name, setups[name], sessions, tables, ramp, seconds)
            searches[name].steps.append(result)
            searches[name].found(tables, holds(result))


def build(server: Server, count: int) -> list[tuple[str, str]]:
    """The database, and ``count`` sessions of 40 hands: (token, read-only token) each."""
    server.manage("migrate", "--no-input", "-v0")
    server.manage("collectstatic", "--no-input", "-v0")
    server.django()
    from django.db import connections

    from scoresheet.files import session_backup as backup
    from scoresheet.models import Sheet

    first = backup.load(session_backup(40, seed=7))
    tokens = [first.token] + [copy_session(first) for _ in range(count - 1)]
    views = dict(Sheet.objects.filter(token__in=tokens).values_list("token", "view_token"))
    connections.close_all()
    return [(token, views[token]) for token in tokens]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--setups",
        default="1x3,2x3,1x6",
        help="app servers × gunicorn workers each, behind the proxy: 1x3 is one server of 3",
    )
    parser.add_argument("--tables", default="10,20,40,80,120,160,240,320", help="counts to try")
    parser.add_argument("--seconds", type=float, default=40, help="measured per count")
    parser.add_argument("--ramp", type=float, default=6, help="seconds before measuring")
    parser.add_argument("--refine", type=int, default=3, help="halvings of the last gap")
    parser.add_argument("--quick", action="store_true", help="shorter steps, one halving")
    args = parser.parse_args()
    if args.quick:
        args.setups, args.tables = "1x3,2x3", "20,40,80,160,240"
        args.seconds, args.ramp, args.refine = 20, 4, 1
    if not os.environ.get("DATABASE_URL", "").startswith("postgres"):
        print(
            "capacity.py measures PostgreSQL: scripts/with-postgres python benchmarks/capacity.py"
        )
        raise SystemExit(2)
    counts = [int(n) for n in args.tables.split(",")]
    # Stopped from outside (a time limit, Ctrl-C): the servers and files are cleaned up anyway.
    signal.signal(signal.SIGTERM, lambda signum, frame: sys.exit(1))

    server = Server()
    server.env["ALLOWED_HOSTS"] = "127.0.0.1,localhost"
    server.env["DEBUG"] = "0"
    results = {}
    try:
        sessions = build(server, max(counts))
        cores = os.cpu_count()
        print(
            f"Capacity on PostgreSQL, {cores} cores shared by the load generator, Caddy, "
            f"PostgreSQL and the app servers; a table: {PHONES} "
            f"phones polling every {POLL:.0f} s, a hand saved every {SAVE:.0f} s; p95 ≤ "
            f"{P95_BUDGET_MS} ms. Load average before: {os.getloadavg()[0]:.2f}."
        )
        setups = {}
        for shape in args.setups.split(","):
            count, workers = (int(n) for n in shape.split("x"))
            name = f"{count} server{'s' if count > 1 else ''} × {workers} workers"
            setups[name] = Setup(server, count, workers)
        try:
            for setup in setups.values():
                setup.start()
            print(f"\n{', '.join(setups)}, behind Caddy, measured in turn:", flush=True)
            searches = search(setups, sessions, counts, args.ramp, args.seconds, args.refine)
        finally:
            for setup in setups.values():
                setup.stop()
        for name, found in searches.items():
            results[name] = {"tables": found.good, "steps": found.steps}
    finally:
        server.close()

    print(
        "\n| app servers × gunicorn workers | tables held (p95 ≤ 200 ms) | at that load: "
        "requests/s, p50, p95, p99 | CPU busy (load generator) |"
    )
    print("|---|---|---|---|")
    for name, found in results.items():
        best = next((s for s in found["steps"] if s["tables"] == found["tables"]), None)
        if best is None:
            print(f"| {name} | 0 | | |")
            continue
        print(
            f"| {name} | {found['tables']} | {best['per_second']:.0f}/s, "
            f"{best['p50_ms']:.0f} ms, {best['p95_ms']:.0f} ms, {best['p99_ms']:.0f} ms | "
            f"{best['cpu_busy']:.0%} ({best['generator_cpu']:.0%} of a core) |"
        )
    print(json.dumps({"cores": os.cpu_count(), "results": results}, default=float))


if __name__ == "__main__":
    main()
