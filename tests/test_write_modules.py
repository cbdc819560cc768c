"""Every row the app stores is written by a write module: the test walks the app's
code (ast) and fails on a model write anywhere else.

The write modules:

- ``sheets/writes.py``: every change to a session (sheet, seats, hands, rules, names);
- ``clubs/writes.py``: every change to a club (club, settings, roster, its sheets);
- ``clubs/results.py``: the club's derived results, called only from the write modules (a
  sheet's changes reach it through ``sheets.writes.after_change``; and ``manage.py rescore``
  through ``recount``);
- ``nights/writes.py``: every change to a club night (the night, its tables, its players);
- ``files/writes.py``: a club's backup restored (the club, its roster, sheets, results and
  nights);
- ``keys.py``: a form's key spent, in the transaction of the write that spends it;
- ``bulk.py``: the plain bulk inserts and updates the write modules send, called only from
  them;
- ``migrations/``: schema and data migrations, run by ``migrate`` alone.

A write is a call of ``.save(``, ``.create(``, ``.bulk_create(``, ``.update(``, ``.delete(``,
``.bulk_update(``, ``.update_or_create(``, ``.get_or_create(``, or SQL text that inserts,
updates or deletes. The same method names on things that are not rows (a dict's ``update``, a
hash's, a QR code's ``save`` into a buffer) are listed in ``NOT_ROWS``, each with why.
"""

import ast
import re
from pathlib import Path

import pytest

APP = Path(__file__).resolve().parent.parent / "scoresheet"
WRITE_MODULES = {
    "sheets/writes.py",
    "clubs/writes.py",
    "clubs/results.py",
    "nights/writes.py",
    "files/writes.py",
    "keys.py",
    "bulk.py",
}
WRITE_METHODS = {
    "save",
    "create",
    "bulk_create",
    "update",
    "delete",
    "bulk_update",
    "update_or_create",
    "get_or_create",
}
# SQL that changes rows, as a string in the code (an f-string's holes read as "x"); the app
# writes its SQL in capitals, as prose never starts ("Delete from the list").
SQL_WRITE = re.compile(
    r"^\s*(INSERT\s+INTO|UPDATE\s+\S+\s+SET|DELETE\s+FROM|REPLACE\s+INTO|MERGE\s+INTO|TRUNCATE)\b"
)
# (module, the call's receiver as written): calls of these names on things that are no row.
NOT_ROWS = {
    # The chart's points: a dict of hand number → totals.
    # The club's attach page: the template's context, a dict.
    ("clubs/views.py", "context.update"): "a dict",
    # A form field's error messages, a dict.
    ("clubs/forms.py", "self.fields[name].error_messages.update"): "a dict",
    # The service worker's version: a hashlib digest of the app's files.
    ("sheets/offline.py", "digest.update"): "a hash",
    # The QR code written into an in-memory buffer.
    ("sheets/views.py", "segno.make(url, error='m').save"): "an SVG into a buffer",
    # The night's QR code (its read-only ranking, on the screen), into an in-memory buffer.
    ("nights/views.py", "segno.make(url, error='m').save"): "an SVG into a buffer",
    # The club night's draw: a Counter of the pairs of players who met.
    ("nights/draw.py", "met.update"): "a Counter",
    # The summary's picture written into an in-memory buffer (Pillow).
    ("sheets/summary_image.py", "image.save"): "a PNG into a buffer",
}


def writes_in(source: str, module: str) -> list[str]:
    """Each model write in ``source`` (a module's code), as "module:line: what"."""
    found = []
    tree = ast.parse(source)
    # The pieces of an f-string are read with it, not alone.
    pieces = {
        id(part)
        for node in ast.walk(tree)
        if isinstance(node, ast.JoinedStr)
        for part in node.values
    }
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr in WRITE_METHODS
        ):
            receiver = ast.unparse(node.func)
            if (module, receiver) not in NOT_ROWS:
                found.append(f"{module}:{node.lineno}: {receiver}(…)")
        text = None
        if (
            isinstance(node, ast.Constant)
            and isinstance(node.value, str)
            and id(node) not in pieces
        ):
            text = node.value
        elif isinstance(node, ast.JoinedStr):
            text = "".join(
                part.value if isinstance(part, ast.Constant) else "x" for part in node.values
            )
        if text is not None and SQL_WRITE.search(text):
            found.append(f"{module}:{node.lineno}: SQL {text.strip()[:40]!r}")
    return found


def app_modules():
    """Every module of the app but the write modules and the migrations: (name, source)."""
    for path in sorted(APP.rglob("*.py")):
        relative = path.relative_to(APP)
        if relative.parts[0] == "migrations" or str(relative) in WRITE_MODULES:
            continue
        yield str(relative), path.read_text(encoding="utf-8")


def test_no_model_row_is_written_outside_the_write_modules():
    found = [write for name, source in app_modules() for write in writes_in(source, name)]
    assert found == []


def test_every_exception_is_still_in_the_code():
    """An entry of NOT_ROWS whose call has gone would let a write of that name through."""
    calls = {
        (name, ast.unparse(node.func))
        for name, source in app_modules()
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
    }
    assert set(NOT_ROWS) <= calls


@pytest.mark.parametrize(
    ("planted", "found"),
    [
        ("sheet.save()", "sheet.save(…)"),
        ("sheet.save(update_fields=['name'])", "sheet.save(…)"),
        ("Hand.objects.create(sheet=sheet)", "Hand.objects.create(…)"),
        ("Seat.objects.bulk_create(seats)", "Seat.objects.bulk_create(…)"),
        (
            "Sheet.objects.filter(pk=1).update(name='x')",
            "Sheet.objects.filter(pk=1).update(…)",
        ),
        ("sheet.hands.filter(number=3).delete()", "sheet.hands.filter(number=3).delete(…)"),
        ("hand.delete()", "hand.delete(…)"),
        ("Hand.objects.bulk_update(hands, ['scores'])", "Hand.objects.bulk_update(…)"),
        (
            "ClubPlayer.objects.update_or_create(club=club, name='Ana')",
            "ClubPlayer.objects.update_or_create(…)",
        ),
        ("club.players.get_or_create(name='Ana')", "club.players.get_or_create(…)"),
        (
            "cursor.execute('UPDATE scoresheet_sheet SET name = %s', ['x'])",
            "SQL 'UPDATE scoresheet_sheet SET name = %s'",
        ),
        (
            "cursor.execute(f'DELETE FROM {table} WHERE id = %s', [1])",
            "SQL 'DELETE FROM x WHERE id = %s'",
        ),
        (
            "sql = 'INSERT INTO scoresheet_hand (number) VALUES (1)'",
            "SQL 'INSERT INTO scoresheet_hand (number) VAL'",
        ),
    ],
)
def test_a_planted_write_is_found(planted, found):
    """The test of the test: a write planted in a view (a module that must not write)."""
    source = f"def view(request, sheet, hand, hands, club, cursor, table, seats):\n    {planted}\n"
    assert writes_in(source, "views.py") == [f"views.py:2: {found}"]


def test_reading_sql_and_words_are_not_writes():
    source = (
        "def read(cursor):\n"
        "    '''Update the totals: nothing here writes.'''\n"
        "    cursor.execute('SELECT id FROM t WHERE id = %s FOR UPDATE', [1])\n"
        "    label = 'Delete from the list'\n"
    )
    assert writes_in(source, "views.py") == []


def test_bulk_is_used_by_the_write_modules_alone():
    """bulk.py writes whatever it is given: only the write modules may give it rows."""
    users = []
    for name, source in app_modules():
        for node in ast.walk(ast.parse(source)):
            if isinstance(node, ast.ImportFrom) and node.module == "scoresheet":
                if any(alias.name == "bulk" for alias in node.names):
                    users.append(name)
            elif isinstance(node, ast.Import | ast.ImportFrom) and "scoresheet.bulk" in {
                getattr(node, "module", None),
                *(alias.name for alias in node.names),
            }:
                users.append(name)
    assert users == []
    assert "from scoresheet import bulk" in (APP / "sheets" / "writes.py").read_text(
        encoding="utf-8"
    )
