"""What the JSON backups of a session and of a club share: the refusal, the parsing, the
checks of a name, a date and a list of players, and how card points are written.

The formats are documented in docs/formats.md. Importing checks the whole file before writing
anything, so a refused backup leaves the database exactly as it was.
"""

from __future__ import annotations

import json
from datetime import UTC, date, datetime
from decimal import Decimal
from typing import NoReturn

from django.utils.translation import gettext

# _ only marks a message for extraction, as in scoring.py; refuse() translates it.
from django.utils.translation import gettext_noop as _

from scoresheet import player_names

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


# Writing


def card_points_as_json(points: Decimal) -> int | float:
    """Card points as a JSON number: 49, or 40.5 for a half point."""
    return int(points) if points == points.to_integral_value() else float(points)


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
    (a lone surrogate is shown as its escape, "\\ud800")."""
    text = player_names.encodable(str(value))
    return text if len(text) <= 40 else text[:39] + "…"


def clean_name(value: object, length: int = player_names.PLAYER_LENGTH) -> str:
    """A name as the forms store it (``player_names.checked``); "" if it is none (blank, too long,
    NUL or a lone surrogate: the caller's message says 1 to ``length`` characters)."""
    try:
        return player_names.checked(value, length)
    except player_names.InvalidName:
        return ""


def read_names(value: list, taken: str) -> tuple[str, ...]:
    """Players' names from a list the caller has checked is one: each cleaned as the forms
    clean it, no two with the same key (player_names.py); ``taken`` is the message for a second."""
    names: list[str] = []
    seen: set[str] = set()
    for number, name in enumerate(value, start=1):
        name = clean_name(name)
        if not name:
            refuse(
                _("Player %(number)s: give a name of 1 to %(length)s characters."),
                field="players",
                number=number,
                length=player_names.PLAYER_LENGTH,
            )
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
