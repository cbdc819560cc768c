"""The first request after a restart, against the ones after it (`make bench`).

Restarts the server several times on a database holding a 40-hand session, in two ways:

- cold: gunicorn as `manage.py serve` started it before the warm-up (no preload): each worker
  loads Django lazily on its first request;
- warm: `manage.py serve` as it is (scoresheet/gunicorn_conf.py: the app loaded and warmed in the
  master before the fork, each worker warmed before its first request).

After each start it asks for the sheet page as soon as the port accepts connections (a phone
right after a restart: the answer includes the workers' own start), then 45 more times from three
phones at once, and reads from gunicorn's access log how long each worker took to answer its
first request and its later ones (the app's own time, without queueing). Prints the medians and
the ratio first / later, a Markdown table and one JSON line; exits 1 when the warm server's
first requests cost more than twice its later ones. Loopback only; bounded.

    python benchmarks/first_request.py                          # SQLite in a temporary file
    scripts/with-postgres python benchmarks/first_request.py    # a throwaway PostgreSQL
"""

import argparse
import http.client
import json
import os
import re
import signal
import socket
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

from harness import ROOT, Server
from over_http import session_backup

WORKERS = 3
MAX_RATIO = 2.0
# pid, microseconds, request line, status: gunicorn's access log, one line per request.
LOG_FORMAT = '%(p)s %(D)s "%(r)s" %(s)s'
LINE = re.compile(r'^<(\d+)> (\d+) "GET (\S+) HTTP/1.1" (\d+)$')


def commands(port: int) -> dict:
    gunicorn = str(Path(sys.executable).parent / "gunicorn")
    bind = [f"--bind=127.0.0.1:{port}", f"--workers={WORKERS}"]
    return {
        # What `manage.py serve` ran before the warm-up (and no control socket, as now).
        "cold": [
            gunicorn,
            "scoresheet.wsgi",
            *bind,
            "--access-logfile=-",
            "--timeout=30",
            "--graceful-timeout=5",
            "--no-control-socket",
        ],
        "warm": [
            sys.executable,
            "manage.py",
            "serve",
            "--host=127.0.0.1",
            f"--port={port}",
            f"--workers={WORKERS}",
        ],
    }


def get(port: int, path: str) -> tuple[int, float]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    started = time.perf_counter()
    try:
        connection.request("GET", path, headers={"Host": "127.0.0.1", "Accept-Language": "en"})
        response = connection.getresponse()
        response.read()
    finally:
        connection.close()
    return response.status, time.perf_counter() - started


def accepting(port: int) -> bool:
    try:
        socket.create_connection(("127.0.0.1", port), timeout=1).close()
        return True
    except OSError:
        return False


def restart(server: Server, command: list[str], path: str, log: Path) -> dict:
    """One start of the server: when its port opened, its first answer, each worker's first
    and later requests (from the access log)."""
    env = {**server.env, "GUNICORN_CMD_ARGS": f"--access-logformat='{LOG_FORMAT}'"}
    with open(log, "w") as output:
        process = subprocess.Popen(
            command,
            cwd=ROOT,
            env=env,
            stdout=output,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    try:
        started = time.perf_counter()
        while not accepting(server.port):
            if process.poll() is not None or time.perf_counter() - started > 60:
                raise RuntimeError("the server did not start:\n" + log.read_text())
            time.sleep(0.005)
        opened = time.perf_counter() - started
        status, first = get(server.port, path)
        assert status == 200, status

        def phone():
            for _ in range(15):
                assert get(server.port, path)[0] == 200

        phones = [threading.Thread(target=phone) for _ in range(3)]
        for thread in phones:
            thread.start()
        for thread in phones:
            thread.join()
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        process.wait(timeout=30)
    workers: dict[str, list[float]] = {}
    for line in log.read_text(errors="replace").splitlines():
        match = LINE.match(line)
        if match and match[3] == path:
            workers.setdefault(match[1], []).append(int(match[2]) / 1000)
    return {
        "opened_ms": opened * 1000,
        "first_answer_ms": first * 1000,
        "worker_first_ms": [times[0] for times in workers.values()],
        "worker_later_ms": [t for times in workers.values() for t in times[1:]],
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--restarts", type=int, default=5)
    args = parser.parse_args()

    server = Server(workers=WORKERS)
    try:
        server.manage("migrate", "--no-input", "-v0")
        server.manage("collectstatic", "--no-input", "-v0")
        server.django()
        from scoresheet.files import session_backup as backup

        sheet = backup.load(session_backup(40, seed=40))
        path = sheet.get_absolute_url()
        from django.db import connections

        connections.close_all()
        results = {}
        for mode, command in commands(server.port).items():
            runs = [
                restart(server, command, path, Path(server.tmp.name) / f"{mode}.log")
                for _ in range(args.restarts)
            ]
            first = [t for run in runs for t in run["worker_first_ms"]]
            later = [t for run in runs for t in run["worker_later_ms"]]
            results[mode] = {
                "port_open_ms": statistics.median(run["opened_ms"] for run in runs),
                "first_answer_ms": statistics.median(run["first_answer_ms"] for run in runs),
                "worker_first_ms": statistics.median(first),
                "worker_first_max_ms": max(first),
                "worker_later_ms": statistics.median(later),
                "workers_measured": len(first),
            }
            results[mode]["ratio"] = (
                results[mode]["worker_first_ms"] / results[mode]["worker_later_ms"]
            )
    finally:
        server.close()

    print(
        f"\nFirst request after a restart: the sheet page of a 40-hand session, {WORKERS} "
        f"workers, {server.database}, {args.restarts} restarts each (medians)\n"
    )
    print(
        "| server | port open after start | first answer after the port opened | "
        "each worker's first request (max) | its later requests | first / later |"
    )
    print("|---|---|---|---|---|---|")
    names = {"cold": "cold: gunicorn, no preload (before)", "warm": "warm: manage.py serve"}
    for mode, r in results.items():
        print(
            f"| {names[mode]} | {r['port_open_ms']:,.0f} ms | {r['first_answer_ms']:,.1f} ms | "
            f"{r['worker_first_ms']:,.1f} ms ({r['worker_first_max_ms']:,.1f} ms) | "
            f"{r['worker_later_ms']:.1f} ms | {r['ratio']:.2f} |"
        )
    flagged = results["warm"]["ratio"] > MAX_RATIO
    if flagged:
        print(f"\nFLAGGED: a warm worker's first request costs over {MAX_RATIO}× a later one")
    print(json.dumps({"database": server.database, **results}))
    raise SystemExit(1 if flagged else 0)


if __name__ == "__main__":
    main()
