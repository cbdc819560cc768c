"""Settings read from the environment (docs/configuration.md), checked in fresh processes."""

import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from scoresheet import lan
from scoresheet.settings import local_secret_key

ROOT = Path(__file__).resolve().parent.parent


def run(code: str, tmp_path, **env) -> subprocess.CompletedProcess:
    """Python code run with a fresh Django and only the environment given (plus PATH)."""
    environ = {
        "PATH": os.environ["PATH"],
        "DJANGO_SETTINGS_MODULE": "scoresheet.settings",
        "SECRET_KEY_FILE": str(tmp_path / "secret"),
        "SQLITE_PATH": str(tmp_path / "db.sqlite3"),
        **env,
    }
    return subprocess.run(
        [sys.executable, "-c", "import django; django.setup()\n" + code],
        cwd=ROOT,
        env=environ,
        capture_output=True,
        text=True,
        timeout=60,
    )


def settings_of(tmp_path, *names, **env) -> dict:
    code = (
        "import json; from django.conf import settings\n"
        f"print(json.dumps({{n: getattr(settings, n, None) for n in {list(names)!r}}}, "
        "default=str))"
    )
    result = run(code, tmp_path, **env)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout.strip().splitlines()[-1])


def test_secret_key_is_made_once_and_kept(tmp_path):
    path = tmp_path / "secret"
    first = local_secret_key(path)
    assert len(first) >= 50
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert local_secret_key(path) == first


def test_secret_key_from_the_environment_wins(tmp_path):
    found = settings_of(tmp_path, "SECRET_KEY", SECRET_KEY="from-the-environment")
    assert found["SECRET_KEY"] == "from-the-environment"
    assert not (tmp_path / "secret").exists()


def test_generated_secret_key_is_stable_across_processes(tmp_path):
    first = settings_of(tmp_path, "SECRET_KEY")["SECRET_KEY"]
    assert settings_of(tmp_path, "SECRET_KEY")["SECRET_KEY"] == first
    assert (tmp_path / "secret").read_text().strip() == first


def test_secret_key_file_is_ignored_by_git():
    assert ".secret_key" in (ROOT / ".gitignore").read_text().split()


def test_debug_is_off_unless_set(tmp_path):
    assert settings_of(tmp_path, "DEBUG")["DEBUG"] is False
    assert settings_of(tmp_path, "DEBUG", DEBUG="1")["DEBUG"] is True
    assert settings_of(tmp_path, "DEBUG", DEBUG="0")["DEBUG"] is False


def test_default_hosts_are_what_make_run_answers_on(tmp_path):
    hosts = settings_of(tmp_path, "ALLOWED_HOSTS")["ALLOWED_HOSTS"]
    assert {"localhost", "127.0.0.1"} <= set(hosts)
    assert set(lan.addresses()) <= set(hosts)


def test_allowed_hosts_from_the_environment(tmp_path):
    hosts = settings_of(tmp_path, "ALLOWED_HOSTS", ALLOWED_HOSTS="example.org, .club.fr")
    assert hosts["ALLOWED_HOSTS"] == ["example.org", ".club.fr"]


def test_database_url_selects_postgresql_with_persistent_connections(tmp_path):
    found = settings_of(
        tmp_path, "DATABASES", DATABASE_URL="postgres://tarot:pw@db.example:5433/tarot"
    )
    default = found["DATABASES"]["default"]
    assert default["ENGINE"] == "django.db.backends.postgresql"
    assert (default["HOST"], default["PORT"], default["NAME"]) == ("db.example", 5433, "tarot")
    assert default["CONN_MAX_AGE"] == 600
    assert default["CONN_HEALTH_CHECKS"] is True


def test_sqlite_by_default_in_wal_mode_with_immediate_transactions(tmp_path):
    code = (
        "from django.db import connection\n"
        "with connection.cursor() as c:\n"
        "    c.execute('PRAGMA journal_mode'); print(c.fetchone()[0])\n"
        "    c.execute('PRAGMA busy_timeout'); print(c.fetchone()[0])\n"
        "print(connection.settings_dict['OPTIONS']['transaction_mode'])"
    )
    result = run(code, tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["wal", "20000", "IMMEDIATE"]


def test_https_turns_on_secure_cookies_hsts_and_redirect(tmp_path):
    names = [
        "SECURE_SSL_REDIRECT",
        "SESSION_COOKIE_SECURE",
        "CSRF_COOKIE_SECURE",
        "SECURE_HSTS_SECONDS",
        "CSRF_TRUSTED_ORIGINS",
        "SECURE_PROXY_SSL_HEADER",
    ]
    off = settings_of(tmp_path, *names)
    assert not off["SECURE_SSL_REDIRECT"]
    assert not off["SESSION_COOKIE_SECURE"]
    on = settings_of(tmp_path, *names, HTTPS="1", ALLOWED_HOSTS="example.org,.club.fr")
    assert on["SECURE_SSL_REDIRECT"] is True
    assert on["SESSION_COOKIE_SECURE"] is True
    assert on["CSRF_COOKIE_SECURE"] is True
    assert on["SECURE_HSTS_SECONDS"] >= 31536000
    assert on["CSRF_TRUSTED_ORIGINS"] == ["https://example.org", "https://*.club.fr"]
    assert on["SECURE_PROXY_SSL_HEADER"] == ["HTTP_X_FORWARDED_PROTO", "https"]


def test_csrf_trusted_origins_from_the_environment_come_first(tmp_path):
    origins = "https://tarot.lan:8443, https://other.example"
    found = settings_of(tmp_path, "CSRF_TRUSTED_ORIGINS", CSRF_TRUSTED_ORIGINS=origins)
    assert found["CSRF_TRUSTED_ORIGINS"] == ["https://tarot.lan:8443", "https://other.example"]
    both = settings_of(
        tmp_path,
        "CSRF_TRUSTED_ORIGINS",
        CSRF_TRUSTED_ORIGINS=origins,
        HTTPS="1",
        ALLOWED_HOSTS="example.org",
    )
    assert both["CSRF_TRUSTED_ORIGINS"] == [
        "https://tarot.lan:8443",
        "https://other.example",
        "https://example.org",
    ]


def test_a_proxy_health_check_in_plain_http_is_not_redirected(tmp_path):
    """Behind HTTPS=1 every plain-HTTP request is sent to https, except the proxy's own
    health checks, which ask the app server directly (deploy/Caddyfile)."""
    code = (
        "from django.test import Client\n"
        "client = Client()\n"
        "print(client.get('/healthz').status_code, client.get('/').status_code)"
    )
    result = run(code, tmp_path, HTTPS="1", ALLOWED_HOSTS="testserver")
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["503", "301"]


def test_deployment_check_passes(tmp_path):
    environ = {
        "PATH": os.environ["PATH"],
        "DEBUG": "0",
        "HTTPS": "1",
        "SECRET_KEY": "k" + os.urandom(32).hex(),
        "ALLOWED_HOSTS": "example.org",
        "SQLITE_PATH": str(tmp_path / "db.sqlite3"),
    }
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=environ,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


@pytest.mark.parametrize("flag", ["", "0", "false", "no", "off"])
def test_false_flags(tmp_path, flag):
    assert settings_of(tmp_path, "DEBUG", DEBUG=flag)["DEBUG"] is False
