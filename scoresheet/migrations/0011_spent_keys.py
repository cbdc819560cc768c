# SpentKey: a form's key is spent for good once it made a hand, a session or a club (docs/using.md, "No lost hands").
# Every hand already stored spends its key here, so that resending its form after the hand
# is deleted or undone stores nothing.

import django.db.models.deletion
from django.db import migrations, models


def spend_hand_keys(apps, schema_editor):
    Hand = apps.get_model("scoresheet", "Hand")
    SpentKey = apps.get_model("scoresheet", "SpentKey")
    batch = []
    for key, sheet_id in Hand.objects.values_list("key", "sheet_id").iterator(chunk_size=2000):
        batch.append(SpentKey(key=key, made="hand", sheet_id=sheet_id))
        if len(batch) == 2000:
            SpentKey.objects.bulk_create(batch)
            batch = []
    SpentKey.objects.bulk_create(batch)


class Migration(migrations.Migration):

    dependencies = [
        ('scoresheet', '0010_club_results'),
    ]

    operations = [
        migrations.CreateModel(
            name='SpentKey',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('key', models.UUIDField(unique=True)),
                ('made', models.CharField(choices=[('hand', 'Hand'), ('sheet', 'Sheet'), ('club', 'Club')], max_length=5)),
                ('created', models.DateTimeField(auto_now_add=True)),
                ('club', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.CASCADE, related_name='+', to='scoresheet.club')),
                ('sheet', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.CASCADE, related_name='+', to='scoresheet.sheet')),
            ],
        ),
        migrations.RunPython(spend_hand_keys, migrations.RunPython.noop),
    ]
