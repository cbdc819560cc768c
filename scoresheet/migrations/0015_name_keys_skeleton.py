# The names' key (scoresheet/player_names.py) now also compares names by their confusable
# skeleton (Unicode's UTS #39, by ICU), so that names that look alike in two scripts are one
# player ("Anna" and "Аnna" with a Cyrillic А), and a name of combining marks alone is blank:
# every stored key is computed again.
#
# Two names of one session or one club that are now the same (stored before this rule) are
# kept as they are, names and results: the later one (by seat, by roster entry) gets its key
# marked, as 0012 did, so that this migration never fails on them. A name typed afterwards finds
# the first; the club's organiser merges the two entries if they are one person, or renames
# one; a session's players page shows both names, and saving it asks for one of them to change.


import unicodedata

import icu
import regex
from django.db import migrations

# ``player_names.key`` as it was when this migration was written (scoresheet/player_names.py),
# frozen here: the keys it stores do not change when that module does, and no migration
# imports the app.
BLANKS = "\u115f\u1160\u3164\uffa0\u2800\U00016fe4"
_BLANK = regex.compile(f"[{BLANKS}]")
_UNSEEN = regex.compile(r"[\p{Default_Ignorable_Code_Point}\p{Cf}]|(?!\s)\p{Cc}")
_MARKS_ONLY = regex.compile(r"[\p{M}\s]*")


def _visible(value: str) -> str:
    return " ".join(_UNSEEN.sub("", _BLANK.sub(" ", value)).split())


def _clean(value: str) -> str:
    name = _visible(unicodedata.normalize("NFC", _visible(value)))
    return "" if _MARKS_ONLY.fullmatch(name) else name


def _folded(name: str) -> str:
    folded = unicodedata.normalize("NFKC", name).casefold()
    return _visible(unicodedata.normalize("NFKC", folded))


def name_key(name: str, spoof) -> str:
    """What makes two names the same player: cleaned, NFKC and case folded, then its UTS #39
    skeleton, folded again until nothing moves."""
    folded = _folded(_clean(name))
    for _round in range(4):
        skeleton = _folded(spoof.getSkeleton(0, folded))
        if skeleton == folded:
            break
        folded = skeleton
    return folded


def recompute(model, owner: str, marker: str):
    """Store the new key of every row of ``model``; a row whose name now matches an earlier
    one of its owner keeps its name and gets its key marked with its ``marker`` field."""

    def run(apps, schema_editor):
        Model = apps.get_model("scoresheet", model)
        spoof = icu.SpoofChecker()
        seen = set()
        changed = []
        rows = Model.objects.order_by(f"{owner}_id", marker).only(f"{owner}_id", marker, "name", "key")
        for row in rows.iterator(chunk_size=2000):
            key = name_key(row.name, spoof)
            while (getattr(row, f"{owner}_id"), key) in seen:
                key = f"{key}#{getattr(row, marker)}"
            seen.add((getattr(row, f"{owner}_id"), key))
            if key != row.key:
                row.key = key
                changed.append(row)
        # Two passes: a key set here may be another row's old key until that row moves on.
        # A leading space: no key of a name has one (the names are stripped).
        for row in changed:
            Model.objects.filter(pk=row.pk).update(key=f" {row.pk}")
        for row in changed:
            Model.objects.filter(pk=row.pk).update(key=row.key)

    return run


class Migration(migrations.Migration):
    dependencies = [
        ("scoresheet", "0014_club_sheet"),
    ]

    operations = [
        migrations.RunPython(recompute("Seat", "sheet", "position"), migrations.RunPython.noop),
        migrations.RunPython(recompute("ClubPlayer", "club", "id"), migrations.RunPython.noop),
    ]
