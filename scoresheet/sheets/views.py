"""A session's pages: starting one, the sheet (and its live poll), the rules, the players'
names, the statistics, the chart and the share page. Thin: each parses with a form, calls the
write module (``writes.py``) or reads what is stored, and renders; the hands' views are
``hands.py``, the files' ``files/views.py``.

Every action works as a plain form (POST, then redirect); with htmx the same URL answers
with the fragments that changed, swapped out of band.
"""

import io
import uuid
from functools import reduce

import segno
from django.contrib import messages
from django.http import Http404, HttpResponse, HttpResponseBadRequest
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_safe

from scoresheet import chart, keys, numbers, recent, scoring, stats, tally
from scoresheet.models import Club, Sheet
from scoresheet.sheets import around, offline, rows, summary, writes
from scoresheet.sheets.forms import RenameForm, RulesForm, SheetForm

# The sheet page shows the latest hands (what the table looks back at), and "Earlier hands"
# pages back through the others, a longer page at a time: no page grows with the session.
LATEST = 20
PAGE = 100
# A hand number beyond this is no hand (and too big for the database's integers).
MAX_NUMBER = 2**31 - 1


def get_sheet(token: str, readonly: bool = False) -> Sheet:
    """The sheet a link opens: the full-access token, or (``readonly``) the read-only one.

    Every view that changes a sheet calls this with the full-access token only, so a
    read-only link can never reach a write (404). What the sheet is part of (a club night's
    table, ``around``) comes with it, in the same query.
    """
    sheets = around.related(Sheet.objects.all())
    if readonly:
        return get_object_or_404(sheets, view_token=token)
    return get_object_or_404(sheets, token=token)


def links(sheet: Sheet, readonly: bool) -> dict:
    """The URLs a page of this sheet links to, under the link it was opened with."""
    if readonly:
        token, prefix = sheet.view_token, "view_"
    else:
        token, prefix = sheet.token, ""
    return {
        name: reverse(prefix + name, args=[token])
        for name in (
            "sheet",
            "export_csv",
            "export_json",
            "statistics",
            "chart",
            "live",
            # After the game: the summary and the printed sheet (after_views.py).
            "summary",
            "print_sheet",
            "export_xlsx",
        )
    }


def chart_points(sheet: Sheet, seats: int) -> tuple[dict, int]:
    """The running totals the chart draws (``chart.sampled``), by hand number, from the sheet's
    checkpoints (``tally.Checkpoints``: at most a few hundred, whatever the session's length):
    no hand is read. And the checkpoints' step, which the chart's is a multiple of."""
    checkpoints = tally.Checkpoints.from_data(sheet.checkpoints)
    kept = dict(zip(checkpoints.numbers(), checkpoints.totals, strict=True))
    kept |= {0: (0,) * seats, sheet.hand_count: sheet.totals}
    wanted = chart.sampled(sheet.hand_count, checkpoints.every)
    return {number: tuple(kept[number]) for number in wanted}, checkpoints.every


def running_chart(sheet: Sheet, names: list[str]) -> str:
    """The running-totals chart; chart.py escapes every text, so it is safe HTML."""
    points, kept = chart_points(sheet, len(names))
    return mark_safe(chart.draw(points, sheet.totals, names, gettext=_, kept=kept))


def seat_names(sheet: Sheet) -> list[str]:
    return list(sheet.seats.values_list("name", flat=True))


def shown_page(request) -> int | None:
    """The ``before`` of a page of earlier hands: the first hand number it does not show."""
    before = numbers.read(request.GET.get("before", ""))
    return before if before is not None and 1 < before <= MAX_NUMBER else None


def sheet_context(sheet: Sheet, readonly: bool = False, before: int | None = None, **extra):
    """Everything the sheet page shows: the totals, and the ``LATEST`` hands, or the ``PAGE``
    hands before ``before``, read from what is stored."""
    names = seat_names(sheet)
    sheet_links = links(sheet, readonly)
    latest = before is None or before > sheet.hand_count
    end = sheet.hand_count + 1 if latest else before
    start = max(1, end - (LATEST if latest else PAGE))
    hands, running = page_of(sheet, start, end, len(names))
    rules = sheet.game_rules
    last_hand = hands[-1] if latest and hands else None
    if not latest:
        last_hand = sheet.numbered_hands().order_by("-position").first()
    return {
        "sheet": sheet,
        "readonly": readonly,
        "links": sheet_links,
        "names": names,
        "rows": [
            rows.build(hand.row(len(names), rules), names, sheet_links["sheet"], totals)
            for hand, totals in zip(hands, running, strict=True)
        ],
        "hidden": start - 1,
        "later": 0 if latest else sheet.hand_count - end + 1,
        "earlier_page": start,
        "later_page": end + PAGE if end + PAGE <= sheet.hand_count else None,
        "scored": sheet.summary(),
        "chart": running_chart(sheet, names),
        "last_hand": last_hand,
        # What else the page shows, which its poll follows (a club night's draw).
        "around": around.version_of(sheet),
        **extra,
    }


def page_of(sheet: Sheet, start: int, end: int, seats: int) -> tuple[list, list]:
    """Hands ``start`` to ``end - 1`` and the running totals after each, in one query: the
    latest page counts back from the sheet's totals; an earlier one on from the checkpoint
    before it, reading the few hands between (fewer than the checkpoints' step)."""
    if end > sheet.hand_count:
        hands = list(_hands_between(sheet, start - 1, end))
        return hands, tally.before(sheet.totals, [hand.scores for hand in hands])
    checkpoints = tally.Checkpoints.from_data(sheet.checkpoints)
    kept, totals = checkpoints.at(start - 1, seats)
    read = list(_hands_between(sheet, kept, end))
    totals = reduce(tally.add, (hand.scores for hand in read if hand.number < start), totals)
    hands = [hand for hand in read if hand.number >= start]
    return hands, list(tally.running(totals, [hand.scores for hand in hands]))


def _hands_between(sheet: Sheet, after: int, before: int):
    """The hands numbered after ``after`` and before ``before``, with their numbers, read
    through the index of where they are stored."""
    return sheet.numbered_hands().filter(
        position__gt=sheet.position(after), position__lt=sheet.position(before)
    )


@require_http_methods(["GET", "HEAD", "POST"])
def new_sheet(request):
    """Start a session: the players, the first dealer, a name."""
    form = SheetForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            change = writes.start_sheet(
                data["name"],
                data["names"],
                data["first_dealer"],
                data["rules"],
                key=data["key"] or uuid.uuid4(),
            )
        except keys.KeyTaken:
            # A key spent on something else: a tampered form. Offer a fresh one.
            form = SheetForm(keys.renewed(request.POST))
            form.is_valid()
        else:
            # Sent twice (a double tap): the second opens the session the first made.
            recent.remember(request, recent.SHEETS, change.sheet)
            return redirect(change.sheet)
    return render(
        request,
        "scoresheet/new_sheet.html",
        {"form": form, "known_names": recent.known_names(request)},
    )


@require_safe
def sheet(request, token, readonly=False):
    """The score sheet: totals, one row per hand, and (full access) the actions."""
    sheet = get_sheet(token, readonly)
    recent.remember(request, recent.SHEETS, sheet, readonly)
    context = sheet_context(sheet, readonly, before=shown_page(request))
    if readonly:
        # A read-only link pasted in a chat shows its card (Open Graph tags, docs/using.md); the
        # full link has none.
        context["og"] = summary.open_graph(request, sheet, context["names"], sheet.get_view_url())
    return render(request, "scoresheet/sheet.html", context)


@require_safe
def live(request, token, readonly=False):
    """Polled by every open sheet while it is visible: 204 (one small query) while the sheet's
    revision, and what else it shows (``around``: a club night's draw), are what the page
    shows, else the regions a change can move, out of band; the revision they show in the
    ``X-Sheet-Revision`` header (the page reads it, not the markup)."""
    if "revision" in request.GET and numbers.read(request.GET["revision"]) is None:
        # A revision no page shows: a bad request, before any query. (The open form the poll
        # names is only a hint: one that names none is answered without a notice.)
        return HttpResponseBadRequest()
    lookup = {"view_token": token} if readonly else {"token": token}
    row = Sheet.objects.filter(**lookup).values_list("revision", *around.follows()).first()
    if row is None:
        raise Http404
    revision, *follows = row
    shown = request.GET.get("around", "") == around.version(follows)
    if request.GET.get("revision") == str(revision) and shown:
        response = HttpResponse(status=204)
        response[offline.REVISION] = str(revision)
        return response
    sheet = get_sheet(token, readonly)
    context = sheet_context(sheet, readonly, change="all")
    if not readonly:
        context["stale"] = stale_form(sheet, request.GET)
    response = render(request, "scoresheet/sheet.html#live", context)
    response[offline.REVISION] = str(sheet.revision)
    return response


def stale_form(sheet: Sheet, data) -> dict | None:
    """What the hand form open on the polling phone missed, if anything: its hand corrected
    ("changed") or deleted ("gone") on another phone, or, for a new hand, that hand entered
    there ("entered"). The poll names the form: ``hand`` and ``version`` for a correction,
    ``number`` for a new hand."""
    key, version = parse_key(data.get("hand")), parse_version(data)
    if key is not None and version is not None:
        hand = sheet.numbered_hands().filter(key=key).only("position", "version").first()
        if hand is None:
            return {"kind": "gone"}
        if hand.version != version:
            return {"kind": "changed", "number": hand.number}
        return None
    number = numbers.read(data.get("number", ""))
    if number is not None and 1 <= number <= sheet.hand_count:
        return {"kind": "entered", "number": number, "next": sheet.hand_count + 1}
    return None


@require_safe
def running_totals(request, token, readonly=False):
    """The chart alone: the sheet's script fetches it after a change, while it is open."""
    sheet = get_sheet(token, readonly)
    context = {"chart": running_chart(sheet, seat_names(sheet)), "oob": True}
    return render(request, "scoresheet/_chart.html", context)


def parse_version(data) -> int | None:
    """The version a correction started from, or None when it is not a version."""
    return numbers.read(data.get("version", ""))


def parse_key(value) -> uuid.UUID | None:
    try:
        return uuid.UUID(str(value))
    except ValueError:
        return None


@require_http_methods(["GET", "HEAD", "POST"])
def rules(request, token):
    """Change the session's rules: the new totals first, then every hand re-scored at once."""
    sheet = get_sheet(token)
    if request.method != "POST":
        form = RulesForm(initial=sheet.game_rules.to_data(), seats=len(sheet.totals))
        return render(request, "scoresheet/rules.html", {"sheet": sheet, "form": form})
    form = RulesForm(request.POST, seats=len(sheet.totals))
    context = {"sheet": sheet, "form": form}
    proposed = form.check_seats(len(sheet.totals)) if form.is_valid() else None
    changed_meanwhile = False
    status = 200
    revision = numbers.read(request.POST.get("revision", ""))
    if proposed is not None and "confirm" in request.POST and revision is None:
        # A revision no page sends: nothing changes, the totals come back to confirm again.
        form.add_error(None, _("This form had expired; check the new totals and confirm again."))
        status = offline.TAMPERED
    elif proposed is not None and "confirm" in request.POST:
        # A confirmation applies the totals it showed (its revision), or shows them again.
        try:
            change = writes.change_rules(token, proposed, revision)
        except (scoring.InvalidRules, writes.HandRefused) as error:
            refused_rules(form, error)
            proposed = None
        else:
            if change.done:
                messages.success(
                    request,
                    _("Rules changed to %(rules)s: every hand was re-scored.")
                    % {"rules": proposed.in_words(_)},
                )
                return redirect(change.sheet)
            sheet, changed_meanwhile = change.sheet, True
    if proposed is not None:
        context |= compared(sheet, form, proposed, changed_meanwhile)
    return render(request, "scoresheet/rules.html", context, status=status)


def compared(sheet, form, proposed: scoring.Rules, changed_meanwhile: bool) -> dict:
    """What the rules page shows before a change of rules is confirmed: each player's total
    now and under ``proposed``; nothing, and ``form``'s error, when a hand refuses them."""
    try:
        totals = writes.rescored_under(sheet, proposed)
    except (scoring.InvalidRules, writes.HandRefused) as error:
        refused_rules(form, error)
        return {}
    names = seat_names(sheet)
    return {
        "sheet": sheet,
        "proposed": proposed,
        "comparison": list(zip(names, sheet.totals, totals, strict=True)),
        "changed_meanwhile": changed_meanwhile,
    }


@require_http_methods(["GET", "HEAD", "POST"])
def players(request, token):
    """Rename the players and the session: every page and export follows the new names."""
    sheet = get_sheet(token)
    names = seat_names(sheet)
    if request.method == "POST":
        form = RenameForm(request.POST, seats=len(names))
        if form.is_valid():
            data = form.cleaned_data
            change = writes.rename(token, data["name"], data["names"])
            if change.done:
                messages.success(request, _("Names saved."))
            else:
                messages.info(request, _("The names were already these: nothing changed."))
            return redirect(change.sheet)
    else:
        initial = {"name": sheet.name} | {f"player_{n}": name for n, name in enumerate(names)}
        form = RenameForm(initial=initial, seats=len(names))
    context = {
        "sheet": sheet,
        "form": form,
        "club": Club.objects.filter(club_sheets__sheet=sheet).first(),
        "known_names": recent.known_names(request),
    }
    return render(request, "scoresheet/players.html", context)


def refused_rules(form: RulesForm, error: Exception) -> None:
    """Why the sheet cannot take these rules, on the form: a rule, or a hand it refuses."""
    if isinstance(error, writes.HandRefused):
        for message in error.messages(_):
            form.add_error(None, message)
        return
    for problem in error.problems:
        field = problem.field if problem.field in form.fields else None
        form.add_error(field, problem.translated(_))


@require_safe
def statistics(request, token, readonly=False):
    """A session's statistics and its running-totals chart."""
    sheet = get_sheet(token, readonly)
    names = seat_names(sheet)
    counters = stats.Counters.from_data(sheet.statistics, len(names))
    context = {
        "sheet": sheet,
        "readonly": readonly,
        "links": links(sheet, readonly),
        "names": names,
        "stats": counters.statistics(tuple(sheet.totals)),
        "chart": running_chart(sheet, names),
    }
    return render(request, "scoresheet/stats.html", context)


# Sharing: the two links and their QR codes.


@require_safe
def qr_code(request, token, readonly=False):
    """The QR code of a sheet's link (the read-only one under /v/), as SVG."""
    sheet = get_sheet(token, readonly)
    url = request.build_absolute_uri(
        sheet.get_view_url() if readonly else sheet.get_absolute_url()
    )
    svg = io.BytesIO()
    segno.make(url, error="m").save(svg, kind="svg", scale=6, border=2, title=url)
    response = HttpResponse(svg.getvalue(), content_type="image/svg+xml")
    # The image carries the secret: never cached by a shared cache.
    response["Cache-Control"] = "private, max-age=3600"
    return response


@require_safe
def share(request, token):
    """Both links of a sheet with their QR codes: one to play, one to watch."""
    sheet = get_sheet(token)
    context = {
        "sheet": sheet,
        "full_url": request.build_absolute_uri(sheet.get_absolute_url()),
        "view_url": request.build_absolute_uri(sheet.get_view_url()),
    }
    return render(request, "scoresheet/share.html", context)
