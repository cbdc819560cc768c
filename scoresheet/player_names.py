"""Players' and sessions' names: what a name is, when it is valid, and when two are the same.

One module decides it for every place that takes a name (the new-session form, renames, the
club's roster and its session form, both imports):

- ``clean``: the name as it is stored. Every blank-looking character (the Hangul fillers, the
  braille blank…) is a space; every default-ignorable code point (Unicode's
  Default_Ignorable_Code_Point property: zero-width space and joiners, the combining grapheme
  joiner, variation selectors, tags…), every other format character (bidirectional marks,
  embeddings, overrides) and every control character is removed; spaces are collapsed; NFC.
  A name of combining marks alone (accents on nothing) is blank.
- ``checked``: ``clean``, and the one rule for a valid name: not blank, not too long.
- ``key``: what makes two names the same player: the case-folded NFKC form of the cleaned
  name, then its confusable skeleton (Unicode's UTS #39, by ICU), so that names that look alike
  in two scripts are one ("Anna" in Latin letters and "Аnna" with a Cyrillic А; a Greek "Ο" and
  a Latin "O"). It is computed here, in Python, and stored beside the name (``Seat.key``,
  unique per sheet; ``ClubPlayer.key``, unique per club), so the database never compares names
  with rules of its own (PostgreSQL's ``lower()`` and Python's ``casefold()`` disagree on "İ").
  A change of how it is computed (here, or ICU's data in a new pyicu-wheels) comes with a
  migration that computes every stored key again, as 0015_name_keys_skeleton does.
- ``short``: the names of one table as narrow places show them (the totals bar, the dealer
  line): each the shortest form that tells its player apart there.
- ``collation``: where a name goes in an alphabetical list, the one order of every list of
  names the app shows (the roster, the night form, the standings, a ranking's ties, the menus):
  accents and case set aside first, so that "Élodie" sits with the E's, not after "Zoé".
"""

import unicodedata

import icu
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
# Combining marks (accents, and the marks of other scripts) with no letter to sit on.
_MARKS_ONLY = regex.compile(r"[\p{M}\s]*")
# UTS #39's skeletons: ICU's checker, read-only once made, so every thread may share it.
_SPOOF = icu.SpoofChecker()


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
    name = _visible(unicodedata.normalize("NFC", _visible(value)))
    return "" if _MARKS_ONLY.fullmatch(name) else name


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
    and "Ana" with an invisible or blank-looking character inside or around it, "Anna" and
    "Аnna" (a Cyrillic А). "Chloé" and "Chloe", "İVAN" and "Ivan" stay two."""
    folded = _folded(clean(name))
    # UTS #39: two names look alike when their skeletons are equal. A skeleton's prototype may
    # be a capital ("0" is "O") and is decomposed (NFD): folded again, until nothing moves
    # (twice at most for any character, tests/test_player_names.py).
    for _round in range(4):
        skeleton = _folded(_SPOOF.getSkeleton(0, folded))
        if skeleton == folded:
            break
        folded = skeleton
    return folded


def _folded(name: str) -> str:
    """NFKC and case folding: "CHLOÉ" is "chloé", "ﬁ" is "fi"."""
    folded = unicodedata.normalize("NFKC", name).casefold()
    # Case folding can undo NFKC ("ǰ" folds to j + combining caron), and NFKC can make a
    # blank-looking character of another (U+FFA0 → U+3164): once more.
    return _visible(unicodedata.normalize("NFKC", folded))


def _forms(name: str) -> tuple[str, str, str]:
    """A name's shorter forms, shortest first: the first name ("Jean-Baptiste"), the first name
    and the initial of the next word ("Cécile R."), the whole name."""
    words = name.split(" ")
    if len(words) == 1:
        return (name, name, name)
    # The initial is the next word's first character as it is seen (a grapheme: "É", "Ł").
    initial = regex.match(r"\X", words[1]).group()
    return (words[0], f"{words[0]} {initial}.", name)


def _alike(shown: list[str]) -> list[int]:
    """The seats whose shown form another seat shows too (the same ``key``)."""
    seats_by_key: dict[str, list[int]] = {}
    for seat, form in enumerate(shown):
        seats_by_key.setdefault(key(form), []).append(seat)
    return [seat for seats in seats_by_key.values() if len(seats) > 1 for seat in seats]


def short(names: list[str]) -> list[str]:
    """The shortest form of each name that no other player at the table shows: the first name,
    else the first name and the initial ("Cécile R.", "Cécile M."), else the whole name; two
    forms are the same when their ``key`` is ("cécile" and "Cécile")."""
    forms = [_forms(name) for name in names]
    levels = [0] * len(names)
    while True:
        shown = [forms[seat][level] for seat, level in enumerate(levels)]
        # Every player who shows what another shows takes a longer form; the whole names of a
        # table differ (``Seat.key`` is unique per sheet), so this ends.
        longer = [seat for seat in _alike(shown) if levels[seat] < 2]
        if not longer:
            return shown
        for seat in longer:
            levels[seat] += 1


# The root collation of Unicode's algorithm (CLDR's, by ICU), read-only once made.
_COLLATOR = icu.Collator.createInstance(icu.Locale.getRoot())


def collation(name: str) -> tuple[bytes, str]:
    """The sort key of ``name`` in every list of names: Unicode's collation (CLDR's root order,
    by ICU, the library ``key`` uses too), which sets accents and case aside first (Anaïs, Bruno,
    Élodie, émile, Zoé; "Øyvind" with the O's, "Łukasz" with the L's), then tells "Eve" from
    "Ève"; the name itself last, so that two names ICU finds equal keep one order."""
    return (_COLLATOR.getSortKey(name), name)


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
