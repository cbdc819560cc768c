"""The production setup of deploy/, proven on this machine: `scripts/deploy-check` runs this under
`scripts/with-postgres` (DATABASE_URL is a throwaway PostgreSQL 15).

Two app servers started as deploy/tarot@.service starts them, with deploy/tarot.env's settings,
behind Caddy configured by deploy/Caddyfile (its site block, on localhost with `tls internal`),
and Chromium trusting Caddy's root certificate through its own certificate store (an NSS
database in a throwaway HOME, never by ignoring certificate errors). Then, through
https://localhost:<port>:

1. the app is installable and its service worker controls the sheet;
2. two phones whose requests go to different app servers see each other's hands within 3 s;
3. one app server is killed (kill -9) while three phones save: every hand is stored once, in
   order, and the proxy stops sending anything to the dead server;
4. backup_db, taken during those saves, restores into an empty database with every hand the
   database held when it started, and rescore finds nothing to fix.

Prints what it checked, with figures; exits 1 if anything failed. Everything it starts is stopped
and its files deleted, whatever happens. Ports: free ones, or PORT_BASE to PORT_BASE+4.
"""

import hashlib
import hmac
import json
import os
import random
import re
import shutil
import signal
import socket
import ssl
import subprocess
import sys
import tempfile
import threading
import time
import traceback
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
ROUNDS = 6  # hands each of the three phones enters in the kill phase
KILL_AFTER = 2  # rounds before the kill (in the round after)
BACKUP_AFTER = 3  # rounds before the backup


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


# deploy/: the env file, the unit's command, the Caddyfile's site block


def env_file() -> dict:
    """deploy/tarot.env's variables."""
    values = {}
    for line in (DEPLOY / "tarot.env").read_text().splitlines():
        if line.strip() and not line.lstrip().startswith("#"):
            name, _, value = line.partition("=")
            values[name.strip()] = value.strip()
    return values


def unit_command(unit: str, instance: str = "") -> list[str]:
    """A unit's ExecStart, with this checkout in place of /srv/tarot/app and %i expanded."""
    text = (DEPLOY / unit).read_text()
    (line,) = re.findall(r"^ExecStart=(.+)$", text, re.M)
    line = line.replace("/srv/tarot/app/.venv/bin/python", PYTHON).replace("%i", instance)
    return line.replace("/srv/tarot/app", str(ROOT)).split()


def replaced(text: str, old: str, new: str) -> str:
    if text.count(old) != 1:
        raise Failed(f"deploy/Caddyfile: expected {old!r} once, found it {text.count(old)} times")
    return text.replace(old, new)


def caddyfile(folder: Path, ports: dict, app_ports: list[int]) -> str:
    """deploy/Caddyfile's site block on localhost with `tls internal`, twice: as it is (least
    connections), and with each phone kept on one app server by a cookie (lb_policy cookie);
    plus each answer's app server in a header (X-Upstream), to see where requests went."""
    text = (DEPLOY / "Caddyfile").read_text()
    start = text.index("\ntarot.example.org {")
    block = text[start + 1 : text.index("\n}", start) + 2]
    block = replaced(
        block, "127.0.0.1:8001 127.0.0.1:8002", " ".join(f"127.0.0.1:{p}" for p in app_ports)
    )
    block = replaced(block, "Host tarot.example.org", "Host localhost")
    block = replaced(
        block,
        "\t\tlb_policy least_conn\n",
        "\t\tlb_policy least_conn\n\t\theader_down X-Upstream "
        "{http.reverse_proxy.upstream.hostport}\n",
    )
    balanced = replaced(
        block, "tarot.example.org {", f"https://localhost:{ports['https']} {{\n\ttls internal"
    )
    pinned = replaced(
        block, "tarot.example.org {", f"https://localhost:{ports['pinned']} {{\n\ttls internal"
    )
    pinned = replaced(pinned, "lb_policy least_conn", "lb_policy cookie tarot_upstream")
    options = (
        "{\n\tadmin off\n\tdebug\n\tskip_install_trust\n"
        f"\thttp_port {ports['http']}\n\thttps_port {ports['https']}\n"
        f"\tstorage file_system {{\n\t\troot {folder}\n\t}}\n}}\n"
    )
    return options + "\n" + balanced + "\n" + pinned


def upstream_cookie(port: int) -> str:
    """The value of Caddy's lb cookie that sends a browser to 127.0.0.1:port (HMAC-SHA256 of
    the upstream's address, with no secret)."""
    return hmac.new(b"", f"127.0.0.1:{port}".encode(), hashlib.sha256).hexdigest()


# The processes


class Processes:
    """What the check starts, each in its own process group; all stopped by ``stop_all``."""

    def __init__(self, folder: Path):
        self.folder = folder
        self.running: dict[str, subprocess.Popen] = {}

    def start(self, name: str, command: list[str], env: dict) -> subprocess.Popen:
        with open(self.folder / f"{name}.log", "w") as log:
            process = subprocess.Popen(
                command,
                cwd=ROOT,
                env=env,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        self.running[name] = process
        return process

    def log(self, name: str) -> str:
        return (self.folder / f"{name}.log").read_text(errors="replace")

    def kill(self, name: str) -> None:
        """kill -9 the process and its children (gunicorn's workers), as a crash would."""
        process = self.running[name]
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()

    def stop_all(self) -> None:
        for process in self.running.values():
            if process.poll() is None:
                try:
                    os.killpg(process.pid, signal.SIGTERM)
                except ProcessLookupError:
                    continue
        for process in self.running.values():
            try:
                process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()


def manage(env: dict, *args: str) -> subprocess.CompletedProcess:
    result = subprocess.run(
        [PYTHON, "manage.py", *args], cwd=ROOT, env=env, capture_output=True, text=True
    )
    if result.returncode:
        raise Failed(f"manage.py {' '.join(args)}: {result.stderr.strip()}")
    return result


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


def get(url: str, context: ssl.SSLContext | None = None, host: str | None = None) -> int:
    request = urllib.request.Request(url, headers={"Host": host} if host else {})
    try:
        with urllib.request.urlopen(request, timeout=5, context=context) as response:
            return response.status
    except urllib.error.HTTPError as error:
        return error.code


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


def new_sheet(name: str):
    from scoresheet.sheets import writes

    return writes.create_sheet(name, NAMES, 0)


class Phone:
    """One phone (a browser context of its own) on a sheet, entering hands by taps."""

    def __init__(self, browser, playwright, base: str, sheet, cookies=()):
        from tests.e2e.sheet_page import SheetPage

        descriptor = dict(playwright.devices["Pixel 7"])
        descriptor.pop("default_browser_type", None)
        self.context = browser.new_context(**descriptor, base_url=base, locale="en-GB")
        self.context.set_default_timeout(20_000)
        if cookies:
            self.context.add_cookies(list(cookies))
        self.page = self.context.new_page()
        self.sheet = SheetPage(self.page)
        self.token = sheet.token
        self.url = sheet.get_absolute_url()
        self.entered = []
        self.upstreams: set[str] = set()
        self.failed_saves = 0
        self.page.on("response", self.answered)

    def answered(self, response) -> None:
        upstream = response.headers.get("x-upstream")
        if upstream:
            self.upstreams.add(upstream)
        if response.request.method == "POST" and response.status >= 500:
            self.failed_saves += 1

    def open(self) -> None:
        self.page.goto(self.url)
        controlled = self.page.evaluate(CONTROLLED)
        if not controlled:
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
        .order_by("number")
        .values_list("taker", "contract", "bouts", "points")
    )


def as_stored(hand) -> tuple:
    return (hand.taker, hand.contract, hand.bouts, hand.points)


def all_keys() -> set[str]:
    from scoresheet.models import Hand

    return {str(key) for key in Hand.objects.values_list("key", flat=True)}


# The check


def main() -> int:
    if not os.environ.get("DATABASE_URL", "").startswith("postgres"):
        print("deploy_check: run it as scripts/deploy-check (a throwaway PostgreSQL)")
        return 2
    report = Report()
    folder = Path(tempfile.mkdtemp(prefix="tarot-deploy-check-"))
    processes = Processes(folder)

    def interrupted(signum, frame):
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, interrupted)
    try:
        run(report, folder, processes)
    except (Failed, AssertionError, Exception) as error:
        report.check(False, f"{type(error).__name__}: {error}")
        traceback.print_exc()
    finally:
        processes.stop_all()
        if os.environ.get("KEEP"):
            print(f"deploy_check: KEEP is set, its files stay in {folder}")
        else:
            shutil.rmtree(folder, ignore_errors=True)
    seconds = time.monotonic() - report.started
    verdict = "FAILED" if report.failures else "passed"
    print(f"\ndeploy-check {verdict} in {seconds:.0f} s ({report.failures} failures)")
    return 1 if report.failures else 0


def run(report: Report, folder: Path, processes: Processes) -> None:
    from playwright.sync_api import sync_playwright

    app_ports = free_ports(5)
    ports = {"http": app_ports[2], "https": app_ports[3], "pinned": app_ports[4]}
    app_ports = app_ports[:2]

    report.step("Setting up: PostgreSQL, two app servers, Caddy")
    settings = env_file()
    env = {
        **os.environ,
        **settings,
        "SECRET_KEY": "deploy-check-" + uuid.uuid4().hex,
        "DATABASE_URL": os.environ["DATABASE_URL"],
        "ALLOWED_HOSTS": "localhost",
    }
    os.environ.update({k: env[k] for k in ("SECRET_KEY", "ALLOWED_HOSTS", "HTTPS")})
    import django

    django.setup()
    manage(env, "migrate", "--no-input", "-v0")
    manage(env, "collectstatic", "--no-input", "-v0")
    servers = {}
    for port in app_ports:
        name = f"tarot@{port}"
        processes.start(name, unit_command("tarot@.service", str(port)), env)
        servers[port] = name
    for port in app_ports:
        # As Caddy's health checks ask: the server itself, named as the site.
        healthy = lambda p=port: get(f"http://127.0.0.1:{p}/healthz", host="localhost") == 200  # noqa: E731
        try:
            wait_for(f"app server {port}", healthy)
        except Failed:
            print(processes.log(servers[port])[-3000:])
            raise
    report.check(
        True, f"deploy/tarot@.service's command, with deploy/tarot.env: app servers on {app_ports}"
    )

    caddy_dir = folder / "caddy"
    caddy_dir.mkdir()
    config = folder / "Caddyfile"
    config.write_text(caddyfile(caddy_dir, ports, app_ports))
    processes.start(
        "caddy", ["caddy", "run", "--adapter", "caddyfile", "--config", str(config)], env
    )
    root = caddy_dir / "pki" / "authorities" / "local" / "root.crt"
    wait_for("Caddy's root certificate", root.exists)
    trusted = ssl.create_default_context(cafile=str(root))
    base = f"https://localhost:{ports['https']}"
    pinned_base = f"https://localhost:{ports['pinned']}"
    wait_for("Caddy", lambda: get(f"{base}/healthz", trusted) == 200)
    report.check(
        True, f"Caddy (deploy/Caddyfile's site, tls internal) at {base} and {pinned_base}"
    )

    home = folder / "home"
    nssdb = home / ".pki" / "nssdb"
    nssdb.mkdir(parents=True)
    subprocess.run(["certutil", "-d", f"sql:{nssdb}", "-N", "--empty-password"], check=True)
    subprocess.run(
        [
            "certutil",
            "-d",
            f"sql:{nssdb}",
            "-A",
            "-t",
            "C,,",
            "-n",
            "Caddy Local Authority",
            "-i",
            str(root),
        ],
        check=True,
    )
    listed = subprocess.run(
        ["certutil", "-d", f"sql:{nssdb}", "-L"], capture_output=True, text=True
    ).stdout
    report.check(
        "Caddy Local Authority" in listed, "Caddy's root certificate in the browser's NSS store"
    )

    from scripts import chromium

    # Playwright's sync API marks an asyncio loop as running in this thread, which Django's ORM
    # takes for an async context; the check's ORM calls are synchronous (tests/e2e/conftest.py).
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    with sync_playwright() as playwright:
        installable(report, playwright, base, home)
        browser = chromium.launch(playwright, env={**os.environ, "HOME": str(home)})
        try:
            two_servers(report, browser, playwright, pinned_base, app_ports)
            kill_and_backup(
                report, browser, playwright, base, app_ports, processes, servers, env, folder
            )
        finally:
            browser.close()


def installable(report: Report, playwright, base: str, home: Path) -> None:
    """In a profile of its own on disk: Chromium installs no app from an incognito one, which
    every other context of the check is."""
    from scripts import chromium

    report.step("1. Installable, the service worker controlling the sheet")
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
        sheet = new_sheet("Installable")
        page.goto(sheet.get_absolute_url())
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


def two_servers(report: Report, browser, playwright, base: str, app_ports: list[int]) -> None:
    report.step("2. Two phones on different app servers see each other's hands")
    sheet = new_sheet("Two servers")
    host = base.removeprefix("https://")
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
            f"{[sorted(p.upstreams) for p in phones]} ({host})",
        )
        report.check(
            stored(sheet.token) == [as_stored(h) for p in phones for h in p.entered],
            "both hands stored, once each, in order",
        )
    finally:
        for phone in phones:
            phone.context.close()


def kill_and_backup(
    report, browser, playwright, base, app_ports, processes, servers, env, folder
) -> None:
    report.step("3. kill -9 of one app server while three phones save; 4. backup_db meanwhile")
    victim, survivor = app_ports
    phones = [Phone(browser, playwright, base, new_sheet(f"Table {n}")) for n in (1, 2, 3)]
    rng = random.Random(3)
    backup: dict = {}
    try:
        for phone in phones:
            phone.open()
        killed_at = None
        for round_ in range(ROUNDS):
            if round_ == BACKUP_AFTER:
                backup = start_backup(env, folder)
            for phone in phones:
                phone.enter(random_hand(rng))
                if round_ == KILL_AFTER and killed_at is None:
                    # Right after a Save: its hand is on its way, maybe to this server.
                    killed_at = time.time()
                    processes.kill(servers[victim])
                    print(
                        f"  ..    kill -9 of the app server on {victim}, just after a Save "
                        f"(round {round_ + 1} of {ROUNDS})",
                        flush=True,
                    )
        if backup:
            backup["thread"].join(timeout=120)
        for phone in phones:
            wait_for(
                "the phones' queues to empty",
                lambda p=phone: p.waiting() == 0,
                timeout=40,
                every=0.25,
            )
        lost = twice = 0
        for n, phone in enumerate(phones, 1):
            rows = stored(phone.token)
            entered = [as_stored(h) for h in phone.entered]
            lost += max(0, len(entered) - len(rows))
            twice += max(0, len(rows) - len(entered))
            report.check(
                rows == entered,
                f"table {n}: {counted(len(entered), 'hand')} entered, {len(rows)} stored, in "
                f"order ({counted(phone.failed_saves, 'save')} answered 5xx, then sent again from "
                "the phone's queue)",
            )
        report.check(
            lost == 0 and twice == 0, f"{counted(lost, 'hand')} lost, {twice} stored twice"
        )
        proxy_stopped(report, processes.log("caddy"), killed_at, victim, survivor)
        restored(report, backup, env, folder)
    finally:
        for phone in phones:
            phone.context.close()


def start_backup(env: dict, folder: Path) -> dict:
    """deploy/tarot-backup.service's command in a thread, the phones saving meanwhile; the hands
    stored just before it started and just after it ended."""
    target = folder / "backups"
    command = [
        arg.replace("/srv/tarot/backups", str(target))
        for arg in unit_command("tarot-backup.service")
    ]
    state = {"before": all_keys(), "command": command, "dir": target}

    def backup():
        started = time.monotonic()
        state["result"] = subprocess.run(
            command, cwd=ROOT, env=env, capture_output=True, text=True
        )
        state["seconds"] = time.monotonic() - started

    # The keys after are read by the main thread once the backup is done.
    state["thread"] = threading.Thread(target=backup)
    state["thread"].start()
    return state


def restored(report: Report, backup: dict, env: dict, folder: Path) -> None:
    from django.db import connection

    result = backup.get("result")
    report.check(
        result is not None and result.returncode == 0,
        f"backup_db during the saves: {result.stdout.strip() if result else 'did not run'} "
        f"({backup.get('seconds', 0):.1f} s)",
    )
    if not result or result.returncode:
        return
    after = all_keys()
    (copy,) = backup["dir"].iterdir()
    with connection.cursor() as cursor:
        cursor.execute("CREATE DATABASE tarot_restored")
    restored_env = {
        **env,
        "DATABASE_URL": env["DATABASE_URL"].rsplit("/", 1)[0] + "/tarot_restored",
    }
    manage(restored_env, "restore_db", str(copy))
    keys = json.loads(
        subprocess.run(
            [
                PYTHON,
                "-c",
                "import django, json; django.setup()\n"
                "from scoresheet.models import Hand\n"
                "print(json.dumps([str(k) for k in Hand.objects.values_list('key', flat=True)]))",
            ],
            cwd=ROOT,
            env=restored_env,
            capture_output=True,
            text=True,
            check=True,
        ).stdout
    )
    missing = backup["before"] - set(keys)
    report.check(
        not missing and set(keys) <= after,
        f"restored into an empty database: {len(keys)} hands; the {len(backup['before'])} "
        f"stored when it started are all there ({len(missing)} missing); "
        f"{len(after) - len(keys)} saved after it",
    )
    rescored = manage(restored_env, "rescore").stdout
    report.check(
        "0 had stored scores that differed" in rescored,
        "rescore on the restored copy: " + " ".join(rescored.split("\n")[0:1]),
    )


def proxy_stopped(report: Report, log: str, killed_at: float, victim: int, survivor: int) -> None:
    """From Caddy's debug log: the requests the dead server failed, when Caddy last chose it,
    when its health check saw it down, and where every request went after that."""
    chosen, failed, checks = [], 0, []
    for line in log.splitlines():
        if '"ts"' not in line:
            continue
        entry = json.loads(line)
        if entry["ts"] < killed_at:
            continue
        if entry.get("msg") == "selected upstream":
            chosen.append((entry["ts"], entry["dial"]))
        elif entry.get("msg") == "upstream roundtrip" and entry.get("error"):
            failed += "context canceled" not in entry["error"]
        elif entry.get("msg") == "HTTP request failed" and str(victim) in entry.get("host", ""):
            checks.append(entry["ts"])
    dead, alive = f"127.0.0.1:{victim}", f"127.0.0.1:{survivor}"
    to_dead = [ts for ts, dial in chosen if dial == dead]
    last = max(to_dead, default=killed_at)
    later = [dial for ts, dial in chosen if ts > last]
    seen = f"{checks[0] - killed_at:.1f} s" if checks else "never"
    report.check(
        len(later) >= 10 and set(later) == {alive} and last - killed_at < 10,
        f"after the kill: {counted(failed, 'request')} in flight failed at the dead server; Caddy "
        f"chose it {counted(len(to_dead), 'more time')} (the last {last - killed_at:.1f} s after "
        "the kill); its "
        f"health check found it down after {seen}; the {len(later)} requests since all went "
        f"to :{survivor}",
    )


if __name__ == "__main__":
    sys.exit(main())
