"""``/healthz``: is this app server fit to answer? For the proxy's health checks (deploy/Caddyfile)
and for monitoring.

200 when the database answers and has every migration this code needs; 503 otherwise, with the
reason in one line. The second line is this release's version. One query (which migrations the
database has applied, out of the ones this code ends with), no session read, no cookie set; never
rate limited; a 503 is not logged as an error (Django logs every 5xx: ``NotHealthCheck`` keeps
this one out, and ``log`` says why at INFO, which settings.LOGGING lets through to the journal).

Draining: while ``DRAIN_FILE`` exists, 503 "draining", whatever the database, and the server
goes on answering everything else. deploy/tarot@.service's ExecStop makes that file, waits one
health interval of the proxy's (which then sends this server nothing new) and lets systemd stop
gunicorn gracefully; the file goes with the unit's runtime directory.

An app server started with new code before ``migrate`` ran answers 503 until it has, so the proxy
sends it nothing; an older one keeps answering 200 after its successor's migrations, which add to
the ones it needs (docs/deploy.md, "Upgrades").
"""

import functools
import logging
import os

from django.conf import settings
from django.db import DatabaseError, connection
from django.http import HttpResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

from scoresheet.version import VERSION

log = logging.getLogger(__name__)


@functools.cache
def needed() -> frozenset[tuple[str, str]]:
    """The last migration of each app's graph in this code, read from disk once per process
    (before the fork, under gunicorn's preload): once they are applied, all are."""
    from django.db.migrations.loader import MigrationLoader

    return frozenset(MigrationLoader(None, ignore_no_migrations=True).graph.leaf_nodes())


def pending() -> list[str]:
    """The needed migrations the database has not applied (one query)."""
    from django.db.migrations.recorder import MigrationRecorder

    wanted = needed()
    applied = set(
        MigrationRecorder(connection)
        .migration_qs.filter(name__in={name for _app, name in wanted})
        .values_list("app", "name")
    )
    return sorted(f"{app}.{name}" for app, name in wanted - applied)


@never_cache
@require_safe
def healthz(request):
    """200 "ok" when the database answers and no migration is pending, else 503 and why."""
    if settings.DRAIN_FILE and os.path.exists(settings.DRAIN_FILE):
        log.info("Health: draining (%s exists): this server is stopping", settings.DRAIN_FILE)
        return unhealthy("draining: this server is stopping")
    try:
        missing = pending()
    except DatabaseError as error:
        if migrated() is False:
            missing = ["all"]
        else:
            # The reason stays in the log: a database's message may name its host and user.
            log.info("Health: the database does not answer: %s", error)
            return unhealthy("the database does not answer")
    if missing:
        log.info("Health: migrations not applied: %s", ", ".join(missing))
        return unhealthy("migrations not applied: run manage.py migrate")
    return HttpResponse(f"ok\n{VERSION}\n", content_type="text/plain; charset=utf-8")


def migrated() -> bool | None:
    """Whether the database has Django's table of migrations; None when it cannot say."""
    from django.db.migrations.recorder import MigrationRecorder

    try:
        return MigrationRecorder(connection).has_table()
    except DatabaseError:
        return None


# Never counted by the rate limit (scoresheet/throttle.py), whatever the method.
healthz.rate_limit_exempt = True


def unhealthy(reason: str) -> HttpResponse:
    return HttpResponse(
        f"unavailable: {reason}\n{VERSION}\n",
        status=503,
        content_type="text/plain; charset=utf-8",
    )


class NotHealthCheck(logging.Filter):
    """Leaves out Django's record of a 503 from ``/healthz`` (settings.LOGGING, on the
    django.request logger): an app server waiting for its database or its migrations is not an
    error of the app, and a proxy asks every few seconds."""

    def filter(self, record: logging.LogRecord) -> bool:
        request = getattr(record, "request", None)
        match = getattr(request, "resolver_match", None)
        health = match is not None and match.url_name == "healthz"
        return not (health and getattr(record, "status_code", None) == 503)
