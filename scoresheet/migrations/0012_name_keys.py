# The names' key (scoresheet/player_names.py) now also removes every default-ignorable code point and
# reads blank-looking characters as spaces, so that two names that look alike are one player: every stored key is computed again.


import unicodedata

import regex
from django.db import migrations

# ``player_names.key`` as it was when this migration was written (scoresheet/player_names.py), frozen here:
# the keys it stores do not change when that module does, and no migration imports the app.
BLANKS = "\u115f\u1160\u3164\uffa0\u2800\U00016fe4"
_BLANK = regex.compile(f"[{BLANKS}]")
_UNSEEN = regex.compile(r"[\p{Default_Ignorable_Code_Point}\p{Cf}]|(?!\s)\p{Cc}")


def _visible(value: str) -> str:
    return " ".join(_UNSEEN.sub("", _BLANK.sub(" ", value)).split())


def name_key(name: str) -> str:
    """What makes two names the same player: NFC, unseen characters removed, blank-looking
    ones spaces, then NFKC and case folding (twice: folding can undo NFKC)."""
    cleaned = _visible(unicodedata.normalize("NFC", _visible(name)))
    folded = unicodedata.normalize("NFKC", cleaned).casefold()
    return _visible(unicodedata.normalize("NFKC", folded))


def recompute(model, owner: str, marker: str):
    """Store ``names.key(name)`` for every row of ``model``; a row whose name now matches an
    earlier one of its owner (two names that only differed by a character that shows
    nothing) keeps its name, and gets its key marked with its ``marker`` field, as 0006 did:
    nothing is lost, merged or renamed, and the person can rename or merge them."""

    def run(apps, schema_editor):
        Model = apps.get_model("scoresheet", model)
        seen = set()
        changed = []
        rows = Model.objects.order_by(f"{owner}_id", marker).only(f"{owner}_id", marker, "name", "key")
        for row in rows.iterator(chunk_size=2000):
            key = name_key(row.name)
            while (getattr(row, f"{owner}_id"), key) in seen:
                key = f"{key}#{getattr(row, marker)}"
            seen.add((getattr(row, f"{owner}_id"), key))
            if key != row.key:
                row.key = key
                changed.append(row)
        # Two passes: a key set here may be another row's old key until that row moves on.
        # A leading space: no key of a name has one (names.clean strips it).
        for row in changed:
            Model.objects.filter(pk=row.pk).update(key=f" {row.pk}")
        for row in changed:
            # update() writes the value as given (pre_save is not called).
            Model.objects.filter(pk=row.pk).update(key=row.key)

    return run


class Migration(migrations.Migration):
    dependencies = [
        ("scoresheet", "0011_spent_keys"),
    ]

    operations = [
        migrations.RunPython(recompute("Seat", "sheet", "position"), migrations.RunPython.noop),
        migrations.RunPython(recompute("ClubPlayer", "club", "id"), migrations.RunPython.noop),
    ]
