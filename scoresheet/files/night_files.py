"""The club night's files: the ranking as CSV, and the night as JSON, the object the club's
backup (``tarot-club/1``) carries in its optional ``"nights"`` list (docs/club-night.md,
"File formats"):

``{"name", "date": "YYYY-MM-DD", "seed", "deals", "planned": rounds planned, "minutes": n or
null, "rules": {…}, "players": [roster names who came], "gone": [who left], "rounds": [[{"table":
1, "players": [names in seat order], "session": k or null}, …] one list per round drawn]}``,
``k`` indexing the backup's ``"sessions"``.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date as Date

from django.utils.translation import gettext
from django.utils.translation import gettext_noop as _

from scoresheet import player_names, scoring
from scoresheet.files import csv_text, json_backup
from scoresheet.models import Club, Night, NightTable
from scoresheet.nights import draw, forms, ranking

KEYS = (
    "name",
    "date",
    "seed",
    "deals",
    "planned",
    "minutes",
    "rules",
    "players",
    "gone",
    "rounds",
)
REQUIRED = ("name", "date", "seed", "deals", "rounds")
MOST_NIGHTS = 1_000


# The ranking as CSV


def csv_rows(view: ranking.NightView) -> Iterator[list]:
    rounds = max(view.night.drawn, 1)
    yield [
        gettext("Place"),
        gettext("Player"),
        *(gettext("Round %(round)s") % {"round": number} for number in range(1, rounds + 1)),
        gettext("Total"),
    ]
    for line in view.lines:
        yield [
            line.place,
            line.name,
            *("" if points is None else points for points in line.rounds),
            line.total,
        ]


def csv_lines(view: ranking.NightView) -> Iterator[str]:
    """The ranking as every CSV of the app is written (``csv_text``)."""
    return csv_text.lines(csv_rows(view))


def filename(night: Night, extension: str) -> str:
    name = " ".join("".join(c if c.isalnum() or c in " -_" else "-" for c in night.name).split())
    return f"{name or 'night'} {night.date:%Y-%m-%d}.{extension}"


# The night as JSON


def session_order(club: Club) -> dict[int, int]:
    """Each ClubSheet id's place in the backup's list of sessions (club_backup.dump's
    order)."""
    ids = club.club_sheets.order_by("sheet__created", "sheet_id").values_list("pk", flat=True)
    return {pk: index for index, pk in enumerate(ids)}


def dump(club: Club, names: dict[int, str] | None = None, order=None) -> list[dict]:
    """Every night of the club, as the backup's ``"nights"`` list (in the order they were
    created)."""
    names = names if names is not None else dict(club.players.values_list("pk", "name"))
    order = order if order is not None else session_order(club)
    nights = list(club.nights.order_by("number"))
    tables = {}
    for table in (
        NightTable.objects.filter(night__club=club)
        .select_related("club_sheet")
        .order_by("night", "round", "table")
    ):
        tables.setdefault(table.night_id, []).append(table)
    return [night_data(night, tables.get(night.pk, []), names, order) for night in nights]


def night_data(night: Night, tables, names: dict[int, str], order: dict[int, int]) -> dict:
    rounds = [[] for _round in range(night.drawn)]
    for table in tables:
        players = table.club_sheet.players if table.club_sheet is not None else table.players
        rounds[table.round - 1].append(
            {
                "table": table.table,
                "players": [names.get(p, "?") for p in players],
                "session": order.get(table.club_sheet_id) if table.club_sheet_id else None,
            }
        )
    return {
        "name": night.name,
        "date": night.date.isoformat(),
        "seed": night.seed,
        "deals": night.deals,
        "planned": night.rounds,
        "minutes": night.minutes,
        "rules": night.game_rules.to_data(),
        "players": [names[p] for p in night.players if p in names],
        "gone": [names[p] for p in night.gone if p in names],
        "rounds": rounds,
    }


def dumps_night(night: Night) -> str:
    """One night as its own JSON file: the backup's night object, with the club's name; its
    ``session`` numbers index the club backup's sessions."""
    club = night.club
    names = dict(club.players.values_list("pk", "name"))
    tables = list(night.tables.select_related("club_sheet").order_by("round", "table"))
    data = {"club": club.name, **night_data(night, tables, names, session_order(club))}
    return json.dumps(data, ensure_ascii=False, indent=2) + "\n"


# Reading a backup's nights


@dataclass(frozen=True)
class TableBackup:
    players: tuple[str, ...]  # player_names.key of each seat's player
    session: int | None


@dataclass(frozen=True)
class NightBackup:
    name: str
    date: Date
    seed: str
    deals: int
    rounds: int
    minutes: int | None
    rules: scoring.Rules
    players: tuple[str, ...]  # player_names.key of everyone who came
    gone: tuple[str, ...]
    tables: tuple[tuple[TableBackup, ...], ...]


def _whole(value, least, most) -> bool:
    return type(value) is int and least <= value <= most


def read(value, roster: tuple[str, ...], sessions, club_rules: scoring.Rules) -> tuple:
    """The backup's ``"nights"`` (absent: none), every one checked against the roster and the
    sessions; ``json_backup.BackupError`` names the night (from 1) and what is wrong."""
    if value is None:
        return ()
    if not isinstance(value, list):
        json_backup.refuse(_("Nights: give the list of the club's nights."), field="nights")
    if len(value) > MOST_NIGHTS:
        json_backup.refuse(
            _("Nights: a club's backup holds at most %(most)s nights."),
            field="nights",
            most=MOST_NIGHTS,
        )
    keys = {player_names.key(name) for name in roster}
    used: set[int] = set()
    nights = []
    for number, night in enumerate(value, start=1):
        try:
            nights.append(read_night(night, keys, sessions, club_rules, used))
        except json_backup.BackupError as error:
            text = gettext("Night %(number)s: %(problem)s") % {
                "number": number,
                "problem": error.message,
            }
            raise json_backup.BackupError(text, field="nights") from None
    return tuple(nights)


def read_night(night, keys: set[str], sessions, club_rules, used: set[int]) -> NightBackup:
    if not isinstance(night, dict):
        json_backup.refuse(_("give the night as an object."))
    for key in night:
        if key not in KEYS:
            json_backup.refuse(_("it has an unknown entry “%(key)s”."), key=json_backup.shown(key))
    for key in REQUIRED:
        if key not in night:
            json_backup.refuse(_("it has no “%(key)s”."), key=key)
    name = json_backup.clean_name(night["name"], player_names.TITLE_LENGTH)
    if not name:
        json_backup.refuse(
            _("Name: give the night a name of 1 to %(length)s characters."),
            length=player_names.TITLE_LENGTH,
        )
    try:
        date = Date.fromisoformat(night["date"])
    except (TypeError, ValueError):
        json_backup.refuse(_("Date: give a date such as 2026-03-14."))
    seed = night["seed"]
    if not isinstance(seed, str) or not 1 <= len(seed) <= 20:
        json_backup.refuse(_("Seed: give a text of 1 to 20 characters."))
    if not _whole(night["deals"], 1, forms.MOST_DEALS):
        json_backup.refuse(_("Deals: a whole number from 1 to 40."))
    planned = night.get(
        "planned", len(night["rounds"]) if isinstance(night["rounds"], list) else 0
    )
    if not _whole(planned, 1, forms.MOST_ROUNDS):
        json_backup.refuse(_("Rounds planned: a whole number from 1 to 20."))
    minutes = night.get("minutes")
    if minutes is not None and not _whole(minutes, 1, forms.MOST_MINUTES):
        json_backup.refuse(_("Minutes per round: null, or a whole number from 1 to 240."))
    try:
        rules = scoring.Rules.from_data(night["rules"]) if "rules" in night else club_rules
    except scoring.InvalidRules as error:
        problem = error.problems[0]
        params = {key: json_backup.shown(v) for key, v in problem.params.items()}
        raise json_backup.BackupError(gettext(problem.message) % params) from None
    rounds = night["rounds"]
    if not isinstance(rounds, list) or len(rounds) > forms.MOST_ROUNDS:
        json_backup.refuse(_("Rounds: give the list of the rounds drawn (at most 20)."))
    tables = tuple(
        read_round(number, each, keys, sessions, used)
        for number, each in enumerate(rounds, start=1)
    )
    seated = [key for each in tables for table in each for key in table.players]
    players = read_names(night.get("players", []), keys, "players")
    gone = read_names(night.get("gone", []), keys, "gone")
    # Whoever sat at a table came.
    players = tuple(dict.fromkeys([*players, *seated]))
    if not set(gone) <= set(players):
        json_backup.refuse(_("Gone: every player who left is one who came."))
    return NightBackup(
        name, date, seed, night["deals"], planned, minutes, rules, players, gone, tables
    )


def read_names(value, keys: set[str], field: str) -> tuple[str, ...]:
    if not isinstance(value, list) or len(value) > draw.MOST * 2:
        json_backup.refuse(_("Players: give a list of the club's players."))
    found = []
    for name in value:
        if not isinstance(name, str) or player_names.key(name) not in keys:
            json_backup.refuse(
                _("Players: “%(name)s” is not one of the club's players."),
                name=json_backup.shown(name),
            )
        found.append(player_names.key(name))
    if len(set(found)) != len(found):
        json_backup.refuse(_("Players: a player is there twice."))
    return tuple(found)


def read_round(number: int, tables, keys, sessions, used: set[int]) -> tuple[TableBackup, ...]:
    if not isinstance(tables, list) or not 1 <= len(tables) <= draw.MOST:
        json_backup.refuse(_("Round %(round)s: give its list of tables."), round=number)
    read_tables, seen = [], set()
    for index, table in enumerate(tables, start=1):
        where = {"round": number, "table": index}
        if not isinstance(table, dict) or set(table) - {"table", "players", "session"}:
            json_backup.refuse(
                _("Round %(round)s, table %(table)s: give {“table”, “players”, “session”}."),
                **where,
            )
        if table.get("table", index) != index:
            json_backup.refuse(
                _("Round %(round)s, table %(table)s: number it %(table)s."), **where
            )
        players = table.get("players")
        if not isinstance(players, list) or len(players) not in scoring.SEATS:
            json_backup.refuse(
                _("Round %(round)s, table %(table)s: give its 3 to 6 players."), **where
            )
        found = read_names(players, keys, "players")
        if seen & set(found):
            json_backup.refuse(
                _("Round %(round)s, table %(table)s: a player sits at two tables."), **where
            )
        seen |= set(found)
        session = table.get("session")
        if session is not None:
            if not _whole(session, 0, len(sessions) - 1) or session in used:
                json_backup.refuse(
                    _(
                        "Round %(round)s, table %(table)s: “session” is the number of one of "
                        "the backup's sessions (from 0), each used once, or null."
                    ),
                    **where,
                )
            seats = tuple(player_names.key(name) for name in sessions[session].players)
            if seats != found:
                json_backup.refuse(
                    _(
                        "Round %(round)s, table %(table)s: its players are not those of the "
                        "session it names, in the same seats."
                    ),
                    **where,
                )
            used.add(session)
        read_tables.append(TableBackup(found, session))
    return tuple(read_tables)
