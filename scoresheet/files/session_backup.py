"""A session's JSON backup (``tarot-scoresheet/1``): writing it, and reading it back into a new
session, checked whole before anything is written (the shared pieces: ``json_backup.py``).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal

from django.utils.translation import gettext

# _ only marks a message for extraction, as in scoring.py; refuse() translates it.
from django.utils.translation import gettext_noop as _

from scoresheet import player_names, scoring
from scoresheet.files import json_backup
from scoresheet.files.json_backup import (
    BackupError,
    card_points_as_json,
    clean_name,
    is_int,
    read_created,
    refuse,
    shown,
)
from scoresheet.models import Camp, Chelem, Hand, Poignee, Sheet, local_time
from scoresheet.sheets import writes

FORMAT = "tarot-scoresheet/1"
# Limits a public server needs: a backup is read whole into memory and checked hand by hand.
MAX_BYTES = 5 * 1024 * 1024
MAX_HANDS = 20_000
NAME_LENGTH = player_names.TITLE_LENGTH
PLAYER_NAME_LENGTH = player_names.PLAYER_LENGTH

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
# What a hand's value must look like in the file, said the way the players would read it.
TYPE_MESSAGES = {
    "taker": _("Taker: give the taker's seat as a number (0 is the first player)."),
    "contract": _("Contract: choose prise, garde, garde sans or garde contre."),
    "bouts": _("Bouts: give the number of bouts, 0 to 3."),
    "points": _("Points: give the attack's card points as a number, like 49 or 40.5."),
    "partner": _("Partner: give the partner's seat as a number, or null when the taker is alone."),
    "petit_au_bout": _("Petit au bout: write null, “attack” or “defence”."),
    "poignees": _("Poignées: give each player's poignée by seat, like {“2”: “simple”}."),
    "chelem": _("Chelem: write null, “announced_made”, “unannounced_made” or “announced_failed”."),
    "defence_chelem": _("Defence chelem: write true or false."),
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
# Hands read per query round trip by the exports: one query, its rows fetched in chunks.
CHUNK = 2000


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
    hands = sheet.hands.order_by("number").values_list(*HAND_COLUMNS)
    for values in hands.iterator(chunk_size=CHUNK):
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


def parse_json(data: bytes | str) -> object:
    """The file's JSON value, after the size check; refuses what is not JSON."""
    return json_backup.parse(
        data,
        most=MAX_BYTES,
        too_large=_("This file is larger than 5 MB, the most a backup can be."),
        not_text=_("This file is not a backup of a session: it is not JSON."),
        not_json=_("This file is not a backup of a session: it is not JSON."),
    )


def read_players(value: object) -> tuple[str, ...]:
    """The players' names in seat order, checked as the new-session form checks them."""
    if not isinstance(value, list):
        refuse(_("Players: give the list of the players' names."), field="players")
    if len(value) not in scoring.SEATS:
        refuse(
            _("Players: a session has 3 to 6 players, not %(count)s."),
            field="players",
            count=len(value),
        )
    # As the new-session form does: cleaned, and compared by their key (player_names.py).
    return json_backup.read_names(
        value, _("Player %(number)s: “%(name)s” is already at the table.")
    )


def read_dealer(fields: dict, number: int, players: tuple[str, ...], rotation: int) -> int:
    """The optional "dealer" of a hand: a seat, or by default whoever's turn it was."""
    if "dealer" not in fields:
        return rotation
    dealer = fields.pop("dealer")
    if not is_int(dealer) or dealer not in range(len(players)):
        refuse(
            _("Dealer: give the dealer's seat, a number from 0 to %(last)s."),
            hand=number,
            field="dealer",
            last=len(players) - 1,
        )
    return dealer


def read_miseres(fields: dict, number: int, players: tuple[str, ...]) -> dict[int, object]:
    """The optional "miseres" of a hand: seat (a string) → 1 or 2, checked by the rules."""
    miseres = fields.pop("miseres", {})
    if not isinstance(miseres, dict):
        refuse(
            _("Misères: give each player's misères by seat, like {“2”: 1}."),
            hand=number,
            field="miseres",
        )
    seats = {str(seat) for seat in range(len(players))}
    for seat, count in miseres.items():
        if seat not in seats:
            refuse(
                _("Misère: seat %(value)s is not at the table."),
                hand=number,
                field="miseres",
                value=shown(seat),
            )
        if not is_int(count):
            refuse(
                _("Misère of %(name)s: give 1 or 2."),
                hand=number,
                field="miseres",
                name=players[int(seat)],
            )
    return {int(seat): count for seat, count in miseres.items()}


def read_hand(
    value: object,
    number: int,
    players: tuple[str, ...],
    rules: scoring.Rules = scoring.FFT,
    rotation: int = 0,
) -> tuple[int, scoring.Hand | None]:
    """One hand of the file, checked as the rules check an entered hand: (its dealer, the
    hand or None if passed). ``rotation`` is the dealer when the file does not say."""
    if not isinstance(value, dict):
        refuse(_("give the hand as an object, like {“passed”: true}."), hand=number)
    fields = dict(value)
    passed = fields.pop("passed", False)
    dealer = read_dealer(fields, number, players, rotation)
    if passed is True:
        if fields:
            refuse(
                _("a passed deal has no other field, not “%(key)s”."),
                hand=number,
                field="passed",
                key=shown(next(iter(fields))),
            )
        return dealer, None
    if passed is not False:
        refuse(_("Passed: write true, or leave it out."), hand=number, field="passed")
    miseres = read_miseres(fields, number, players)
    _check_hand_keys(fields, number)
    _check_hand_types(fields, number)
    hand = scoring.Hand(
        seats=len(players),
        **{**fields, "poignees": _read_poignees(fields["poignees"], number, players)},
        dealer=dealer,
        miseres=miseres,
    )
    for problem in scoring.validate(hand, rules):
        text = gettext("Hand %(number)s: %(problem)s") % {
            "number": number,
            "problem": problem.translated(gettext),
        }
        raise BackupError(text, hand=number, field=problem.field)
    return dealer, hand


def _check_hand_keys(fields: dict, number: int) -> None:
    """Every field of a played hand is there, and no other."""
    for key in fields:
        if key not in HAND_KEYS:
            refuse(_("unknown field “%(key)s”."), hand=number, field=key, key=shown(key))
    for key in HAND_KEYS:
        if key not in fields:
            refuse(
                _("%(label)s is missing."),
                hand=number,
                field=key,
                label=gettext(FIELD_LABELS[key]),
            )


def _check_hand_types(fields: dict, number: int) -> None:
    """Each field of a played hand has its JSON type; the rules check the values."""
    well_typed = {
        "taker": is_int(fields["taker"]),
        "contract": isinstance(fields["contract"], str),
        "bouts": is_int(fields["bouts"]),
        "points": (is_int(fields["points"]) or isinstance(fields["points"], Decimal))
        and scoring.read_card_points(fields["points"]) is not None,
        "partner": fields["partner"] is None or is_int(fields["partner"]),
        "petit_au_bout": fields["petit_au_bout"] is None or fields["petit_au_bout"] in Camp.values,
        "poignees": isinstance(fields["poignees"], dict),
        "chelem": fields["chelem"] is None or fields["chelem"] in Chelem.values,
        "defence_chelem": isinstance(fields["defence_chelem"], bool),
    }
    for key in HAND_KEYS:
        if not well_typed[key]:
            refuse(TYPE_MESSAGES[key], hand=number, field=key)


def _read_poignees(poignees: dict, number: int, players: tuple[str, ...]) -> dict[int, str]:
    """The "poignees" of a hand: seat (a string) → simple, double or triple."""
    seats = {str(seat) for seat in range(len(players))}
    for seat, size in poignees.items():
        # Seats are written "0", "1"…: " 1" or "01" would not round-trip.
        if seat not in seats:
            refuse(
                _("Poignée: seat %(value)s is not at the table."),
                hand=number,
                field="poignees",
                value=shown(seat),
            )
        if size not in Poignee.values:
            refuse(
                _("Poignée of %(name)s: choose simple, double or triple."),
                hand=number,
                field="poignees",
                name=players[int(seat)],
            )
    return {int(seat): size for seat, size in poignees.items()}


def read(data: bytes | str) -> Backup:
    """Check a whole backup file; raises ``BackupError`` at the first thing wrong."""
    return read_content(parse_json(data))


def read_content(content: object) -> Backup:
    """Check a backup's parsed JSON (also a club backup's sessions, club_backup.py)."""
    _check_entries(content)
    name = clean_name(content["name"], NAME_LENGTH)
    if not name:
        refuse(
            _("Name: give the session a name of 1 to %(length)s characters."),
            field="name",
            length=NAME_LENGTH,
        )
    created = read_created(content["created"])
    players = read_players(content["players"])
    first_dealer = content["first_dealer"]
    if not is_int(first_dealer) or first_dealer not in range(len(players)):
        refuse(_("First dealer: choose one of the players at the table."), field="first_dealer")
    rules = read_rules(content["rules"], len(players))
    dealt = _read_hands(content["hands"], players, rules, first_dealer)
    return Backup(
        name=name,
        created=created,
        players=players,
        first_dealer=first_dealer,
        hands=dealt,
        rules=rules,
    )


def _check_entries(content: object) -> None:
    """A backup of this app's format, with every entry it needs and no other."""
    if not isinstance(content, dict) or "format" not in content:
        refuse(_("This file is not a backup of a session: it has no “format”."), field="format")
    if content["format"] != FORMAT:
        refuse(
            _("This backup's format is “%(value)s”; this app reads “%(format)s”."),
            field="format",
            value=shown(content["format"]),
            format=FORMAT,
        )
    for key in content:
        if key not in KEYS:
            refuse(_("The backup has an unknown entry “%(key)s”."), field=key, key=shown(key))
    for key in KEYS:
        if key not in content:
            refuse(_("The backup has no “%(key)s”."), field=key, key=key)


def _read_hands(
    hands: object, players: tuple[str, ...], rules: scoring.Rules, first_dealer: int
) -> tuple[tuple[int, scoring.Hand | None], ...]:
    """The "hands": (dealer, hand or None if passed) each, in play order."""
    if not isinstance(hands, list):
        refuse(_("Hands: give the list of hands."), field="hands")
    if len(hands) > MAX_HANDS:
        refuse(
            _("This backup has %(count)s hands; a backup can hold at most %(most)s."),
            field="hands",
            count=len(hands),
            most=MAX_HANDS,
        )
    dealt = []
    rotation = first_dealer
    for number, hand in enumerate(hands, start=1):
        dealer, played = read_hand(hand, number, players, rules, rotation)
        dealt.append((dealer, played))
        rotation = scoring.next_dealer(dealer, len(players))
    return tuple(dealt)


def read_rules(value: object, seats: int) -> scoring.Rules:
    """The session's "rules": each optional (missing is FFT), every one known and valid."""
    try:
        rules = scoring.Rules.from_data(value)
    except scoring.InvalidRules as error:
        problems = error.problems
    else:
        problems = scoring.check_rules(rules, seats)
        if not problems:
            return rules
    problem = problems[0]
    # The value quoted comes from the file: shown() escapes what a page cannot encode.
    params = {name: shown(value) for name, value in problem.params.items()}
    raise BackupError(gettext(problem.message) % params, field="rules")


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
