"""A per-client limit on writes and previews, that a real table never reaches.

Every POST (saving, correcting or deleting a hand, the live preview, a new session, an import)
counts against its client's IP address and the session it addresses: ``RATE_LIMIT`` (120 a
minute by default) per client per session, 429 beyond. django-ratelimit keeps the counts in the
"ratelimit" cache, a table of the app's database (``CounterCache``): shared by every gunicorn
worker and every app server on one PostgreSQL, and atomic, so the limit holds however many
processes answer.
"""

import ipaddress

from django.conf import settings
from django.core.cache.backends.db import DatabaseCache
from django.db import connections, router, transaction
from django.shortcuts import render
from django_htmx.http import reswap, retarget
from django_ratelimit.core import get_usage


class CounterCache(DatabaseCache):
    """Django's database cache with an atomic ``incr()``: the row is locked (SELECT … FOR
    UPDATE; SQLite's IMMEDIATE transaction locks the database) from its read to its write, so
    two workers counting at once never lose a count."""

    def incr(self, key, delta=1, version=None):
        db = router.db_for_write(self.cache_model_class)
        connection = connections[db]
        with transaction.atomic(using=db):
            if connection.features.has_select_for_update:
                table = connection.ops.quote_name(self._table)
                column = connection.ops.quote_name("cache_key")
                with connection.cursor() as cursor:
                    cursor.execute(
                        f"SELECT {column} FROM {table} WHERE {column} = %s FOR UPDATE",
                        [self.make_and_validate_key(key, version=version)],
                    )
            return super().incr(key, delta, version=version)


def client(request) -> str:
    """The client's address; an IPv6 client is its /64, the block one device is given."""
    address = request.META.get("REMOTE_ADDR") or "unknown"
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address
    if ip.version == 6:
        return str(ipaddress.ip_network(f"{ip}/64", strict=False).network_address)
    return str(ip)


def client_and_sheet(group, request) -> str:
    match = request.resolver_match
    token = match.kwargs.get("token", "") if match else ""
    return f"{client(request)} {token}"


def rate(group, request) -> str:
    # Read at each request, so that a test (or the environment) sets it.
    return settings.RATE_LIMIT


class RateLimitMiddleware:
    """Answers 429 to a client past ``RATE_LIMIT`` POSTs to one session (or to the pages that
    make sessions), before the view runs: nothing is written."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_view(self, request, view, args, kwargs):
        if request.method != "POST" or getattr(view, "rate_limit_exempt", False):
            return None
        usage = get_usage(request, group="post", key=client_and_sheet, rate=rate, increment=True)
        if usage is None or not usage["should_limit"]:
            return None
        return too_many_requests(request, max(1, usage["time_left"]))


def too_many_requests(request, retry_after: int):
    """The 429 answer: a message htmx puts above the page (the form keeps what was typed), or
    a small page."""
    if getattr(request, "htmx", False):
        response = retarget(render(request, "_rate_limited.html", status=429), "#main")
        reswap(response, "afterbegin")
    else:
        response = render(request, "429.html", status=429)
    response["Retry-After"] = str(retry_after)
    return response
