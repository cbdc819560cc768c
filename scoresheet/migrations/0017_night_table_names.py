"""A club night's table is named after its night: "<night> · Round r · Table t". The sessions
of the tables drawn before were named "Round r · Table t" (in the organiser's language): the
night's name goes in front, shortened with "…" when the whole would pass the 80 characters of
a session's name. A session named so already is left as it is. What it needs is frozen in it
(tests/test_migrations.py)."""

from django.db import migrations

# limits.TITLE_LENGTH when this migration was written.
TITLE_LENGTH = 80
SEPARATOR = " · "


def named(night: str, table: str) -> str:
    """``table`` after ``night``, the night's name shortened to fit."""
    whole = f"{night}{SEPARATOR}{table}"
    if len(whole) <= TITLE_LENGTH:
        return whole
    room = max(TITLE_LENGTH - len(SEPARATOR) - len(table) - 1, 1)
    return f"{night[:room].rstrip()}…{SEPARATOR}{table}"[:TITLE_LENGTH]


def named_already(night: str, name: str) -> bool:
    """Whether ``name`` starts with the night's name, whole or shortened."""
    if name.startswith(f"{night}{SEPARATOR}"):
        return True
    head, mark, _table = name.partition(f"…{SEPARATOR}")
    return bool(mark and head) and night.startswith(head)


def rename_tables(apps, schema_editor):
    NightTable = apps.get_model("scoresheet", "NightTable")
    Sheet = apps.get_model("scoresheet", "Sheet")
    tables = NightTable.objects.filter(club_sheet__isnull=False).values_list(
        "night__name", "club_sheet__sheet_id", "club_sheet__sheet__name"
    )
    for night, sheet_id, name in tables.iterator():
        if not named_already(night, name):
            Sheet.objects.filter(pk=sheet_id).update(name=named(night, name))


class Migration(migrations.Migration):
    dependencies = [
        ("scoresheet", "0016_night_passed_deals_and_screen_code"),
    ]

    operations = [
        migrations.RunPython(rename_tables, migrations.RunPython.noop, elidable=False),
    ]
