"""Settings for the Tarot score sheet: safe defaults for `make run`, overridden by the environment.

Environment variables (docs/configuration.md): SECRET_KEY, DEBUG, ALLOWED_HOSTS, DATABASE_URL,
HTTPS, CSRF_TRUSTED_ORIGINS, TRUSTED_PROXIES, SQLITE_PATH, SECRET_KEY_FILE, STATIC_ROOT,
DRAIN_FILE.
"""

import ipaddress
import os
import secrets
from pathlib import Path

import dj_database_url
from csp.constants import NONCE, NONE, SELF
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _
from whitenoise.storage import CompressedManifestStaticFilesStorage

from scoresheet import lan

BASE_DIR = Path(__file__).resolve().parent.parent


def env_flag(name: str, default: bool = False) -> bool:
    value = os.environ.get(name)
    if value is None or not value.strip():
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_list(name: str) -> list[str] | None:
    value = os.environ.get(name)
    if value is None:
        return None
    return [item.strip() for item in value.split(",") if item.strip()]


def local_secret_key(path: Path) -> str:
    """The key kept in a git-ignored file, made on first run (atomically: workers may race)."""
    try:
        return path.read_text().strip()
    except FileNotFoundError:
        pass
    key = secrets.token_urlsafe(50)
    try:
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return path.read_text().strip()
    with os.fdopen(descriptor, "w") as file:
        file.write(key + "\n")
    return key


DEBUG = env_flag("DEBUG")
HTTPS = env_flag("HTTPS")

SECRET_KEY = os.environ.get("SECRET_KEY") or local_secret_key(
    Path(os.environ.get("SECRET_KEY_FILE", BASE_DIR / ".secret_key"))
)

# By default, what `make run` answers to: this machine by name and by its LAN addresses.
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS") or [
    "localhost",
    "127.0.0.1",
    "[::1]",
    *lan.hostnames(),
    *lan.addresses(),
]

# No user accounts: a link is the key to a session or a club (no admin, no auth).
INSTALLED_APPS = [
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "csp",
    "django_htmx",
    "django_ratelimit",
    "template_partials",
    "scoresheet",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # Pages and fragments travel compressed (with Django's BREACH mitigation).
    "django.middleware.gzip.GZipMiddleware",
    "csp.middleware.CSPMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "scoresheet.throttle.RateLimitMiddleware",
]

ROOT_URLCONF = "scoresheet.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.messages.context_processors.messages",
                "scoresheet.theme.context",
                "scoresheet.version.context",
            ],
        },
    },
]

WSGI_APPLICATION = "scoresheet.wsgi.application"

if os.environ.get("DATABASE_URL"):
    DATABASES = {
        "default": dj_database_url.parse(
            os.environ["DATABASE_URL"], conn_max_age=600, conn_health_checks=True
        )
    }
    if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
        # A database host that stopped answering fails a request (and /healthz) within 5 s
        # instead of holding a worker for minutes; ?connect_timeout=N in the URL overrides it.
        DATABASES["default"].setdefault("OPTIONS", {}).setdefault("connect_timeout", 5)
else:
    DATABASES = {
        "default": {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": os.environ.get("SQLITE_PATH", BASE_DIR / "db.sqlite3"),
            "OPTIONS": {
                # Writers take the lock when their transaction starts and queue for it,
                # instead of failing half-way with "database is locked".
                "transaction_mode": "IMMEDIATE",
                "timeout": 20,
                # WAL: readers never wait for the writer. synchronous=FULL syncs the log at
                # every commit, so an acknowledged hand survives a power cut, not only a
                # killed server (docs/configuration.md: Durability, with its cost).
                "init_command": (
                    "PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL; PRAGMA foreign_keys=ON;"
                ),
            },
        }
    }

CACHES = {
    "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"},
    # The rate limit's counters (scoresheet/throttle.py): a table of the app's database, so
    # every worker and every app server counts together; its incr() is atomic.
    "ratelimit": {
        "BACKEND": "scoresheet.throttle.CounterCache",
        "LOCATION": "scoresheet_ratelimit",
        # Culling would forget counts: a count lives two minutes, this is far above a club's.
        "OPTIONS": {"MAX_ENTRIES": 100_000},
    },
    # The state of the large club imports restored outside their request
    # (scoresheet/files/import_jobs.py), in the same table under another prefix: every worker
    # and every app server shows an import's page.
    "jobs": {
        "BACKEND": "django.core.cache.backends.db.DatabaseCache",
        "LOCATION": "scoresheet_ratelimit",
        "KEY_PREFIX": "job",
        "OPTIONS": {"MAX_ENTRIES": 100_000},
    },
}

# At most RATE_LIMIT POSTs (saves, corrections, previews, new sessions, imports) per client IP
# and per session: "120/m" is about 2 a second for a whole minute, several times what the
# fastest table sends (docs/configuration.md, "Hardening"). Beyond it: 429 and a message,
# nothing written.
RATE_LIMIT = os.environ.get("RATE_LIMIT", "120/m")
RATELIMIT_USE_CACHE = "ratelimit"
# If the counter cannot be read, the table keeps playing: a hand is worth more than a limit.
RATELIMIT_FAIL_OPEN = True
# django-ratelimit warns about any cache but memcached and Redis; CounterCache is a shared
# cache with an atomic increment, which is what the warning is about.
SILENCED_SYSTEM_CHECKS = ["django_ratelimit.W001"]


def proxies(name: str) -> list[str]:
    """A comma-separated list of addresses or networks (``127.0.0.1``, ``10.0.0.0/8``, ``::1``),
    each checked now: a typo stops the server at its start, with the variable's name."""
    values = env_list(name) or []
    for value in values:
        try:
            ipaddress.ip_network(value, strict=False)
        except ValueError:
            raise ImproperlyConfigured(
                f"{name}: {value!r} is not an IP address or network"
            ) from None
    return values


# The proxies whose X-Forwarded-For names the client (scoresheet/throttle.py): none by default,
# when the client is the connection's peer and X-Forwarded-For is ignored; behind Caddy on the
# same machine, 127.0.0.1 and ::1 (deploy/tarot.env).
TRUSTED_PROXIES = proxies("TRUSTED_PROXIES")

# The browser's own list of sheets lives in a signed cookie: no table grows with visitors.
SESSION_ENGINE = "django.contrib.sessions.backends.signed_cookies"
SESSION_COOKIE_AGE = 60 * 60 * 24 * 365
SESSION_COOKIE_HTTPONLY = True
SESSION_COOKIE_SAMESITE = "Lax"
MESSAGE_STORAGE = "django.contrib.messages.storage.cookie.CookieStorage"

LANGUAGE_CODE = "en"
LANGUAGES = [("en", _("English")), ("fr", _("French")), ("es", _("Spanish"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = "Europe/Paris"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
# Where collectstatic writes. A server behind Caddy sets it outside the checkout
# (/srv/tarot/static, deploy/tarot.env), where every release adds its files and Caddy serves them.
STATIC_ROOT = Path(os.environ.get("STATIC_ROOT") or BASE_DIR / "staticfiles")


class StaticStorage(CompressedManifestStaticFilesStorage):
    """WhiteNoise's storage, with the imports between the app's JavaScript modules (offline.js
    and its parts, static/scoresheet/offline/) rewritten to the hashed names too: Django's own
    rewriting (``support_js_module_import_aggregation``), for the app's files only (a vendored
    htmx extension imports a file that is not shipped)."""

    patterns = (
        *CompressedManifestStaticFilesStorage.patterns,
        (
            "scoresheet/*.js",
            (
                (
                    r"""(?P<matched>import(?s:(?P<import>[\s\{].*?|\*\s*as\s*\w+))"""
                    r"""\s*from\s*['"](?P<url>[./].*?)["']\s*;)""",
                    """import%(import)s from "%(url)s";""",
                ),
                (
                    r"""(?P<matched>import\(["'](?P<url>[./].*?)["']\))""",
                    """import("%(url)s")""",
                ),
            ),
        ),
    )


STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    # Compressed, with content hashes in the names so browsers may cache them for ever.
    "staticfiles": {"BACKEND": "scoresheet.settings.StaticStorage"},
}

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Headers. The session's URL is its secret: never send it to another site.
SECURE_REFERRER_POLICY = "same-origin"
SECURE_CONTENT_TYPE_NOSNIFF = True
X_FRAME_OPTIONS = "DENY"
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        # The page's own stylesheet is inlined with a per-response nonce; no 'unsafe-inline'.
        "style-src": [SELF, NONCE],
        "img-src": [SELF, "data:"],
        "connect-src": [SELF],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
        "base-uri": [NONE],
        "object-src": [NONE],
    }
}

# Origins whose forms may post here besides the site's own (scheme://host[:port], comma-separated):
# a proxy that renames the host, say. With HTTPS, https://<each of ALLOWED_HOSTS> is added.
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS") or []

if HTTPS:
    # Behind a TLS-terminating proxy that sets X-Forwarded-Proto.
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = True
    # The proxy's health checks ask the app server itself, in plain HTTP (scoresheet/health.py).
    SECURE_REDIRECT_EXEMPT = [r"^healthz$"]
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = 60 * 60 * 24 * 365
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
    # ".example.org" in ALLOWED_HOSTS means the domain and its subdomains.
    CSRF_TRUSTED_ORIGINS += [
        f"https://*{host}" if host.startswith(".") else f"https://{host}"
        for host in ALLOWED_HOSTS
        if host != "*"
    ]

# While this file exists, /healthz answers 503 "draining" (scoresheet/health.py): the proxy stops
# sending this server anything before it stops (deploy/tarot@.service's ExecStop makes it).
DRAIN_FILE = os.environ.get("DRAIN_FILE", "")

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {"not_health_checks": {"()": "scoresheet.health.NotHealthCheck"}},
    "formatters": {"plain": {"format": "{levelname} {name}: {message}", "style": "{"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "plain"}},
    "root": {"handlers": ["console"], "level": "WARNING"},
    "loggers": {
        # Django logs every 5xx as an error; /healthz's 503 is an answer, not an error.
        "django.request": {"filters": ["not_health_checks"]},
        # Why /healthz answers 503 (the database, the migrations, draining), for the journal.
        "scoresheet.health": {"level": "INFO"},
    },
}
