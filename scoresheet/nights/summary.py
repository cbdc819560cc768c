"""The night after the game: its final ranking and the facts worth telling, read from what is
stored (the tables' sessions' stored totals and statistics' counters), as a session's summary
is (``sheets/summary.py``); its picture, its shared text and its Open Graph card.

- **Ranking**: ``ranking.read``'s, places shared on a tie (1, 1, 3), a column per round.
- **Deals played**: every hand entered at every table, passed deals included (how many passed
  said beside).
- **Best round**: the highest score one player made in one round (their table's total for
  them), who and which round; every player and round with that score on a tie.
- **Biggest hand**: the hand of the night worth the most to each defender, won or lost (the
  statistics' definition, docs/rules.md §2.2's u, ``stats.BiggestHand``), with its round,
  table and taker; a tie goes to the earliest round, then table, then hand.
- **Most takes**: the players who took the most hands over the night (every one on a tie),
  with the share of those contracts they made, rounded to the percent.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from scoresheet import numbers, player_names, stats
from scoresheet.models import Night, NightTable
from scoresheet.nights import ranking
from scoresheet.sheets import summary_image

# The picture names the first places only: six lines stay readable in a chat's preview.
CARD_LINES = 6


@dataclass(frozen=True)
class BestRound:
    """The highest score of one player in one round, and every (name, round) that made it."""

    points: int
    who: tuple[tuple[str, int], ...]


@dataclass(frozen=True)
class NightHand:
    """The night's biggest hand: where it was played and who took it."""

    round: int
    table: int
    hand: stats.BiggestHand
    taker: str
    partner: str | None


@dataclass(frozen=True)
class NightTaker:
    name: str
    taken: int
    made: int
    percent: int


@dataclass(frozen=True)
class NightSummary:
    """What the night's summary page, its picture and the shared text say."""

    view: ranking.NightView
    deals: int
    passed: int
    best_round: BestRound | None
    biggest: NightHand | None
    takers: tuple[NightTaker, ...]

    @property
    def lines(self) -> list[ranking.Line]:
        return self.view.lines

    @property
    def rounds(self) -> list[int]:
        return list(range(1, max(self.view.night.drawn, 1) + 1))

    @property
    def leaders(self) -> list[ranking.Line]:
        return [line for line in self.lines if line.place == 1 and self.deals]


def best_round(lines: list[ranking.Line], played: set[int]) -> BestRound | None:
    """The best single-round score over ``lines`` among the rounds with a hand (``played``)."""
    scores = [
        (points, line.name, number)
        for line in lines
        for number, points in enumerate(line.rounds, start=1)
        if points is not None and number in played
    ]
    if not scores:
        return None
    best = max(points for points, _name, _round in scores)
    who = sorted(
        ((name, number) for points, name, number in scores if points == best),
        key=lambda pair: (pair[1], player_names.collation(pair[0])),
    )
    return BestRound(best, tuple(who))


# A table's stored statistics, read beside its seats: one query for the whole night.
STATISTICS = ("round", "table", "club_sheet__players", "club_sheet__sheet__statistics")


def read(night: Night) -> NightSummary:
    """The night's summary from what is stored: ``ranking.read``'s queries and one more for
    the tables' statistics, at any number of players or rounds."""
    view = ranking.read(night)
    rows = (
        NightTable.objects.filter(night=night, club_sheet__isnull=False)
        .order_by("round", "table")
        .values_list(*STATISTICS)
    )
    names = {line.player: line.name for line in view.lines}
    taken: dict[int, list[int]] = {}
    biggest, passed, played = None, 0, set()
    for number, table, seated, data in rows:
        counters = stats.Counters.from_data(data or {}, len(seated))
        passed += counters.passed
        if counters.hands:
            played.add(number)
        biggest = _bigger(biggest, counters.biggest, number, table, seated, names)
        for seat, counts in enumerate(counters.seats):
            mine = taken.setdefault(seated[seat], [0, 0])
            mine[0] += sum(counts.taken.values())
            mine[1] += sum(counts.made.values())
    return NightSummary(
        view=view,
        deals=deals_played(view),
        passed=passed,
        best_round=best_round(view.lines, played),
        biggest=biggest,
        takers=_most_takes(taken, names),
    )


def _bigger(
    biggest: NightHand | None,
    found: stats.BiggestHand | None,
    number: int,
    table: int,
    seated: list[int],
    names: dict[int, str],
) -> NightHand | None:
    """The biggest hand so far, or the one ``found`` at this table when it is worth more (on a
    tie, the earlier one stays)."""
    if found is None or (biggest is not None and found.value <= biggest.hand.value):
        return biggest
    return NightHand(
        number,
        table,
        found,
        names.get(seated[found.taker], "?"),
        names.get(seated[found.partner], "?") if found.partner is not None else None,
    )


def _most_takes(taken: dict[int, list[int]], names: dict[int, str]) -> tuple[NightTaker, ...]:
    """The players who took the most hands (every one on a tie), alphabetical, from each
    player's hands taken and made; none before a hand is taken."""
    most = max((each[0] for each in taken.values()), default=0)
    takers = player_names.alphabetical(
        (
            NightTaker(names.get(player, "?"), count, made, numbers.percent(made, count))
            for player, (count, made) in taken.items()
            if most and count == most
        ),
        name=lambda taker: taker.name,
    )
    return tuple(takers)


def standings_lines(lines: list[ranking.Line]) -> list[str]:
    """One line a player: "1. Ana +318", ties sharing their place."""
    return [f"{line.place}. {line.name} {numbers.signed(line.total)}" for line in lines]


def share_text(title: str, lines: list[ranking.Line], url: str) -> str:
    """The text "Share the results" sends: a title, the ranking one line a player, and the
    read-only link (never the full one: the caller gives ``url``)."""
    return "\n".join([title, *standings_lines(lines), url])


def deals_words(count: int) -> str:
    return ngettext("%(count)s deal played", "%(count)s deals played", count) % {"count": count}


def subtitle(night: Night, deals: int, day: str) -> str:
    """The line under the night's name: its club, date, players and deals played."""
    return " · ".join([night.club.name, day, deals_words(deals)])


def card_lines(lines: list[ranking.Line]) -> list[summary_image.Line]:
    """The picture's lines: the first ``CARD_LINES`` places."""
    return [
        summary_image.Line(line.place, line.name, numbers.signed(line.total), line.total)
        for line in lines[:CARD_LINES]
    ]


def card_footer(lines: list[ranking.Line]) -> str:
    """The picture's last line: the app, and how many players the picture leaves out."""
    footer = _("Tarot score sheet")
    more = len(lines) - CARD_LINES
    if more > 0:
        footer += " · " + ngettext(
            "%(count)s more player in the ranking", "%(count)s more players in the ranking", more
        ) % {"count": more}
    return footer


def picture(night: Night, lines: list[ranking.Line], deals: int, day: str) -> bytes:
    """The night's PNG (1200 × 630), in the active language."""
    image = summary_image.draw(
        night.name, subtitle(night, deals, day), card_lines(lines), card_footer(lines)
    )
    return summary_image.png(image)


def deals_played(view: ranking.NightView) -> int:
    """Every hand entered at the night's tables, passed deals included."""
    return sum(table.deals for table in view.tables)


def open_graph(request, view: ranking.NightView, page: str) -> dict:
    """The Open Graph card of a read-only night page (``page``, its path): every URL in it is
    under the club's read-only token."""
    night, lines, deals = view.night, view.lines, deals_played(view)
    if deals:
        description = " · ".join(standings_lines(lines[:CARD_LINES]))
        if len(lines) > CARD_LINES:
            description += " …"
        description += f" ({deals_words(deals)})"
    else:
        description = _("No hand yet.")
    image = reverse("view_night_summary_png", args=[night.club.view_token, night.number])
    return {
        "title": f"{night.name} · {night.club.name}",
        "description": description,
        "url": request.build_absolute_uri(page),
        "image": request.build_absolute_uri(image),
        "image_alt": _("The ranking of “%(name)s”") % {"name": night.name},
        "width": summary_image.WIDTH,
        "height": summary_image.HEIGHT,
    }
