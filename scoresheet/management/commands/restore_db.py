"""``manage.py restore_db FILE [--force]``: the database becomes the copy ``backup_db`` wrote.

It refuses a database that holds sessions or clubs, unless ``--force``: then everything in the
database (sessions, clubs) is replaced by the copy's contents, and what was there
is gone. Either all of the copy is restored or nothing changes: SQLite's backup API writes the
whole database under one lock; on PostgreSQL the app's tables are dropped and the copy's
recreated in one transaction (``pg_restore`` into ``psql --single-transaction``).

Stop the app servers first (``systemctl stop 'tarot@*'``): a server still running would go on
answering from what it read before.
"""

import re
import shutil
import sqlite3
import subprocess
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError
from django.db import DatabaseError, connection

from scoresheet import health
from scoresheet.management.commands.backup_db import postgresql_command, vendor_of

NAMES = {"sqlite": "SQLite", "postgresql": "PostgreSQL"}
KINDS = {"sqlite": "a copy of an SQLite database", "postgresql": "a PostgreSQL dump"}


class Command(BaseCommand):
    help = (
        "Replace the database with a copy written by backup_db (a .sqlite3 file for SQLite, a "
        ".dump for PostgreSQL). Refuses a database that holds sessions or clubs unless --force."
    )

    def add_arguments(self, parser):
        parser.add_argument("file", help="a copy written by backup_db")
        parser.add_argument(
            "--force",
            action="store_true",
            help="replace a database that holds sessions or clubs: everything in it is lost, "
            "replaced by the copy's contents",
        )

    def handle(self, *args, file, force, **options):
        path = Path(file)
        kind = copy_kind(path)
        held = holdings()
        if held and not force:
            raise CommandError(
                f"The database holds {held}: restoring would replace them with the copy's "
                "contents. Restore into an empty database, or run again with --force to "
                "replace them (back them up first: manage.py backup_db DIR)."
            )
        if kind == "sqlite":
            restore_sqlite(path)
        else:
            restore_postgresql(path)
        connection.close()
        replaced = f", replacing {held}" if held else ""
        self.stdout.write(
            f"Restored {path}{replaced}: the database holds {holdings() or 'nothing'}."
        )
        try:
            missing = health.pending()
        except DatabaseError:
            missing = ["all"]
        if missing:
            self.stdout.write(
                "The copy is older than this code: run manage.py migrate before starting the app."
            )


def copy_kind(path: Path) -> str:
    """The kind of copy at ``path`` ("sqlite" or "postgresql"), which must be this app's
    database's; a ``CommandError`` says why not."""
    try:
        kind = vendor_of(path)
    except OSError as error:
        raise CommandError(f"Cannot read {path}: {error.strerror}.") from None
    if kind is None:
        raise CommandError(
            f"{path} is not a copy written by backup_db: neither an SQLite database nor "
            "a pg_dump archive."
        )
    if kind != connection.vendor:
        raise CommandError(
            f"{path} is {KINDS[kind]}, and this app's database is "
            f"{NAMES.get(connection.vendor, connection.vendor)} "
            "(DATABASE_URL chooses PostgreSQL; without it, SQLite)."
        )
    return kind


def holdings() -> str:
    """What the database holds, in words ("12 sessions, 340 hands and 1 club"); "" when it
    holds no session and no club (or is not even migrated)."""
    from scoresheet.models import Club, Hand, Sheet

    try:
        sheets, hands, clubs = Sheet.objects.count(), Hand.objects.count(), Club.objects.count()
    except DatabaseError:
        connection.close()
        return ""
    if not sheets and not clubs:
        return ""
    return f"{counted(sheets, 'session')}, {counted(hands, 'hand')} and {counted(clubs, 'club')}"


def counted(number: int, thing: str) -> str:
    return f"{number:,} {thing}{'' if number == 1 else 's'}"


def restore_sqlite(path: Path) -> None:
    """SQLite's backup API, from the copy into the live database: one lock, all or nothing."""
    copy = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        try:
            checked = copy.execute("PRAGMA quick_check").fetchone()[0]
            tables = {row[0] for row in copy.execute("SELECT name FROM sqlite_master")}
        except sqlite3.DatabaseError as error:
            raise CommandError(f"{path} cannot be read as a database: {error}.") from None
        if checked != "ok":
            raise CommandError(f"{path} failed SQLite's quick_check: {checked}.")
        if "django_migrations" not in tables:
            raise CommandError(f"{path} is an SQLite database, but not this app's.")
        connection.ensure_connection()
        copy.backup(connection.connection)
    finally:
        copy.close()


def restore_postgresql(path: Path) -> None:
    """The app's tables dropped and the copy's created and filled, in one transaction: psql
    reads BEGIN, the drops, pg_restore's script, and COMMIT only once pg_restore has written
    all of it (a psql that stops before COMMIT changes nothing)."""
    if shutil.which("pg_restore") is None:
        raise CommandError("pg_restore is not installed: apt-get install postgresql-client-15.")
    listing = subprocess.run(["pg_restore", "--list", str(path)], capture_output=True, text=True)
    if listing.returncode:
        raise CommandError(f"{path} cannot be read: {listing.stderr.strip()}")
    if not re.search(r"\bTABLE \S+ django_migrations\b", listing.stdout):
        raise CommandError(f"{path} is a PostgreSQL dump, but not of this app's database.")
    quote = connection.ops.quote_name
    tables = connection.introspection.table_names()
    drops = "".join(f"DROP TABLE IF EXISTS {quote(table)} CASCADE;\n" for table in tables)
    psql, env = postgresql_command("psql", "--no-psqlrc", "--quiet", "--set=ON_ERROR_STOP=1")
    connection.close()
    # Without a database to restore into, pg_restore writes the SQL script of the archive.
    reader = subprocess.Popen(
        ["pg_restore", "--no-owner", "--no-privileges", "--file=-", str(path)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    writer = subprocess.Popen(
        psql, env=env, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )
    try:
        writer.stdin.write(f"BEGIN;\n{drops}".encode())
        shutil.copyfileobj(reader.stdout, writer.stdin)
        reader.wait()
        if reader.returncode == 0:
            writer.stdin.write(b"COMMIT;\n")
        writer.stdin.close()
    except BrokenPipeError:
        pass  # psql stopped at an error, which its message names: nothing was committed
    finally:
        reader.stdout.close()
        reader.wait()
        writer.wait()
    if writer.returncode:
        message = writer.stderr.read().decode().strip()
        raise CommandError(f"Nothing was restored: {message}")
    if reader.returncode:
        message = reader.stderr.read().decode().strip()
        raise CommandError(f"Nothing was restored: pg_restore cannot read {path}: {message}")
