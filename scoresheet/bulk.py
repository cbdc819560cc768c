"""Many rows of one table written at once: the write modules' fast path for big imports and
for the derived data they rewrite (a hand's row and running totals, a club's results).

Django's ``bulk_update`` writes ``SET col = CASE WHEN id = 1 THEN … WHEN id = 2 …`` for each
batch, which the database parses and evaluates row by row: re-scoring a 10,000-hand session
spent seconds in it (issue 20); and ``bulk_create`` prepares every value of every row while
its transaction is open. Here the values are prepared first (``values``, before any
transaction when the caller can), and each statement is the same for every row: SQLite runs
it for each row with ``executemany`` (prepared once, in-process); PostgreSQL gets one
statement over the rows sent as arrays (``unnest``), a single round trip whatever their
number. Both run inside the caller's transaction.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Sequence

from django.db import DEFAULT_DB_ALIAS, connection, connections, models


def _fields(model: type[models.Model], names: Sequence[str]) -> list[models.Field]:
    return [model._meta.get_field(name) for name in names]


def _preparer(field: models.Field) -> Callable:
    """The function that turns a value of ``field`` into what the database is sent."""
    if isinstance(field, models.JSONField):
        # As Django writes a JSONField without an encoder, on both databases: JSON text, which
        # PostgreSQL casts to jsonb.
        return json.dumps
    database = connections[DEFAULT_DB_ALIAS]
    known = {}

    def prepared(value):
        # A column holds few distinct values (seats, contracts…): each is prepared once.
        key = (type(value), value)
        try:
            return known[key]
        except KeyError:
            found = known[key] = field.get_db_prep_save(value, database)
            return found
        except TypeError:  # unhashable
            return field.get_db_prep_save(value, database)

    return prepared


def values(
    model: type[models.Model], objects: Iterable[models.Model], names: Sequence[str]
) -> list[tuple]:
    """The database values of new (unsaved) ``objects`` for the fields ``names``, as saving
    them would write them (``pre_save``: auto_now_add, a name's key…)."""
    fields = _fields(model, names)
    steps = [(field.pre_save, _preparer(field)) for field in fields]
    return [tuple(prepare(pre_save(row, True)) for pre_save, prepare in steps) for row in objects]


def insert(model: type[models.Model], names: Sequence[str], rows: Sequence[Sequence]) -> None:
    """Insert ``rows`` into ``model``'s table: each the database values (``values``) of the
    fields ``names``, in that order."""
    if not rows:
        return
    fields = _fields(model, names)
    quote = connection.ops.quote_name
    table = quote(model._meta.db_table)
    columns = ", ".join(quote(field.column) for field in fields)
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute(
                f"INSERT INTO {table} ({columns}) SELECT * FROM unnest({_arrays(fields)})",
                [list(column) for column in zip(*rows, strict=True)],
            )
        else:
            marks = ", ".join(["%s"] * len(fields))
            cursor.executemany(f"INSERT INTO {table} ({columns}) VALUES ({marks})", rows)


def update(model: type[models.Model], names: Sequence[str], rows: Iterable[Sequence]) -> int:
    """Set the fields ``names`` of rows of ``model``'s table: ``rows`` are (pk, value of each
    field, in that order). Returns how many rows were given; sends nothing for none."""
    meta = model._meta
    fields = _fields(model, names)
    steps = [_preparer(field) for field in fields]
    prepared = [
        (row[0], *(prepare(value) for prepare, value in zip(steps, row[1:], strict=True)))
        for row in rows
    ]
    if not prepared:
        return 0
    quote = connection.ops.quote_name
    table, pk = quote(meta.db_table), quote(meta.pk.column)
    columns = [quote(field.column) for field in fields]
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            assignments = ", ".join(f"{column} = v.{column}" for column in columns)
            cursor.execute(
                f"UPDATE {table} AS t SET {assignments}"
                f" FROM unnest({_arrays([meta.pk, *fields])}) AS v({pk}, {', '.join(columns)})"
                f" WHERE t.{pk} = v.{pk}",
                [list(column) for column in zip(*prepared, strict=True)],
            )
        else:
            assignments = ", ".join(f"{column} = %s" for column in columns)
            cursor.executemany(
                f"UPDATE {table} SET {assignments} WHERE {pk} = %s",
                [(*row[1:], row[0]) for row in prepared],
            )
    return len(prepared)


def _arrays(fields: Sequence[models.Field]) -> str:
    """PostgreSQL: one array parameter per column, of the column's type."""
    return ", ".join(f"%s::{field.rel_db_type(connection)}[]" for field in fields)
