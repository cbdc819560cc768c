# Seat.key: the comparison key of a player's name (scoresheet/names.py), unique per sheet, in
# place of the database's own lower(name). Renumber on merge: it follows 0003.

from django.db import migrations, models

import scoresheet.names


def fill_keys(apps, schema_editor):
    """Compute the key of every existing seat; a seat whose name now matches an earlier one
    of its sheet (two names that only differed by an invisible character) keeps its name and
    gets a key marked with its position, so no stored session is lost or renamed."""
    Seat = apps.get_model("scoresheet", "Seat")
    seen = set()
    changed = []
    for seat in Seat.objects.order_by("sheet_id", "position").iterator(chunk_size=2000):
        key = scoresheet.names.key(seat.name)
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
            field=scoresheet.names.NameKeyField(default=""),
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
