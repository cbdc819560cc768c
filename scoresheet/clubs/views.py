"""The club's pages: thin, like a session's; the domain is ``standings`` (reading: the
standings, periods, a player's page) and ``writes`` (every change); its files are the files'
views (``files/views.py``).

A club has two links, like a session: /c/<token>/ to run it, /cv/<view_token>/ to look.
Every view that changes a club takes the full-access token only, so the read-only link can
never reach a write (404). A session's own pages never link to its club.
"""

import re
from dataclasses import dataclass
from http import HTTPStatus
from urllib.parse import urlencode, urlsplit

from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.formats import number_format
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop, ngettext
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from scoresheet import chart, keys, numbers, player_names, recent
from scoresheet.clubs import ClubError, standings, writes
from scoresheet.clubs.forms import (
    AttachForm,
    ClubForm,
    ClubSheetForm,
    MergeForm,
    NewClubForm,
    PlayerNameForm,
    RosterForm,
)
from scoresheet.models import Club, ClubPlayer, Sheet

# The club page lists the latest sessions: no page grows with the club.
LATEST_SHEETS = 10
# The chart's words, said of sessions rather than hands (chart.py's msgids are the keys).
CHART_WORDS = {
    "Running totals": gettext_noop("Cumulative points, session by session"),
    "After hand %(number)s: %(totals)s.": gettext_noop("After session %(number)s: %(totals)s."),
    "No hand played yet: %(totals)s.": gettext_noop("No session played yet: %(totals)s."),
}


def chart_text(message: str) -> str:
    return _(CHART_WORDS.get(message, message))


def get_club(token: str, readonly: bool = False) -> Club:
    """The club a link opens: the full-access token, or (``readonly``) the read-only one."""
    if readonly:
        return get_object_or_404(Club, view_token=token)
    return get_object_or_404(Club, token=token)


def club_links(club: Club, readonly: bool) -> dict:
    token, prefix = (club.view_token, "view_") if readonly else (club.token, "")
    found = {
        name: reverse(prefix + name, args=[token])
        for name in ("club", "standings_csv", "standings_xlsx", "backup")
    }
    if not readonly:
        for name in ("club_players", "club_new_sheet", "club_attach", "club_settings"):
            found[name] = reverse(name, args=[token])
    return found


def roster_names(club: Club) -> list[str]:
    """The club's players' names, in the order of every list of names (``collation``)."""
    return player_names.alphabetical(club.players.values_list("name", flat=True))


def player_url(club: Club, readonly: bool, pk: int) -> str:
    if readonly:
        return reverse("view_club_player", args=[club.view_token, pk])
    return reverse("club_player", args=[club.token, pk])


@require_http_methods(["GET", "HEAD", "POST"])
def club_new(request):
    """Start a club: a name and the house rules its sessions start with."""
    form = NewClubForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            change = writes.create_club(data["name"], data["rules"], key=data["key"])
        except keys.KeyTaken:
            # A key spent on something else: a tampered form. Offer a fresh one.
            form = NewClubForm(keys.renewed(request.POST))
            form.is_valid()
        else:
            # Sent twice (a double tap): the second opens the club the first made.
            recent.remember(request, recent.CLUBS, change.club)
            if change.done:
                messages.success(request, _("Club created. Its link is its key: keep it."))
            return redirect(change.club)
    # The page's second form, restoring a club's backup, posts to the files' import.
    return render(request, "scoresheet/club_new.html", {"form": form})


@require_http_methods(["GET", "HEAD", "POST"])
def club_settings(request, token):
    """Change the club's name and its default house rules (for sessions started afterwards)."""
    club = get_club(token)
    if request.method == "POST":
        form = ClubForm(request.POST)
    else:
        form = ClubForm(initial={"name": club.name, **club.game_rules.to_data()})
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        club = writes.change_club(club, data["name"], data["rules"]).club
        messages.success(
            request,
            _("Saved. The next sessions of the club start with %(rules)s.")
            % {"rules": data["rules"].in_words(_)},
        )
        return redirect(club)
    context = {"club": club, "links": club_links(club, False), "form": form}
    return render(request, "scoresheet/club_settings.html", context)


def chosen_period(request) -> tuple[standings.Period, str | None]:
    try:
        return standings.period_of(request.GET), None
    except ClubError as error:
        return standings.Period("all"), error.translated(_)


def standings_context(request, club: Club, readonly: bool) -> dict:
    period, period_error = chosen_period(request)
    result = standings.standings(club, period, request.GET.get("sort", "points"))
    query = period.query()
    # The sort is kept when the period changes, and the period when the sort does.
    sorted_by = {} if result.sort == "points" else {"sort": result.sort}
    svg = standings_chart(result)
    links = club_links(club, readonly)
    base = links["club"]
    show_rows(club, readonly, result.rows)
    return {
        "club": club,
        "readonly": readonly,
        "links": links,
        "standings": result,
        "played": result.played(),
        "absent": result.absent(),
        "period": period,
        "period_error": period_error,
        "columns": sort_links(base, query, result.sort),
        "sorted_by": sorted_by,
        "period_urls": {
            kind: base + "?" + urlencode({"period": kind, **sorted_by})
            for kind in ("month", "year", "all")
        },
        "csv_url": links["standings_csv"] + "?" + urlencode(query),
        "xlsx_url": links["standings_xlsx"] + "?" + urlencode(query),
        "chart": svg,
        "sessions": latest_sessions(club, period, readonly, result.rows),
        "more_sessions": max(0, result.session_count - LATEST_SHEETS),
    }


def standings_chart(result: standings.Standings) -> str:
    """The chart of the players' cumulative points over the period's sessions, as safe SVG
    markup ("" while nobody has played in it)."""
    points, names, ends = result.chart_points()
    if not names:
        return ""
    return mark_safe(chart.draw(points, ends, names, gettext=chart_text, id_prefix="club-chart"))


def show_rows(club: Club, readonly: bool, rows: list[standings.Standing]) -> None:
    """Give each line of the standings the link to its player's page and its cells as the
    page writes them (``cells``: key, text)."""
    for row in rows:
        row.url = player_url(club, readonly, row.player.pk)
        row.cells = [
            (key, shown_value(getattr(row, attribute))) for key, attribute in standings.COLUMNS
        ]


def latest_sessions(club: Club, period: standings.Period, readonly: bool, rows) -> list[dict]:
    """The period's latest sessions as the club page lists them: each with its link (the
    read-only one from the read-only page) and its players' names, by the standings'
    ``rows`` ("?" for a name no longer on the roster)."""
    roster = {row.player.pk: row.player.name for row in rows}
    return [
        {
            "club_sheet": club_sheet,
            "sheet": club_sheet.sheet,
            "url": club_sheet.sheet.get_view_url()
            if readonly
            else club_sheet.sheet.get_absolute_url(),
            "names": [roster.get(pk, "?") for pk in club_sheet.players],
        }
        for club_sheet in standings.latest_club_sheets(club, period, LATEST_SHEETS)
    ]


def column_labels() -> list[tuple[str, str]]:
    """The standings' columns as the page heads them (the CSV's words, shorter)."""
    return [
        ("name", _("Player")),
        ("sessions", _("Sessions")),
        ("hands", _("Hands")),
        ("points", _("Points")),
        ("per_hand", _("Per hand")),
        ("wins", _("Won")),
        ("taken", _("Taken")),
        ("made", _("Made (%)")),
        ("contract", _("Avg. contract")),
        ("rating", _("Rating")),
    ]


# A column's first order when its header is tapped: names A to Z, every figure best first.
ASCENDING_FIRST = {"name"}


def sort_links(base: str, query: dict, sort: str) -> list[dict]:
    """Each column's header: its label, the link that sorts by it (the other way round when
    it is the column sorted already), and its ``aria-sort``."""
    reverse = sort.startswith("-")
    current = sort.removeprefix("-")
    columns = []
    for key, label in column_labels():
        ascending = key in ASCENDING_FIRST
        aria_sort = None
        wanted = key
        if key == current:
            aria_sort = "ascending" if ascending != reverse else "descending"
            wanted = key if reverse else "-" + key
        url = base + "?" + urlencode({**query, "sort": wanted})
        columns.append({"key": key, "label": label, "url": url, "aria_sort": aria_sort})
    return columns


def shown_value(value) -> str:
    """A standings cell: a number in the page's language, with a true minus sign as the sheet
    writes scores (the CSV keeps ASCII '-'), "—" for none."""
    if value is None:
        return "—"
    if value == 0:
        # A figure rounded to zero from below is zero: no "−0.0".
        value = abs(value)
    text = number_format(value, 1) if isinstance(value, float) else str(value)
    return numbers.true_minus(text)


@require_safe
def club(request, token, readonly=False):
    """The club page: standings for a period, the chart, the rating, the sessions."""
    club = get_club(token, readonly)
    recent.remember(request, recent.CLUBS, club, readonly)
    context = standings_context(request, club, readonly)
    if not readonly:
        context["full_url"] = request.build_absolute_uri(club.get_absolute_url())
        context["view_url"] = request.build_absolute_uri(club.get_view_url())
    template = "scoresheet/club.html"
    if request.htmx:
        template += "#standings"
    return render(request, template, context)


@dataclass
class RosterPage:
    """The roster page's forms and what it says beside them, as a post leaves them."""

    add_form: RosterForm
    merge_form: MergeForm
    # The line of the roster a rename was refused on, and why: (its player's id, the text).
    rename_error: tuple[str, str] | None = None
    status: int = 200


@require_http_methods(["GET", "HEAD", "POST"])
def club_players(request, token):
    """The roster: add a player, rename one, merge two entries that are one person."""
    club = get_club(token)
    players = player_names.alphabetical(club.players.all(), name=lambda player: player.name)
    page = RosterPage(RosterForm(prefix="add"), MergeForm(players=players, prefix="merge"))
    if request.method == "POST":
        action = ROSTER_ACTIONS.get(request.POST.get("action"))
        response = action(request, club, players, page) if action else None
        if response is not None:
            return response
    if page.add_form.errors or request.GET.get("added"):
        page.add_form.fields["names"].widget.attrs["autofocus"] = True
    context = {
        "club": club,
        "links": club_links(club, False),
        "players": players,
        "add_form": page.add_form,
        "merge_form": page.merge_form,
        "rename_error": page.rename_error,
        "rename_value": request.POST.get("name", "") if page.rename_error else "",
    }
    return render(request, "scoresheet/club_players.html", context, status=page.status)


def add_to_roster(request, club: Club, players, page: RosterPage):
    """The roster's text box posted: the names added and the page again, for the next ones;
    or the box shown again with every line refused (None)."""
    page.add_form = RosterForm(request.POST, prefix="add")
    if not page.add_form.is_valid():
        return None
    try:
        added = writes.add_players(club, page.add_form.cleaned_data["lines"]).players
    except ClubError as error:
        for problem in getattr(error, "problems", [error]):
            page.add_form.add_error("names", problem.translated(_))
        return None
    messages.success(request, joined(added))
    # The page again with the focus in the box, for the next names.
    return redirect(reverse("club_players", args=[club.token]) + "?added=1")


def rename_on_roster(request, club: Club, players, page: RosterPage):
    """A roster line's new name posted: renamed and the roster again; or the page again
    (None) with why beside that line, or above the roster when no line of it is that player."""
    form = PlayerNameForm(request.POST)
    pk = request.POST.get("player", "")
    player_id = numbers.read(pk, numbers.ID_DIGITS)
    if player_id is None:
        # A player no page names: the roster again, with why, and nothing renamed.
        messages.error(request, _("Player: choose one of the club's players."))
        page.status = HTTPStatus.BAD_REQUEST
        return None
    if not form.is_valid():
        page.rename_error = (pk, form.errors["name"][0])
        return None
    try:
        change = writes.rename_player(club, player_id, form.cleaned_data["name"])
    except ClubError as error:
        text = error.translated(_)
        page.rename_error = (pk, text)
        if player_id not in {player.pk for player in players}:
            # No line of the roster to show it beside (a player merged away meanwhile).
            messages.error(request, text)
        return None
    if change.done:
        messages.success(request, _("Renamed %(name)s.") % {"name": change.player})
    return redirect("club_players", club.token)


def merge_on_roster(request, club: Club, players, page: RosterPage):
    """Two roster entries posted as one person: merged and the roster again; or the merge
    form again with why (None)."""
    page.merge_form = MergeForm(request.POST, players=players, prefix="merge")
    if not page.merge_form.is_valid():
        return None
    data = page.merge_form.cleaned_data
    try:
        keep = writes.merge_players(club, data["keep"], data["drop"]).player
    except ClubError as error:
        page.merge_form.add_error(None, error.translated(_))
        return None
    messages.success(
        request,
        _("Merged: every session now counts for %(name)s.") % {"name": keep},
    )
    return redirect("club_players", club.token)


# What the roster page does with a post, by its ``action``: the answer to send, or None to
# show the page again as the action left it.
ROSTER_ACTIONS = {"add": add_to_roster, "rename": rename_on_roster, "merge": merge_on_roster}


def joined(players) -> str:
    """What the roster page says of the names it added."""
    if len(players) == 1:
        return _("%(name)s joined the club.") % {"name": players[0].name}
    names = ", ".join(player.name for player in players)
    return ngettext(
        "%(count)s player joined the club: %(names)s.",
        "%(count)s players joined the club: %(names)s.",
        len(players),
    ) % {"count": len(players), "names": names}


@require_safe
def club_player(request, token, pk, readonly=False):
    """A player's page: their sessions and results, best and worst hand, contracts taken,
    favourite partners at 5 players, streaks."""
    club = get_club(token, readonly)
    player = get_object_or_404(club.players, pk=pk)
    record = standings.player_record(club, player, before=shown_sessions(request))
    for row in record.sessions:
        sheet = row["sheet"]
        row["url"] = sheet.get_view_url() if readonly else sheet.get_absolute_url()
    context = {
        "club": club,
        "readonly": readonly,
        "links": club_links(club, readonly),
        "record": record,
        "page_url": player_url(club, readonly, player.pk),
    }
    return render(request, "scoresheet/club_player.html", context)


def shown_sessions(request) -> int | None:
    """The ``before`` of a page of a player's earlier sessions (the first, counted from 1,
    it does not show); anything else shows the latest."""
    before = numbers.read(request.GET.get("before", ""))
    return before if before is not None and before > 1 else None


@require_http_methods(["GET", "HEAD", "POST"])
def club_new_sheet(request, token):
    """Start a session from the club: players from the roster (a new name joins it), the
    club's default rules."""
    club = get_club(token)
    roster = roster_names(club)
    if request.method == "POST":
        form = ClubSheetForm(request.POST)
    else:
        form = ClubSheetForm(initial=club.game_rules.to_data())
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            sheet = writes.start_sheet(
                club,
                data["name"],
                data["names"],
                data["first_dealer"],
                rules=data["rules"],
                key=data["key"],
            ).sheet
        except keys.KeyTaken:
            # A key spent on something else: a tampered form. Offer a fresh one.
            form = ClubSheetForm(keys.renewed(request.POST))
            form.is_valid()
        else:
            recent.remember(request, recent.SHEETS, sheet)
            return redirect(sheet)
    context = {"club": club, "links": club_links(club, False), "form": form, "roster": roster}
    return render(request, "scoresheet/club_new_sheet.html", context)


def sheet_token(link: str) -> str:
    """The full-access token in a session's link (…/s/<token>/), or the text itself."""
    match = re.search(r"(?:^|/)s/([^/]+)/?$", urlsplit(link.strip()).path)
    return match[1] if match else link.strip()


@require_http_methods(["GET", "HEAD", "POST"])
def club_attach(request, token):
    """Count an existing session in the club: its link, then each seat matched to a roster
    player by name, to confirm or change."""
    club = get_club(token)
    form = AttachForm(request.POST or None)
    context = {"club": club, "links": club_links(club, False), "form": form}
    if request.method == "POST" and form.is_valid():
        sheet = Sheet.objects.filter(token=sheet_token(form.cleaned_data["session"])).first()
        refusal = attach_refusal(sheet)
        if refusal:
            form.add_error("session", refusal)
        else:
            seats = seats_to_confirm(request, club, sheet)
            context.update(sheet=sheet, seats=seats, roster=roster_names(club))
            if "confirm" in request.POST:
                try:
                    writes.attach(club, sheet, [seat["value"] for seat in seats])
                except ClubError as error:
                    context["attach_error"] = error.translated(_)
                else:
                    messages.success(
                        request, _("“%(name)s” now counts in the club.") % {"name": sheet.name}
                    )
                    return redirect(club)
    return render(request, "scoresheet/club_attach.html", context)


def attach_refusal(sheet: Sheet | None) -> str | None:
    """Why the session a link opens cannot be counted in a club (None: it can)."""
    if sheet is None:
        return _("The session's link: no session has this link (use its full link).")
    if hasattr(sheet, "club_sheet"):
        return _("This session already belongs to a club.")
    return None


def seats_to_confirm(request, club: Club, sheet: Sheet) -> list[dict]:
    """Each seat of ``sheet`` with the roster name to count it for: as posted, or else the
    roster player of the same name, or else the seat's own name (a new player)."""
    return [
        {
            "seat": seat,
            "name": name,
            "value": request.POST.get(f"seat_{seat}", player.name if player else name),
            "found": player is not None,
        }
        for seat, (name, player) in enumerate(proposed_match(club, sheet))
    ]


@require_POST
def club_detach(request, token, pk):
    """Stop counting a session in the club; the session is left as it is."""
    club = get_club(token)
    change = writes.detach(club, pk)
    if change.done:
        messages.success(
            request, _("“%(name)s” no longer counts in the club.") % {"name": change.sheet.name}
        )
    return redirect(club)


def proposed_match(club: Club, sheet: Sheet) -> list[tuple[str, ClubPlayer | None]]:
    """Each seat of ``sheet`` with the roster player of the same name (by key), or None."""
    seats = list(sheet.seats.values_list("name", "key"))
    roster = {p.key: p for p in club.players.filter(key__in=[key for _, key in seats])}
    return [(name, roster.get(key)) for name, key in seats]
