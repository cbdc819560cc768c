"""``manage.py backup_db DIR [--keep N]``: a consistent copy of the whole database, taken while
the app runs, named by its date; the latest N kept.

SQLite: SQLite's online backup API copies the database as one read transaction sees it (in WAL
mode the app keeps writing meanwhile), into a single file checked with ``PRAGMA quick_check``.
PostgreSQL: ``pg_dump --format=custom``, which reads one snapshot of the database. Either way the
copy holds every hand committed when it started, and no half of a write. The file is written
under a temporary name and renamed once complete, readable by its owner only (the sessions'
links are in it). ``restore_db`` turns one back into a database.
"""

import os
import re
import shutil
import sqlite3
import subprocess
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError
from django.db import connection

# tarot-20261127T204100Z.sqlite3 or .dump: the UTC time it was taken, so names sort by date.
NAME = re.compile(r"^tarot-\d{8}T\d{6}Z\.(sqlite3|dump)$")
EXTENSIONS = {"sqlite": "sqlite3", "postgresql": "dump"}


def vendor_of(path: Path) -> str | None:
    """What kind of backup a file is, by its first bytes: "sqlite", "postgresql" or None."""
    with open(path, "rb") as file:
        head = file.read(16)
    if head == b"SQLite format 3\x00":
        return "sqlite"
    if head.startswith(b"PGDMP"):  # pg_dump's custom format
        return "postgresql"
    return None


def postgresql_command(program: str, *options: str) -> tuple[list[str], dict]:
    """``program`` (pg_dump, pg_restore, psql) with the database's connection options, and the
    environment that carries the password and TLS settings, as ``manage.py dbshell`` builds
    them."""
    from django.db.backends.postgresql.client import DatabaseClient

    if shutil.which(program) is None:
        raise CommandError(
            f"{program} is not installed: apt-get install postgresql-client-15 "
            "(the client of the server's major version, or a later one)."
        )
    args, env = DatabaseClient.settings_to_cmd_args_env(connection.settings_dict, [])
    # args: psql [-U user] [-h host] [-p port] [dbname]
    database = [args[-1]] if connection.settings_dict.get("NAME") else []
    switches = args[1 : len(args) - len(database)]
    return [program, *switches, *options, *database], {**os.environ, **(env or {})}


class Command(BaseCommand):
    help = (
        "Write a consistent copy of the database into DIR while the app runs (SQLite: the online "
        "backup API; PostgreSQL: pg_dump's custom format), named tarot-<UTC date and time>, "
        "and delete the older copies beyond --keep."
    )

    def add_arguments(self, parser):
        parser.add_argument("directory", help="where the copies go (created if missing)")
        parser.add_argument(
            "--keep",
            type=int,
            default=14,
            help="how many copies to keep in DIR, this one included; 0 keeps them all "
            "(default 14)",
        )

    def handle(self, *args, directory, keep, **options):
        if keep < 0:
            raise CommandError("--keep: a number of copies, 0 or more.")
        vendor = connection.vendor
        if vendor not in EXTENSIONS:
            raise CommandError(f"backup_db knows SQLite and PostgreSQL, not {vendor}.")
        folder = Path(directory)
        try:
            folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        except OSError as error:
            raise CommandError(f"Cannot create {folder}: {error.strerror}.") from None
        target = self.unused_name(folder, EXTENSIONS[vendor])
        started = time.perf_counter()
        descriptor, partial = tempfile.mkstemp(prefix=".tarot-", suffix=".partial", dir=folder)
        os.close(descriptor)  # mkstemp made it readable by its owner only
        try:
            if vendor == "sqlite":
                self.copy_sqlite(Path(partial))
            else:
                self.dump_postgresql(Path(partial))
            with open(partial, "rb") as file:
                os.fsync(file.fileno())
            os.replace(partial, target)
        except BaseException:
            Path(partial).unlink(missing_ok=True)
            raise
        sync_directory(folder)
        seconds = time.perf_counter() - started
        size = target.stat().st_size
        self.stdout.write(f"Wrote {target} ({size / 1e6:.1f} MB) in {seconds:.1f} s.")
        deleted = prune(folder, keep)
        if deleted:
            self.stdout.write(f"Deleted {len(deleted)} older: {', '.join(deleted)}.")

    def unused_name(self, folder: Path, extension: str) -> Path:
        """tarot-<now>.<extension>; a second copy within the same second waits for the next."""
        while True:
            stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
            target = folder / f"tarot-{stamp}.{extension}"
            if not target.exists():
                return target
            time.sleep(0.2)

    def copy_sqlite(self, partial: Path) -> None:
        """SQLite's online backup, in one step: one read transaction's view of the database."""
        if connection.in_atomic_block:
            # The backup would wait for this connection's own transaction: for ever.
            raise CommandError("backup_db cannot copy SQLite from inside a transaction.")
        connection.ensure_connection()
        copy = sqlite3.connect(partial)
        try:
            connection.connection.backup(copy)
            # One self-contained file (the live database is in WAL mode, its copy need not be).
            copy.execute("PRAGMA journal_mode=DELETE")
            checked = copy.execute("PRAGMA quick_check").fetchone()[0]
        finally:
            copy.close()
        if checked != "ok":
            raise CommandError(f"The copy failed SQLite's quick_check: {checked}.")

    def dump_postgresql(self, partial: Path) -> None:
        """pg_dump's custom format (compressed, for pg_restore), from one snapshot."""
        command, env = postgresql_command("pg_dump", "--format=custom", f"--file={partial}")
        result = subprocess.run(command, env=env, capture_output=True, text=True)
        if result.returncode:
            raise CommandError(f"pg_dump failed: {result.stderr.strip()}")


def prune(folder: Path, keep: int) -> list[str]:
    """Delete the copies beyond the latest ``keep`` (files named as this command names them,
    nothing else); their names."""
    if keep == 0:
        return []
    copies = sorted(
        (path for path in folder.iterdir() if NAME.match(path.name)),
        key=lambda path: path.name[len("tarot-") :],
        reverse=True,
    )
    deleted = []
    for path in copies[keep:]:
        path.unlink()
        deleted.append(path.name)
    return deleted


def sync_directory(folder: Path) -> None:
    """The rename survives a power cut too."""
    descriptor = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(descriptor)
    finally:
        os.close(descriptor)
