"""A session's JSON backup (``tarot-scoresheet/1``): writing it, and reading it back into a new
session, checked whole before anything is written (the shared pieces: ``json_backup.py``).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime

from django.utils.translation import gettext

# _ only marks a message for extraction, as in scoring.py; refuse() translates it.
from django.utils.translation import gettext_noop as _

from scoresheet import json_rows, limits, scoring
from scoresheet.files import json_backup
from scoresheet.files.json_backup import (
    BackupError,
    card_points_as_json,
    is_int,
    read_created,
    refuse,
    shown,
)
from scoresheet.models import Hand, Sheet, local_time
from scoresheet.sheets import writes

FORMAT = "tarot-scoresheet/1"

KEYS = ("format", "name", "created", "players", "first_dealer", "rules", "hands")
# scoring.Hand's field names, in the order a backup writes them; "players" is the table's.
HAND_KEYS = (
    "taker",
    "contract",
    "bouts",
    "points",
    "partner",
    "petit_au_bout",
    "poignees",
    "chelem",
    "defence_chelem",
)
FIELD_LABELS = {
    "taker": _("Taker"),
    "contract": _("Contract"),
    # Game terms stay French in every language.
    "bouts": "Bouts",
    "points": _("Points"),
    "partner": _("Partner"),
    "petit_au_bout": "Petit au bout",
    "poignees": "Poignées",
    "chelem": "Chelem",
    "defence_chelem": _("Defence chelem"),
}


@dataclass(frozen=True)
class Backup:
    """A backup that passed every check; ``hands`` holds (dealer, hand) pairs in play order,
    the hand None for a passed deal."""

    name: str
    created: datetime
    players: tuple[str, ...]
    first_dealer: int
    hands: tuple[tuple[int, scoring.Hand | None], ...]
    rules: scoring.Rules = scoring.FFT


# JSON backup: writing


# What the backup writes of a hand, read as stored (no model instance, no score): who dealt,
# and what the players entered.
HAND_COLUMNS = Hand.SCORING


def by_seat(mapping: dict) -> dict:
    """A stored {"seat": value} mapping in seat order ("10" after "9")."""
    return dict(sorted(mapping.items(), key=lambda item: int(item[0])))


def hand_data(hand: Hand) -> dict:
    """One stored hand in the backup format."""
    return stored_hand_data(tuple(getattr(hand, column) for column in HAND_COLUMNS))


def stored_hand_data(values: tuple) -> dict:
    """One hand in the backup format, from its ``HAND_COLUMNS`` as the database gives them."""
    hand = dict(zip(HAND_COLUMNS, values, strict=True))
    if hand["passed"]:
        return {"passed": True, "dealer": hand["dealer"]}
    # The keys in the order the format writes them (docs/formats.md).
    data = {
        "dealer": hand["dealer"],
        "taker": hand["taker"],
        "contract": hand["contract"],
        "bouts": hand["bouts"],
        "points": card_points_as_json(hand["points"]),
        "partner": hand["partner"],
        "petit_au_bout": hand["petit_au_bout"] or None,
        "poignees": by_seat(hand["poignees"]),
        "chelem": hand["chelem"] or None,
        "defence_chelem": hand["defence_chelem"],
    }
    if hand["miseres"]:
        data["miseres"] = by_seat(hand["miseres"])
    return data


def stored_hands(sheet: Sheet) -> Iterator[dict]:
    """The sheet's hands in the backup format, in play order: one query, read in chunks, only
    the columns the backup writes."""
    for values in json_rows.read(sheet.hands.order_by("position"), HAND_COLUMNS):
        yield stored_hand_data(values)


def dump(sheet: Sheet) -> dict:
    """Everything the app stores about a sheet, as the backup's JSON object."""
    return {**dump_head(sheet), "hands": list(stored_hands(sheet))}


def dump_head(sheet: Sheet) -> dict:
    """The backup's object without its hands."""
    return {
        "format": FORMAT,
        "name": sheet.name,
        # The server's time zone gives the offset; the instant is what the database holds.
        "created": local_time(sheet.created).isoformat(),
        "players": list(sheet.seats.values_list("name", flat=True)),
        "first_dealer": sheet.first_dealer,
        "rules": sheet.game_rules.to_data(),
    }


def dumps(data: dict) -> str:
    """The backup as text: one hand per line, readable and well under the size limit."""
    head = {key: value for key, value in data.items() if key != "hands"}
    return "".join(backup_lines(head, iter(data["hands"])))


def backup_lines(head: dict, hands: Iterator[dict]) -> Iterator[str]:
    """The backup's text in pieces, a hand a line: ``dumps``, streamed."""
    lines = [
        f"  {json.dumps(key)}: {json.dumps(value, ensure_ascii=False)}"
        for key, value in head.items()
    ]
    first = next(hands, None)
    if first is None:
        yield "{\n" + ",\n".join([*lines, '  "hands": []']) + "\n}\n"
        return
    yield "{\n" + ",\n".join([*lines, '  "hands": [']) + "\n"
    yield f"    {json.dumps(first, ensure_ascii=False)}"
    for hand in hands:
        yield f",\n    {json.dumps(hand, ensure_ascii=False)}"
    yield "\n  ]\n}\n"


def dump_lines(sheet: Sheet) -> Iterator[str]:
    """The sheet's backup file, streamed: the text of ``dumps(dump(sheet))``, its hands read
    in chunks as they are written."""
    return backup_lines(dump_head(sheet), stored_hands(sheet))


# JSON backup: reading and checking


# What a hand's value must be in the file, and the refusal that says so the way the players
# would read it; the rules check the values (scoring.validate).
HAND_FIELDS = {
    "taker": (
        {"type": "integer"},
        _("Taker: give the taker's seat as a number (0 is the first player)."),
    ),
    "contract": (
        {"enum": [contract.value for contract in scoring.Contract]},
        _("Contract: choose prise, garde, garde sans or garde contre."),
    ),
    "bouts": ({"type": "integer"}, _("Bouts: give the number of bouts, 0 to 3.")),
    "points": (
        {"type": "number"},
        _("Points: give the attack's card points as a number, like 49 or 40.5."),
    ),
    "partner": (
        {"type": ["integer", "null"]},
        _("Partner: give the partner's seat as a number, or null when the taker is alone."),
    ),
    "petit_au_bout": (
        {"enum": [None, *(camp.value for camp in scoring.Camp)]},
        _("Petit au bout: write null, “attack” or “defence”."),
    ),
    "poignees": (
        {"type": "object"},
        _("Poignées: give each player's poignée by seat, like {“2”: “simple”}."),
    ),
    "chelem": (
        {"enum": [None, *(chelem.value for chelem in scoring.Chelem)]},
        _("Chelem: write null, “announced_made”, “unannounced_made” or “announced_failed”."),
    ),
    "defence_chelem": ({"type": "boolean"}, _("Defence chelem: write true or false.")),
}
POINTS_AS = HAND_FIELDS["points"][1]
# A passed deal: {"passed": true} and at most its "dealer".
PASSED_HAND = {
    "properties": {"passed": {}, "dealer": {}},
    "additionalProperties": False,
    "unknown": _("a passed deal has no other field, not “%(key)s”."),
    "field": "passed",
}
# A played hand: every field of scoring.Hand, with its optional "dealer" and "miseres"
# (read_hand checks them against the table).
PLAYED_HAND = {
    "allOf": [
        {
            "properties": {
                "passed": {"const": False, "refusal": _("Passed: write true, or leave it out.")}
            }
        }
    ],
    "required": list(HAND_KEYS),
    "missing": _("%(label)s is missing."),
    "labels": FIELD_LABELS,
    "additionalProperties": False,
    "unknown": _("unknown field “%(key)s”."),
    "properties": {
        "passed": {},
        "dealer": {},
        **{key: {**shape, "refusal": refusal} for key, (shape, refusal) in HAND_FIELDS.items()},
        "miseres": {
            "type": "object",
            "refusal": _("Misères: give each player's misères by seat, like {“2”: 1}."),
        },
    },
}
# Which of the two a hand is ("passed": true or not) is chosen by read_hand, not by the
# schema's if/then/else: fastjsonschema tries an "if" by raising, once for every played hand.
HAND_SHAPES = {True: json_backup.Shape(PASSED_HAND), False: json_backup.Shape(PLAYED_HAND)}
NAMED = _("Name: give the session a name of 1 to %(length)s characters.")
FIRST_DEALER = _("First dealer: choose one of the players at the table.")
SHAPE = json_backup.Shape(
    {
        **json_backup.tagged(
            FORMAT, _("This file is not a backup of a session: it has no “format”.")
        ),
        "required": list(KEYS),
        "properties": {
            "format": {},
            "name": json_backup.string(NAMED, params={"length": limits.TITLE_LENGTH}),
            "created": json_backup.CREATED,
            "players": {
                "type": "array",
                "refusal": _("Players: give the list of the players' names."),
                "allOf": [
                    {
                        "minItems": min(scoring.SEATS),
                        "maxItems": max(scoring.SEATS),
                        "refusal": _("Players: a session has 3 to 6 players, not %(count)s."),
                    }
                ],
                "items": json_backup.PLAYER,
                "numbered": "number",
            },
            "first_dealer": {
                "type": "integer",
                "minimum": 0,
                "refusal": FIRST_DEALER,
            },
            "rules": {},
            "hands": {
                "type": "array",
                "refusal": _("Hands: give the list of hands."),
                "allOf": [
                    {
                        "maxItems": limits.SESSION_BACKUP_HANDS,
                        "refusal": _(
                            "This backup has %(count)s hands; a backup can hold at most %(most)s."
                        ),
                        "params": {"most": limits.SESSION_BACKUP_HANDS},
                    }
                ],
                # Each an object, whose shape read_hand checks (HAND_SHAPES).
                "items": {
                    "type": "object",
                    "refusal": _("give the hand as an object, like {“passed”: true}."),
                },
                "numbered": "hand",
                "each": json_backup.IN_HAND,
            },
        },
    }
)
# By seat, in a hand: the refusal of a seat not at the table, of a value, and what a value is.
BY_SEAT = {
    "poignees": (
        _("Poignée: seat %(value)s is not at the table."),
        _("Poignée of %(name)s: choose simple, double or triple."),
        tuple(poignee.value for poignee in scoring.Poignee).__contains__,
    ),
    "miseres": (
        _("Misère: seat %(value)s is not at the table."),
        _("Misère of %(name)s: give 1 or 2."),
        is_int,
    ),
}


def parse_json(data: bytes | str) -> object:
    """The file's JSON value, after the size check; refuses what is not JSON."""
    return json_backup.parse(
        data,
        most=limits.SESSION_BACKUP_BYTES,
        too_large=_("This file is larger than %(size)s MB, the most a backup can be."),
        not_text=_("This file is not a backup of a session: it is not JSON."),
        not_json=_("This file is not a backup of a session: it is not JSON."),
        size=limits.SESSION_BACKUP_BYTES // (1024 * 1024),
    )


def read(data: bytes | str) -> Backup:
    """Check a whole backup file; raises ``BackupError`` at the first thing wrong."""
    content = parse_json(data)
    SHAPE.check(content)
    return read_content(content)


def read_content(content: dict) -> Backup:
    """Check what a backup's parsed JSON means, once ``SHAPE`` has checked its shape (also
    each session of a club's backup, club_backup.py): names, seats and the rules."""
    name = json_backup.title(content["name"], NAMED)
    created = read_created(content["created"])
    # As the new-session form does: cleaned, and compared by their key (player_names.py).
    players = json_backup.read_names(
        content["players"], _("Player %(number)s: “%(name)s” is already at the table.")
    )
    first_dealer = content["first_dealer"]
    if first_dealer >= len(players):
        refuse(FIRST_DEALER, field="first_dealer")
    rules = json_backup.read_rules(content["rules"], len(players))
    dealt = []
    rotation = first_dealer
    for number, hand in enumerate(content["hands"], start=1):
        dealer, played = read_hand(hand, number, players, rules, rotation)
        dealt.append((dealer, played))
        rotation = scoring.next_dealer(dealer, len(players))
    return Backup(name, created, players, first_dealer, tuple(dealt), rules)


def read_hand(
    fields: dict, number: int, players: tuple[str, ...], rules: scoring.Rules, rotation: int
) -> tuple[int, scoring.Hand | None]:
    """One hand of the file (an object), checked as the rules check an entered hand: (its
    dealer, the hand or None if passed). ``rotation`` is the dealer when the file does not
    say."""
    check_hand_shape(fields, number)
    dealer = fields.get("dealer", rotation)
    if not is_int(dealer) or dealer not in range(len(players)):
        refuse(
            _("Dealer: give the dealer's seat, a number from 0 to %(last)s."),
            hand=number,
            field="dealer",
            last=len(players) - 1,
        )
    if fields.get("passed"):
        return dealer, None
    if scoring.read_card_points(fields["points"]) is None:
        refuse(POINTS_AS, hand=number, field="points")
    values = {key: fields[key] for key in HAND_KEYS}
    values["poignees"] = by_seat_read(fields, "poignees", number, players)
    miseres = by_seat_read(fields, "miseres", number, players)
    hand = scoring.Hand(seats=len(players), **values, dealer=dealer, miseres=miseres)
    for problem in scoring.validate(hand, rules):
        text = json_backup.within(json_backup.IN_HAND, number, None, problem.translated(gettext))
        raise BackupError(text, hand=number, field=problem.field)
    return dealer, hand


def check_hand_shape(fields: dict, number: int) -> None:
    """A passed deal's shape or a played hand's (``HAND_SHAPES``); a refusal names the hand."""
    try:
        HAND_SHAPES[fields.get("passed") is True].check(fields)
    except BackupError as error:
        text = json_backup.within(json_backup.IN_HAND, number, None, error.message)
        raise BackupError(text, hand=number, field=error.field) from None


def by_seat_read(
    fields: dict, key: str, number: int, players: tuple[str, ...]
) -> dict[int, object]:
    """A hand's "poignees" or "miseres" (``BY_SEAT``): seat (a string, "0", "1"…) → value."""
    not_seated, wrong, valid = BY_SEAT[key]
    seats = {str(seat): seat for seat in range(len(players))}
    mapping = fields.get(key, {})
    for seat, value in mapping.items():
        # Seats are written "0", "1"…: " 1" or "01" would not round-trip.
        if seat not in seats:
            refuse(not_seated, hand=number, field=key, value=shown(seat))
        if not valid(value):
            refuse(wrong, hand=number, field=key, name=players[seats[seat]])
    return {seats[seat]: value for seat, value in mapping.items()}


def restore(backup: Backup) -> Sheet:
    """A new sheet (with a new token) holding a checked backup, written in one transaction."""
    return writes.create_sheet(
        backup.name,
        backup.players,
        backup.first_dealer,
        rules=backup.rules,
        created=backup.created,
        hands=backup.hands,
    )


def load(data: bytes | str) -> Sheet:
    """Restore a backup file as a new sheet; raises ``BackupError`` and writes nothing if bad."""
    return restore(read(data))
