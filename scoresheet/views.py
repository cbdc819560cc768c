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
from django.db.models import Q
from django.http import Http404, HttpResponse, StreamingHttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import translation
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from scoresheet import (
    backup,
    chart,
    clubs,
    offline,
    recent,
    rows,
    scoring,
    stats,
    summary,
    theme,
    writes,
)
from scoresheet.forms import HandForm, ImportForm, RenameForm, RulesForm, SheetForm
from scoresheet.models import Club, Hand, Sheet
from scoresheet.offline import CONFLICT, REFUSED
from scoresheet.templatetags.scoresheet import rules_words

RECENT_SHEETS = 30
# The sheet page shows the latest hands (what the table looks back at), and "Earlier hands"
# pages back through the others, a longer page at a time: no page grows with the session.
LATEST = 20
PAGE = 100
# A hand number beyond this is no hand (and too big for the database's integers).
MAX_NUMBER = 2**31 - 1
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
        for name in (
            "sheet",
            "export_csv",
            "export_json",
            "statistics",
            "chart",
            "live",
            # After the game (after_views.py, issue 23).
            "summary",
            "print_sheet",
            "export_xlsx",
        )
    }


def running_chart(sheet: Sheet, names: list[str]) -> str:
    """The running-totals chart from the stored totals of the hands it draws (at most a few
    hundred, whatever the session's length); chart.py escapes every text, so it is safe HTML."""
    wanted = chart.sampled(sheet.hand_count)
    points = {0: (0,) * len(names)}
    points.update(
        sheet.hands.filter(number__in=[n for n in wanted if n]).values_list("number", "totals")
    )
    return mark_safe(chart.draw(points, sheet.totals, names, gettext=_))


def seat_names(sheet: Sheet) -> list[str]:
    return list(sheet.seats.values_list("name", flat=True))


def shown_page(request) -> int | None:
    """The ``before`` of a page of earlier hands: the first hand number it does not show."""
    try:
        before = int(request.GET.get("before", ""))
    except ValueError:
        return None
    return before if 1 < before <= MAX_NUMBER else None


def sheet_context(sheet: Sheet, readonly: bool = False, before: int | None = None, **extra):
    """Everything the sheet page shows: the totals, and the ``LATEST`` hands, or the ``PAGE``
    hands before ``before``, read from what is stored."""
    names = seat_names(sheet)
    sheet_links = links(sheet, readonly)
    latest = before is None or before > sheet.hand_count
    end = sheet.hand_count + 1 if latest else before
    start = max(1, end - (LATEST if latest else PAGE))
    hands = list(sheet.hands.filter(number__gte=start, number__lt=end))
    rules = sheet.game_rules
    last_hand = hands[-1] if latest and hands else None
    if not latest:
        last_hand = sheet.hands.order_by("-number").first()
    return {
        "sheet": sheet,
        "readonly": readonly,
        "links": sheet_links,
        "names": names,
        "rows": [
            rows.build(hand.row(len(names), rules), names, sheet_links["sheet"], hand.totals)
            for hand in hands
        ],
        "hidden": start - 1,
        "later": 0 if latest else sheet.hand_count - end + 1,
        "earlier_page": start,
        "later_page": end + PAGE if end + PAGE <= sheet.hand_count else None,
        "scored": sheet.summary(),
        "chart": running_chart(sheet, names),
        "last_hand": last_hand,
        **extra,
    }


def hand_at(sheet: Sheet, number: int) -> Hand:
    """The hand numbered ``number`` (from 1) in play order, or 404."""
    if not 1 <= number <= MAX_NUMBER:
        raise Http404
    return get_object_or_404(sheet.hands, number=number)


def recent_sheets(request) -> list[dict]:
    """This browser's sessions, newest first, each with its players, hand count and leaders."""
    entries = request.session.get("sheets", [])
    full = [e for e in entries if not e.startswith(READ_ONLY)]
    read_only = [e.removeprefix(READ_ONLY) for e in entries if e.startswith(READ_ONLY)]
    found = Sheet.objects.filter(Q(token__in=full) | Q(view_token__in=read_only))
    by_entry = {}
    for sheet in found.prefetch_related("seats"):
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
        names = [seat.name for seat in sheet.seats.all()]
        recent.append(
            {
                "sheet": sheet,
                "url": sheet.get_view_url() if readonly else sheet.get_absolute_url(),
                "readonly": readonly,
                "entries": listed_entries(entries, sheet),
                # Its own local time, made naive: a template would convert it again, and
                # fail on a date at the end of the calendar (backup.local_time).
                "created": backup.local_time(sheet.created).replace(tzinfo=None),
                "names": names,
                "hands": sheet.hand_count,
                "leaders": [names[seat] for seat in sheet.summary().leaders],
            }
        )
    return recent


def listed_entries(entries: list[str], item: Sheet | Club) -> list[str]:
    """The entries of this browser's list that open ``item``: its full link, its read-only
    link, or both."""
    return [e for e in (item.token, READ_ONLY + item.view_token) if e in entries]


def home_context(request, import_form: ImportForm) -> dict:
    """The home page: this browser's sessions and clubs, and what it just took off its list."""
    club_entries = request.session.get("clubs", [])
    listed_clubs = clubs.listed(club_entries)  # issue 16
    for item in listed_clubs:
        item["entries"] = listed_entries(club_entries, item["club"])
    return {
        "recent": recent_sheets(request),
        "clubs": listed_clubs,
        "import_form": import_form,
        "forgotten": shown_once(request),
    }


def shown_once(request) -> dict | None:
    """What ``forget`` just took off the list, the first time the home page shows it (with its
    undo); kept for ``put_back`` until the next removal."""
    forgotten = request.session.get("forgotten")
    if not forgotten or forgotten.get("shown"):
        return None
    request.session["forgotten"] = forgotten | {"shown": True}
    return forgotten


@require_GET
def home(request):
    """The sessions this browser created or opened, newest first, and the backup import."""
    return render(request, "scoresheet/home.html", home_context(request, ImportForm()))


# This browser's lists (tokens in its session): a session or a club comes off the list, and
# back; nothing is deleted, and its link still opens it.
LISTS = {"sheets": Sheet, "clubs": Club}


@require_POST
def forget(request):
    """Take a session (or a club) off this browser's list; it stays reachable by its link."""
    kind = request.POST.get("list")
    model = LISTS.get(kind)
    entries = request.session.get(kind, []) if model else []
    gone = [e for e in request.POST.getlist("entry") if e in entries]
    if gone:
        tokens = [e for e in gone if not e.startswith(READ_ONLY)]
        views = [e.removeprefix(READ_ONLY) for e in gone if e.startswith(READ_ONLY)]
        found = model.objects.filter(Q(token__in=tokens) | Q(view_token__in=views))
        request.session[kind] = [e for e in entries if e not in gone]
        request.session["forgotten"] = {
            "list": kind,
            "entries": [[entries.index(e), e] for e in gone],
            "name": found.values_list("name", flat=True).first() or "",
        }
    return redirect("home")


@require_POST
def put_back(request):
    """Undo ``forget``: the entries it took off go back where they were in the list."""
    forgotten = request.session.pop("forgotten", None) or {}
    kind = forgotten.get("list")
    if kind in LISTS:
        entries = list(request.session.get(kind, []))
        for position, entry in forgotten.get("entries", []):
            if entry not in entries:
                entries.insert(position, entry)
        request.session[kind] = entries[:RECENT_SHEETS]
    return redirect("home")


@require_http_methods(["GET", "POST"])
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
        except writes.KeyTaken:
            # A key spent on something else: a tampered form. Offer a fresh one.
            form = SheetForm(renewed(request.POST))
            form.is_valid()
        else:
            # Sent twice (a double tap): the second opens the session the first made.
            remember(request, change.sheet, data["names"])
            return redirect(change.sheet)
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
    context = sheet_context(sheet, readonly, before=shown_page(request))
    if readonly:
        # A read-only link pasted in a chat shows its card (issue 23); the full link has none.
        context["og"] = summary.open_graph(request, sheet, context["names"], sheet.get_view_url())
    return render(request, "scoresheet/sheet.html", context)


@require_GET
def live(request, token, readonly=False):
    """Polled by every open sheet while it is visible: 204 (one small query) while the sheet's
    revision is the one the page shows, else the regions a change can move, out of band."""
    lookup = {"view_token": token} if readonly else {"token": token}
    revision = Sheet.objects.filter(**lookup).values_list("revision", flat=True).first()
    if revision is None:
        raise Http404
    if request.GET.get("revision") == str(revision):
        return HttpResponse(status=204)
    sheet = get_sheet(token, readonly)
    context = sheet_context(sheet, readonly, change="all")
    if not readonly:
        context["stale"] = stale_form(sheet, request.GET)
    return render(request, "scoresheet/sheet.html#live", context)


def stale_form(sheet: Sheet, data) -> dict | None:
    """What the hand form open on the polling phone missed, if anything: its hand corrected
    ("changed") or deleted ("gone") on another phone, or, for a new hand, that hand entered
    there ("entered"). The poll names the form: ``hand`` and ``version`` for a correction,
    ``number`` for a new hand."""
    key, version = parse_key(data.get("hand")), parse_version(data)
    if key is not None and version is not None:
        hand = sheet.hands.filter(key=key).only("number", "version").first()
        if hand is None:
            return {"kind": "gone"}
        if hand.version != version:
            return {"kind": "changed", "number": hand.number}
        return None
    number = data.get("number", "")
    if number.isascii() and number.isdigit() and len(number) < 10:
        entered = 1 <= int(number) <= sheet.hand_count
        return (
            {"kind": "entered", "number": int(number), "next": sheet.hand_count + 1}
            if entered
            else None
        )
    return None


@require_GET
def running_totals(request, token, readonly=False):
    """The chart alone: the sheet's script fetches it after a change, while it is open."""
    sheet = get_sheet(token, readonly)
    context = {"chart": running_chart(sheet, seat_names(sheet)), "oob": True}
    return render(request, "scoresheet/_chart.html", context)


def updated(request, sheet: Sheet, change: str = "all", number: int | None = None):
    """After a change: redirect a plain form, or send htmx the regions that changed.

    ``change`` is "edited" (row ``number``) or "all" (rows renumber); see ``appended``.
    """
    if not request.htmx:
        return redirect(sheet)
    if change == "edited" and theme.running_totals(request):
        # A correction moves the running totals of every later row: all of them are sent.
        change = "all"
    context = sheet_context(sheet, change=change)
    if change == "edited":
        shown = number - 1 - context["hidden"]
        context["row"] = context["rows"][shown] if 0 <= shown < len(context["rows"]) else None
    return render(request, "scoresheet/sheet.html#changed", context)


def appended(request, change: writes.Change, names: list[str]):
    """After a new hand: its row, the totals and the next dealer, from what was just stored."""
    sheet = change.sheet
    if not request.htmx:
        return redirect(sheet)
    sheet_links = links(sheet, readonly=False)
    line = change.hand.row(len(names), sheet.game_rules)
    context = {
        "sheet": sheet,
        "links": sheet_links,
        "names": names,
        "scored": sheet.summary(),
        "row": rows.build(line, names, sheet_links["sheet"], change.hand.totals),
        "last_hand": change.hand,
        "change": "appended",
    }
    return render(request, "scoresheet/sheet.html#changed", context)


def form_page(request, sheet, form, *, editing=False, number=None, preview=None, status=200):
    """The hand form: a whole page, or the fragment htmx puts under the sheet; ``status`` says
    why it comes back (offline.STATUS: refused, or changed meanwhile)."""
    template = "scoresheet/hand_form.html"
    if request.htmx:
        template += "#entry"
    if number is None:
        number = sheet.hand_count + 1
    context = {
        "sheet": sheet,
        "form": form,
        "editing": editing,
        "number": number,
        "dealer": form.seats[form.dealer],
        "preview": preview,
    }
    # htmx (and offline.js's queue) read why the form came back from the status; a browser's
    # plain form shows the page either way.
    return render(request, template, context, status=status if request.htmx else 200)


def hand_form(
    sheet: Sheet, seats: list[str], data=None, *, editing: bool = False, hand: Hand | None = None
) -> HandForm:
    """The hand form under the session's rules: a new hand (dealt by whoever's turn it is), or
    a correction (``editing``, or prefilled from ``hand``) that can also correct the dealer."""
    if editing and data is not None:
        # The hand the correction's key names keeps its dealer unless the form changes it.
        key = parse_key(data.get("key"))
        stored = sheet.hands.filter(key=key).values_list("dealer", flat=True).first()
        return HandForm(
            data,
            seats=seats,
            rules=sheet.game_rules,
            dealer=sheet.next_dealer if stored is None else stored,
            editing=True,
        )
    if hand is not None:
        return HandForm(
            seats=seats,
            rules=sheet.game_rules,
            dealer=hand.dealer,
            editing=True,
            initial=HandForm.initial_from(hand),
        )
    return HandForm(data, seats=seats, rules=sheet.game_rules, dealer=sheet.next_dealer)


def preview_of(form: HandForm) -> dict:
    """The row a valid form would save, or its problems; warnings either way."""
    if not form.is_valid():
        return {"errors": [e for errors in form.errors.values() for e in errors]}
    hand = form.cleaned_data["hand"]
    detail = scoring.breakdown(hand, form.rules)
    return {
        "breakdown": detail,
        "scores": [
            (name, value, seat == detail.sitting_out)
            for seat, (name, value) in enumerate(zip(form.seats, detail.scores, strict=True))
        ],
        "warnings": [w.translated(_) for w in scoring.warnings(hand, form.rules)],
        "converted": form.cleaned_data.get("counted_by_defence"),
    }


def refused(form: HandForm, error: scoring.InvalidHand) -> None:
    """Show on the form why the write path refused its hand (the rules changed meanwhile)."""
    for problem in error.problems:
        form.add_error(None, problem.translated(_))


@require_http_methods(["GET", "POST"])
def hand_new(request, token):
    """Enter a hand (or a deal everyone passed); the form's key makes saving idempotent."""
    sheet = get_sheet(token)
    seats = seat_names(sheet)
    if request.method == "GET":
        return form_page(request, sheet, hand_form(sheet, seats))

    form = hand_form(sheet, seats, request.POST)
    if "preview" in request.POST:
        return form_page(request, sheet, form, preview=preview_of(form))
    # A broken key would make every resend a new deal: the form says it expired instead.
    key = None if form.expired else parse_key(request.POST.get("key"))
    passed = "passed" in request.POST
    form.is_valid()
    # The hand as typed, even one the rules refuse: the write path answers a key already spent
    # first (the deal has moved on since: the next dealer may sit out and be its taker), then
    # refuses the hand with the rules' reasons, which the form shows already.
    hand = None if passed else form.typed_hand
    if key is None or (hand is None and not passed):
        # Refused: the preview under the form lists the problems too, instead of going blank.
        return form_page(request, sheet, form, preview=preview_of(form), status=REFUSED)
    try:
        change = writes.add_hand(token, hand, key)
    except writes.KeyTaken:
        # The key belongs to another sheet: a tampered form. Offer a fresh one.
        form.renew_key()
        return form_page(request, sheet, form, status=REFUSED)
    except scoring.InvalidHand as error:
        if form.is_valid():
            # Valid when read, refused under the lock: the rules changed meanwhile.
            refused(form, error)
        return form_page(request, sheet, form, preview=preview_of(form), status=REFUSED)
    if change.already:
        # The same form sent again (a double tap, a resubmitted page, the offline queue whose
        # first answer was lost), even after its hand was deleted: stored once.
        messages.info(request, _("This hand was already saved; it is not saved again."))
        return offline.stored(updated(request, change.sheet))
    messages.success(request, _("Hand %(number)s saved.") % {"number": change.number})
    return offline.stored(appended(request, change, seats))


@require_POST
def hand_preview(request, token):
    """The live preview under the hand form: the row it would save, or what is wrong."""
    sheet = get_sheet(token)
    # A correction's form carries who dealt; a new hand is dealt by whoever's turn it is.
    form = hand_form(
        sheet, seat_names(sheet), request.POST, editing=bool(request.POST.get("version"))
    )
    return render(
        request,
        "scoresheet/hand_form.html#preview",
        {"sheet": sheet, "form": form, "preview": preview_of(form)},
    )


@require_http_methods(["GET", "POST"])
def hand_edit(request, token, number):
    """Correct a hand: the same form, prefilled; the form's key names the hand it edits."""
    sheet = get_sheet(token)
    seats = seat_names(sheet)
    if request.method == "GET":
        hand = hand_at(sheet, number)
        form = hand_form(sheet, seats, hand=hand)
        return form_page(request, sheet, form, editing=True, number=number)

    form = hand_form(sheet, seats, request.POST, editing=True)
    passed = "passed" in request.POST
    if "preview" in request.POST or (not passed and not form.is_valid()):
        status = 200 if "preview" in request.POST else REFUSED
        return form_page(
            request,
            sheet,
            form,
            editing=True,
            number=number,
            preview=preview_of(form),
            status=status,
        )
    if passed:
        # The hand becomes (or stays) a deal everyone passed; its dealer may be corrected.
        key, version = parse_key(request.POST.get("key")), parse_version(request.POST)
        if key is None or form.expired:
            form.is_valid()
            return form_page(request, sheet, form, editing=True, number=number, status=REFUSED)
        hand = None
    else:
        data = form.cleaned_data
        key, version, hand = data["key"], data.get("version"), data["hand"]
    try:
        change = writes.correct_hand(token, key, version, hand, dealer=form.dealer)
    except scoring.InvalidHand as error:
        refused(form, error)
        return form_page(
            request,
            sheet,
            form,
            editing=True,
            number=number,
            preview=preview_of(form),
            status=REFUSED,
        )
    except writes.HandRefused as error:
        for message in error.messages(_):
            form.add_error(None, message)
        return form_page(request, sheet, form, editing=True, number=number, status=REFUSED)
    if change.conflict:
        # Someone saved this hand since this form was opened: show theirs, keep it.
        current = hand_form(change.sheet, seats, hand=change.hand)
        current.conflict = True
        return form_page(
            request,
            change.sheet,
            current,
            editing=True,
            number=change.number,
            status=CONFLICT,
        )
    if not change.done:
        messages.error(request, _("That hand was deleted meanwhile; nothing was changed."))
        return updated(request, change.sheet)
    messages.success(request, _("Hand %(number)s corrected.") % {"number": change.number})
    return updated(request, change.sheet, "edited", change.number)


@require_http_methods(["GET", "POST"])
def hand_delete(request, token, number):
    """Delete a hand after a confirmation; later hands renumber, and who dealt stays."""
    sheet = get_sheet(token)
    if request.method == "GET":
        hand = hand_at(sheet, number)
        template = "scoresheet/hand_delete.html"
        if request.htmx:
            template += "#entry"
        names = seat_names(sheet)
        sheet_links = links(sheet, readonly=False)
        line = hand.row(len(names), sheet.game_rules)
        context = {
            "sheet": sheet,
            "links": sheet_links,
            "names": names,
            "hand": hand,
            "number": number,
            "row": rows.build(line, names, sheet_links["sheet"]),
        }
        return render(request, template, context)
    change = writes.delete_hand(token, parse_key(request.POST.get("key")))
    if change.done:
        messages.success(request, _("Hand %(number)s deleted.") % {"number": change.number})
    else:
        messages.info(request, _("That hand was already deleted."))
    return updated(request, change.sheet)


def parse_version(data) -> int | None:
    """The version a correction started from, or None when it is not a version."""
    value = data.get("version", "")
    return int(value) if value.isascii() and value.isdigit() and len(value) < 10 else None


def renewed(data):
    """A form's data with a fresh key, for a form whose key was spent elsewhere."""
    data = data.copy()
    data["key"] = str(uuid.uuid4())
    return data


def parse_revision(data) -> int:
    """The sheet's revision a page showed; -1 (no revision the sheet has) when it is not one."""
    value = data.get("revision", "")
    return int(value) if value.isascii() and value.isdigit() and len(value) < 10 else -1


def parse_key(value) -> uuid.UUID | None:
    try:
        return uuid.UUID(str(value))
    except ValueError:
        return None


@require_POST
def undo(request, token):
    """Take back the last hand, if it is still the last one."""
    change = writes.undo(token, parse_key(request.POST.get("key")))
    if change.done:
        messages.success(request, _("Hand %(number)s undone.") % {"number": change.number})
    else:
        messages.info(request, _("Nothing to undo: the last hand has changed."))
    return updated(request, change.sheet)


@require_http_methods(["GET", "POST"])
def rules(request, token):
    """Change the session's rules: the new totals first, then every hand re-scored at once."""
    sheet = get_sheet(token)
    if request.method == "GET":
        form = RulesForm(initial=sheet.game_rules.to_data(), seats=len(sheet.totals))
        return render(request, "scoresheet/rules.html", {"sheet": sheet, "form": form})
    form = RulesForm(request.POST, seats=len(sheet.totals))
    context = {"sheet": sheet, "form": form}
    proposed = form.check_seats(len(sheet.totals)) if form.is_valid() else None
    changed_meanwhile = False
    if proposed is not None and "confirm" in request.POST:
        # A confirmation applies the totals it showed (its revision), or shows them again.
        try:
            change = writes.change_rules(token, proposed, parse_revision(request.POST))
        except (scoring.InvalidRules, writes.HandRefused) as error:
            refused_rules(form, error)
            proposed = None
        else:
            if change.done:
                messages.success(
                    request,
                    _("Rules changed to %(rules)s: every hand was re-scored.")
                    % {"rules": rules_words(proposed)},
                )
                return redirect(change.sheet)
            sheet, changed_meanwhile = change.sheet, True
    if proposed is not None:
        try:
            totals = writes.rescored_under(sheet, proposed)
        except (scoring.InvalidRules, writes.HandRefused) as error:
            refused_rules(form, error)
        else:
            names = seat_names(sheet)
            context |= {
                "sheet": sheet,
                "proposed": proposed,
                "comparison": list(zip(names, sheet.totals, totals, strict=True)),
                "changed_meanwhile": changed_meanwhile,
            }
    return render(request, "scoresheet/rules.html", context)


@require_http_methods(["GET", "POST"])
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
        "club": Club.objects.filter(sessions__sheet=sheet).first(),
        "known_names": recent.known_names(request.session.get("sheets", [])),
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


@require_GET
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
    """The sheet's backup: a JSON file that restores it exactly, streamed a hand a line."""
    sheet = get_sheet(token, readonly)
    response = StreamingHttpResponse(
        backup.dump_lines(sheet), content_type="application/json; charset=utf-8"
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
    return render(request, "scoresheet/home.html", home_context(request, form))


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
