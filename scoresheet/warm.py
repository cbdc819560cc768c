"""Warm the app before gunicorn's workers answer anyone (``manage.py serve``).

Django starts lazily: a worker's first request would import the views, build the URL resolver,
compile the templates it renders, load the translations of its language and the locale's
formats, and only then answer (0.1 to 2 s on a small server, against 10 to 30 ms afterwards).
So, with gunicorn's ``preload_app`` (scoresheet/gunicorn_conf.py):

- ``warm()`` runs once in the master, before the workers fork: every template compiled, every
  language loaded, and the app's pages asked for in each language. The workers are born with all
  of it. Every database connection is then closed: a connection shared by two processes would
  mix their conversations.
- ``warm_worker()`` runs in each worker after the fork, before it takes its first request: the
  latest sheet and its live poll once more. A forked process copies each page of memory it
  writes to (CPython writes reference counts as it reads objects), about 10 MB on the first
  request; this pays for most of it, and opens the worker's own database connection. It is kept
  short: a request that arrives as the server starts waits for it.

The first request after a restart or a deployment then costs what the next ones do
(``benchmarks/first_request.py``). Only GET pages are asked for: the latest session and club
when the database holds one, read and never written; the responses and their cookies are
dropped.
"""

import io
import logging
import time
from pathlib import Path

from django.conf import settings
from django.db import connections
from django.template import engines
from django.urls import get_resolver, reverse
from django.utils import formats, timezone, translation

log = logging.getLogger(__name__)

# Pages that need no data: their views, templates and fragments.
PAGES = ["home", "new_sheet", "club_new", "manifest", "service_worker", "healthz"]


def warm() -> dict:
    """In the master, before the fork: load everything a request needs; what was done."""
    started = time.perf_counter()
    done = {"templates": compile_templates(), "languages": load_languages(), "requests": 0}
    try:
        languages = [code for code, _name in settings.LANGUAGES]
        done["requests"] = ask_pages(languages, every_page(), both=True)
    except Exception:
        # A database that does not answer yet (or not migrated yet) must not keep the server
        # from starting: /healthz says 503 until it does, and the rest warms on use.
        log.warning("Warm-up: the pages could not all be asked for", exc_info=True)
    finally:
        connections.close_all()
    done["seconds"] = round(time.perf_counter() - started, 2)
    return done


def warm_worker() -> dict:
    """In a worker, after the fork: the latest sheet and its poll once more (else the home
    page), and the health check."""
    from scoresheet.models import Sheet

    started = time.perf_counter()
    done = {"requests": 0}
    try:
        sheet = Sheet.objects.order_by("-pk").first()
        paths = [(reverse("home"), False)]
        if sheet is not None:
            base = sheet.get_absolute_url()
            paths = [(base, False), (f"{base}live/?revision={sheet.revision}", True)]
        paths.append((reverse("healthz"), False))
        done["requests"] = ask_pages([settings.LANGUAGE_CODE], paths, both=False)
    except Exception:
        log.warning("Warm-up: the pages could not all be asked for", exc_info=True)
    done["seconds"] = round(time.perf_counter() - started, 2)
    return done


def compile_templates() -> int:
    """Parse every template of the project (the cached loader keeps them compiled)."""
    count = 0
    for engine in engines.all():
        for directory in engine.template_dirs:
            root = Path(directory)
            if not root.is_relative_to(settings.BASE_DIR):
                continue  # Other packages': rarely asked, and many.
            for path in sorted(root.rglob("*.html")):
                engine.get_template(path.relative_to(root).as_posix())
                count += 1
    return count


def load_languages() -> int:
    """Each language's catalogue, number and date formats, and URL resolver."""
    resolver = get_resolver()
    for code, _name in settings.LANGUAGES:
        with translation.override(code):
            translation.gettext("Tarot score sheet")
            formats.date_format(timezone.localtime(), "DATETIME_FORMAT")
            formats.number_format(40.5, 1)
            reverse("home")
    resolver.resolve("/")
    return len(settings.LANGUAGES)


def every_page() -> list[tuple[str, bool]]:
    """The app's GET pages, as (path, asked for by htmx): those that need no data, and the
    latest session's and club's when the database holds them."""
    from scoresheet.models import Club, Sheet

    paths = [(reverse(name), False) for name in PAGES]
    paths += sheet_pages(Sheet.objects.order_by("-pk").first())
    club = Club.objects.order_by("-pk").first()
    if club is not None:
        paths.append((club.get_absolute_url(), False))
    return paths


def sheet_pages(sheet) -> list[tuple[str, bool]]:
    if sheet is None:
        return []
    base = sheet.get_absolute_url()
    return [
        (base, False),
        (f"{base}hands/new/", True),
        (f"{base}stats/", False),
        (f"{base}chart/", True),
        (f"{base}live/?revision={sheet.revision}", True),
        (sheet.get_view_url(), False),
    ]


def ask_pages(languages: list[str], paths: list[tuple[str, bool]], both: bool) -> int:
    """GET ``paths`` through the app itself (its middleware, views and templates), as a browser
    in each of ``languages`` would: with and without htmx (``both``), or as the app asks for each
    (pages without, fragments with). How many requests."""
    from scoresheet.wsgi import application

    count = 0
    for language in languages:
        for path, htmx in paths:
            for asked in (False, True) if both else (htmx,):
                ask(application, path, language, asked)
                count += 1
    return count


def ask(application, path: str, language: str, htmx: bool) -> int:
    """One GET through the WSGI application; its status code. The body is read and dropped."""
    path, _, query = path.partition("?")
    environ = {
        "REQUEST_METHOD": "GET",
        "PATH_INFO": path,
        "QUERY_STRING": query,
        "SCRIPT_NAME": "",
        "SERVER_NAME": host(),
        "SERVER_PORT": "443" if settings.HTTPS else "80",
        "SERVER_PROTOCOL": "HTTP/1.1",
        # A host the app answers to: any other would be refused, and logged as an error.
        "HTTP_HOST": host(),
        "HTTP_ACCEPT_LANGUAGE": language,
        "HTTP_ACCEPT_ENCODING": "gzip",
        "REMOTE_ADDR": "127.0.0.1",
        "wsgi.version": (1, 0),
        "wsgi.url_scheme": "https" if settings.HTTPS else "http",
        "wsgi.input": io.BytesIO(),
        "wsgi.errors": io.StringIO(),
        "wsgi.multithread": False,
        "wsgi.multiprocess": True,
        "wsgi.run_once": False,
    }
    if settings.HTTPS:
        # As the proxy says it (settings.SECURE_PROXY_SSL_HEADER): no redirect to https.
        environ["HTTP_X_FORWARDED_PROTO"] = "https"
    if htmx:
        environ["HTTP_HX_REQUEST"] = "true"
    status = []
    body = application(environ, lambda line, headers, exc_info=None: status.append(line))
    try:
        for _chunk in body:
            pass
    finally:
        if hasattr(body, "close"):
            body.close()
    return int(status[0].split()[0])


def host() -> str:
    allowed = [name.lstrip(".") for name in settings.ALLOWED_HOSTS if name != "*"]
    return allowed[0] if allowed else "localhost"
