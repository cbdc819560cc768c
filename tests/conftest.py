"""Shared fixtures: sheets built through the models, a client that speaks htmx, and a
database where threads write at once as the app's processes do."""

import copy
import os
import uuid
from pathlib import Path
from urllib.parse import quote

import pytest
from django.test import Client
from django.utils import translation
from hypothesis import settings

from scoresheet.sheets import writes

ROOT = Path(__file__).resolve().parent.parent

# CI runs the whole suite on SQLite (`make test`), then these tests again on PostgreSQL (`make
# test-postgres`: the tests marked `postgres`): what the database engine can change. Its locks and
# isolation (select_for_update waits on PostgreSQL, a transaction aborted by an error stays
# aborted), its types (integers overflow, text has its own case rules), its SQL (the standings'
# window and JSON queries are written for each engine), bulk statements, query counts, migrations
# on a real schema, and the tools backup_db and restore_db call (pg_dump, pg_restore). Pages that
# render what is stored and the browser tests are the same on both: they run once, on SQLite.
# A module, or one test of a module ("path::name"). docs/testing.md explains the choice.
POSTGRES = {
    "tests/test_writes.py": "the one write path and its state machine (locks, versions, scores)",
    "tests/test_spent_keys.py": "keys spent under the lock; the migration that spends old ones",
    "tests/test_concurrency.py": "threads released together: row locks, unique violations",
    "tests/test_bulk.py": "many rows in one statement, written differently on each engine",
    "tests/test_json_rows.py": "many rows read, the JSON columns as each engine's text",
    "tests/test_queries.py": "the number of queries of every page and write",
    "tests/test_paging.py": "the sheet's pages: ordered, limited queries",
    "tests/test_backup.py": "a session's backup restored: bulk writes, dates, limits",
    "tests/test_club_backup.py": "a club's backup restored: every session in bulk",
    "tests/test_commands.py": "import_session and export_session on the database",
    "tests/test_backup_db.py": "backup_db while hands are saved, and its copy restored (pg_dump)",
    "tests/test_restore_db.py": "restore_db (pg_restore, psql): refusals change nothing",
    "tests/test_clubs.py": "the standings' SQL (window functions, JSON), written per engine",
    "tests/test_club_results.py": "the club's stored results under any sequence of writes",
    "tests/test_nights.py": "a night's writes: a sheet's lock, then its club's",
    "tests/test_night_tables.py": "a deal past a table's plan refused under the sheet's lock",
    "tests/test_rename.py": "renames through the write path, against the unique names",
    "tests/test_player_names.py": "names compared by key in the database; the keys' migration",
    "tests/test_keys.py": "a form's key spent under its owner's lock, a racing second undone",
    "tests/test_migrations.py": "a database of every older schema migrated forward, kept whole",
    "tests/test_club_import.py": "a large club backup restored in a thread of its own",
    "tests/test_throttle.py": "the rate limit's counters in the database cache, per client",
    "tests/test_hardening.py": "what overflows or compares otherwise on PostgreSQL (İVAN)",
    "tests/test_views.py::test_nothing_a_browser_sends_gives_a_500": "any form, any engine",
    "tests/test_health.py": "a database down, or not migrated: 503",
    "tests/test_serve.py": "gunicorn's workers, each with its own connection",
}


def pytest_collection_modifyitems(config, items):
    """Marks POSTGRES's tests ``postgres``. A name there that matches nothing stops the run: a
    module renamed must not drop out of CI's PostgreSQL run unseen."""
    marker = pytest.mark.postgres
    matched = set()
    collected = {item.nodeid.split("::")[0] for item in items}
    for item in items:
        for name in POSTGRES:
            if item.nodeid == name or item.nodeid.startswith((name + "::", name + "[")):
                item.add_marker(marker)
                matched.add(name)
    for name in POSTGRES:
        path = name.split("::")[0]
        if not (ROOT / path).is_file() or (path in collected and name not in matched):
            raise pytest.UsageError(f"tests/conftest.py: POSTGRES names {name}: no such test")


# Hypothesis' default 200 ms deadline fails a property test when the machine is busy, not when
# the code is wrong: no deadline anywhere. CI draws the default number of examples; locally
# ("dev", the default) fewer, for a quick run. HYPOTHESIS_PROFILE=ci chooses CI's (.ci/run).
settings.register_profile("ci", deadline=None)
settings.register_profile("dev", deadline=None, max_examples=30)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "dev"))


@pytest.fixture(scope="session")
def django_db_modify_db_settings(django_db_modify_db_settings_parallel_suffix, tmp_path_factory):
    """On SQLite, the test database is a file of this test process's own, opened with the app's
    settings (WAL, IMMEDIATE transactions, a 20 s busy timeout), as `make run`'s workers share
    theirs. pytest-django's default, an in-memory database, is one connection that the live
    server's threads share with the test: two requests at once (a page's poll while another
    saves) failed with "database table is locked", a 500 no server of the app ever answers, and
    threads released together never waited their turn. One setting differs: no sync to the disk
    at each commit (a power cut is not what a test checks; the disk's latency, shared with the
    other test processes, would be the tests' time)."""
    from django.conf import settings

    database = settings.DATABASES["default"]
    if database["ENGINE"] == "django.db.backends.sqlite3":
        path = tmp_path_factory.mktemp("database") / "test.sqlite3"
        database.setdefault("TEST", {})["NAME"] = str(path)
        options = database.setdefault("OPTIONS", {})
        options["init_command"] = options.get("init_command", "") + "PRAGMA synchronous=OFF;"


@pytest.fixture
def concurrent_db(transactional_db):
    """The database as `make run`'s workers share it, for threads released together: committed
    writes, each thread with its own connection (SQLite's is a file: see above)."""


@pytest.fixture
def make_sheet(db):
    """A sheet with the given player names and first dealer."""

    def make(names=("Ana", "Ben", "Chloé", "Dan"), first_dealer=0, name="Vendredi"):
        return writes.create_sheet(name, list(names), first_dealer)

    return make


@pytest.fixture
def sheet4(make_sheet):
    return make_sheet()


@pytest.fixture
def sheet5(make_sheet):
    return make_sheet(("Ana", "Ben", "Chloé", "Dan", "Élise"))


@pytest.fixture
def htmx():
    """A second test client (another browser) that sends what htmx sends."""
    return Client(headers={"HX-Request": "true"})


# Backups (scoresheet/files/session_backup.py) as the app writes them: every kind of hand, at each
# table size.
BACKUPS = {
    3: {
        "format": "tarot-scoresheet/1",
        "name": "Soirée à trois",
        "created": "2026-11-27T20:41:00+01:00",
        "players": ["Ana", "Bérénice", "Chloé"],
        "first_dealer": 2,
        "rules": {},
        "hands": [
            {
                "taker": 0,
                "contract": "garde",
                "bouts": 2,
                "points": 40.5,
                "partner": None,
                "petit_au_bout": "attack",
                "poignees": {"1": "simple"},
                "chelem": None,
                "defence_chelem": False,
            },
            {"passed": True},
            {
                "taker": 2,
                "contract": "garde_sans",
                "bouts": 3,
                "points": 91,
                "partner": None,
                "petit_au_bout": "attack",
                "poignees": {"2": "triple"},
                "chelem": "announced_made",
                "defence_chelem": False,
            },
            {
                "taker": 1,
                "contract": "prise",
                "bouts": 0,
                "points": 20.5,
                "partner": None,
                "petit_au_bout": None,
                "poignees": {},
                "chelem": "announced_failed",
                "defence_chelem": False,
            },
            {
                "taker": 0,
                "contract": "garde_contre",
                "bouts": 0,
                "points": 0,
                "partner": None,
                "petit_au_bout": "defence",
                "poignees": {},
                "chelem": None,
                "defence_chelem": True,
            },
        ],
    },
    4: {
        "format": "tarot-scoresheet/1",
        "name": "Vendredi",
        "created": "2026-07-14T22:05:30.250000+02:00",
        "players": ["Ana", "Ben", "Chloé", "Dan"],
        "first_dealer": 0,
        "rules": {},
        "hands": [
            {
                "taker": 2,
                "contract": "garde",
                "bouts": 2,
                "points": 49,
                "partner": None,
                "petit_au_bout": "attack",
                "poignees": {"2": "simple"},
                "chelem": None,
                "defence_chelem": False,
            },
            {"passed": True},
            {
                "taker": 0,
                "contract": "prise",
                "bouts": 1,
                "points": 50,
                "partner": None,
                "petit_au_bout": None,
                "poignees": {"1": "simple", "3": "simple"},
                "chelem": None,
                "defence_chelem": False,
            },
            {
                "taker": 3,
                "contract": "garde_contre",
                "bouts": 3,
                "points": 91,
                "partner": None,
                "petit_au_bout": None,
                "poignees": {"3": "double"},
                "chelem": "unannounced_made",
                "defence_chelem": False,
            },
            {
                "taker": 1,
                "contract": "garde_sans",
                "bouts": 0,
                "points": 4,
                "partner": None,
                "petit_au_bout": "defence",
                "poignees": {},
                "chelem": None,
                "defence_chelem": True,
            },
            {"passed": True},
        ],
    },
    5: {
        "format": "tarot-scoresheet/1",
        "name": "Club, table 2",
        "created": "2025-01-03T09:00:00+01:00",
        "players": ["Ana", "Ben", "Chloé", "Dan", "Élise"],
        "first_dealer": 4,
        "rules": {},
        "hands": [
            {
                "taker": 0,
                "contract": "garde",
                "bouts": 2,
                "points": 45.5,
                "partner": 3,
                "petit_au_bout": "defence",
                "poignees": {"0": "simple", "4": "triple"},
                "chelem": None,
                "defence_chelem": False,
            },
            {"passed": True},
            {
                "taker": 4,
                "contract": "prise",
                "bouts": 1,
                "points": 50.5,
                "partner": None,
                "petit_au_bout": None,
                "poignees": {},
                "chelem": "announced_failed",
                "defence_chelem": False,
            },
            {
                "taker": 2,
                "contract": "garde_sans",
                "bouts": 3,
                "points": 91,
                "partner": 1,
                "petit_au_bout": "attack",
                "poignees": {},
                "chelem": "announced_made",
                "defence_chelem": False,
            },
            {
                "taker": 1,
                "contract": "garde_contre",
                "bouts": 1,
                "points": 4.5,
                "partner": 0,
                "petit_au_bout": None,
                "poignees": {"2": "double"},
                "chelem": None,
                "defence_chelem": True,
            },
        ],
    },
}


FFT_RULES = {"poignees": "20-30-40", "rounding": 1, "misere": 0, "dealer_sits_out": False}


def written(data: dict) -> dict:
    """A backup as the app writes it: every rule named, and the dealer of every hand (here
    the rotation from the first dealer)."""
    data = copy.deepcopy(data)
    data["rules"] = {**FFT_RULES, **data["rules"]}
    seats = len(data["players"])
    hands = []
    for number, hand in enumerate(data["hands"]):
        dealer = hand.pop("dealer", (data["first_dealer"] + number) % seats)
        # Where the app writes it: after "passed", or first.
        hands.append(
            {**hand, "dealer": dealer} if hand.get("passed") else {"dealer": dealer, **hand}
        )
    data["hands"] = hands
    return data


@pytest.fixture
def make_backup():
    """A backup's JSON object (a fresh copy) for a table of 3, 4 or 5 players, as written by
    the app; ``written=False`` gives it as files written before house rules were (no dealer,
    ``"rules": {}``): every such file stays valid."""

    def make(players=4, written=True):
        data = copy.deepcopy(BACKUPS[players])
        return globals()["written"](data) if written else data

    return make


@pytest.fixture(scope="session", autouse=True)
def _static_root_of_its_own(tmp_path_factory):
    """WhiteNoise reads STATIC_ROOT whenever a handler starts (each test client, the live
    server): here an empty folder of this process's own, not the checkout's staticfiles/, which
    tests/test_serve.py's collectstatic rewrites while other processes run tests (make test)."""
    from django.conf import settings

    settings.STATIC_ROOT = tmp_path_factory.mktemp("static_root")


@pytest.fixture(autouse=True)
def _static_files_without_manifest(settings):
    """Tests render pages without running collectstatic first."""
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }


@pytest.fixture(autouse=True)
def _no_rate_limit(settings):
    """The suite posts far more than a table does; tests/test_hardening.py turns the limit on."""
    settings.RATELIMIT_ENABLE = False


@pytest.fixture(autouse=True)
def _no_language_left_over():
    """A request's language (LocaleMiddleware activates it for the thread) ends with its test:
    a test that reads messages outside a request gets the default one, in any order."""
    yield
    translation.deactivate()


# A database of its own, for what runs in other processes (manage.py, the app's commands): a
# file for SQLite, a new database on the same server for PostgreSQL (the suite's own engine).


@pytest.fixture
def fresh_database(tmp_path):
    """Makes empty databases; each call returns the environment of a process that uses one
    (``manage.py`` and ``python -c`` run in it see that database)."""
    from django.db import connection

    settings_dict = connection.settings_dict
    base = {
        key: value
        for key, value in os.environ.items()
        if key not in {"DATABASE_URL", "SQLITE_PATH", "PYTEST_CURRENT_TEST"}
    }
    base |= {
        "DJANGO_SETTINGS_MODULE": "scoresheet.settings",
        "SECRET_KEY": "fresh-database-" + uuid.uuid4().hex,
        "ALLOWED_HOSTS": "testserver",
        "PYTHONPATH": str(ROOT),
        # As pyproject's filterwarnings: WhiteNoise warns of a static root that no test collects.
        "PYTHONWARNINGS": "ignore:No directory at:UserWarning",
    }
    created = []

    def server():
        import psycopg

        return psycopg.connect(
            dbname="postgres",
            host=settings_dict["HOST"] or None,
            port=settings_dict["PORT"] or None,
            user=settings_dict["USER"] or None,
            password=settings_dict["PASSWORD"] or None,
            autocommit=True,
        )

    def make() -> dict:
        if connection.vendor == "sqlite":
            path = tmp_path / f"fresh-{len(created)}.sqlite3"
            created.append(path)
            return base | {"SQLITE_PATH": str(path)}
        name = f"tarot_fresh_{uuid.uuid4().hex[:12]}"
        with server() as admin:
            admin.execute(f'CREATE DATABASE "{name}"')
        created.append(name)
        user = quote(settings_dict["USER"] or "", safe="")
        password = quote(settings_dict["PASSWORD"] or "", safe="")
        login = f"{user}:{password}@" if password else f"{user}@" if user else ""
        address = f"{settings_dict['HOST'] or 'localhost'}:{settings_dict['PORT'] or 5432}"
        return base | {"DATABASE_URL": f"postgres://{login}{address}/{name}"}

    yield make
    if connection.vendor != "sqlite":
        with server() as admin:
            for name in created:
                admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
