"""A session's hand views: enter, preview, correct, delete, undo. Each parses the request with
the hand form, calls the write module (``writes.py``), and renders the sheet's changed regions
or the form again."""

from django.contrib import messages
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.formats import localize
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_http_methods, require_POST

from scoresheet import keys, scoring, theme
from scoresheet.models import Hand, Sheet
from scoresheet.sheets import around, offline, rows, writes
from scoresheet.sheets.forms import HandForm
from scoresheet.sheets.offline import CONFLICT, REFUSED, TAMPERED
from scoresheet.sheets.views import (
    MAX_NUMBER,
    get_sheet,
    links,
    parse_key,
    parse_version,
    seat_names,
    sheet_context,
)


def hand_at(sheet: Sheet, number: int) -> Hand:
    """The hand numbered ``number`` (from 1) in play order, or 404."""
    if not 1 <= number <= MAX_NUMBER:
        raise Http404
    return get_object_or_404(sheet.numbered_hands(), position=sheet.position(number))


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
        # The running totals after the new last hand are the sheet's.
        "row": rows.build(line, names, sheet_links["sheet"], sheet.totals),
        "last_hand": change.hand,
        "change": "appended",
        "around": around.version_of(sheet),
    }
    return render(request, "scoresheet/sheet.html#changed", context)


def form_page(
    request,
    sheet,
    form,
    *,
    editing=False,
    number=None,
    preview=None,
    status=200,
    asked=None,
    passed=False,
):
    """The hand form: a whole page, or the fragment htmx puts under the sheet; ``status`` says
    why it comes back (offline.STATUS: refused, or changed meanwhile); ``asked``: the deal
    past the table's plan it asks about (``passed``: a deal everyone passed)."""
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
        "beyond": None if editing else beyond_plan(sheet, asked, passed),
    }
    if form.tampered:
        return render(request, template, context, status=TAMPERED)
    # htmx reads why the form came back from the status (the offline queue from the JSON
    # offline.refusal makes of it); a browser's plain form shows the page either way.
    response = render(request, template, context, status=status if request.htmx else 200)
    return offline.refusal(request, response, form)


def beyond_plan(
    sheet: Sheet, asked: writes.BeyondPlan | None = None, passed: bool = False
) -> dict | None:
    """What the new-hand form asks before a deal past the sheet's plan (a club night's table
    that has played its deals): the deals planned, the deal it would be, and whether it asks
    now (``asked``: the write path refused the deal unconfirmed; ``passed``: a deal everyone
    passed); None without a plan."""
    plan = around.plan_of(sheet)
    if plan is None:
        return None
    if asked is not None:
        return {"planned": asked.planned, "next": asked.number, "asked": True, "passed": passed}
    return {"planned": plan.deals, "next": plan.played_on(sheet) + 1, "asked": False}


def refused_beyond_plan(form: HandForm, error: writes.BeyondPlan) -> None:
    """Why the write path refused the deal, on the form: past the table's plan, unconfirmed."""
    form.add_error(
        "beyond_plan",
        ngettext(
            "Beyond the plan: this table has played its %(planned)s deal; deal %(number)s "
            "is saved only once confirmed.",
            "Beyond the plan: this table has played its %(planned)s deals; deal %(number)s "
            "is saved only once confirmed.",
            error.planned,
        )
        % {"planned": error.planned, "number": error.number},
    )


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


def preview_of(form: HandForm) -> rows.Preview:
    """What a valid form would score, with its warnings, or its problems."""
    if not form.is_valid():
        return rows.Preview(errors=tuple(e for errors in form.errors.values() for e in errors))
    return rows.preview(
        form.cleaned_data["hand"],
        form.rules,
        form.seats,
        converted=form.cleaned_data.get("counted_by_defence"),
    )


def refused(form: HandForm, error: scoring.InvalidHand) -> None:
    """Show on the form why the write path refused its hand (the rules changed meanwhile)."""
    for problem in error.problems:
        form.add_error(None, problem.translated(_, number=localize))


def _sent_key(request, form: HandForm):
    """The key a new hand's form sends; None once the form expired: a broken key would make
    every resend a new deal, so the form says it expired instead."""
    return None if form.expired else parse_key(request.POST.get("key"))


def _passed_sent(request) -> bool:
    """Whether the new-hand form sends a deal everyone passed: by its own button, or by the
    button of the question about a deal past the table's plan, which says what it confirms."""
    return "passed" in request.POST or request.POST.get("beyond_plan", "") == "passed"


def _new_refused(request, sheet: Sheet, form: HandForm, error: Exception, passed: bool):
    """The new-hand form again, with why the write path refused its deal (``error``)."""
    if isinstance(error, writes.BeyondPlan):
        refused_beyond_plan(form, error)
        return form_page(
            request,
            sheet,
            form,
            preview=preview_of(form),
            status=REFUSED,
            asked=error,
            passed=passed,
        )
    if isinstance(error, keys.KeyTaken):
        # The key belongs to another sheet: a tampered form. Offer a fresh one.
        form.renew_key()
        return form_page(request, sheet, form, status=REFUSED)
    if form.is_valid():
        # Valid when read, refused under the lock: the rules changed meanwhile.
        refused(form, error)
    return form_page(request, sheet, form, preview=preview_of(form), status=REFUSED)


def _new_stored(request, change: writes.Change, seats: list[str]):
    """The answer to a new hand stored, or to its form sent again (``change.already``)."""
    if change.already:
        # The same form sent again (a double tap, a resubmitted page, the offline queue whose
        # first answer was lost), even after its hand was deleted: stored once.
        messages.info(request, _("This hand was already saved; it is not saved again."))
        return offline.stored(request, updated(request, change.sheet), change)
    messages.success(request, _("Hand %(number)s saved.") % {"number": change.number})
    return offline.stored(request, appended(request, change, seats), change)


@require_http_methods(["GET", "HEAD", "POST"])
def hand_new(request, token):
    """Enter a hand (or a deal everyone passed); the form's key makes saving idempotent."""
    sheet = get_sheet(token)
    seats = seat_names(sheet)
    if request.method != "POST":
        return form_page(request, sheet, hand_form(sheet, seats))

    form = hand_form(sheet, seats, request.POST)
    if "preview" in request.POST:
        return form_page(request, sheet, form, preview=preview_of(form))
    key = _sent_key(request, form)
    passed = _passed_sent(request)
    form.is_valid()
    # The hand as typed, even one the rules refuse: the write path answers a key already spent
    # first (the deal has moved on since: the next dealer may sit out and be its taker), then
    # refuses the hand with the rules' reasons, which the form shows already.
    hand = None if passed else form.typed_hand
    if key is None or form.tampered or (hand is None and not passed):
        # Refused: the preview under the form lists the problems too, instead of going blank.
        return form_page(request, sheet, form, preview=preview_of(form), status=REFUSED)
    # A deal past the table's plan is saved once the question's button confirmed it.
    confirmed = bool(request.POST.get("beyond_plan", ""))
    try:
        change = writes.add_hand(token, hand, key, beyond_plan=confirmed)
    except (writes.BeyondPlan, keys.KeyTaken, scoring.InvalidHand) as error:
        return _new_refused(request, sheet, form, error, passed)
    return _new_stored(request, change, seats)


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
        status=TAMPERED if form.tampered else 200,
    )


def _correction_sent(request, form: HandForm, passed: bool) -> tuple | None:
    """The key, version and hand a correction sends (the hand None for a deal everyone
    passed, whose key and version are read here, not by the form); None when a passed deal's
    form has no key, expired or was tampered with."""
    if not passed:
        data = form.cleaned_data
        return data["key"], data.get("version"), data["hand"]
    # The hand becomes (or stays) a deal everyone passed; its dealer may be corrected.
    key, version = parse_key(request.POST.get("key")), parse_version(request.POST)
    if key is None or form.expired or form.tampered:
        form.is_valid()
        return None
    return key, version, None


def _correction_refused(request, sheet: Sheet, form: HandForm, number: int, error: Exception):
    """The correction's form again, with why the write path refused it (``error``): the rules
    refused the hand, or the hand cannot be corrected so (``writes.HandRefused``)."""
    if isinstance(error, scoring.InvalidHand):
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
    for message in error.messages(_):
        form.add_error(None, message)
    return form_page(request, sheet, form, editing=True, number=number, status=REFUSED)


@require_http_methods(["GET", "HEAD", "POST"])
def hand_edit(request, token, number):
    """Correct a hand: the same form, prefilled; the form's key names the hand it edits."""
    sheet = get_sheet(token)
    seats = seat_names(sheet)
    if request.method != "POST":
        hand = hand_at(sheet, number)
        form = hand_form(sheet, seats, hand=hand)
        return form_page(request, sheet, form, editing=True, number=number)

    form = hand_form(sheet, seats, request.POST, editing=True)
    passed = "passed" in request.POST
    if "preview" in request.POST:
        return form_page(
            request, sheet, form, editing=True, number=number, preview=preview_of(form)
        )
    if not passed and not form.is_valid():
        return form_page(
            request,
            sheet,
            form,
            editing=True,
            number=number,
            preview=preview_of(form),
            status=REFUSED,
        )
    sent = _correction_sent(request, form, passed)
    if sent is None:
        return form_page(request, sheet, form, editing=True, number=number, status=REFUSED)
    key, version, hand = sent
    try:
        change = writes.correct_hand(token, key, version, hand, dealer=form.dealer)
    except (scoring.InvalidHand, writes.HandRefused) as error:
        return _correction_refused(request, sheet, form, number, error)
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


@require_http_methods(["GET", "HEAD", "POST"])
def hand_delete(request, token, number):
    """Delete a hand after a confirmation; later hands renumber, and who dealt stays."""
    sheet = get_sheet(token)
    if request.method != "POST":
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


@require_POST
def undo(request, token):
    """Take back the last hand, if it is still the last one."""
    change = writes.undo(token, parse_key(request.POST.get("key")))
    if change.done:
        messages.success(request, _("Hand %(number)s undone.") % {"number": change.number})
    else:
        messages.info(request, _("Nothing to undo: the last hand has changed."))
    return updated(request, change.sheet)
