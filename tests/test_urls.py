"""Every URL of the app (scoresheet/urls.py and the ones it includes), walked from the resolver:
each page GET answers, HEAD answers too, with the same status and headers and no body
(``require_safe``: a monitor, a link checker or a proxy's check may ask HEAD)."""

import time
import uuid
from datetime import date

import pytest
from django.urls import URLPattern, URLResolver, get_resolver, reverse

from scoresheet import scoring
from scoresheet.clubs import writes as club_writes
from scoresheet.files import import_jobs
from scoresheet.models import ClubSheet
from scoresheet.nights import writes as night_writes
from scoresheet.sheets import writes

pytestmark = pytest.mark.django_db

# Django's own: the admin and the language switch (a POST).
NOT_OURS = ("admin/", "i18n/")


def routes(resolver=None, prefix="") -> list[tuple[str, str]]:
    """Every named route of the app, as (name, route) with the including prefixes."""
    found = []
    for pattern in (resolver or get_resolver()).url_patterns:
        route = prefix + str(pattern.pattern)
        if route.startswith(NOT_OURS):
            continue
        if isinstance(pattern, URLResolver):
            found += routes(pattern, route)
        elif isinstance(pattern, URLPattern) and pattern.name:
            found.append((pattern.name, route))
    return found


@pytest.fixture
def everything():
    """A session with a hand, a club with a player, a session of its own and a night."""
    sheet = writes.create_sheet("Vendredi", ["Ana", "Ben", "Chloé", "Dan"], 0)
    writes.add_hand(sheet.token, scoring.Hand(4, 0, "garde", 2, 56), uuid.uuid4())
    club = club_writes.create_club("Le Petit", players=["Ana", "Ben", "Chloé", "Dan"]).club
    names = ["Ana", "Ben", "Chloé", "Dan", "Élise", "Farid", "Gaëlle", "Hugo"]
    night = night_writes.create_night(
        club, "Jeudi", date(2026, 12, 3), names, 2, 2, seed="123456"
    ).night
    session = ClubSheet.objects.filter(club=club).first()
    # A large club import's page, while it writes.
    job = "f" * 32
    import_jobs.jobs().set(job, {"state": "writing", "started": time.time(), "name": "X"}, 60)
    return {
        "job": job,
        "sheet": sheet,
        "s/": {"token": sheet.token, "number": 1},
        "v/": {"token": sheet.view_token},
        "c/": {"token": club.token, "number": night.number, "session": session.pk},
        "cv/": {"token": club.view_token, "number": night.number},
        "player": club.players.first().pk,
        "tv/": night.screen,
    }


def arguments(route: str, objects: dict) -> dict:
    """The URL's arguments, taken from the objects its prefix names."""
    if "<str:job>" in route:
        return {"job": objects["job"]}
    if route.startswith("tv/"):
        return {"code": objects["tv/"]}
    if not route.startswith(("s/", "v/", "c/", "cv/")):
        return {}
    prefix = route.split("/")[0] + "/"
    values = objects[prefix]
    kwargs = {"token": values["token"]}
    if "<hand:number>" in route or "<night:number>" in route:
        kwargs["number"] = values["number"]
    if "<id:pk>" in route:
        kwargs["pk"] = values["session"] if "sessions/" in route else objects["player"]
    return kwargs


def test_every_page_answers_head_as_it_answers_get(client, everything):
    pages, posts_only = [], []
    for name, route in routes():
        path = reverse(name, kwargs=arguments(route, everything))
        got = client.get(path)
        if got.status_code == 405:
            assert client.head(path).status_code == 405, path
            posts_only.append(path)
            continue
        assert got.status_code in (200, 302), (path, got.status_code)
        head = client.head(path)
        assert head.status_code == got.status_code, (path, head.status_code)
        assert head["Content-Type"] == got["Content-Type"], path
        assert b"".join(head) == b"", path
        pages.append(path)
    # Every page of the app was asked, sessions, clubs, nights and files alike.
    assert len(pages) >= 45, pages
    assert posts_only, "the POST-only URLs (list, theme, detaching) are in the walk"
    assert {"/", "/healthz", "/sw.js", "/new/", "/club/new/"} <= set(pages)
    # HEAD changed nothing: the hand its delete page was asked about is still there.
    assert everything["sheet"].hands.count() == 1
