"""The night after the game: its summary, its picture (the Open Graph image, with an ETag) and
its ranking on paper (A4). Like a session's (``sheets/after_views.py``); the spreadsheet and
CSV files are the files' views (``files/views.py``)."""

from django.http import Http404, HttpResponse, HttpResponseNotModified
from django.shortcuts import render
from django.urls import reverse
from django.utils import translation
from django.utils.formats import date_format
from django.utils.http import parse_etags
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from scoresheet import filenames
from scoresheet.models import Night
from scoresheet.nights import html, ranking, summary
from scoresheet.nights.views import get_night, night_links
from scoresheet.sheets import summary_image

# Beyond this many rounds the printed ranking turns the page (A4 landscape).
PORTRAIT_ROUNDS = 10


def day(night: Night) -> str:
    """The night's date, in the request's language."""
    return date_format(night.date, "DATE_FORMAT")


def read_only_page(night: Night, name: str) -> str:
    """The read-only link of one of the night's pages: the only one a shared night carries."""
    return reverse("view_" + name, args=[night.club.view_token, night.number])


@require_safe
def night_summary(request, token, number, readonly=False):
    """The night's summary: the final ranking with places and rounds, its facts, sharing it."""
    night = get_night(token, number, readonly)
    facts = summary.read(night)
    url = request.build_absolute_uri(read_only_page(night, "night_summary"))
    title = _("%(name)s: the results") % {"name": night.name}
    image_url = reverse("view_night_summary_png", args=[night.club.view_token, night.number])
    context = {
        "night": night,
        "club": night.club,
        "readonly": readonly,
        "links": night_links(night, readonly),
        "summary": facts,
        "rounds": facts.rounds,
        "ranking_rows": html.ranking_rows(facts.lines),
        "day": day(night),
        "share_text": summary.share_text(title, facts.lines, url),
        "share_title": title,
        "image_url": image_url,
        "image_name": filenames.filename(night, "png"),
    }
    if readonly:
        context["og"] = summary.open_graph(request, facts.view, request.path)
    return render(request, "scoresheet/nights/summary.html", context)


@require_safe
def night_summary_png(request, token, number):
    """The night's picture, 1200 × 630, under the read-only link; its ETag is the night's
    version (its revision and its sheets'), the language and the drawing's, so that an
    unchanged night answers 304."""
    row = Night.objects.filter(number=number, club__view_token=token).values("pk", "revision")
    row = row.first()
    if row is None:
        raise Http404
    version = ranking.current_version(row["pk"], row["revision"])
    language = translation.get_language()
    etag = f'"{version}-{language}-{summary_image.VERSION}"'
    # Compared weakly (RFC 9110): GZipMiddleware sends it back as W/"…".
    asked = {
        tag.removeprefix("W/") for tag in parse_etags(request.headers.get("If-None-Match", ""))
    }
    if etag in asked or "*" in asked:
        response = HttpResponseNotModified()
    else:
        night = get_night(token, number, readonly=True)
        view = ranking.read(night)
        png = summary.picture(night, view.lines, summary.deals_played(view), day(night))
        response = HttpResponse(png, content_type="image/png")
    response["ETag"] = etag
    # Asked again each time (a new hand changes it), answered 304 while nothing changed; kept
    # out of shared caches, as the link it lives under.
    response["Cache-Control"] = "private, no-cache"
    return response


@require_safe
def night_print(request, token, number, readonly=False):
    """The night's ranking on paper: A4 (landscape past ``PORTRAIT_ROUNDS`` rounds), place,
    player, a column per round, total; nothing to tap on it."""
    night = get_night(token, number, readonly)
    view = ranking.read(night)
    rounds = list(range(1, max(night.drawn, 1) + 1))
    context = {
        "night": night,
        "club": night.club,
        "readonly": readonly,
        "links": night_links(night, readonly),
        "rounds": rounds,
        "ranking_rows": html.ranking_rows(view.lines),
        "day": day(night),
        "deals": summary.deals_played(view),
        "landscape": len(rounds) > PORTRAIT_ROUNDS,
    }
    if readonly:
        context["og"] = summary.open_graph(request, view, request.path)
    return render(request, "scoresheet/nights/print.html", context)
