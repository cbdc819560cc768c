"""Players' and sessions' names: cleaned one way, compared one way, everywhere.

A name is cleaned before it is stored (Unicode NFC, no invisible or bidirectional control
characters, single spaces), and two names are the same player when their ``key`` is equal:
the case-folded NFKC form of the cleaned name. The key is computed here, in Python, and stored
beside the name (``Seat.key``, unique per sheet), so the database never compares names with
rules of its own (PostgreSQL's ``lower()`` and Python's ``casefold()`` disagree on "İ").
"""

import unicodedata

from django.db import models


def _visible(char: str) -> bool:
    # Cf: format characters (zero-width space and joiners, the bidirectional marks, embeddings,
    # overrides and isolates); Cc: control characters other than whitespace (NUL, ESC…).
    category = unicodedata.category(char)
    return not (category == "Cf" or (category == "Cc" and not char.isspace()))


def clean(value: str) -> str:
    """A name as it is stored: NFC, without invisible or bidirectional controls, spaces
    collapsed; "" when nothing visible is left."""
    visible = "".join(char for char in value if _visible(char))
    return unicodedata.normalize("NFC", " ".join(visible.split()))


def key(name: str) -> str:
    """What makes two names the same player: "Chloé" and "CHLOÉ", "ﬁfi" and "FIFI"."""
    folded = unicodedata.normalize("NFKC", clean(name)).casefold()
    # Case folding can undo NFKC ("ǰ" folds to j + combining caron): normalise once more.
    return unicodedata.normalize("NFKC", folded)


def encodable(text: str) -> str:
    """``text`` safe to show on a page: a lone surrogate (JSON's "\\ud800") is written as an
    escape instead of breaking the page's encoding."""
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


class NameKeyField(models.TextField):
    """A column that always holds ``key(name)`` of its row, computed when the row is written
    (``save()``, ``create()`` and ``bulk_create()`` alike)."""

    def __init__(self, *args, source: str = "name", **kwargs):
        self.source = source
        kwargs.setdefault("editable", False)
        super().__init__(*args, **kwargs)

    def deconstruct(self):
        name, path, args, kwargs = super().deconstruct()
        if self.source != "name":
            kwargs["source"] = self.source
        kwargs.pop("editable", None)
        return name, path, args, kwargs

    def pre_save(self, model_instance, add):
        value = key(getattr(model_instance, self.source))
        setattr(model_instance, self.attname, value)
        return value
