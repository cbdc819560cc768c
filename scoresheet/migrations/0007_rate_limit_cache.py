# The rate limit's counters live in a database cache table (settings.CACHES["ratelimit"]):
# created by `migrate`, so `make run`, every app server and the tests have it. Renumber on merge.

from django.core.management import call_command
from django.db import migrations


def create_cache_table(apps, schema_editor):
    call_command("createcachetable", database=schema_editor.connection.alias, verbosity=0)


class Migration(migrations.Migration):
    dependencies = [
        ("scoresheet", "0006_seat_name_key"),
    ]

    operations = [
        migrations.RunPython(create_cache_table, migrations.RunPython.noop),
    ]
