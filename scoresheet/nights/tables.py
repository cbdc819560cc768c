"""A night's table as its phone sees it: the night it is part of, its round and number, the
deals it has played of those planned, and, once the next round is drawn, where each of its
players sits next.

The sheets know nothing of nights: ``apps.py`` registers ``plan_of`` with ``sheets.around``
(what a sheet is part of), with the relations it reads (``READS``, fetched with the sheet) and
the night's revision, which a sheet's live poll follows (``FOLLOWS``): a draw moves it on, and
every table's phone shows where its players go within one poll.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.core.exceptions import ObjectDoesNotExist
from django.urls import reverse

from scoresheet.models import Night, NightTable, Sheet
from scoresheet.sheets import around

# The relations of a sheet that finding its table reads, and the value its poll follows.
READS = ("club_sheet__night_table__night__club",)
FOLLOWS = ("club_sheet__night_table__night__revision",)


def table_of(sheet: Sheet) -> NightTable | None:
    """The night's table a sheet is played at, or None; no query when the sheet was fetched
    with ``READS`` (``around.related``)."""
    try:
        return sheet.club_sheet.night_table
    except ObjectDoesNotExist:
        return None


def plan_of(sheet: Sheet) -> around.Plan | None:
    """A table's plan: the night's deals a round, and whether a passed deal counts."""
    table = table_of(sheet)
    if table is None:
        return None
    return around.Plan(table.night.deals, table.night.passed_counts)


@dataclass(frozen=True)
class Seat:
    """One player of the table and the table they sit at in the next round (None: they do
    not play it)."""

    name: str
    table: int | None


@dataclass
class TableView:
    """What a table's pages show of its night."""

    night: Night
    round: int
    table: int
    planned: int
    played: int
    ranking_url: str
    # Where each player of the table goes, once the next round is drawn (else empty).
    next_seats: list[Seat] = field(default_factory=list)

    @property
    def rounds(self) -> int:
        return self.night.rounds

    @property
    def over(self) -> bool:
        """The table has played its deals: the round is over for it."""
        return self.played >= self.planned

    @property
    def beyond(self) -> bool:
        """More deals than planned: shown in the warning colour."""
        return self.played > self.planned

    @property
    def deal(self) -> int:
        """The deal being played: the one after the last played."""
        return self.played + 1

    @property
    def night_over(self) -> bool:
        """The last round, its deals played: the night is over for this table."""
        return self.over and self.round >= self.night.rounds

    @property
    def next_round(self) -> int:
        return self.round + 1


def read(sheet: Sheet, names: list[str]) -> TableView | None:
    """The table ``sheet`` is played at, as its pages show it (``names``: its seats'), or None
    for a session of its own: no query but one for the next round's seats once it is drawn."""
    table = table_of(sheet)
    if table is None:
        return None
    night = table.night
    plan = around.Plan(night.deals, night.passed_counts)
    view = TableView(
        night=night,
        round=table.round,
        table=table.table,
        planned=night.deals,
        played=plan.played_on(sheet),
        ranking_url=reverse("view_night", args=[night.club.view_token, night.number]),
    )
    if night.drawn > table.round:
        # The session's seats are the truth once it exists (a merge of roster entries updates
        # them): its players, in seat order.
        players = sheet.club_sheet.players or table.players
        going = {}
        for number, drawn, seated in NightTable.objects.filter(
            night=night, round=table.round + 1
        ).values_list("table", "players", "club_sheet__players"):
            for player in seated or drawn:
                going[player] = number
        view.next_seats = [
            Seat(name, going.get(player)) for name, player in zip(names, players, strict=False)
        ]
    return view
