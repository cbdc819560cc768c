"""The club night as its pages show it, read from what is stored: the tables of each round
with their sheets' stored totals and hand counts, the ranking that adds them up.

``ranking`` is pure (no query); ``read`` costs the same few queries at any number of players
or rounds: the tables with their sessions and sheets, and the players' names.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db.models import Sum

from scoresheet import player_names
from scoresheet.models import ClubPlayer, Night, NightTable, Sheet


@dataclass(frozen=True)
class SheetLink:
    """What the night's pages show of a table's sheet: its two links."""

    token: str
    view_token: str


@dataclass
class Table:
    """One table of one round: who sits where, the sheet (None when it has none), its progress."""

    round: int
    table: int
    players: list[int]
    names: list[str] = field(default_factory=list)
    sheet: SheetLink | None = None
    deals: int = 0
    planned: int = 0
    # Every deal stored, passed or not (``deals`` leaves out the passed ones when a night
    # does not count them).
    hands: int = 0
    # Each seat's stored total, in seat order (zeros before the first hand).
    totals: list[int] = field(default_factory=list)

    @property
    def done(self) -> bool:
        return self.deals >= self.planned

    @property
    def beyond(self) -> bool:
        """More deals than planned ("5/4"): shown in the warning colour."""
        return self.deals > self.planned


@dataclass
class Line:
    """A player's line of the ranking: place (ties share it), points per round (None: did not
    play that round), total."""

    player: int
    name: str
    rounds: list[int | None]
    total: int
    place: int = 0
    gone: bool = False


def ranking(names: dict[int, str], tables: list[Table], rounds: int, gone=()) -> list[Line]:
    """Each player's total over the rounds played, best first; equal totals share a place."""
    lines = {
        player: Line(player, name, [None] * rounds, 0, gone=player in gone)
        for player, name in names.items()
    }
    for table in tables:
        for seat, player in enumerate(table.players):
            line = lines.get(player)
            if line is None:
                continue
            points = table.totals[seat] if seat < len(table.totals) else 0
            line.rounds[table.round - 1] = (line.rounds[table.round - 1] or 0) + points
            line.total += points
    ordered = sorted(
        lines.values(), key=lambda line: (-line.total, player_names.collation(line.name))
    )
    for index, line in enumerate(ordered):
        tied = index and ordered[index - 1].total == line.total
        line.place = ordered[index - 1].place if tied else index + 1
    return ordered


@dataclass
class NightView:
    night: Night
    tables: list[Table]
    lines: list[Line]
    version: str

    def round_tables(self, number: int) -> list[Table]:
        return [table for table in self.tables if table.round == number]

    @property
    def current(self) -> list[Table]:
        return self.round_tables(self.night.drawn)

    @property
    def round_done(self) -> bool:
        """Every table of the current round has its deals: the next round may be drawn."""
        return bool(self.current) and all(table.done for table in self.current)

    @property
    def started(self) -> bool:
        """A deal of the current round is stored, at any table."""
        return any(table.hands for table in self.current)

    @property
    def over(self) -> bool:
        """The last round is drawn and every table has played its deals."""
        return self.night.drawn >= self.night.rounds and self.round_done

    @property
    def entered(self) -> int:
        return sum(table.deals for table in self.current)

    @property
    def planned(self) -> int:
        return sum(table.planned for table in self.current)


# A table as ``read`` fetches it: values, not model instances (a night of 60 has 75 tables).
COLUMNS = (
    "round",
    "table",
    "players",
    "club_sheet__players",
    "club_sheet__sheet__token",
    "club_sheet__sheet__view_token",
    "club_sheet__sheet__hand_count",
    "club_sheet__sheet__totals",
    "club_sheet__sheet__revision",
    # The deals everyone passed, for a night where they do not count (stats.passed_in).
    "club_sheet__sheet__statistics__passed",
)
_REVISION = COLUMNS.index("club_sheet__sheet__revision")


def read(night: Night) -> NightView:
    """The night's tables and ranking from stored results: two queries at any size."""
    rows = NightTable.objects.filter(night=night).order_by("round", "table").values_list(*COLUMNS)
    tables, revisions = [], 0
    for row in rows:
        tables.append(_table(night, row))
        revisions += row[_REVISION] or 0
    seated = {player for table in tables for player in table.players}
    wanted = set(night.players) | seated
    names = dict(ClubPlayer.objects.filter(pk__in=wanted).values_list("pk", "name"))
    for table in tables:
        table.names = [names.get(player, "?") for player in table.players]
    lines = ranking(names, tables, max(night.drawn, 1), gone=set(night.gone))
    return NightView(night, tables, lines, version(night.revision, revisions))


def _table(night: Night, row: tuple) -> Table:
    """A table of ``night`` from its row as ``read`` fetches it (``COLUMNS``)."""
    number, table, drawn, seated, token, view_token, hands, totals, _revision, passed = row
    # The session's seats are the truth once it exists: a merge of two roster entries
    # updates them (club_writes.merge_players).
    has_sheet = token is not None
    return Table(
        number,
        table,
        list(seated if seated is not None else drawn),
        sheet=SheetLink(token, view_token) if has_sheet else None,
        deals=(hands or 0) - (0 if night.passed_counts else passed or 0),
        hands=hands or 0,
        planned=night.deals,
        totals=list(totals or []),
    )


def version(revision: int, revisions: int | None) -> str:
    """What a page polls with: the night's revision and the sum of its sheets' (each only
    moves on), so any change at any table gives another."""
    return f"{revision}.{revisions or 0}"


def current_version(night_id: int, revision: int) -> str:
    """The version now, in one query (a poll of a page still current costs this and the
    night's row)."""
    total = Sheet.objects.filter(club_sheet__night_table__night_id=night_id).aggregate(
        total=Sum("revision")
    )["total"]
    return version(revision, total)


def winners(nights: list[Night]) -> dict[int, list[str]]:
    """Each night's leaders (several on a tie), by night id, once a hand is entered: two
    queries for any number of nights."""
    if not nights:
        return {}
    rows = (
        NightTable.objects.filter(night__in=nights, club_sheet__isnull=False)
        .select_related("club_sheet__sheet")
        .only("night", "club_sheet__players", "club_sheet__sheet__totals")
    )
    totals: dict[int, dict[int, int]] = {}
    for row in rows:
        for player, points in zip(
            row.club_sheet.players, row.club_sheet.sheet.totals, strict=False
        ):
            night = totals.setdefault(row.night_id, {})
            night[player] = night.get(player, 0) + points
    wanted = {player for night in totals.values() for player in night}
    names = dict(ClubPlayer.objects.filter(pk__in=wanted).values_list("pk", "name"))
    found = {}
    for night, points in totals.items():
        best = max(points.values())
        found[night] = player_names.alphabetical(
            names.get(p, "?") for p, total in points.items() if total == best
        )
    return found
