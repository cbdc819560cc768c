"""A club night says whether a passed deal counts as one of a round's deals (it does, as
before), and has a short code for its screen's read-only address, /tv/<code>: each existing
night gets one here. What it needs is frozen in it (tests/test_migrations.py)."""

import secrets

from django.db import migrations, models

# models.SCREEN_LETTERS and SCREEN_LENGTH when this migration was written.
LETTERS = "23456789abcdefghjkmnpqrstuvwxyz"
LENGTH = 8


def give_codes(apps, schema_editor):
    Night = apps.get_model("scoresheet", "Night")
    taken = set()
    for night in Night.objects.filter(screen__isnull=True).only("pk"):
        code = None
        while code is None or code in taken:
            code = "".join(secrets.choice(LETTERS) for _letter in range(LENGTH))
        taken.add(code)
        Night.objects.filter(pk=night.pk).update(screen=code)


class Migration(migrations.Migration):
    dependencies = [
        ("scoresheet", "0015_name_keys_skeleton"),
    ]

    operations = [
        migrations.AddField(
            model_name="night",
            name="passed_counts",
            field=models.BooleanField(default=True, verbose_name="a passed deal counts as a deal"),
        ),
        # Null at first, a code for each night, then unique and required.
        migrations.AddField(
            model_name="night",
            name="screen",
            field=models.CharField(editable=False, max_length=8, null=True),
        ),
        migrations.RunPython(give_codes, migrations.RunPython.noop, elidable=False),
        migrations.AlterField(
            model_name="night",
            name="screen",
            field=models.CharField(editable=False, max_length=8, unique=True),
        ),
    ]
