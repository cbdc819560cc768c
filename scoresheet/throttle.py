"""A per-client limit on writes and previews, that a real table never reaches; and who the
client is, behind the proxy.

Every POST (saving, correcting or deleting a hand, the live preview, a new session, an import)
counts against its client's IP address and the session or club it addresses: ``RATE_LIMIT`` (120
a minute by default) per client per session, 429 beyond. A POST that names no session or club,
or one that does not exist, counts against the client alone. django-ratelimit keeps the counts
in the "ratelimit" cache, a table of the app's database (``CounterCache``): shared by every
gunicorn worker and every app server on one PostgreSQL, and atomic, so the limit holds however
many processes answer.

The client is the connection's peer, unless that peer is one of ``TRUSTED_PROXIES``: then it is
the right-most address of ``X-Forwarded-For`` that is not a trusted proxy (each proxy appends
the address it was reached from, so everything left of that may be the client's own invention).
"""

import functools
import ipaddress

from django.conf import settings
from django.core.cache.backends.db import DatabaseCache
from django.db import connections, router, transaction
from django.shortcuts import render
from django_htmx.http import reswap, retarget
from django_ratelimit.core import get_usage

from scoresheet.models import Club, Sheet


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


Network = ipaddress.IPv4Network | ipaddress.IPv6Network


@functools.cache
def networks(proxies: tuple[str, ...]) -> tuple[Network, ...]:
    """``TRUSTED_PROXIES``' addresses and networks (settings.py has checked them)."""
    return tuple(ipaddress.ip_network(proxy, strict=False) for proxy in proxies)


def address(text: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    try:
        return ipaddress.ip_address(text.strip())
    except ValueError:
        return None


def client_address(meta) -> str:
    """The client's address from a request's META (or a WSGI environ): the peer, or, when the
    peer is a trusted proxy, the right-most address of X-Forwarded-For that is not one. When
    every address there is a proxy's, the left-most (the first proxy the request reached)."""
    peer = meta.get("REMOTE_ADDR") or ""
    trusted = networks(tuple(settings.TRUSTED_PROXIES))

    def is_proxy(ip) -> bool:
        return ip is not None and any(ip in network for network in trusted)

    if not trusted or not is_proxy(address(peer)):
        return peer
    hops = [hop.strip() for hop in meta.get("HTTP_X_FORWARDED_FOR", "").split(",")]
    hops = [hop for hop in hops if hop]
    for hop in reversed(hops):
        if not is_proxy(address(hop)):
            return hop
    return hops[0] if hops else peer


def client(request) -> str:
    """The client's address as the rate limit counts it; an IPv6 client is its /64, the block
    one device is given."""
    text = client_address(request.META) or "unknown"
    ip = address(text)
    if ip is None:
        return text
    if ip.version == 6:
        return str(ipaddress.ip_network(f"{ip}/64", strict=False).network_address)
    return str(ip)


def owner(request) -> str:
    """The session's or club's token a POST addresses, when one exists (one indexed query);
    else "": a token that names nothing counts with the client's POSTs that name no session,
    so a flood of invented tokens writes no counter of its own and is refused like any other."""
    match = request.resolver_match
    token = match.kwargs.get("token", "") if match else ""
    if not token:
        return ""
    model = Club if match.route.startswith(("c/", "cv/")) else Sheet
    return token if model.objects.filter(token=token).exists() else ""


def client_and_owner(group, request) -> str:
    return f"{client(request)} {owner(request)}"


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
        usage = get_usage(request, group="post", key=client_and_owner, rate=rate, increment=True)
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
