"""The club night's files: the ranking as CSV, and the night as JSON, the object the club's
backup (``tarot-club/1``) carries in its optional ``"nights"`` list (docs/club-night.md,
"File formats"):

``{"name", "date": "YYYY-MM-DD", "seed", "deals", "planned": rounds planned, "minutes": n or
null, "passed_counts": true or false, "rules": {…}, "players": [roster names who came], "gone":
[who left], "rounds": [[{"table": 1, "players": [names in seat order], "session": k or null}, …]
one list per round drawn]}``, ``k`` indexing the backup's ``"sessions"``; ``passed_counts``
(whether a passed deal counts as a deal) is optional, true when missing (older files).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date as Date

from django.utils.translation import gettext
from django.utils.translation import gettext_noop as _

from scoresheet import limits, player_names, scoring
from scoresheet.files import csv_text, json_backup
from scoresheet.files.json_backup import refuse
from scoresheet.models import Club, Night, NightTable
from scoresheet.nights import ranking

REQUIRED = ("name", "date", "seed", "deals", "rounds")


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
        "passed_counts": night.passed_counts,
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
    passed_counts: bool = True


def whole(refusal: str, least: int, most: int, **more) -> dict:
    """A whole number from ``least`` to ``most`` in a schema; ``refusal`` says so with
    ``%(most)s``."""
    return {
        "type": "integer",
        "minimum": least,
        "maximum": most,
        "refusal": refusal,
        "params": {"most": most},
        **more,
    }


NAMED = _("Name: give the night a name of 1 to %(length)s characters.")
DATED = _("Date: give a date such as 2026-03-14.")
NUMBER_IT = _("Round %(round)s, table %(table)s: number it %(table)s.")
PLANNED = _("Rounds planned: a whole number from 1 to %(most)s.")
AT_TABLE = _("Round %(round)s, table %(table)s: give its 3 to 6 players.")
MEMBERS = _("Players: give a list of the club's players.")
TOO_MANY = _("Players: a night has at most %(most)s players, not %(count)s.")
SESSION_INDEX = _(
    "Round %(round)s, table %(table)s: “session” is the number of one of the backup's "
    "sessions (from 0), each used once, or null."
)
# Roster names, none twice: present, gone, or seated at a table.
NAMES = {
    "type": "array",
    "refusal": MEMBERS,
    "items": json_backup.string(MEMBERS),
    "allOf": [
        {"maxItems": limits.NIGHT_MOST, "refusal": TOO_MANY, "params": {"most": limits.NIGHT_MOST}}
    ],
}
TABLE = {
    "type": "object",
    "refusal": _("Round %(round)s, table %(table)s: give {“table”, “players”, “session”}."),
    "required": ["players"],
    "missing": AT_TABLE,
    "additionalProperties": False,
    "unknown": _("Round %(round)s, table %(table)s: give {“table”, “players”, “session”}."),
    "properties": {
        "table": {
            "type": "integer",
            "refusal": NUMBER_IT,
        },
        "players": {
            "type": "array",
            "minItems": min(scoring.SEATS),
            "maxItems": max(scoring.SEATS),
            "items": json_backup.string(AT_TABLE),
            "refusal": AT_TABLE,
        },
        "session": {"type": ["integer", "null"], "minimum": 0, "refusal": SESSION_INDEX},
    },
}
NIGHT = {
    "type": "object",
    "refusal": _("give the night as an object."),
    "required": list(REQUIRED),
    "missing": _("it has no “%(key)s”."),
    "additionalProperties": False,
    "unknown": _("it has an unknown entry “%(key)s”."),
    "properties": {
        "name": json_backup.string(NAMED, params={"length": limits.TITLE_LENGTH}),
        "date": json_backup.string(DATED),
        "seed": {
            "type": "string",
            "refusal": _("Seed: give a text of 1 to %(most)s characters."),
            "allOf": [
                {
                    "format": "text",
                    "refusal": _("Seed: “%(value)s” holds a character that cannot be stored."),
                }
            ],
            "minLength": 1,
            "maxLength": limits.SEED_LENGTH,
            "params": {"most": limits.SEED_LENGTH},
        },
        "deals": whole(_("Deals: a whole number from 1 to %(most)s."), 1, limits.NIGHT_DEALS),
        "planned": whole(PLANNED, 1, limits.NIGHT_ROUNDS),
        "minutes": whole(
            _("Minutes per round: null, or a whole number from 1 to %(most)s."),
            1,
            limits.NIGHT_MINUTES,
            type=["integer", "null"],
        ),
        "passed_counts": {
            "type": "boolean",
            "refusal": _("A passed deal counts as a deal: write true or false."),
        },
        "rules": {},
        "players": NAMES,
        "gone": NAMES,
        "rounds": {
            "type": "array",
            "maxItems": limits.NIGHT_ROUNDS,
            "refusal": _("Rounds: give the list of the rounds drawn (at most %(most)s)."),
            "params": {"most": limits.NIGHT_ROUNDS},
            "numbered": "round",
            "items": {
                "type": "array",
                "minItems": 1,
                # Every table seats 3 players or more, none of them at two tables.
                "maxItems": limits.NIGHT_MOST // min(scoring.SEATS),
                "refusal": _("Round %(round)s: give its list of tables."),
                "numbered": "table",
                "items": TABLE,
            },
        },
    },
}
IN_NIGHT = _("Night %(number)s: %(problem)s")
# A club backup's "nights": the schema of club_backup.SHAPE.
NIGHTS = {
    "type": "array",
    "refusal": _("Nights: give the list of the club's nights."),
    "allOf": [
        {
            "maxItems": limits.CLUB_BACKUP_NIGHTS,
            "refusal": _("Nights: a club's backup holds at most %(most)s nights."),
            "params": {"most": limits.CLUB_BACKUP_NIGHTS},
        }
    ],
    "items": NIGHT,
    "each": IN_NIGHT,
}


def read(nights: list, roster: tuple[str, ...], sessions, club_rules: scoring.Rules) -> tuple:
    """The backup's ``"nights"`` (``NIGHTS``'s shape), every one checked against the roster
    and the sessions; ``BackupError`` names the night (from 1) and what is wrong."""
    keys = {player_names.key(name) for name in roster}
    used: set[int] = set()
    return json_backup.each(
        nights, IN_NIGHT, lambda night: read_night(night, keys, sessions, club_rules, used)
    )


def read_night(night: dict, keys: set[str], sessions, club_rules, used: set[int]) -> NightBackup:
    """One night (``NIGHT``'s shape): its rounds drawn no more than planned, its tables and
    players the club's, its sessions each at one table."""
    name = json_backup.title(night["name"], NAMED)
    try:
        date = Date.fromisoformat(night["date"])
    except ValueError:
        refuse(DATED)
    rounds = night["rounds"]
    planned = night.get("planned", len(rounds))
    if planned < 1:
        refuse(PLANNED, most=limits.NIGHT_ROUNDS)
    if len(rounds) > planned:
        refuse(
            _("Rounds: %(count)s drawn, more than the %(most)s planned."),
            count=len(rounds),
            most=planned,
        )
    rules = json_backup.read_rules(night["rules"]) if "rules" in night else club_rules
    tables = tuple(
        read_round(number, each, keys, sessions, used)
        for number, each in enumerate(rounds, start=1)
    )
    players, gone = read_present(night, keys, tables)
    minutes = night.get("minutes")
    return NightBackup(
        name,
        date,
        night["seed"],
        night["deals"],
        planned,
        minutes,
        rules,
        players,
        gone,
        tables,
        passed_counts=night.get("passed_counts", True),
    )


def read_present(night: dict, keys: set[str], tables) -> tuple[tuple, tuple]:
    """Who came (whoever sat at a table too) and who left, no more than a night seats."""
    seated = [key for each in tables for table in each for key in table.players]
    players = tuple(dict.fromkeys([*read_names(night.get("players", []), keys), *seated]))
    if len(players) > limits.NIGHT_MOST:
        refuse(TOO_MANY, most=limits.NIGHT_MOST, count=len(players))
    gone = read_names(night.get("gone", []), keys)
    if not set(gone) <= set(players):
        refuse(_("Gone: every player who left is one who came."))
    return players, gone


def read_names(value: list[str], keys: set[str]) -> tuple[str, ...]:
    """Roster names (``NAMES``), as their keys, none twice."""
    found = []
    for name in value:
        if player_names.key(name) not in keys:
            refuse(
                _("Players: “%(name)s” is not one of the club's players."),
                name=json_backup.shown(name),
            )
        found.append(player_names.key(name))
    if len(set(found)) != len(found):
        refuse(_("Players: a player is there twice."))
    return tuple(found)


def read_round(number: int, tables: list, keys, sessions, used: set[int]) -> tuple:
    """Round ``number``'s tables (``TABLE``): numbered in order, nobody at two of them."""
    read_tables, seen = [], set()
    for index, table in enumerate(tables, start=1):
        where = {"round": number, "table": index}
        if table.get("table", index) != index:
            refuse(NUMBER_IT, **where)
        found = read_names(table["players"], keys)
        if seen & set(found):
            refuse(_("Round %(round)s, table %(table)s: a player sits at two tables."), **where)
        seen |= set(found)
        session = table.get("session")
        if session is not None:
            read_table_session(session, found, sessions, used, where)
        read_tables.append(TableBackup(found, session))
    return tuple(read_tables)


def read_table_session(session: int, found: tuple, sessions, used: set[int], where: dict):
    """The backup's session a table names: one of them, at no other table, with the table's
    players in its seats."""
    if session >= len(sessions) or session in used:
        refuse(SESSION_INDEX, **where)
    seats = tuple(player_names.key(name) for name in sessions[session].players)
    if seats != found:
        refuse(
            _(
                "Round %(round)s, table %(table)s: its players are not those of the "
                "session it names, in the same seats."
            ),
            **where,
        )
    used.add(session)
