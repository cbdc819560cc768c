"""``/healthz`` (scoresheet/health.py): 200 when the database answers with every migration this
code needs, 503 otherwise; one query, no session, no cookie; never rate limited; its 503 kept out
of the error log. On SQLite and, under ``scripts/with-postgres``, PostgreSQL."""

import logging
import re
import tomllib
from pathlib import Path

import pytest
from django.db import connection
from django.db.migrations.recorder import MigrationRecorder
from django.urls import reverse

from tests.processes import django, manage, python

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parent.parent
MIGRATIONS = ROOT / "scoresheet" / "migrations"
# The release, as pyproject.toml names it: every answer's second line.
VERSION = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]


def latest_migration() -> str:
    """The app's last migration, as its file is named on disk."""
    return sorted(path.stem for path in MIGRATIONS.glob("[0-9][0-9][0-9][0-9]_*.py"))[-1]


def test_healthy_is_200_ok_in_one_query_with_no_session_and_no_cookie(
    client, django_assert_num_queries
):
    with django_assert_num_queries(1):
        response = client.get("/healthz")
    assert response.status_code == 200
    assert response.content.decode() == f"ok\n{VERSION}\n"
    assert response["Content-Type"] == "text/plain; charset=utf-8"
    assert not response.cookies
    # The session was never read: reading it makes the answer vary with the cookie.
    assert "Cookie" not in response.get("Vary", "")
    assert "no-store" in response["Cache-Control"]
    assert reverse("healthz") == "/healthz"


def test_head_is_answered_too(client):
    assert client.head("/healthz").status_code == 200


def test_a_migration_not_applied_is_503(client):
    MigrationRecorder.Migration.objects.filter(app="scoresheet", name=latest_migration()).delete()
    response = client.get("/healthz")
    assert response.status_code == 503
    assert response.content.decode() == (
        f"unavailable: migrations not applied: run manage.py migrate\n{VERSION}\n"
    )


def test_migrations_of_newer_code_leave_older_code_healthy(client):
    """During an upgrade the new code migrates first: the old servers still answer 200."""
    MigrationRecorder.Migration.objects.create(app="scoresheet", name="9999_from_newer_code")
    assert client.get("/healthz").status_code == 200


def test_the_503_is_not_logged_as_an_error_but_other_answers_are(client, caplog, sheet4):
    MigrationRecorder.Migration.objects.filter(app="scoresheet", name=latest_migration()).delete()
    with caplog.at_level(logging.DEBUG):
        assert client.get("/healthz").status_code == 503
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert [r.name for r in caplog.records] == ["scoresheet.health"]
    assert "migrations not applied: scoresheet." in caplog.records[0].getMessage()
    caplog.clear()
    # Django's request log still has everything else: a missing page, say.
    with caplog.at_level(logging.DEBUG):
        assert client.get("/s/no-such-session/").status_code == 404
    assert [(r.name, r.levelname) for r in caplog.records] == [("django.request", "WARNING")]


def test_never_rate_limited(client, settings, sheet4):
    settings.RATELIMIT_ENABLE = True
    settings.RATE_LIMIT = "1/m"
    for _ in range(5):
        assert client.get("/healthz").status_code == 200
        # Whatever the method: refused as a method, never counted.
        assert client.post("/healthz").status_code == 405
    with connection.cursor() as cursor:
        cursor.execute("SELECT COUNT(*) FROM scoresheet_ratelimit")
        assert cursor.fetchone()[0] == 0
    # The limit is on: a session's POSTs are counted and refused past it.
    url = reverse("hand_preview", args=[sheet4.token])
    assert client.post(url).status_code == 200
    assert client.post(url).status_code == 429


# In processes of their own, on a database that is not migrated, or does not answer.

HEALTH = (
    "import json\n"
    "from django.test import Client\n"
    "response = Client().get('/healthz')\n"
    "print(json.dumps([response.status_code, response.content.decode()]))"
)


def test_a_database_not_migrated_is_503(fresh_database):
    env = fresh_database()
    status, body = django(env, HEALTH)
    assert status == 503
    assert body == f"unavailable: migrations not applied: run manage.py migrate\n{VERSION}\n"
    assert manage(env, "migrate", "--no-input").returncode == 0
    assert django(env, HEALTH) == [200, f"ok\n{VERSION}\n"]


def test_a_database_that_does_not_answer_is_503_and_no_error_is_logged(fresh_database, tmp_path):
    env = fresh_database()
    if "DATABASE_URL" in env:
        # Nothing listens on port 1.
        env["DATABASE_URL"] = "postgres://tarot@127.0.0.1:1/tarot"
    else:
        env["SQLITE_PATH"] = str(tmp_path / "no such directory" / "db.sqlite3")
    result = python(env, HEALTH)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip().splitlines()[-1] == (
        f'[503, "unavailable: the database does not answer\\n{VERSION}\\n"]'
    )
    # The console (the journal, under systemd) has the reason at INFO, and nothing else: no
    # warning, no error (settings.LOGGING).
    assert result.stderr.startswith(
        "INFO scoresheet.health: Health: the database does not answer: "
    ), result.stderr
    # One record (PostgreSQL's reason may span two lines), no other.
    assert result.stderr.count("scoresheet.health") == 1
    assert not re.search(r"^(DEBUG|WARNING|ERROR|CRITICAL|Traceback)", result.stderr, re.M)


def test_the_reasons_reach_the_console_at_info(fresh_database):
    """A server waiting for its migrations says so in its log, not only in its answer: the
    root logger's WARNING level does not drop scoresheet.health's INFO."""
    env = fresh_database()
    result = python(env, HEALTH)
    assert result.returncode == 0, result.stderr
    assert result.stderr.splitlines() == [
        "INFO scoresheet.health: Health: migrations not applied: all"
    ]


# Draining before a stop (deploy/tarot@.service's ExecStop)


def test_draining_is_503_while_the_drain_file_exists(client, settings, tmp_path, caplog):
    drain = tmp_path / "draining"
    settings.DRAIN_FILE = str(drain)
    assert client.get("/healthz").status_code == 200
    drain.touch()
    with caplog.at_level(logging.INFO):
        response = client.get("/healthz")
    assert response.status_code == 503
    assert response.content.decode() == (
        f"unavailable: draining: this server is stopping\n{VERSION}\n"
    )
    assert [(r.name, r.levelname) for r in caplog.records] == [("scoresheet.health", "INFO")]
    # Everything else is still answered while the proxy stops sending.
    assert client.get("/").status_code == 200
    drain.unlink()
    assert client.get("/healthz").status_code == 200
