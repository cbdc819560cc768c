"""``manage.py restore_db``: a database that holds sessions or clubs is replaced only when told
(--force); a file that is not a copy of this app's database, or of the other engine, is refused
with the reason; nothing changes when it refuses. (Restoring copies taken while hands are saved:
tests/test_backup_db.py.)"""

import sqlite3

import pytest
from django.core.management import CommandError, call_command
from django.db import connection

from scoresheet.models import Sheet
from tests.processes import django, manage

SESSIONS = (
    "import json\nfrom scoresheet.models import Sheet\n"
    "print(json.dumps(sorted(Sheet.objects.values_list('name', flat=True))))"
)


def session_named(env: dict, tmp_path, make_backup, name: str) -> None:
    import json

    data = make_backup(4) | {"name": name}
    path = tmp_path / f"{name}.json"
    path.write_text(json.dumps(data))
    assert manage(env, "import_session", str(path)).returncode == 0


@pytest.fixture
def copy_of_vendredi(fresh_database, tmp_path, make_backup):
    """A copy (backup_db's) of a database holding one session, "Vendredi"."""
    env = fresh_database()
    assert manage(env, "migrate", "--no-input").returncode == 0
    session_named(env, tmp_path, make_backup, "Vendredi")
    assert manage(env, "backup_db", str(tmp_path / "backups")).returncode == 0
    (copy,) = (tmp_path / "backups").iterdir()
    return copy


def test_a_database_with_sessions_is_replaced_only_with_force(
    fresh_database, tmp_path, make_backup, copy_of_vendredi
):
    target = fresh_database()
    assert manage(target, "migrate", "--no-input").returncode == 0
    session_named(target, tmp_path, make_backup, "Samedi")
    refused = manage(target, "restore_db", str(copy_of_vendredi))
    assert refused.returncode == 1
    assert (
        "The database holds 1 session, 6 hands and 0 clubs: restoring would replace them with "
        "the copy's contents." in refused.stderr
    )
    assert "--force" in refused.stderr
    assert django(target, SESSIONS) == ["Samedi"]

    forced = manage(target, "restore_db", "--force", str(copy_of_vendredi))
    assert forced.returncode == 0, forced.stderr
    assert "replacing 1 session, 6 hands and 0 clubs" in forced.stdout
    assert django(target, SESSIONS) == ["Vendredi"]


def test_an_empty_database_needs_no_force_migrated_or_not(fresh_database, copy_of_vendredi):
    migrated, bare = fresh_database(), fresh_database()
    assert manage(migrated, "migrate", "--no-input").returncode == 0
    for target in (migrated, bare):
        restored = manage(target, "restore_db", str(copy_of_vendredi))
        assert restored.returncode == 0, restored.stderr
        assert django(target, SESSIONS) == ["Vendredi"]
        # The copy is of this code's schema: nothing left to migrate.
        assert "migrate" not in restored.stdout
        checked = manage(target, "migrate", "--check")
        assert checked.returncode == 0, checked.stdout


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("content", "reason"),
    [
        (b'{"format": "tarot-scoresheet/1"}', "is not a copy written by backup_db"),
        (b"", "is not a copy written by backup_db"),
        (b"SQLite format 3", "is not a copy written by backup_db"),  # 15 bytes: not the header
    ],
)
def test_a_file_that_is_no_copy_is_refused(tmp_path, sheet4, content, reason):
    path = tmp_path / "backup"
    path.write_bytes(content)
    with pytest.raises(CommandError, match=reason):
        call_command("restore_db", str(path), "--force")
    assert Sheet.objects.get() == sheet4


@pytest.mark.django_db
def test_a_missing_file_is_refused(tmp_path):
    with pytest.raises(CommandError, match=r"Cannot read .*: No such file or directory\."):
        call_command("restore_db", str(tmp_path / "nothing.dump"))


@pytest.mark.django_db
def test_a_copy_of_the_other_engine_is_refused(tmp_path, sheet4):
    path = tmp_path / "other"
    if connection.vendor == "sqlite":
        path.write_bytes(b"PGDMP\x01\x0e\x00" + bytes(100))
        reason = "is a PostgreSQL dump, and this app's database is SQLite"
    else:
        sqlite3.connect(path).execute(
            "CREATE TABLE django_migrations (id integer)"
        ).connection.commit()
        reason = "is a copy of an SQLite database, and this app's database is PostgreSQL"
    with pytest.raises(CommandError, match=reason):
        call_command("restore_db", str(path), "--force")
    assert Sheet.objects.get() == sheet4


def test_a_copy_of_another_apps_database_is_refused(fresh_database, tmp_path):
    """A database of this engine that is not this app's: SQLite's file, or PostgreSQL's dump
    (backup_db copies any database)."""
    other = fresh_database()
    if connection.vendor == "sqlite":
        path = tmp_path / "other.sqlite3"
        database = sqlite3.connect(path)
        database.execute("CREATE TABLE notes (text)")
        database.commit()
        database.close()
        reason = "is an SQLite database, but not this app's"
    else:
        django(
            other,
            "from django.db import connection\n"
            "with connection.cursor() as cursor:\n"
            "    cursor.execute('CREATE TABLE notes (text text)')\n"
            "print('[]')",
        )
        assert manage(other, "backup_db", str(tmp_path / "backups")).returncode == 0
        (path,) = (tmp_path / "backups").iterdir()
        reason = "is a PostgreSQL dump, but not of this app's database"
    target = fresh_database()
    assert manage(target, "migrate", "--no-input").returncode == 0
    refused = manage(target, "restore_db", str(path))
    assert refused.returncode == 1
    assert reason in refused.stderr
    assert manage(target, "migrate", "--check").returncode == 0


def test_a_damaged_dump_changes_nothing(fresh_database, tmp_path, make_backup, copy_of_vendredi):
    target = fresh_database()
    assert manage(target, "migrate", "--no-input").returncode == 0
    session_named(target, tmp_path, make_backup, "Samedi")
    damaged = tmp_path / f"damaged{copy_of_vendredi.suffix}"
    data = copy_of_vendredi.read_bytes()
    damaged.write_bytes(data[: len(data) // 2])
    refused = manage(target, "restore_db", "--force", str(damaged))
    assert refused.returncode == 1
    assert django(target, SESSIONS) == ["Samedi"]
