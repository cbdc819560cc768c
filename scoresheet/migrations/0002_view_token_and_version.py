import secrets

from django.db import migrations, models


def give_view_tokens(apps, schema_editor):
    """Each existing sheet gets its own read-only secret (a default would be shared by all)."""
    Sheet = apps.get_model("scoresheet", "Sheet")
    for sheet in Sheet.objects.filter(view_token__isnull=True).only("pk"):
        Sheet.objects.filter(pk=sheet.pk).update(view_token=secrets.token_urlsafe(18))


class Migration(migrations.Migration):
    dependencies = [
        ("scoresheet", "0001_initial"),
    ]

    operations = [
        migrations.AddField(
            model_name="sheet",
            name="view_token",
            field=models.CharField(editable=False, max_length=32, null=True),
        ),
        migrations.RunPython(give_view_tokens, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="sheet",
            name="view_token",
            field=models.CharField(editable=False, max_length=32, unique=True),
        ),
        migrations.AddField(
            model_name="hand",
            name="version",
            field=models.PositiveIntegerField(default=1, editable=False),
        ),
    ]
