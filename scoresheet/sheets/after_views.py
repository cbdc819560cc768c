"""After the game: the evening's summary and its picture, and the whole sheet on
paper (the spreadsheet files are the files' views, ``files/views.py``).

Every page here reads what is stored: the summary a few aggregate queries, the picture the
same figures, the printed sheet the hands in chunks, streamed.
"""

from django.http import (
    Http404,
    HttpResponse,
    HttpResponseNotModified,
    StreamingHttpResponse,
)
from django.shortcuts import render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation
from django.utils.formats import date_format
from django.utils.http import parse_etags
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from scoresheet import filenames, numbers, recent
from scoresheet.models import Sheet, local_time
from scoresheet.sheets import feuille, summary, summary_image
from scoresheet.sheets.views import get_sheet, links, seat_names

# Where the printed sheet's rows go in its page (print.html).
HANDS_MARK = "<!-- hands -->"


def day(sheet: Sheet) -> str:
    """The session's date, in the request's language."""
    return date_format(local_time(sheet.created).replace(tzinfo=None), "DATE_FORMAT")


def share_url(request, sheet: Sheet) -> str:
    """The link a shared summary carries: the read-only summary, never the full link."""
    return request.build_absolute_uri(reverse("view_summary", args=[sheet.view_token]))


@require_safe
def summary_page(request, token, readonly=False):
    """The evening's summary: the standings with places, the facts, and sharing them."""
    sheet = get_sheet(token, readonly)
    recent.remember(request, recent.SHEETS, sheet, readonly)
    names = seat_names(sheet)
    facts = summary.read(sheet, names)
    url = share_url(request, sheet)
    title = _("%(name)s: the results") % {"name": sheet.name}
    context = {
        "sheet": sheet,
        "readonly": readonly,
        "links": links(sheet, readonly),
        "names": names,
        "summary": facts,
        "day": day(sheet),
        "share_text": summary.share_text(title, facts, url),
        "share_title": title,
        "share_url": url,
        "image_url": reverse("view_summary_png", args=[sheet.view_token]),
        "image_name": filenames.filename(sheet, "png"),
    }
    if readonly:
        context["og"] = summary.open_graph(
            request, sheet, names, reverse("view_summary", args=[token])
        )
    return render(request, "scoresheet/summary.html", context)


@require_safe
def summary_png(request, token):
    """The summary as a 1200 × 630 picture (the Open Graph image), under the read-only link;
    its ETag is the sheet's revision and the language, so an unchanged sheet answers 304."""
    found = Sheet.objects.filter(view_token=token).values_list("revision", flat=True).first()
    if found is None:
        raise Http404
    language = translation.get_language()
    etag = f'"{found}-{language}-{summary_image.VERSION}"'
    # Compared weakly (RFC 9110): GZipMiddleware sends it back as W/"…".
    asked = {
        tag.removeprefix("W/") for tag in parse_etags(request.headers.get("If-None-Match", ""))
    }
    if etag in asked or "*" in asked:
        response = HttpResponseNotModified()
    else:
        sheet = get_sheet(token, readonly=True)
        response = HttpResponse(picture(sheet), content_type="image/png")
    response["ETag"] = etag
    # Asked again each time (a new hand changes it), answered 304 while nothing changed; kept
    # out of shared caches, as the link it lives under.
    response["Cache-Control"] = "private, no-cache"
    return response


def picture(sheet: Sheet) -> bytes:
    """The summary's PNG, in the active language."""
    names = seat_names(sheet)
    places = summary.places(names, sheet.totals)
    played = bool(sheet.hand_count)
    lines = [
        summary_image.Line(
            place.place if played else 1, place.name, numbers.signed(place.total), place.total
        )
        for place in places
    ]
    subtitle = " · ".join(
        [day(sheet), summary.hands_words(sheet.hand_count), sheet.game_rules.in_words(_)]
    )
    image = summary_image.draw(sheet.name, subtitle, lines, _("Tarot score sheet"))
    return summary_image.png(image)


@require_safe
def print_sheet(request, token, readonly=False):
    """The whole session as a paper feuille de marque (A4 portrait): its page is streamed, the
    hands read from the database a chunk at a time."""
    sheet = get_sheet(token, readonly)
    names = seat_names(sheet)
    rules = sheet.game_rules
    context = {
        "sheet": sheet,
        "readonly": readonly,
        "links": links(sheet, readonly),
        "names": names,
        "day": day(sheet),
        "hands_mark": HANDS_MARK,
        "places": summary.places(names, sheet.totals),
    }
    # The page around the rows is rendered now (its CSP nonce goes into this response's
    # header); the rows follow, a chunk at a time, once the response is on its way.
    page = render_to_string("scoresheet/print.html", context, request)
    head, tail = page.split(HANDS_MARK)
    language = translation.get_language()

    def body():
        yield head
        with translation.override(language):
            markup = feuille.Markup(names)
            for chunk in feuille.chunks(sheet, names, rules):
                yield markup.rows(chunk)
        yield tail

    return StreamingHttpResponse(body(), content_type="text/html; charset=utf-8")
