"""The club night's pages: thin, like the club's; the domain is ``draw`` and ``ranking``
(reading) and ``writes`` (every change), its files ``files/night_files.py`` (their views are
the files' own, ``files/views.py``).

/c/<token>/nights/… runs a night (the club's full link); /cv/<view_token>/nights/… shows it,
read-only: the night's page and its screen for a TV or a projector.
"""

import io
from http import HTTPStatus

import segno
from django.contrib import messages
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from scoresheet import keys, numbers
from scoresheet.clubs import ClubError
from scoresheet.clubs.views import club_links, get_club, roster_names
from scoresheet.models import Club, Night
from scoresheet.nights import html, ranking, summary, writes
from scoresheet.nights.forms import NightForm


def get_night(token: str, number: int, readonly: bool = False) -> Night:
    """The night a link opens, with its club, in one query."""
    lookup = {"club__view_token": token} if readonly else {"club__token": token}
    return get_object_or_404(Night.objects.select_related("club"), number=number, **lookup)


def night_links(night: Night, readonly: bool) -> dict:
    club = night.club
    token, prefix = (club.view_token, "view_") if readonly else (club.token, "")
    args = [token, night.number]
    found = {
        name: reverse(prefix + name, args=args)
        for name in (
            "night",
            "night_screen",
            "night_live",
            "night_csv",
            "night_xlsx",
            "night_json",
            "night_summary",
            "night_print",
        )
    }
    found["club"] = reverse(prefix + "club", args=[token])
    # The screen's short read-only address, and the QR code of the read-only ranking: the same
    # under both links (read-only).
    found["tv"] = reverse("tv", args=[night.screen])
    found["view_night_qr"] = reverse("view_night_qr", args=[club.view_token, night.number])
    if not readonly:
        found["night_draw"] = reverse("night_draw", args=args)
        found["night_players"] = reverse("night_players", args=args)
        found["view_night"] = reverse("view_night", args=[club.view_token, night.number])
        found["view_night_screen"] = reverse(
            "view_night_screen", args=[club.view_token, night.number]
        )
    return found


def timer(night: Night) -> dict | None:
    """The current round's countdown: when it ends and the seconds left (none when the night
    has no minutes per round)."""
    if not night.minutes or night.round_started is None:
        return None
    ends = night.round_started + timezone.timedelta(minutes=night.minutes)
    left = max(0, int((ends - timezone.now()).total_seconds()))
    return {"ends": ends, "left": left, "shown": f"{left // 60}:{left % 60:02d}"}


def screen_state(view: ranking.NightView) -> str:
    """What the screen shows: "final" (the last round played: the final ranking), "seating"
    (a round just drawn, until its first deal is stored: where everyone sits), "playing" (the
    ranking beside the seating)."""
    if view.over:
        return "final"
    if view.current and not view.started:
        return "seating"
    return "playing"


def tables_size(count: int) -> str:
    """The screen's seating by the number of tables: a few read larger (night.css)."""
    return "few" if count <= 4 else "some" if count <= 8 else "many" if count <= 16 else "most"


def seating_columns(count: int) -> int:
    """The columns of the seating that takes the screen after a draw: its tables in one row,
    or two up to 16 tables (every name at 40 px or more), then rows of 8."""
    if count <= 4:
        return max(count, 1)
    return min(-(-count // 2), 8)


def night_context(night: Night, readonly: bool, screen: bool = False) -> dict:
    view = ranking.read(night)
    rounds = list(range(1, night.drawn + 1))
    context = {
        "night": night,
        "club": night.club,
        "readonly": readonly,
        "links": night_links(night, readonly),
        "view": view,
        "rounds": rounds,
        "next_round": night.drawn + 1 if night.drawn < night.rounds else None,
        "timer": None if view.over else timer(night),
        "version": view.version,
    }
    # The parts a night repeats per player and per table (nights/html.py).
    parts = _screen_parts(view) if screen else _page_parts(view, readonly)
    return context | parts


def _screen_parts(view: ranking.NightView) -> dict:
    """What the screen shows in its state (``screen_state``): the podium and the lines after
    it, where everyone sits, or the ranking beside the tables."""
    state = screen_state(view)
    parts = {
        "state": state,
        "tables_size": tables_size(len(view.current)),
        "seating_columns": seating_columns(len(view.current)),
    }
    if state == "final":
        parts["podium"] = html.podium(view.lines[:3])
        parts["screen_lines"] = html.screen_lines(view.lines[3:], most=12)
    elif state == "seating":
        parts["seating"] = html.seating(view.current)
    else:
        parts["screen_lines"] = html.screen_lines(view.lines)
        parts["screen_tables"] = html.screen_tables(view.current)
    return parts


def _page_parts(view: ranking.NightView, readonly: bool) -> dict:
    """What the night's page shows: the ranking, the round's tables, the earlier rounds, and
    under the full link the menus of the players present and gone (who leaves, who comes
    back)."""
    parts = {
        "ranking_rows": html.ranking_rows(view.lines),
        "table_cards": html.table_cards(view.current, readonly),
        "earlier_rounds": html.earlier_rounds(view.tables, view.night.drawn, readonly),
    }
    if not readonly:
        parts["present"] = html.options(line for line in view.lines if not line.gone)
        parts["gone"] = html.options(line for line in view.lines if line.gone)
    return parts


def everyone(data, roster: list[str]) -> dict:
    """The new-night form's ``data`` as its initial values, with every player of ``roster``
    ticked, or none when every one of them was."""
    initial = {name: data.get(name) for name in data if name != "players"}
    ticked = set(data.getlist("players"))
    initial["players"] = [] if set(roster) <= ticked else list(roster)
    return initial


@require_http_methods(["GET", "HEAD", "POST"])
def night_new(request, token):
    """Start a club night: its players present, its rounds and deals, its rules."""
    club = get_club(token)
    roster = roster_names(club)
    if request.method == "POST" and "everyone" in request.POST:
        # "Everyone" without JavaScript: the form again, every player ticked (or none, when
        # all were), the rest as typed; nothing is made.
        form = NightForm(initial=everyone(request.POST, roster), roster=roster)
    elif request.method == "POST":
        form = NightForm(request.POST, roster=roster)
    else:
        initial = {**club.game_rules.to_data(), "date": timezone.localdate()}
        form = NightForm(initial=initial, roster=roster)
    if form.is_bound and form.is_valid():
        data = form.cleaned_data
        try:
            change = writes.create_night(
                club,
                data["name"],
                data["date"],
                data["names"],
                data["rounds"],
                data["deals"],
                data["minutes"],
                data["rules"],
                key=data["key"],
                passed_counts=data["passed_counts"],
            )
        except keys.KeyTaken:
            form = NightForm(keys.renewed(request.POST), roster=roster)
            form.is_valid()
        except ClubError as error:
            form.add_error("players", error.translated(_))
        else:
            if change.done:
                messages.success(
                    request, _("Round 1 is drawn: one phone per table scans its code.")
                )
            return redirect("night", club.token, change.night.number)
    context = {"club": club, "links": club_links(club, False), "form": form}
    return render(request, "scoresheet/nights/night_new.html", context)


@require_safe
def night(request, token, number, readonly=False):
    """The night's page: the ranking, every table of the round with its progress and code."""
    night = get_night(token, number, readonly)
    context = night_context(night, readonly)
    if readonly:
        context["og"] = summary.open_graph(request, context["view"], request.path)
    return render(request, "scoresheet/nights/night.html", context)


@require_safe
def night_screen(request, token, number, readonly=False):
    """The big screen: the ranking, the round's tables and the timer, following live."""
    night = get_night(token, number, readonly)
    context = night_context(night, readonly, screen=True)
    if readonly:
        context["og"] = summary.open_graph(request, context["view"], request.path)
    return render(request, "scoresheet/nights/screen.html", context)


@require_safe
def tv_screen(request, code):
    """The screen under its short read-only address, /tv/<code>: what a TV's remote types."""
    night = get_object_or_404(Night.objects.select_related("club"), screen=code.lower())
    context = night_context(night, readonly=True, screen=True)
    return render(request, "scoresheet/nights/screen.html", context)


@require_safe
def night_qr(request, token, number):
    """The QR code of the night's read-only page (its ranking), for the players' phones: the
    screen shows it."""
    night = get_night(token, number, readonly=True)
    url = request.build_absolute_uri(reverse("view_night", args=[token, night.number]))
    svg = io.BytesIO()
    segno.make(url, error="m").save(svg, kind="svg", scale=6, border=2, title=url)
    response = HttpResponse(svg.getvalue(), content_type="image/svg+xml")
    # The image carries the read-only link: never cached by a shared cache.
    response["Cache-Control"] = "private, max-age=3600"
    return response


@require_safe
def night_live(request, token, number, readonly=False):
    """Polled by the night's page and its screen: 204 (two small queries) while nothing moved
    since the version the page shows, else the page's live region."""
    lookup = {"club__view_token": token} if readonly else {"club__token": token}
    row = Night.objects.filter(number=number, **lookup).values("pk", "revision").first()
    if row is None:
        raise Http404
    if request.GET.get("version") == ranking.current_version(row["pk"], row["revision"]):
        return HttpResponse(status=204)
    night = get_night(token, number, readonly)
    screen = bool(request.GET.get("screen"))
    template = "screen.html" if screen else "night.html"
    context = night_context(night, readonly, screen=screen)
    return render(request, f"scoresheet/nights/{template}#live", context)


def refused(request, night: Night):
    """The night's page again, with why (its messages), for a form no page sends: 400."""
    context = night_context(night, readonly=False)
    return render(request, "scoresheet/nights/night.html", context, status=HTTPStatus.BAD_REQUEST)


@require_POST
def night_draw(request, token, number):
    """Draw the next round; a double tap or two organisers at once draw it once."""
    night = get_night(token, number)
    wanted = numbers.read(request.POST.get("round", ""), 3)
    if wanted is None:
        messages.error(request, _("Round: the round to draw is missing."))
        return refused(request, night)
    try:
        change = writes.draw_round(night.club, night, wanted)
    except ClubError as error:
        messages.error(request, error.translated(_))
    else:
        if change.done:
            messages.success(
                request, _("Round %(round)s is drawn.") % {"round": change.night.drawn}
            )
        elif change.already:
            messages.info(request, _("Round %(round)s was drawn already.") % {"round": wanted})
    return redirect("night", token, number)


@require_POST
def night_players(request, token, number):
    """Who plays the next draws: a player leaves, comes back, or arrives late."""
    night = get_night(token, number)
    club: Club = night.club
    action = request.POST.get("action")
    player = numbers.read(request.POST.get("player", ""), numbers.ID_DIGITS)
    if action in ("leave", "back") and player is None:
        if action == "leave":
            messages.error(request, _("A player leaves: choose one of the night's players."))
        else:
            messages.error(request, _("A player who left comes back: choose one of them."))
        return refused(request, night)
    try:
        if action == "join":
            writes.join(club, night, request.POST.get("name", ""))
            messages.success(request, _("Added: in the next draws."))
        elif action in ("leave", "back"):
            write = writes.leave if action == "leave" else writes.come_back
            if write(club, night, player).done:
                messages.success(request, _("Saved: the next draws know it."))
    except ClubError as error:
        messages.error(request, error.translated(_))
    return redirect("night", token, number)
