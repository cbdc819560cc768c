"""The evening's summary: the final standings and the facts worth telling, read from what is
stored, at the same cost at 10 hands and 10,000.

The figures come from the sheet's stored totals and statistics' counters (``stats.Counters``)
and from at most three queries over the hands (the third lists the chelems, when there are
some), each answered by the database in one pass: no hand is read into Python, none is scored
again.

- **Places**: by total, best first; equal totals share a place, and the next place counts
  the players before it (1, 1, 3), as the sheet's ranks do.
- **Hands played**: every hand entered, passed deals included (how many passed said beside).
- **Time**: from the first hand entered to the last, when the session has two hands or more
  and was entered here (a restored copy's hands were all written at once).
- **Biggest hand**: the scored hand worth the most to each defender, won or lost
  (``|per_defender|``, the statistics' definition: docs/rules.md §2.2's u, the total per defender,
  before misères); ties go to the earliest hand.
- **Biggest swing**: the scored hand with the widest gap between the best and the worst score
  of that hand, ``max(scores) − min(scores)`` over the seats that played, misères included:
  the most one hand moved two players apart. Ties go to the earliest hand. At 4 players a
  made garde of 106 per defender is a swing of 318 − (−106) = 424.
- **Most takes**: the players who took the most hands (all of them on a tie), each with the
  share of those contracts they made, rounded to the percent.
- **Chelems**: the hands with a chelem made by the attack (announced or not) or by the
  defence; announced and failed ones are counted apart.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from scoresheet import numbers, stats
from scoresheet.models import Sheet
from scoresheet.sheets import summary_image

# The chelems a summary names, earliest first; beyond these it only counts them.
CHELEMS_NAMED = 5


@dataclass(frozen=True)
class Place:
    """A player's line of the final standings."""

    seat: int
    name: str
    total: int
    place: int


@dataclass(frozen=True)
class Taker:
    """One of the players who took the most hands."""

    seat: int
    name: str
    taken: int
    made: int
    # Made over taken, rounded to the percent (half up), as the statistics page gives it.
    percent: int


@dataclass(frozen=True)
class Swing:
    """The hand that moved two players furthest apart: its best and worst scores and who had
    them."""

    number: int
    high: int
    low: int
    high_names: tuple[str, ...]
    low_names: tuple[str, ...]

    @property
    def gap(self) -> int:
        return self.high - self.low


@dataclass(frozen=True)
class ChelemHand:
    number: int
    taker: str
    # "announced_made", "unannounced_made", or "defence" for the defence's.
    kind: str


@dataclass(frozen=True)
class Summary:
    """What the summary page, its picture and the shared text say."""

    places: tuple[Place, ...]
    hands: int
    passed: int
    first_hand: datetime | None
    last_hand: datetime | None
    biggest: stats.BiggestHand | None
    biggest_names: tuple[str, ...]
    swing: Swing | None
    takers: tuple[Taker, ...]
    chelems: tuple[ChelemHand, ...]
    chelem_count: int
    failed_chelems: int

    @property
    def duration(self) -> timedelta | None:
        """From the first hand to the last; None when there is nothing to measure."""
        if self.first_hand is None or self.last_hand is None:
            return None
        return self.last_hand - self.first_hand

    @property
    def leaders(self) -> tuple[Place, ...]:
        return tuple(place for place in self.places if place.place == 1 and self.hands)


def places(names: list[str], totals: list[int]) -> tuple[Place, ...]:
    """The standings, best first (seat order on a tie); equal totals share a place."""
    found = [
        Place(seat, name, total, 1 + sum(other > total for other in totals))
        for seat, (name, total) in enumerate(zip(names, totals, strict=True))
    ]
    return tuple(sorted(found, key=lambda place: (place.place, place.seat)))


def swing_of(number: int, scores: list[int], names: list[str], out: int | None) -> Swing:
    """The swing of one hand's ``scores``; seat ``out`` sat it out (or None)."""
    played = [(name, score) for seat, (name, score) in enumerate(zip(names, scores, strict=True))]
    played = [pair for seat, pair in enumerate(played) if seat != out]
    high = max(score for _name, score in played)
    low = min(score for _name, score in played)
    return Swing(
        number=number,
        high=high,
        low=low,
        high_names=tuple(name for name, score in played if score == high),
        low_names=tuple(name for name, score in played if score == low),
    )


def biggest_swing(counters: stats.Counters, names: list[str]) -> Swing | None:
    """The biggest swing (see the module's docstring), as the statistics' counters keep it."""
    swing = counters.swing
    if swing is None:
        return None
    return swing_of(swing.number, list(swing.scores), names, swing.out)


def most_takes(counters: stats.Counters, names: list[str]) -> tuple[Taker, ...]:
    players = counters.statistics(tuple([0] * len(names))).players
    most = max((player.taken for player in players), default=0)
    return tuple(
        Taker(player.seat, names[player.seat], player.taken, player.made, player.percent)
        for player in players
        if most and player.taken == most
    )


def read(sheet: Sheet, names: list[str] | None = None) -> Summary:
    """The summary of ``sheet`` from its stored data, whatever its length: the seats (unless
    the caller gives their ``names``), the first and last hands' times, and the chelems' hands
    when there are some, each through the index of where the hands are stored."""
    if names is None:
        names = list(sheet.seats.values_list("name", flat=True))
    counters = stats.Counters.from_data(sheet.statistics, len(names))
    chelems = []
    if counters.chelems:
        # The counters keep their numbers: the first few read through the index of places.
        named = counters.chelem_hands[:CHELEMS_NAMED]
        found = (
            sheet.numbered_hands()
            .filter(position__in=[sheet.position(number) for number in named])
            .values_list("number", "taker", "chelem", "defence_chelem")
        )
        for number, taker, chelem, defence in found:
            chelems.append(ChelemHand(number, names[taker], "defence" if defence else chelem))
    timed = sheet.hand_count > 1 and sheet.restored is None
    first = last = None
    if timed:
        # Hands are numbered in the order they were entered: the first and the last.
        ends = dict(
            sheet.numbered_hands()
            .filter(position__in=[sheet.position(1), sheet.position(sheet.hand_count)])
            .values_list("number", "created")
        )
        first, last = ends.get(1), ends.get(sheet.hand_count)
    biggest = counters.biggest
    return Summary(
        places=places(names, sheet.totals),
        hands=sheet.hand_count,
        passed=counters.passed,
        first_hand=first,
        last_hand=last,
        biggest=biggest,
        biggest_names=(
            (names[biggest.taker],)
            + ((names[biggest.partner],) if biggest.partner is not None else ())
            if biggest
            else ()
        ),
        swing=biggest_swing(counters, names),
        takers=most_takes(counters, names),
        chelems=tuple(chelems),
        chelem_count=counters.chelems,
        failed_chelems=counters.failed,
    )


def standings_lines(summary: Summary) -> list[str]:
    """One line a player: "1. Ana +318", ties sharing their place."""
    return [
        f"{place.place}. {place.name} {numbers.signed(place.total)}" for place in summary.places
    ]


def share_text(title: str, summary: Summary, url: str) -> str:
    """The text "Share the results" sends: a title, the standings one line a player, and the
    read-only link (never the full one: the caller gives ``url``)."""
    return "\n".join([title, *standings_lines(summary), url])


def hands_words(count: int) -> str:
    return ngettext("%(count)s hand", "%(count)s hands", count) % {"count": count}


def open_graph(request, sheet: Sheet, names: list[str], page: str) -> dict:
    """The Open Graph card of a read-only page: every URL in it is under the read-only token."""
    found = places(names, sheet.totals)
    if sheet.hand_count:
        standings = " · ".join(
            f"{place.place}. {place.name} {numbers.signed(place.total)}" for place in found
        )
        description = f"{standings} ({hands_words(sheet.hand_count)})"
    else:
        description = _("No hand yet.")
    image = reverse("view_summary_png", args=[sheet.view_token])
    return {
        "title": sheet.name,
        "description": description,
        "url": request.build_absolute_uri(page),
        "image": request.build_absolute_uri(image),
        "image_alt": _("The standings of “%(name)s”") % {"name": sheet.name},
        "width": summary_image.WIDTH,
        "height": summary_image.HEIGHT,
    }
