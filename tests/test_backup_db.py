"""``manage.py backup_db``: a consistent copy while hands are being saved, named by date, the
latest N kept; and its copy restored by ``restore_db`` into an empty database.

Run on the suite's engine: SQLite by default, PostgreSQL under ``scripts/with-postgres``. The
commands run as on a server, in processes of their own, on databases of their own.
"""

import io
import json
import re
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from django.core.management import call_command
from django.db import connection

from tests.processes import ROOT, django, manage

EXTENSION = "sqlite3" if connection.vendor == "sqlite" else "dump"

# Saves hands until told to stop, alternating between a session and a club's session, and prints
# each hand's key once add_hand has returned (its transaction committed), in that order.
WRITER = """
import sys, uuid
from pathlib import Path
import django; django.setup()
from scoresheet import scoring
from scoresheet.clubs import writes as club_writes
from scoresheet.sheets import writes

stop = Path(sys.argv[1])
sheet = writes.create_sheet("Vendredi", ["Ana", "Ben", "Chloé", "Dan"], 0)
club = club_writes.create_club("Jeudi").club
table = club_writes.start_sheet(club, "Jeudi", ["Ana", "Ben", "Chloé", "Dan", "Élise"], 0).sheet
print("ready", flush=True)
for n in range(20_000):
    if stop.exists():
        break
    if n % 2:
        hand = scoring.Hand(4, n % 4, "garde", 2, 30 + n % 40)
        token = sheet.token
    else:
        hand = scoring.Hand(5, n % 5, "prise", 1, 35 + n % 40, partner=(n + 1) % 5)
        token = table.token
    key = uuid.uuid4()
    writes.add_hand(token, hand, key=key)
    print(key, flush=True)
"""


class Writer:
    """The writer above in its own process; ``keys`` grows as its hands are committed."""

    def __init__(self, env: dict, stop: Path):
        self.stop = stop
        self.process = subprocess.Popen(
            [sys.executable, "-c", WRITER, str(stop)],
            cwd=ROOT,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        assert self.process.stdout.readline().strip() == "ready", self.process.stderr.read()
        self.keys: list[str] = []
        self.reader = threading.Thread(target=self.read, daemon=True)
        self.reader.start()

    def read(self):
        for line in self.process.stdout:
            self.keys.append(line.strip())

    def wait_for(self, count: int, timeout: float = 60):
        deadline = time.monotonic() + timeout
        while len(self.keys) < count:
            assert self.process.poll() is None, self.process.stderr.read()
            assert time.monotonic() < deadline, f"{len(self.keys)} hands saved in {timeout} s"
            time.sleep(0.05)

    def finish(self) -> list[str]:
        self.stop.touch()
        self.process.wait(timeout=60)
        self.reader.join(timeout=10)
        assert self.process.returncode == 0, self.process.stderr.read()
        return self.keys


def stored_keys(env: dict) -> list[str]:
    return django(
        env,
        "import json\nfrom scoresheet.models import Hand\n"
        "print(json.dumps([str(k) for k in Hand.objects.values_list('key', flat=True)]))",
    )


def backups(folder: Path) -> list[str]:
    return sorted(path.name for path in folder.iterdir())


def test_a_backup_taken_while_hands_are_saved_has_every_hand_of_its_moment(
    fresh_database, tmp_path
):
    """Every hand committed before backup_db started is in the restored copy, and the copy is
    consistent: its hands are the first ones the writer committed, in that order, with none
    missing in between, and ``rescore`` finds nothing to fix in the sessions or the club."""
    live = fresh_database()
    assert manage(live, "migrate", "--no-input").returncode == 0
    writer = Writer(live, tmp_path / "stop")
    writer.wait_for(30)
    before = len(writer.keys)
    backup = manage(live, "backup_db", str(tmp_path / "backups"))
    after = len(writer.keys)
    writer.wait_for(after + 10)
    written = writer.finish()
    assert backup.returncode == 0, backup.stderr
    # The writer went on saving all through the backup.
    assert before < after < len(written)
    (copy,) = (tmp_path / "backups").iterdir()
    assert re.fullmatch(rf"tarot-\d{{8}}T\d{{6}}Z\.{EXTENSION}", copy.name)

    restored = fresh_database()
    result = manage(restored, "restore_db", str(copy))
    assert result.returncode == 0, result.stderr
    keys = stored_keys(restored)
    assert before <= len(keys) <= after
    assert set(keys) == set(written[: len(keys)])
    rescored = manage(restored, "rescore")
    assert rescored.returncode == 0, rescored.stderr
    assert "2 sessions re-scored, 0 had stored scores that differed." in rescored.stdout
    assert "1 clubs recounted, 0 had stored results that differed." in rescored.stdout


# Outside a transaction: SQLite's backup reads the database as its own transaction.
@pytest.mark.django_db(transaction=True)
def test_the_latest_copies_are_kept_and_nothing_else_is_touched(tmp_path, sheet4):
    folder = tmp_path / "backups"
    folder.mkdir()
    older = [f"tarot-2025010{day}T200000Z.{EXTENSION}" for day in (1, 2, 3)]
    unrelated = ["notes.txt", f"tarot-latest.{EXTENSION}", "tarot-20250104T200000Z.txt"]
    for name in older + unrelated:
        (folder / name).write_text("kept by hand")
    call_command("backup_db", str(folder), "--keep", "2", stdout=io.StringIO())
    names = backups(folder)
    (new,) = [name for name in names if name not in older + unrelated]
    # This copy and the latest older one; the unrelated files stay.
    assert names == sorted([new, older[-1], *unrelated])
    assert (folder / new).stat().st_mode & 0o777 == 0o600
    assert not [path for path in folder.iterdir() if path.name.startswith(".")]


@pytest.mark.django_db(transaction=True)
def test_keep_0_keeps_every_copy(tmp_path, sheet4):
    folder = tmp_path / "backups"
    folder.mkdir()
    (folder / f"tarot-20250101T200000Z.{EXTENSION}").write_text("old")
    call_command("backup_db", str(folder), "--keep", "0", stdout=io.StringIO())
    assert len(backups(folder)) == 2


@pytest.mark.django_db
def test_a_negative_keep_is_refused(tmp_path):
    from django.core.management import CommandError

    with pytest.raises(CommandError, match="--keep"):
        call_command("backup_db", str(tmp_path), "--keep", "-1")
    assert not list(tmp_path.iterdir())


def test_a_copy_restores_every_session_and_club_exactly(fresh_database, tmp_path, make_backup):
    """The restored database exports the same files, session by session and for the club."""
    live = fresh_database()
    assert manage(live, "migrate", "--no-input").returncode == 0
    sessions = [make_backup(players) for players in (3, 4, 5)]
    club = {
        "format": "tarot-club/1",
        "name": "Le jeudi",
        "created": "2026-09-01T20:00:00+02:00",
        "players": ["Ana", "Ben", "Chloé", "Dan"],
        "rules": {},
        "sessions": [make_backup(4)],
    }
    for number, data in enumerate([*sessions, club]):
        path = tmp_path / f"{number}.json"
        path.write_text(json.dumps(data))
        command = "import_club" if data is club else "import_session"
        imported = manage(live, command, str(path))
        assert imported.returncode == 0, imported.stderr
    exported = exports(live)
    assert len(exported) == 5
    assert manage(live, "backup_db", str(tmp_path / "backups")).returncode == 0
    (copy,) = (tmp_path / "backups").iterdir()

    restored = fresh_database()
    result = manage(restored, "restore_db", str(copy))
    assert result.returncode == 0, result.stderr
    hands = sum(len(data["hands"]) for data in [*sessions, *club["sessions"]])
    assert f"the database holds 4 sessions, {hands} hands and 1 club." in result.stdout
    assert exports(restored) == exported


def exports(env: dict) -> dict:
    """Each session's and club's backup file, as export_session and export_club write them."""
    return django(
        env,
        "import io, json\n"
        "from django.core.management import call_command\n"
        "from scoresheet.models import Club, Sheet\n"
        "def export(command, token):\n"
        "    out = io.StringIO()\n"
        "    call_command(command, token, stdout=out)\n"
        "    return out.getvalue()\n"
        "files = {s.token: export('export_session', s.token) for s in Sheet.objects.all()}\n"
        "files |= {c.token: export('export_club', c.token) for c in Club.objects.all()}\n"
        "print(json.dumps(files))",
    )
