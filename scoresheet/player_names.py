"""Players' and sessions' names: what a name is, when it is valid, and when two are the same.

One module decides it for every place that takes a name (the new-session form, renames, the
club's roster and its session form, both imports):

- ``clean``: the name as it is stored. Every blank-looking character (the Hangul fillers, the
  braille blank…) is a space; every default-ignorable code point (Unicode's
  Default_Ignorable_Code_Point property: zero-width space and joiners, the combining grapheme
  joiner, variation selectors, tags…), every other format character (bidirectional marks,
  embeddings, overrides) and every control character is removed; spaces are collapsed; NFC.
- ``checked``: ``clean``, and the one rule for a valid name: not blank, not too long.
- ``key``: what makes two names the same player, the case-folded NFKC form of the cleaned
  name. It is computed here, in Python, and stored beside the name (``Seat.key``, unique per
  sheet; ``ClubPlayer.key``, unique per club), so the database never compares names with rules
  of its own (PostgreSQL's ``lower()`` and Python's ``casefold()`` disagree on "İ").
- ``collation``: where a name goes in an alphabetical list, the one order of every list of
  names the app shows (the roster, the night form, the standings, a ranking's ties, the menus):
  accents and case set aside first, so that "Élodie" sits with the E's, not after "Zoé".
"""

import unicodedata

import regex
from django.db import models

# A player's name, and a session's, a club's or a night's, at most (in characters, once
# cleaned): defined with the other limits, and known here too as names.PLAYER_LENGTH and
# names.TITLE_LENGTH.
from scoresheet.limits import PLAYER_LENGTH, TITLE_LENGTH  # noqa: F401

# Characters that show as an empty space but are letters or symbols to Unicode (so
# ``str.split`` keeps them): the Hangul fillers, the braille blank, the Khitan filler.
BLANKS = "\u115f\u1160\u3164\uffa0\u2800\U00016fe4"
_BLANK = regex.compile(f"[{BLANKS}]")
# What a name never keeps: the Default_Ignorable_Code_Point property as the maintained `regex`
# package knows it (it follows each Unicode release), any other format character (Cf) and
# control characters other than whitespace (NUL, ESC…; whitespace becomes a space).
_UNSEEN = regex.compile(r"[\p{Default_Ignorable_Code_Point}\p{Cf}]|(?!\s)\p{Cc}")


class InvalidName(ValueError):
    """A name that cannot be stored: ``reason`` is "blank" (nothing visible left once
    cleaned) or "long" (more than ``length`` characters)."""

    def __init__(self, reason: str, length: int):
        super().__init__(f"the name is {reason}")
        self.reason = reason
        self.length = length


def _visible(value: str) -> str:
    """Blank-looking characters as spaces, unseen ones removed, spaces collapsed."""
    return " ".join(_UNSEEN.sub("", _BLANK.sub(" ", value)).split())


def clean(value: str) -> str:
    """A name as it is stored: NFC, what cannot be seen removed, what looks blank a space,
    spaces collapsed; "" when nothing visible is left."""
    # After NFC too: composing may bring pieces together that a removed joiner kept apart.
    return _visible(unicodedata.normalize("NFC", _visible(value)))


def checked(value: object, length: int = PLAYER_LENGTH, *, blank: bool = False) -> str:
    """``value`` cleaned as a name is stored; raises ``InvalidName`` when it is no name:
    blank (allowed only with ``blank``), longer than ``length``, or not text a page can show
    (NUL, a lone surrogate: as blank)."""
    if not isinstance(value, str) or "\x00" in value:
        name = ""
    else:
        name = clean(value)
        try:
            name.encode("utf-8")
        except UnicodeEncodeError:
            name = ""
    if not name and not blank:
        raise InvalidName("blank", length)
    if len(name) > length:
        raise InvalidName("long", length)
    return name


def key(name: str) -> str:
    """What makes two names the same player: "Chloé" and "CHLOÉ", "ﬁfi" and "FIFI", "Ana"
    and "Ana" with an invisible or blank-looking character inside or around it."""
    folded = unicodedata.normalize("NFKC", clean(name)).casefold()
    # Case folding can undo NFKC ("ǰ" folds to j + combining caron), and NFKC can make a
    # blank-looking character of another (U+FFA0 → U+3164): once more.
    return _visible(unicodedata.normalize("NFKC", folded))


# Letters that carry their mark in themselves, so that NFKD leaves them whole: each is sorted
# as the letters it is read as ("Øyvind" with the O's, "Łukasz" with the L's).
_PLAIN_LETTERS = str.maketrans(
    {"ø": "o", "æ": "ae", "œ": "oe", "ł": "l", "đ": "d", "ð": "d", "þ": "th", "ı": "i", "ħ": "h"}
)


def _letters(name: str) -> str:
    """``name`` case-folded, without its accents: "Élodie" → "elodie"."""
    decomposed = unicodedata.normalize("NFKD", key(name))
    plain = "".join(c for c in decomposed if not unicodedata.combining(c))
    return plain.translate(_PLAIN_LETTERS)


def collation(name: str) -> tuple[str, str, str]:
    """The sort key of ``name`` in every list of names: its letters without accents or case
    first (Anaïs, Bruno, Élodie, émile, Zoé), then its ``key`` and the name itself, so that
    names equal but for an accent or a capital keep one order ("Eve" before "Ève").

    Written here rather than taken from a package: the Unicode Collation Algorithm's pure
    Python implementation (pyuca) has had no release since 2017, and ICU's (PyICU) needs the
    ICU C++ library built on every machine; players' names need the order above, which
    Unicode's own decomposition gives."""
    return (_letters(name), key(name), name)


def alphabetical(items, name=lambda item: item):
    """``items`` in the order of their names (``collation``); ``name`` reads an item's."""
    return sorted(items, key=lambda item: collation(name(item)))


def encodable(text: str) -> str:
    """``text`` safe to show on a page: a lone surrogate (JSON's "\\ud800") is written as an
    escape instead of breaking the page's encoding."""
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


class NameKeyField(models.TextField):
    """A column that always holds ``key(name)`` of its row, computed when the row is written
    (``save()``, ``create()`` and ``bulk_create()`` alike). The migrations hold it as a plain
    ``TextField``: the same column, and no migration depends on this code."""

    def __init__(self, *args, **kwargs):
        kwargs["editable"] = False
        super().__init__(*args, **kwargs)

    def deconstruct(self):
        name, _path, args, kwargs = super().deconstruct()
        return name, "django.db.models.TextField", args, kwargs

    def pre_save(self, model_instance, add):
        value = key(model_instance.name)
        setattr(model_instance, self.attname, value)
        return value
