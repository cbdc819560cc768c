# Seat.key: the comparison key of a player's name (scoresheet/player_names.py), unique per sheet, in
# place of the database's own lower(name). Renumber on merge: it follows 0003.

import unicodedata

import regex
from django.db import migrations, models

# ``player_names.key`` (scoresheet/player_names.py) as 0012 computes it, frozen here so that no migration
# depends on the app's code; 0012 computes every key again anyway.
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


def fill_keys(apps, schema_editor):
    """Compute the key of every existing seat; a seat whose name now matches an earlier one
    of its sheet (two names that only differed by an invisible character) keeps its name and
    gets a key marked with its position, so no stored session is lost or renamed."""
    Seat = apps.get_model("scoresheet", "Seat")
    seen = set()
    changed = []
    for seat in Seat.objects.order_by("sheet_id", "position").iterator(chunk_size=2000):
        key = name_key(seat.name)
        if (seat.sheet_id, key) in seen:
            key = f"{key}#{seat.position}"
        seen.add((seat.sheet_id, key))
        seat.key = key
        changed.append(seat)
    # bulk_update writes the field's value as set here (pre_save is not called by an update).
    Seat.objects.bulk_update(changed, ["key"], batch_size=500)


class Migration(migrations.Migration):
    dependencies = [
        ("scoresheet", "0005_hand_miseres"),
    ]

    operations = [
        migrations.AddField(
            model_name="seat",
            name="key",
            field=models.TextField(default="", editable=False),
            preserve_default=False,
        ),
        migrations.RunPython(fill_keys, migrations.RunPython.noop),
        migrations.RemoveConstraint(model_name="seat", name="seat_name_unique_ci"),
        migrations.AddConstraint(
            model_name="seat",
            constraint=models.UniqueConstraint(
                fields=("sheet", "key"), name="seat_name_key_unique"
            ),
        ),
    ]
