"""``manage.py serve`` (gunicorn, 3 workers, the app preloaded and warmed in the master before the
fork: scoresheet/gunicorn_conf.py, warm.py): the master keeps no database connection across the
fork, each worker opens its own, and phones saving at once on one session through different
workers all get their hands stored, on SQLite (WAL, one file) and on PostgreSQL."""

import contextlib
import http.cookiejar
import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid
from pathlib import Path

import pytest

from tests.processes import ROOT, django, manage

# Each test starts a server of 3 workers: under make test's processes (pytest-xdist), these
# tests run in one of them, one after the other.
pytestmark = pytest.mark.xdist_group("staticfiles")

WORKERS = 3
GARDE = {"contract": "garde", "bouts": "2", "points": "49"}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def static_root(tmp_path_factory) -> Path:
    """The static files these servers serve, collected once into a folder of this module's
    own: not the checkout's staticfiles/, where another process (`make run`, a script) may be
    collecting at the same moment, deleting and rewriting the files this one reads."""
    root = tmp_path_factory.mktemp("served_static")
    env = {key: value for key, value in os.environ.items() if key != "DATABASE_URL"}
    env |= {
        "DJANGO_SETTINGS_MODULE": "scoresheet.settings",
        "SECRET_KEY": "static-" + uuid.uuid4().hex,
        "SQLITE_PATH": str(root.parent / "unused.sqlite3"),
        "STATIC_ROOT": str(root),
    }
    collected = manage(env, "collectstatic", "--no-input", "-v0")
    assert collected.returncode == 0, collected.stderr
    return root


@pytest.fixture
def server(fresh_database, tmp_path, static_root):
    """``manage.py serve`` on a migrated database of its own; (its process, base URL, env)."""
    env = fresh_database() | {
        "ALLOWED_HOSTS": "127.0.0.1",
        # As behind Caddy on this machine (deploy/tarot.env, tarot@.service).
        "TRUSTED_PROXIES": "127.0.0.1",
        "DRAIN_FILE": str(tmp_path / "draining"),
        "STATIC_ROOT": str(static_root),
    }
    assert manage(env, "migrate", "--no-input").returncode == 0
    port = free_port()
    with open(tmp_path / "serve.log", "w") as log:
        process = subprocess.Popen(
            [sys.executable, "manage.py", "serve", "--host=127.0.0.1", f"--port={port}"],
            cwd=ROOT,
            env=env | {"WEB_CONCURRENCY": str(WORKERS)},
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while not warmed(tmp_path / "serve.log"):
            assert process.poll() is None, (tmp_path / "serve.log").read_text()
            assert time.monotonic() < deadline, "the workers did not start"
            time.sleep(0.1)
        yield process, base, env
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        process.wait(timeout=20)


def warmed(log: Path) -> int:
    """How many workers said they were warmed and ready."""
    return len(re.findall(r"Worker \d+ warmed", log.read_text(errors="replace"))) >= WORKERS


class Phone:
    """A browser without JavaScript: cookies, the CSRF token, plain form posts."""

    def __init__(self, base: str, agent: str = "Phone"):
        self.base = base
        self.jar = http.cookiejar.CookieJar()
        # A redirect is an answer (build_opener puts NoRedirect in place of the default).
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(self.jar), NoRedirect
        )
        self.opener.addheaders = [("User-Agent", agent)]

    def request(self, path: str, fields: dict | None = None) -> tuple[int, str]:
        body = None
        if fields is not None:
            csrf = next(c.value for c in self.jar if c.name == "csrftoken")
            body = urllib.parse.urlencode({**fields, "csrfmiddlewaretoken": csrf}).encode()
        try:
            with self.opener.open(self.base + path, body, timeout=30) as response:
                return response.status, response.headers.get("Location", "")
        except urllib.error.HTTPError as error:
            return error.code, error.headers.get("Location", "")


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


def pids_of_workers(master: int) -> list[int]:
    children = Path(f"/proc/{master}/task/{master}/children").read_text().split()
    return [int(pid) for pid in children]


def open_files(pid: int) -> list[str]:
    found = []
    for fd in Path(f"/proc/{pid}/fd").iterdir():
        with contextlib.suppress(OSError):  # closed meanwhile
            found.append(os.readlink(fd))
    return found


def test_the_master_holds_no_connection_and_each_worker_its_own(server):
    process, base, env = server
    workers = pids_of_workers(process.pid)
    assert len(workers) == WORKERS
    assert Phone(base).request("/healthz")[0] == 200
    if "SQLITE_PATH" in env:
        database = env["SQLITE_PATH"]
        assert not [f for f in open_files(process.pid) if f.startswith(database)]
        # Each worker warmed itself on the database (and SQLite closes after each request).
    else:
        # Each worker keeps its own connection (CONN_MAX_AGE); the master none: one per worker.
        connections = django(
            env,
            "import json\nfrom django.db import connection\n"
            "with connection.cursor() as cursor:\n"
            "    cursor.execute('SELECT COUNT(*) FROM pg_stat_activity WHERE datname = "
            "current_database() AND pid <> pg_backend_pid()')\n"
            "    print(json.dumps(cursor.fetchone()[0]))",
        )
        assert connections == WORKERS


def test_the_access_log_names_the_real_client_and_leaves_out_passing_health_checks(
    server, tmp_path
):
    """One line per request a person made, with the address Caddy appended to X-Forwarded-For
    (TRUSTED_PROXIES); Caddy's health checks that pass are not logged, one that fails is."""
    _process, base, env = server
    # This test's requests name themselves (the log's last field): under make test's processes,
    # a browser left polling by another test may reach a port this server was given again.
    agent = f"access-log-{uuid.uuid4()}"
    for _ in range(5):
        assert Phone(base, agent).request("/healthz")[0] == 200
    request = urllib.request.Request(
        base + "/",
        headers={"X-Forwarded-For": "198.51.100.1, 203.0.113.9", "User-Agent": agent},
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        assert response.status == 200
    Path(env["DRAIN_FILE"]).touch()
    assert Phone(base, agent).request("/healthz")[0] == 503
    assert Phone(base, agent).request("/")[0] == 200
    # gunicorn writes a request's line once it has answered: wait for the last one.
    deadline = time.monotonic() + 20
    while True:
        log = (tmp_path / "serve.log").read_text(errors="replace")
        requests = [line for line in log.splitlines() if line.endswith(f'"{agent}"')]
        if len(requests) >= 3 or time.monotonic() > deadline:
            break
        time.sleep(0.1)
    # Each worker writes its line once it has sent its answer: three workers may write them in
    # another order than the requests were made (the page's 40 KB take longer to send than a
    # health check), so the lines are compared whatever their order.
    logged = sorted(
        (line.split()[0], *re.search(r'"GET (/\S*) HTTP/1.1" (\d+) ', line).groups())
        for line in requests
    )
    assert logged == sorted(
        [("203.0.113.9", "/", "200"), ("127.0.0.1", "/healthz", "503"), ("127.0.0.1", "/", "200")]
    ), log
    # Why it answered 503, at INFO, in the same log (the journal).
    assert "INFO scoresheet.health: Health: draining" in log


def test_phones_saving_at_once_through_every_worker_all_get_their_hands(server):
    _process, base, env = server
    host = Phone(base)
    host.request("/new/")
    names = {f"player_{seat}": name for seat, name in enumerate(["Ana", "Ben", "Chloé", "Dan"])}
    status, location = host.request(
        "/new/", {"players": 4, "first_dealer": 0, "name": "Vendredi", **names}
    )
    assert status == 302
    sheet = re.search(r"/s/[^/]+/", location)[0]
    saved: list[int] = []

    def phone(seat: int):
        me = Phone(base)
        me.request(sheet)
        for _ in range(8):
            fields = {"key": str(uuid.uuid4()), "taker": seat, **GARDE}
            saved.append(me.request(f"{sheet}hands/new/", fields)[0])

    threads = [threading.Thread(target=phone, args=(seat,)) for seat in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert saved == [302] * 32
    hands = django(
        env,
        "import json\nfrom scoresheet.models import Sheet\n"
        "hands = Sheet.objects.get().numbered_hands().values_list('number', 'taker')\n"
        "print(json.dumps(list(hands)))",
    )
    assert [number for number, _taker in hands] == list(range(1, 33))
    assert sorted(taker for _number, taker in hands) == [0] * 8 + [1] * 8 + [2] * 8 + [3] * 8
    rescored = manage(env, "rescore")
    assert "1 sessions re-scored, 0 had stored scores that differed." in rescored.stdout


def printed(monkeypatch, *args) -> str:
    """What ``manage.py serve ARGS`` prints before it becomes gunicorn, on a machine whose LAN
    address is 192.168.1.10."""
    import io

    from django.core.management import call_command

    from scoresheet import lan

    monkeypatch.setattr(lan, "addresses", lambda: ["192.168.1.10"])
    monkeypatch.setattr(os, "execv", lambda *args: None)
    out = io.StringIO()
    call_command("serve", *args, stdout=out)
    return out.getvalue()


def test_on_every_interface_it_names_the_lan_address_for_the_phones(monkeypatch):
    out = printed(monkeypatch, "--host=0.0.0.0", "--port=8000")
    assert "http://localhost:8000/" in out
    assert "http://192.168.1.10:8000/" in out
    assert "scan this" in out


def test_on_one_address_it_names_that_one_only(monkeypatch):
    """An app server behind Caddy (deploy/tarot@.service): its log names no LAN address that would
    not answer, and shows no QR code."""
    out = printed(monkeypatch, "--host=127.0.0.1", "--port=8001")
    assert "http://127.0.0.1:8001/" in out
    assert "192.168.1.10" not in out
    assert "scan this" not in out


def test_the_master_freezes_what_it_warmed_before_the_workers_fork(monkeypatch):
    """gunicorn's master, once warmed, keeps what it loaded out of the collector's sight
    (gc.freeze): a worker's collections walk only what its requests made."""
    import gc

    from scoresheet import gunicorn_conf, warm

    done = {"seconds": 0, "templates": 0, "languages": 0, "requests": 0}
    monkeypatch.setattr(warm, "warm", lambda: done)
    gc.unfreeze()
    try:
        assert gc.get_freeze_count() == 0
        gunicorn_conf.on_starting(server=None)
        assert gc.get_freeze_count() > 1000
    finally:
        gc.unfreeze()
