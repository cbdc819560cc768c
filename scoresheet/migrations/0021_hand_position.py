"""A hand's number is its ``position`` less its sheet's ``hand_offset`` (models.py): deleting
the first hands of a long session then moves the hands before it by one place, not every hand
after it. On PostgreSQL, moving 9,999 hands' numbers took 60–125 ms (their three index entries
each), the rest of the deletion 15.

The hand's column keeps its name ("number") and its index: only the model's field is renamed,
and every stored number is already its position with an offset of 0. The one change on the
database is the sheets' new column, which PostgreSQL adds at once (a constant default).
"""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("scoresheet", "0020_hand_fillfactor")]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.RemoveIndex(model_name="hand", name="hand_number"),
                migrations.RenameField(model_name="hand", old_name="number", new_name="position"),
                migrations.AlterField(
                    model_name="hand",
                    name="position",
                    field=models.PositiveIntegerField(db_column="number", editable=False),
                ),
                migrations.AlterModelOptions(name="hand", options={"ordering": ["position"]}),
                migrations.AddIndex(
                    model_name="hand",
                    index=models.Index(fields=["sheet", "position"], name="hand_number"),
                ),
            ]
        ),
        migrations.AddField(
            model_name="sheet",
            name="hand_offset",
            field=models.PositiveIntegerField(default=0, db_default=0, editable=False),
        ),
    ]
