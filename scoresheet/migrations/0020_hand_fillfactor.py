"""PostgreSQL: the hands' table keeps half of each page free (``fillfactor`` 50), so that a
change of rules, which writes every hand's scores again, writes each new version beside the old
one in its page (a heap-only tuple: no index touched) instead of on a new page with an entry in
each of the table's three indexes. On a 10,000-hand session (measured in-process, the
statement alone, docs/performance.md) it took 40–65 ms instead of 85–120; the table takes about
twice the room, a few MB for the longest sessions.

Rows already stored keep their pages until PostgreSQL writes them again (a ``VACUUM FULL``
rewrites them at once with that room). Setting it takes a SHARE UPDATE EXCLUSIVE lock, which
lets every read and write go on: an upgrade while tables save waits for nothing. SQLite has no
such setting: nothing to do there.
"""

from django.db import migrations


def half_free(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute("ALTER TABLE scoresheet_hand SET (fillfactor = 50)")


def packed(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute("ALTER TABLE scoresheet_hand RESET (fillfactor)")


class Migration(migrations.Migration):
    dependencies = [("scoresheet", "0019_running_totals_derived")]

    operations = [migrations.RunPython(half_free, packed, elidable=False)]
