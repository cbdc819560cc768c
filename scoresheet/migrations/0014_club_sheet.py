"""One name per idea: the club's ``ClubSession`` is ``ClubSheet``, and the fields that point
at it (a result's, a night table's) are ``club_sheet``. The tables and columns are renamed;
no row changes."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("scoresheet", "0013_club_nights"),
    ]

    operations = [
        # The constraint names the field: taken off before the rename, put back after.
        migrations.RemoveConstraint(model_name="clubresult", name="club_result_seat_unique"),
        migrations.RenameModel(old_name="ClubSession", new_name="ClubSheet"),
        migrations.AlterField(
            model_name="clubsheet",
            name="club",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.CASCADE,
                related_name="club_sheets",
                to="scoresheet.club",
            ),
        ),
        migrations.AlterField(
            model_name="clubsheet",
            name="sheet",
            field=models.OneToOneField(
                on_delete=django.db.models.deletion.CASCADE,
                related_name="club_sheet",
                to="scoresheet.sheet",
            ),
        ),
        migrations.RenameField(model_name="clubresult", old_name="session", new_name="club_sheet"),
        migrations.RenameField(model_name="nighttable", old_name="session", new_name="club_sheet"),
        migrations.AddConstraint(
            model_name="clubresult",
            constraint=models.UniqueConstraint(
                fields=("club_sheet", "seat"), name="club_result_seat_unique"
            ),
        ),
    ]
