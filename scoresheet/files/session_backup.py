"""A sheet's files: the CSV export for spreadsheets, and the JSON backup that restores it.

Both formats are documented in docs/formats.md. Importing checks the whole file before
writing anything, so a refused backup leaves the database exactly as it was.
"""

from __future__ import annotations

import csv
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, date, datetime
from decimal import Decimal
from typing import NoReturn

from django.conf import settings
from django.utils import timezone, translation
from django.utils.formats import date_format
from django.utils.translation import gettext

# _ only marks a message for extraction, as in scoring.py; refuse() translates it.
from django.utils.translation import gettext_noop as _

from scoresheet import names as player_names
from scoresheet import scoring
from scoresheet.models import Camp, Chelem, Contract, Hand, Poignee, Sheet
from scoresheet.sessions import writes

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
# OWASP "CSV injection": a spreadsheet runs a cell that starts with one of these.
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
BOM = "\ufeff"
CREATED_FROM = date(2000, 1, 1)
CREATED_UNTIL = date(2100, 12, 31)


class BackupError(ValueError):
    """A refused backup: the message says which hand (from 1) and which field is wrong."""

    def __init__(self, message: str, *, hand: int | None = None, field: str | None = None):
        super().__init__(message)
        self.message = message
        self.hand = hand
        self.field = field


def refuse(
    message: str, *, hand: int | None = None, field: str | None = None, **params
) -> NoReturn:
    """Raise a ``BackupError`` with ``message`` translated, prefixed by the hand's number."""
    text = gettext(message) % params if params else gettext(message)
    if hand is not None:
        text = gettext("Hand %(number)s: %(problem)s") % {"number": hand, "problem": text}
    raise BackupError(text, hand=hand, field=field)


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


def local_time(moment: datetime) -> datetime:
    """``moment`` in the server's time zone; in UTC when that would leave the calendar (a date
    stored before imports checked it, like 9999-12-31T23:30Z): an export never fails."""
    try:
        return timezone.localtime(moment)
    except (OverflowError, ValueError):
        return moment.astimezone(UTC)


def card_points(points: Decimal) -> int | float:
    """Card points as a JSON number: 49, or 40.5 for a half point."""
    return int(points) if points == points.to_integral_value() else float(points)


# What the backup writes of a hand, read as stored (no model instance, no score).
HAND_COLUMNS = (
    "passed",
    "dealer",
    "taker",
    "contract",
    "bouts",
    "points",
    "partner",
    "petit_au_bout",
    "poignees",
    "chelem",
    "defence_chelem",
    "miseres",
)
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
    (passed, dealer, taker, contract, bouts, points, partner, petit, poignees, chelem,
     defence_chelem, miseres) = values  # fmt: skip
    if passed:
        return {"passed": True, "dealer": dealer}
    data = {
        "dealer": dealer,
        "taker": taker,
        "contract": contract,
        "bouts": bouts,
        "points": card_points(points),
        "partner": partner,
        "petit_au_bout": petit or None,
        "poignees": by_seat(poignees),
        "chelem": chelem or None,
        "defence_chelem": defence_chelem,
    }
    if miseres:
        data["miseres"] = by_seat(miseres)
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


def _refuse_constant(name: str) -> NoReturn:
    raise ValueError(name)


def _unique_keys(pairs: list[tuple[str, object]]) -> dict:
    data = dict(pairs)
    if len(data) != len(pairs):
        # JSON parsers keep one of the repeated keys silently; a backup must not be ambiguous.
        raise ValueError("repeated key")
    return data


def parse_json(data: bytes | str) -> object:
    """The file's JSON value, after the size check; refuses what is not JSON."""
    size = len(data) if isinstance(data, bytes) else len(data.encode("utf-8", "replace"))
    if size > MAX_BYTES:
        refuse(_("This file is larger than 5 MB, the most a backup can be."))
    try:
        text = data.decode("utf-8") if isinstance(data, bytes) else data
        # Decimal keeps 40.5 exact; NaN and Infinity are not JSON numbers.
        return json.loads(
            text.removeprefix(BOM),
            parse_float=Decimal,
            parse_constant=_refuse_constant,
            object_pairs_hook=_unique_keys,
        )
    except (UnicodeDecodeError, ValueError, RecursionError):
        refuse(_("This file is not a backup of a session: it is not JSON."))


def is_int(value: object) -> bool:
    """A JSON integer: true and false are not numbers here."""
    return isinstance(value, int) and not isinstance(value, bool)


def shown(value: object) -> str:
    """A value from the file, short enough to quote in a message, and safe to put on a page
    (a lone surrogate is shown as its escape, "\\ud800")."""
    text = player_names.encodable(str(value))
    return text if len(text) <= 40 else text[:39] + "…"


def clean_name(value: object, length: int = PLAYER_NAME_LENGTH) -> str:
    """A name as the forms store it (``names.checked``); "" if it is none (blank, too long,
    NUL or a lone surrogate: the caller's message says 1 to ``length`` characters)."""
    try:
        return player_names.checked(value, length)
    except player_names.InvalidName:
        return ""


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
    names: list[str] = []
    seen: set[str] = set()
    for number, name in enumerate(value, start=1):
        # As the new-session form does: cleaned, and compared by their key (names.py).
        name = clean_name(name)
        if not name:
            refuse(
                _("Player %(number)s: give a name of 1 to %(length)s characters."),
                field="players",
                number=number,
                length=PLAYER_NAME_LENGTH,
            )
        if player_names.key(name) in seen:
            refuse(
                _("Player %(number)s: “%(name)s” is already at the table."),
                field="players",
                number=number,
                name=name,
            )
        seen.add(player_names.key(name))
        names.append(name)
    return tuple(names)


def read_created(value: object) -> datetime:
    """An ISO 8601 date and time with its offset, from 2000-01-01 to 2100-12-31."""
    try:
        created = datetime.fromisoformat(value)
        if created.utcoffset() is None:
            raise ValueError("no offset")
        created.astimezone(UTC)
    except (TypeError, ValueError, OverflowError):
        refuse(
            _("Created: give the date and time with its offset, like 2026-11-27T20:41:00+01:00."),
            field="created",
        )
    # Far from the ends of what a date can hold, so that every time zone can show it.
    if not CREATED_FROM <= created.date() <= CREATED_UNTIL:
        refuse(
            _("Created: give a date from %(first)s to %(last)s."),
            field="created",
            first=CREATED_FROM.isoformat(),
            last=CREATED_UNTIL.isoformat(),
        )
    return created


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

    seats = {str(seat) for seat in range(len(players))}
    poignees = fields["poignees"]
    well_typed = {
        "taker": is_int(fields["taker"]),
        "contract": isinstance(fields["contract"], str),
        "bouts": is_int(fields["bouts"]),
        "points": (is_int(fields["points"]) or isinstance(fields["points"], Decimal))
        and scoring.card_points(fields["points"]) is not None,
        "partner": fields["partner"] is None or is_int(fields["partner"]),
        "petit_au_bout": fields["petit_au_bout"] is None or fields["petit_au_bout"] in Camp.values,
        "poignees": isinstance(poignees, dict),
        "chelem": fields["chelem"] is None or fields["chelem"] in Chelem.values,
        "defence_chelem": isinstance(fields["defence_chelem"], bool),
    }
    for key in HAND_KEYS:
        if not well_typed[key]:
            refuse(TYPE_MESSAGES[key], hand=number, field=key)
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

    hand = scoring.Hand(
        seats=len(players),
        **{**fields, "poignees": {int(seat): size for seat, size in poignees.items()}},
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


def read(data: bytes | str) -> Backup:
    """Check a whole backup file; raises ``BackupError`` at the first thing wrong."""
    return read_content(parse_json(data))


def read_content(content: object) -> Backup:
    """Check a backup's parsed JSON (also a club backup's sessions, club_backup.py)."""
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
    hands = content["hands"]
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
    return Backup(
        name=name,
        created=created,
        players=players,
        first_dealer=first_dealer,
        hands=tuple(dealt),
        rules=rules,
    )


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


# CSV export


def cell(value: object) -> object:
    """A cell a spreadsheet shows as typed: text that would run as a formula gets a leading '."""
    if isinstance(value, str) and value.startswith(FORMULA_START):
        return "'" + value
    return value


def csv_header(names: list[str]) -> list[str]:
    """The CSV's first row: the columns of a hand, then one per player."""
    return [
        gettext("Hand"),
        gettext("Dealer"),
        gettext("Taker"),
        gettext("Partner"),
        gettext("Contract"),
        # Game terms stay French in every language.
        "Bouts",
        gettext("Points"),
        gettext("Result"),
        "Petit au bout",
        "Poignées",
        "Chelem",
        "Misère",
        *names,
    ]


# What the CSV writes of a hand, read as stored: its inputs and its stored scores.
CSV_COLUMNS = (
    "number",
    "dealer",
    "passed",
    "taker",
    "partner",
    "contract",
    "bouts",
    "points",
    "petit_au_bout",
    "poignees",
    "chelem",
    "defence_chelem",
    "miseres",
    "scores",
)
CONTRACT_LABELS = dict(Contract.choices)
POIGNEE_LABELS = dict(Poignee.choices)


class CsvWords:
    """The words of the CSV's cells in the active language, translated once per file."""

    def __init__(self):
        self.passed = gettext("Everyone passed")
        self.alone = gettext("alone")
        self.made = gettext("made by %(diff)s")
        self.lost = gettext("lost by %(diff)s")
        self.by_defence = gettext("by the defence")
        self.camps = {value: str(label) for value, label in Camp.choices}
        self.chelems = {value: str(label) for value, label in Chelem.choices}


def csv_line(values: tuple, names: list[str], alone: bool, words: CsvWords) -> list:
    """A hand's CSV cells from its ``CSV_COLUMNS`` (scores aside): what was played and its
    result (``scoring.result``: no breakdown). ``alone``: the hand is played by 5, so a taker
    without a partner called themselves."""
    (number, dealer, passed, taker, partner, contract, bouts, points, petit, poignees, chelem,
     defence_chelem, miseres, _scores) = values  # fmt: skip
    if passed:
        return [number, names[dealer], "", "", "", "", "", words.passed]
    made, diff = scoring.result(bouts, points)
    chelems = [words.chelems[chelem]] if chelem else []
    if defence_chelem:
        chelems.append(words.by_defence)
    return [
        number,
        names[dealer],
        names[taker],
        names[partner] if partner is not None else words.alone if alone else "",
        CONTRACT_LABELS[contract],
        bouts,
        card_points(points),
        (words.made if made else words.lost) % {"diff": diff},
        words.camps[petit] if petit else "",
        "; ".join(
            f"{names[int(seat)]}: {POIGNEE_LABELS[size]}"
            for seat, size in by_seat(poignees).items()
        ),
        ", ".join(chelems),
        "; ".join(
            f"{names[int(seat)]}: {count}" for seat, count in by_seat(miseres).items() if count
        ),
    ]


def csv_rows(sheet: Sheet) -> Iterator[list]:
    """The CSV's rows: a header, one row per hand in play order, then the totals and the
    rules. Numbers are ints (floats for half points), everything else text."""
    names = list(sheet.seats.values_list("name", flat=True))
    players = len(names)
    rules = sheet.game_rules
    header = csv_header(names)
    yield header
    blank = [""] * (len(header) - players)
    words = CsvWords()
    alone = rules.players(players) == 5
    # One query read in chunks, only the columns written: a long session streams without
    # being held in memory. The scores are the stored ones, so the file and the sheet cannot
    # disagree, and no hand is scored again.
    hands = sheet.hands.order_by("number").values_list(*CSV_COLUMNS)
    for values in hands.iterator(chunk_size=CHUNK):
        line = csv_line(values, names, alone, words)
        yield [*line, *blank[len(line) :], *values[-1]]
    yield [gettext("Total"), *blank[1:], *sheet.totals]
    # The rules every score above was computed under (RULES.md §6: "FFT" or the house rules).
    yield [gettext("Rules"), rules_text(rules)]


def rules_text(rules: scoring.Rules) -> str:
    """The CSV's rules line: "FFT", or the house rules in words."""
    words = [gettext(rule) for rule in rules.describe()] or ["FFT"]
    return "; ".join(words)


class _Echo:
    """A file whose write() hands the line back, so csv.writer can feed a stream."""

    def write(self, value: str) -> str:
        return value


def csv_lines(sheet: Sheet) -> Iterator[str]:
    """The CSV export, line by line: UTF-8 with a BOM so spreadsheets keep the accents."""
    # Quoting all text (OWASP) and never numbers keeps negative scores numbers.
    writer = csv.writer(_Echo(), quoting=csv.QUOTE_NONNUMERIC)
    rows = csv_rows(sheet)
    yield BOM + writer.writerow([cell(value) for value in next(rows)])
    for row in rows:
        yield writer.writerow([cell(value) for value in row])


def filename(sheet: Sheet, extension: str) -> str:
    """A file name made of the session's name and date, safe on every system."""
    name = re.sub(r'[\x00-\x1f\x7f/\\:*?"<>|]', "-", sheet.name)
    name = " ".join(name.split()).strip(" .") or "tarot"
    created = local_time(sheet.created)
    if dated(sheet.name, created):
        # The default name is the date and time already: the date once is enough.
        return f"{name}.{extension}"
    return f"{name} {created:%Y-%m-%d}.{extension}"


def dated(name: str, moment: datetime) -> bool:
    """Whether ``name`` holds ``moment``'s date as some language of the app writes it (the
    default session name is the date and time, in the language of whoever created it)."""
    for language, _name in settings.LANGUAGES:
        with translation.override(language):
            if date_format(moment, "DATE_FORMAT") in name:
                return True
    return False
