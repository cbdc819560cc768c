"""Views: thin wrappers that parse with a form, call the domain, and render.

Every action works as a plain form (POST, then redirect); with htmx the same URL answers
with the fragments that changed, swapped out of band.
"""

import io
import unicodedata
import uuid
from urllib.parse import quote

import segno
from django.contrib import messages
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.http import Http404, HttpResponse, StreamingHttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import translation
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from scoresheet import backup, chart, recent, scoring, stats, tally
from scoresheet import sheet as sheets
from scoresheet.forms import HandForm, ImportForm, SheetForm
from scoresheet.models import Hand, Seat, Sheet

RECENT_SHEETS = 30
# The sheet page shows the latest hands; "Show all" shows the others (the totals count all).
SHOWN = 100
# A read-only link in this browser's list of sheets, beside the full-access tokens.
READ_ONLY = "v/"


def remember(request, sheet: Sheet, names=(), readonly: bool = False) -> None:
    """Keep the sheet's token in this browser's own session, newest first.

    Tokens only (``names`` is not kept): the cookie stays far below the 4 KB browsers keep,
    however long the names; the names the new-session form suggests come from these sheets.
    """
    entry = READ_ONLY + sheet.view_token if readonly else sheet.token
    entries = [e for e in request.session.get("sheets", []) if e != entry]
    request.session["sheets"] = [entry, *entries][:RECENT_SHEETS]
    # Cookies written before names were looked up carried them: drop them.
    request.session.pop("names", None)


def get_sheet(token: str, readonly: bool = False) -> Sheet:
    """The sheet a link opens: the full-access token, or (``readonly``) the read-only one.

    Every view that changes a sheet calls this with the full-access token only, so a
    read-only link can never reach a write (404).
    """
    if readonly:
        return get_object_or_404(Sheet, view_token=token)
    return get_object_or_404(Sheet, token=token)


def links(sheet: Sheet, readonly: bool) -> dict:
    """The URLs a page of this sheet links to, under the link it was opened with."""
    if readonly:
        token, prefix = sheet.view_token, "view_"
    else:
        token, prefix = sheet.token, ""
    return {
        name: reverse(prefix + name, args=[token])
        for name in ("sheet", "export_csv", "export_json", "statistics", "chart")
    }


def running_chart(scored: sheets.Sheet, names: list[str]) -> str:
    """The running-totals chart; chart.py escapes every text it draws, so it is safe HTML."""
    return mark_safe(chart.running_totals(scored, names, gettext=_))


def sheet_context(sheet: Sheet, readonly: bool = False, show_all: bool = False, **extra) -> dict:
    """Everything the sheet page shows: the latest ``SHOWN`` rows unless ``show_all``."""
    names, hands, scored = sheet.load()
    rows = list(zip(scored.rows, hands, strict=True))
    hidden = 0 if show_all else max(0, len(rows) - SHOWN)
    return {
        "sheet": sheet,
        "readonly": readonly,
        "links": links(sheet, readonly),
        "names": names,
        "rows": rows[hidden:],
        "hidden": hidden,
        "scored": scored,
        "chart": running_chart(scored, names),
        "last_hand": hands[-1] if hands else None,
        **extra,
    }


def locked(sheet: Sheet) -> Sheet:
    """The sheet again, locked until the transaction ends: its changes happen one at a time."""
    return Sheet.objects.select_for_update().get(pk=sheet.pk)


def changed(sheet: Sheet) -> None:
    """Every change to a sheet's hands moves its revision on, in the same transaction."""
    sheet.revision += 1
    sheet.save(update_fields=["revision"])


def hand_at(sheet: Sheet, number: int) -> Hand:
    """The hand numbered ``number`` (from 1) in play order, or 404."""
    if number < 1:
        raise Http404
    hand = sheet.hands.all()[number - 1 : number].first()
    if hand is None:
        raise Http404
    return hand


def number_of(hand: Hand) -> int:
    return Hand.objects.filter(sheet_id=hand.sheet_id, id__lte=hand.id).count()


def recent_sheets(request) -> list[dict]:
    """This browser's sessions, newest first, each with its players, hand count and leaders."""
    entries = request.session.get("sheets", [])
    full = [e for e in entries if not e.startswith(READ_ONLY)]
    read_only = [e.removeprefix(READ_ONLY) for e in entries if e.startswith(READ_ONLY)]
    found = Sheet.objects.filter(Q(token__in=full) | Q(view_token__in=read_only))
    by_entry = {}
    for sheet in found.prefetch_related("seats", "hands"):
        by_entry[sheet.token] = (sheet, False)
        by_entry[READ_ONLY + sheet.view_token] = (sheet, True)
    recent, shown = [], set()
    for entry in entries:
        if entry not in by_entry or by_entry[entry][0].pk in shown:
            continue
        sheet, readonly = by_entry[entry]
        # A browser given both links of a sheet keeps the one that can play.
        readonly = readonly and sheet.token not in full
        shown.add(sheet.pk)
        names, hands, scored = sheet.load()
        recent.append(
            {
                "sheet": sheet,
                "url": sheet.get_view_url() if readonly else sheet.get_absolute_url(),
                "readonly": readonly,
                "names": names,
                "hands": len(hands),
                "leaders": [names[seat] for seat in scored.leaders],
            }
        )
    return recent


@require_GET
def home(request):
    """The sessions this browser created or opened, newest first, and the backup import."""
    context = {"recent": recent_sheets(request), "import_form": ImportForm()}
    return render(request, "scoresheet/home.html", context)


@require_http_methods(["GET", "POST"])
def new_sheet(request):
    """Start a session: the players, the first dealer, a name."""
    form = SheetForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        with transaction.atomic():
            sheet = Sheet.objects.create(name=data["name"], first_dealer=data["first_dealer"])
            Seat.objects.bulk_create(
                Seat(sheet=sheet, position=position, name=name)
                for position, name in enumerate(data["names"])
            )
        remember(request, sheet, data["names"])
        return redirect(sheet)
    return render(
        request,
        "scoresheet/new_sheet.html",
        {"form": form, "known_names": recent.known_names(request.session.get("sheets", []))},
    )


@require_GET
def sheet(request, token, readonly=False):
    """The score sheet: totals, one row per hand, and (full access) the actions."""
    sheet = get_sheet(token, readonly)
    remember(request, sheet, readonly=readonly)
    context = sheet_context(sheet, readonly, show_all="all" in request.GET)
    return render(request, "scoresheet/sheet.html", context)


@require_GET
def running_totals(request, token, readonly=False):
    """The chart alone: the sheet's script fetches it after a change, while it is open."""
    sheet = get_sheet(token, readonly)
    names, _hands, scored = sheet.load()
    context = {"chart": running_chart(scored, names), "oob": True}
    return render(request, "scoresheet/_chart.html", context)


def updated(request, sheet: Sheet, change: str = "all", number: int | None = None):
    """After a change: redirect a plain form, or send htmx the regions that changed.

    ``change`` is "edited" (row ``number``) or "all" (rows renumber); see ``appended``.
    """
    if not request.htmx:
        return redirect(sheet)
    context = sheet_context(sheet, change=change)
    if change == "edited":
        shown = number - 1 - context["hidden"]
        context["row"] = context["rows"][shown] if shown >= 0 else None
    return render(request, "scoresheet/sheet.html#changed", context)


def appended(request, sheet: Sheet, names: list[str], hand: Hand, row: sheets.Row, after):
    """After a new hand: its row, the totals and the next dealer, without re-reading the sheet."""
    if not request.htmx:
        return redirect(sheet)
    players = len(names)
    scored = sheets.Sheet(
        players=players,
        rows=(row,),
        totals=after.totals,
        next_dealer=sheets.dealer(sheet.first_dealer, after.count + 1, players),
        count=after.count,
    )
    context = {
        "sheet": sheet,
        "links": links(sheet, readonly=False),
        "names": names,
        "scored": scored,
        "row": (row, hand),
        "last_hand": hand,
        "change": "appended",
    }
    return render(request, "scoresheet/sheet.html#changed", context)


def form_page(request, sheet, form, *, editing=False, number=None, preview=None):
    """The hand form: a whole page, or the fragment htmx puts under the sheet."""
    template = "scoresheet/hand_form.html"
    if request.htmx:
        template += "#entry"
    if number is None:
        number = sheet.hands.count() + 1
    dealer = sheets.dealer(sheet.first_dealer, number, form.players)
    context = {
        "sheet": sheet,
        "form": form,
        "editing": editing,
        "number": number,
        "dealer": form.seats[dealer],
        "preview": preview,
    }
    return render(request, template, context)


def preview_of(form: HandForm) -> dict:
    """The row a valid form would save, or its problems; warnings either way."""
    if not form.is_valid():
        return {"errors": [e for errors in form.errors.values() for e in errors]}
    hand = form.cleaned_data["hand"]
    detail = scoring.breakdown(hand)
    return {
        "breakdown": detail,
        "scores": list(zip(form.seats, detail.scores, strict=True)),
        "warnings": [w.translated(_) for w in scoring.warnings(hand)],
        "converted": form.cleaned_data.get("counted_by_defence"),
    }


@require_http_methods(["GET", "POST"])
def hand_new(request, token):
    """Enter a hand (or a deal everyone passed); the form's key makes saving idempotent."""
    if request.method == "GET":
        sheet = get_sheet(token)
        seats = list(sheet.seats.values_list("name", flat=True))
        return form_page(request, sheet, HandForm(seats=seats))

    hand = None
    try:
        with transaction.atomic():
            # Locked from the start: a sheet's hands are stored one at a time, in order.
            sheet = get_object_or_404(Sheet.objects.select_for_update(), token=token)
            seats = list(sheet.seats.values_list("name", flat=True))
            form = HandForm(request.POST, seats=seats)
            if "preview" in request.POST:
                pass
            elif "passed" in request.POST:
                # A broken key cannot make a pass idempotent: the form comes back with a new one.
                if not form.expired:
                    hand = Hand(key=parse_key(request.POST.get("key")), passed=True)
            elif form.is_valid():
                hand = Hand.from_scoring(form.cleaned_data["hand"], key=form.cleaned_data["key"])
            if hand is not None:
                before = tally.current(sheet)
                hand.sheet = sheet
                # A key used before fails here (unique): the whole transaction is undone.
                hand.save(force_insert=True)
                changed(sheet)
                row = sheets.row(
                    len(seats), sheet.first_dealer, before.count + 1, hand.to_scoring(len(seats))
                )
                after = before.after(row.scores)
                tally.keep(sheet, after)
    except IntegrityError:
        first = Hand.objects.filter(key=hand.key).first()
        if first is not None and first.sheet_id == sheet.pk:
            # The same form sent again (a double tap, a resubmitted page): one hand.
            return updated(request, sheet)
        # The key belongs to another sheet: a tampered form. Offer a fresh one.
        form.renew_key()
        return form_page(request, sheet, form)
    if hand is None:
        preview = preview_of(form) if "preview" in request.POST else None
        return form_page(request, sheet, form, preview=preview)
    messages.success(request, _("Hand %(number)s saved.") % {"number": after.count})
    return appended(request, sheet, seats, hand, row, after)


@require_POST
def hand_preview(request, token):
    """The live preview under the hand form: the row it would save, or what is wrong."""
    sheet = get_sheet(token)
    seats = list(sheet.seats.values_list("name", flat=True))
    form = HandForm(request.POST, seats=seats)
    return render(
        request,
        "scoresheet/hand_form.html#preview",
        {"sheet": sheet, "form": form, "preview": preview_of(form)},
    )


@require_http_methods(["GET", "POST"])
def hand_edit(request, token, number):
    """Correct a hand: the same form, prefilled; the form's key names the hand it edits."""
    sheet = get_sheet(token)
    seats = list(sheet.seats.values_list("name", flat=True))
    if request.method == "GET":
        form = HandForm(seats=seats, initial=HandForm.initial_from(hand_at(sheet, number)))
        return form_page(request, sheet, form, editing=True, number=number)

    form = HandForm(request.POST, seats=seats)
    if "preview" in request.POST:
        return form_page(
            request, sheet, form, editing=True, number=number, preview=preview_of(form)
        )
    if not form.is_valid():
        return form_page(request, sheet, form, editing=True, number=number)
    with transaction.atomic():
        # Locked until saved: two phones correcting one hand are checked one after the other.
        sheet = locked(sheet)
        target = sheet.hands.filter(key=form.cleaned_data["key"]).first()
        if target is None:
            messages.error(request, _("That hand was deleted meanwhile; nothing was changed."))
            return updated(request, sheet)
        number = number_of(target)
        if form.cleaned_data.get("version") != target.version:
            # Someone saved this hand since this form was opened: show theirs, keep it.
            current = HandForm(seats=seats, initial=HandForm.initial_from(target))
            current.conflict = True
            return form_page(request, sheet, current, editing=True, number=number)
        edited = Hand.from_scoring(form.cleaned_data["hand"])
        for name in Hand.INPUTS:
            setattr(target, name, getattr(edited, name))
        target.version += 1
        target.save(update_fields=[*Hand.INPUTS, "version"])
        changed(sheet)
    messages.success(request, _("Hand %(number)s corrected.") % {"number": number})
    return updated(request, sheet, "edited", number)


@require_http_methods(["GET", "POST"])
def hand_delete(request, token, number):
    """Delete a hand after a confirmation; later hands renumber and the deal follows."""
    sheet = get_sheet(token)
    if request.method == "GET":
        hand = hand_at(sheet, number)
        template = "scoresheet/hand_delete.html"
        if request.htmx:
            template += "#entry"
        names = [seat.name for seat in sheet.seats.all()]
        row = sheets.row(len(names), sheet.first_dealer, number, hand.to_scoring(len(names)))
        context = {
            "sheet": sheet,
            "links": links(sheet, readonly=False),
            "names": names,
            "hand": hand,
            "number": number,
            "row": (row, hand),
        }
        return render(request, template, context)
    with transaction.atomic():
        sheet = locked(sheet)
        hand = sheet.hands.filter(key=parse_key(request.POST.get("key"))).first()
        if hand is None:
            messages.info(request, _("That hand was already deleted."))
        else:
            number = number_of(hand)
            hand.delete()
            changed(sheet)
            messages.success(request, _("Hand %(number)s deleted.") % {"number": number})
    return updated(request, sheet)


def parse_key(value) -> uuid.UUID | None:
    try:
        return uuid.UUID(str(value))
    except ValueError:
        return None


@require_POST
def undo(request, token):
    """Take back the last hand, if it is still the last one."""
    sheet = get_sheet(token)
    key = parse_key(request.POST.get("key"))
    with transaction.atomic():
        sheet = locked(sheet)
        last = sheet.hands.order_by("-id").first()
        if last is not None and last.key == key:
            number = sheet.hands.count()
            last.delete()
            changed(sheet)
            messages.success(request, _("Hand %(number)s undone.") % {"number": number})
        else:
            messages.info(request, _("Nothing to undo: the last hand has changed."))
    return updated(request, sheet)


@require_GET
def statistics(request, token, readonly=False):
    """A session's statistics and its running-totals chart."""
    sheet = get_sheet(token, readonly)
    names, _hands, scored = sheet.load()
    context = {
        "sheet": sheet,
        "readonly": readonly,
        "links": links(sheet, readonly),
        "names": names,
        "stats": stats.build(scored),
        "chart": running_chart(scored, names),
    }
    return render(request, "scoresheet/stats.html", context)


# Files: the CSV for spreadsheets, the JSON backup, and restoring a backup.


def attachment(filename: str) -> str:
    """A Content-Disposition for a download: the UTF-8 name (RFC 5987) and an ASCII fallback."""
    ascii_name = unicodedata.normalize("NFKD", filename).encode("ascii", "ignore").decode()
    ascii_name = "".join(c if c.isalnum() or c in " .,()-_" else "_" for c in ascii_name)
    ascii_name = " ".join(ascii_name.split())
    return f"attachment; filename=\"{ascii_name}\"; filename*=UTF-8''{quote(filename, safe='')}"


@require_GET
def export_csv(request, token, readonly=False):
    """The sheet as CSV for a spreadsheet, streamed row by row."""
    sheet = get_sheet(token, readonly)
    language = translation.get_language()

    def lines():
        # The body is produced after the view returns: keep the request's language for it.
        with translation.override(language):
            yield from backup.csv_lines(sheet)

    response = StreamingHttpResponse(lines(), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = attachment(backup.filename(sheet, "csv"))
    return response


@require_GET
def export_json(request, token, readonly=False):
    """The sheet's backup: a JSON file that restores it exactly."""
    sheet = get_sheet(token, readonly)
    response = HttpResponse(
        backup.dumps(backup.dump(sheet)), content_type="application/json; charset=utf-8"
    )
    response["Content-Disposition"] = attachment(backup.filename(sheet, "json"))
    return response


@require_POST
def import_backup(request):
    """Restore a backup file as a new session, or show the home page with why it was refused."""
    form = ImportForm(request.POST, request.FILES)
    if form.is_valid():
        sheet = backup.restore(form.cleaned_data["backup"])
        remember(request, sheet)
        messages.success(request, _("Backup restored: “%(name)s”.") % {"name": sheet.name})
        return redirect(sheet)
    context = {"recent": recent_sheets(request), "import_form": form}
    return render(request, "scoresheet/home.html", context)


# Sharing: the two links and their QR codes.


@require_GET
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


@require_GET
def share(request, token):
    """Both links of a sheet with their QR codes: one to play, one to watch."""
    sheet = get_sheet(token)
    context = {
        "sheet": sheet,
        "full_url": request.build_absolute_uri(sheet.get_absolute_url()),
        "view_url": request.build_absolute_uri(sheet.get_view_url()),
    }
    return render(request, "scoresheet/share.html", context)
