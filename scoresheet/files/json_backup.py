"""What the JSON backups of a session and of a club share: the refusal, the parsing, the
declared shape a file is checked against (``Shape``), the checks of a name, a date, a list of
players and the rules, and how a time and card points are written.

The formats are documented in docs/formats.md. Importing checks the whole file before writing
anything, so a refused backup leaves the database exactly as it was: first its shape (every
key, type, count and text, from the format's declared schema), then what the values mean
together (seats at the table, names on the roster, the rules of each hand).
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable, Iterable
from datetime import UTC, date, datetime
from decimal import Decimal
from typing import NoReturn

import fastjsonschema
from django.utils.translation import gettext

# _ only marks a message for extraction, as in scoring.py; refuse() translates it.
from django.utils.translation import gettext_noop as _

from scoresheet import player_names, scoring

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


# A refusal inside a hand is said after the hand's number (from 1).
IN_HAND = _("Hand %(number)s: %(problem)s")


def refuse(
    message: str, *, hand: int | None = None, field: str | None = None, **params
) -> NoReturn:
    """Raise a ``BackupError`` with ``message`` translated, prefixed by the hand's number."""
    text = gettext(message) % params if params else gettext(message)
    if hand is not None:
        text = within(IN_HAND, hand, None, text)
    raise BackupError(text, hand=hand, field=field)


def within(prefix: str, number: int, item: object, problem: str) -> str:
    """``problem`` (translated) said inside item ``number`` of a list: ``prefix`` translated,
    with ``%(number)s``, ``%(problem)s`` and ``%(name)s``, the item's "name" if it has one."""
    name = item.get("name") if isinstance(item, dict) else None
    label = shown(name) if isinstance(name, str) else ""
    return gettext(prefix) % {"number": number, "name": label, "problem": problem}


def each(items: Iterable, prefix: str, read: Callable) -> tuple:
    """``read(item)`` of every item; a refusal inside one is said inside it (``within``)."""
    found = []
    for number, item in enumerate(items, start=1):
        try:
            found.append(read(item))
        except BackupError as error:
            text = within(prefix, number, item, error.message)
            raise BackupError(text, hand=error.hand, field=error.field) from None
    return tuple(found)


# Writing


def card_points_as_json(points: Decimal) -> int | float:
    """Card points as a JSON number: 49, or 40.5 for a half point."""
    return int(points) if points == points.to_integral_value() else float(points)


# The declared shape


def is_text(value: str) -> bool:
    """Text every database stores and every page shows: no NUL (PostgreSQL refuses it in a
    text column) and no lone surrogate (JSON's "\\ud800": no UTF-8 can hold it)."""
    if "\x00" in value:
        return False
    if value.isascii():
        return True
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


class Shape:
    """A format's declared shape: a JSON Schema (draft 7) whose nodes also carry the app's
    refusals, compiled once into plain Python by fastjsonschema. ``check`` raises a
    ``BackupError`` for the first thing in a file that does not fit it, naming the field.

    Every string the schema types is ``"format": "text"`` (``is_text``). The app's keywords
    beside JSON Schema's (fastjsonschema ignores them):

    - ``refusal``: the message when the node's own constraints fail; ``%(value)s`` is the
      value (shown safely), ``%(count)s`` its length;
    - ``missing``: the message for a key ``required`` lists and the object lacks,
      ``unknown``: for a key not in its ``properties`` (``%(key)s``, ``%(label)s`` from
      ``labels``);
    - ``field``: the field every refusal of the node names (``BackupError.field``), when not
      the key it is under (or the key missing or unknown);
    - ``params``: fixed parameters of its messages (a limit);
    - on an array: ``numbered``, the parameter its items' number (from 1) fills for the
      messages inside it (``"hand"`` also fills ``BackupError.hand``); ``each``, the prefix of a
      refusal inside an item (``within``).
    """

    def __init__(self, schema: dict):
        self.schema = schema
        self._validate = fastjsonschema.compile(schema, formats={"text": is_text})

    def check(self, content: object) -> None:
        """Raise ``BackupError`` at the first thing in ``content`` that does not fit."""
        try:
            self._validate(content)
        except fastjsonschema.JsonSchemaValueException as error:
            raise _refusal(error, self.schema, content) from None


@dataclasses.dataclass
class _Place:
    """Where a refusal is in the file: the numbers of the items around it, the prefixes
    (``each``) of their lists, the last key on the way."""

    numbers: dict = dataclasses.field(default_factory=dict)
    prefixes: list = dataclasses.field(default_factory=list)
    key: str | None = None


def _place(schema: dict, content: object, steps: list[str]) -> _Place:
    """Follow ``steps`` (a path of fastjsonschema's, without its "data") from the top of the
    file and of its schema."""
    place, node, value = _Place(), schema, content
    for step in steps:
        if isinstance(value, list):
            number = int(step) + 1
            value = value[number - 1]
            if "numbered" in node:
                place.numbers[node["numbered"]] = number
            if "each" in node:
                place.prefixes.append((node["each"], number, value))
            node, place.key = node.get("items", {}), None
        else:
            value, place.key = value[step], step
            node = node.get("properties", {}).get(step, {})
    return place


def _problem(error: fastjsonschema.JsonSchemaValueException) -> tuple[str, dict, str | None]:
    """The refusal its node declares for ``error``: (message, parameters, the key it names)."""
    node, value = error.definition, error.value
    if error.rule == "required":
        key = next(key for key in error.rule_definition if key not in value)
        return (
            node["missing"],
            {"key": key, "label": gettext(node.get("labels", {}).get(key, key))},
            key,
        )
    if error.rule == "additionalProperties":
        key = next(key for key in value if key not in node.get("properties", {}))
        return node["unknown"], {"key": shown(key)}, key
    count = len(value) if isinstance(value, list | dict | str) else None
    return node["refusal"], {"value": shown(value), "count": count}, None


def _refusal(
    error: fastjsonschema.JsonSchemaValueException, schema: dict, content: object
) -> BackupError:
    place = _place(schema, content, error.path[1:])
    message, params, key = _problem(error)
    text = gettext(message) % {**place.numbers, **error.definition.get("params", {}), **params}
    for prefix, number, item in reversed(place.prefixes):
        text = within(prefix, number, item, text)
    named = error.definition.get("field", key or place.key)
    return BackupError(text, hand=place.numbers.get("hand"), field=named)


def string(refusal: str, **more) -> dict:
    """A string of text (``is_text``) in a schema, refused by ``refusal``."""
    return {"type": "string", "format": "text", "refusal": refusal, **more}


def tagged(tag: str, not_backup: str, *before: dict) -> dict:
    """The top of a backup's schema: an object carrying ``"format": tag``, checked before
    anything else (``before`` first: a known other tag with its own refusal)."""
    return {
        # Before anything else: allOf is the first keyword fastjsonschema checks of an object.
        "allOf": [
            {"type": "object", "refusal": not_backup, "field": "format"},
            {"required": ["format"], "missing": not_backup},
            *before,
            {
                "properties": {
                    "format": {"const": tag, "refusal": OTHER_FORMAT, "params": {"format": tag}}
                }
            },
        ],
        "additionalProperties": False,
        "unknown": _("The backup has an unknown entry “%(key)s”."),
        "missing": _("The backup has no “%(key)s”."),
    }


OTHER_FORMAT = _("This backup's format is “%(value)s”; this app reads “%(format)s”.")
CREATED_AS = _("Created: give the date and time with its offset, like 2026-11-27T20:41:00+01:00.")
# "created": a string, which read_created reads.
CREATED = string(CREATED_AS)


# Reading and checking


def refuse_constant(name: str) -> NoReturn:
    """NaN and Infinity are not JSON numbers: ``json.loads``'s ``parse_constant``."""
    raise ValueError(name)


def unique_keys(pairs: list[tuple[str, object]]) -> dict:
    """An object whose keys are all different: ``json.loads``'s ``object_pairs_hook``."""
    data = dict(pairs)
    if len(data) != len(pairs):
        # JSON parsers keep one of the repeated keys silently; a backup must not be ambiguous.
        raise ValueError("repeated key")
    return data


def parse(
    data: bytes | str, *, most: int, too_large: str, not_text: str, not_json: str, **params
) -> object:
    """The file's JSON value, after the size check (``most`` bytes; ``too_large`` takes
    ``params``); refuses what is not UTF-8 text (``not_text``) or not JSON (``not_json``)."""
    size = len(data) if isinstance(data, bytes) else len(data.encode("utf-8", "replace"))
    if size > most:
        refuse(too_large, **params)
    try:
        text = data.decode("utf-8") if isinstance(data, bytes) else data
    except UnicodeDecodeError:
        # The backup is written in UTF-8; a file saved again in another encoding is refused.
        refuse(not_text)
    try:
        # Decimal keeps 40.5 exact; NaN and Infinity are not JSON numbers.
        return json.loads(
            text.removeprefix(BOM),
            parse_float=Decimal,
            parse_constant=refuse_constant,
            object_pairs_hook=unique_keys,
        )
    except (ValueError, RecursionError):
        refuse(not_json)


def is_int(value: object) -> bool:
    """A JSON integer: true and false are not numbers here."""
    return isinstance(value, int) and not isinstance(value, bool)


def shown(value: object) -> str:
    """A value from the file, short enough to quote in a message, and safe to put on a page
    (a lone surrogate and a NUL are shown as JSON writes them, "\\ud800", "\\u0000")."""
    text = player_names.encodable(str(value)).replace("\x00", "\\u0000")
    return text if len(text) <= 40 else text[:39] + "…"


def clean_name(value: object, length: int = player_names.PLAYER_LENGTH) -> str:
    """A name as the forms store it (``player_names.checked``); "" if it is none (blank, too long,
    NUL or a lone surrogate: the caller's message says 1 to ``length`` characters)."""
    try:
        return player_names.checked(value, length)
    except player_names.InvalidName:
        return ""


def title(value: str, message: str) -> str:
    """A session's, club's or night's name, cleaned as the forms clean it; ``message`` (with
    ``%(length)s``) refuses one that is blank or too long once cleaned."""
    name = clean_name(value, player_names.TITLE_LENGTH)
    if not name:
        refuse(message, field="name", length=player_names.TITLE_LENGTH)
    return name


# A player's name in a list of them ("numbered": "number"), checked for its length once cleaned
# by read_names.
NAMED = _("Player %(number)s: give a name of 1 to %(length)s characters.")
PLAYER = string(NAMED, params={"length": player_names.PLAYER_LENGTH}, field="players")


def read_names(value: list, taken: str) -> tuple[str, ...]:
    """Players' names from a list of strings (``PLAYER``): each cleaned as the forms clean it,
    no two with the same key (player_names.py); ``taken`` is the message for a second."""
    names: list[str] = []
    seen: set[str] = set()
    for number, name in enumerate(value, start=1):
        name = clean_name(name)
        if not name:
            refuse(NAMED, field="players", number=number, length=player_names.PLAYER_LENGTH)
        if player_names.key(name) in seen:
            refuse(taken, field="players", number=number, name=name)
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
        refuse(CREATED_AS, field="created")
    # Far from the ends of what a date can hold, so that every time zone can show it.
    if not CREATED_FROM <= created.date() <= CREATED_UNTIL:
        refuse(
            _("Created: give a date from %(first)s to %(last)s."),
            field="created",
            first=CREATED_FROM.isoformat(),
            last=CREATED_UNTIL.isoformat(),
        )
    return created


def read_rules(value: object, seats: int | None = None) -> scoring.Rules:
    """House rules (``Rules.from_data``: each optional, missing is FFT, every one known and
    valid) and, given ``seats``, fit for that table (``scoring.check_rules``)."""
    try:
        rules = scoring.Rules.from_data(value)
    except scoring.InvalidRules as error:
        problems = error.problems
    else:
        problems = scoring.check_rules(rules, seats) if seats is not None else []
        if not problems:
            return rules
    problem = problems[0]
    # The value quoted comes from the file: shown() escapes what a page cannot encode.
    params = {name: shown(value) for name, value in problem.params.items()}
    raise BackupError(gettext(problem.message) % params, field="rules")
