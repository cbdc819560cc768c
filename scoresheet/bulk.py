"""Many rows of one table written at once: the write modules' fast path for big imports and
for the derived data they rewrite (a hand's row, a club's results).

Django's ``bulk_update`` writes ``SET col = CASE WHEN id = 1 THEN … WHEN id = 2 …`` for each
batch, which the database parses and evaluates row by row: re-scoring a 10,000-hand session
spent seconds in it (benchmarks/writes.py); and ``bulk_create`` prepares every value of every row
while its transaction is open. Here the values are prepared first (``Columns``, before any
transaction when the caller can), and each statement is the same for every row: SQLite runs
new rows with ``executemany`` (prepared once, in-process) and the changed ones in one
``UPDATE … FROM (VALUES …)`` (per 10,000 rows or so); PostgreSQL gets the new rows by ``COPY``
and the changed ones in one statement over arrays (``unnest``), a single round trip whatever
their number. Both run inside the caller's transaction.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Sequence

from django.db import DEFAULT_DB_ALIAS, connection, connections, models


def _fields(model: type[models.Model], names: Sequence[str]) -> list[models.Field]:
    return [model._meta.get_field(name) for name in names]


def _json(value) -> str:
    # As Django writes a JSONField without an encoder, on both databases: JSON text, which
    # PostgreSQL casts to jsonb. Most announcements are {}.
    if type(value) is dict and not value:
        return "{}"
    return json.dumps(value)


# Fields whose values (int, bool, str or None, as the write modules give them) are sent to
# either database as they are: no function call per value.
AS_THEY_ARE = (models.IntegerField, models.BooleanField, models.CharField, models.TextField)


def _preparer(field: models.Field) -> Callable | None:
    """The function that turns a value of ``field`` into what the database is sent; None
    when the value is sent as it is."""
    if isinstance(field, models.JSONField):
        return _json
    if isinstance(field, AS_THEY_ARE):
        return None
    database = connections[DEFAULT_DB_ALIAS]
    known = {}

    def prepared(value):
        # A column holds few distinct values (seats, contracts, one date…): each is prepared
        # once, whatever the number of rows.
        key = (type(value), value)
        try:
            return known[key]
        except KeyError:
            found = known[key] = field.get_db_prep_save(value, database)
            return found
        except TypeError:  # unhashable
            return field.get_db_prep_save(value, database)

    return prepared


class Columns:
    """Fields of a model, and how their values are sent to the database: ``prepared`` turns
    rows of Python values into database values before any transaction, for ``insert``."""

    def __init__(self, model: type[models.Model], names: Sequence[str]):
        self.model = model
        self.names = tuple(names)
        self.fields = _fields(model, names)
        # (column, function) for each column whose values are converted.
        steps = [_preparer(field) for field in self.fields]
        self.converted = [(i, step) for i, step in enumerate(steps) if step is not None]

    def prepared(self, rows: Iterable[Sequence]) -> list[tuple]:
        """``rows`` of Python values of these fields, in order, as the database is sent them."""
        found, converted, width = [], self.converted, len(self.fields)
        for row in rows:
            row = list(row)
            if len(row) != width:
                raise ValueError(f"{len(row)} values for {width} columns")
            for i, step in converted:
                row[i] = step(row[i])
            found.append(tuple(row))
        return found

    def values(self, objects: Iterable[models.Model]) -> list[tuple]:
        """The database values of new (unsaved) ``objects``, as saving them would write them
        (``pre_save``: auto_now_add, a name's key…)."""
        fields = self.fields
        return self.prepared([field.pre_save(row, True) for field in fields] for row in objects)


def insert(model: type[models.Model], names: Sequence[str], rows: Sequence[Sequence]) -> None:
    """Insert ``rows`` into ``model``'s table: each the database values (``Columns``) of the
    fields ``names``, in that order."""
    if not rows:
        return
    fields = _fields(model, names)
    quote = connection.ops.quote_name
    table = quote(model._meta.db_table)
    columns = ", ".join(quote(field.column) for field in fields)
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            # COPY: the rows streamed as they are, each value by psycopg's own dumpers; as one
            # INSERT of arrays, psycopg would spell out every array in Python first.
            with cursor.copy(f"COPY {table} ({columns}) FROM STDIN") as copy:
                for row in rows:
                    copy.write_row(row)
        else:
            marks = ", ".join(["%s"] * len(fields))
            cursor.executemany(f"INSERT INTO {table} ({columns}) VALUES ({marks})", rows)


def update(model: type[models.Model], names: Sequence[str], rows: Iterable[Sequence]) -> int:
    """Set the fields ``names`` of rows of ``model``'s table: ``rows`` are (pk, value of each
    field, in that order). Returns how many rows were given; sends nothing for none."""
    meta = model._meta
    fields = _fields(model, names)
    rows = list(rows)
    if not rows:
        return 0
    quote = connection.ops.quote_name
    table, pk = quote(meta.db_table), quote(meta.pk.column)
    columns = [quote(field.column) for field in fields]
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            assignments = ", ".join(f"{column} = v.{column}" for column in columns)
            sources, parameters = _columns([meta.pk, *fields], zip(*rows, strict=True))
            cursor.execute(
                f"UPDATE {table} AS t SET {assignments}"
                f" FROM ROWS FROM ({sources}) AS v({pk}, {', '.join(columns)})"
                f" WHERE t.{pk} = v.{pk}",
                parameters,
            )
        else:
            # SQLite: UPDATE … FROM (VALUES …), whose columns are column1, column2…; as many
            # rows a statement as its limit of parameters allows (32,766: 10,000 rows of three).
            values = Columns(model, names).prepared(row[1:] for row in rows)
            given = [(row[0], *found) for row, found in zip(rows, values, strict=True)]
            assignments = ", ".join(
                f"{column} = v.column{place}" for place, column in enumerate(columns, start=2)
            )
            width = 1 + len(columns)
            per_statement = SQLITE_PARAMETERS // width
            for start in range(0, len(given), per_statement):
                batch = given[start : start + per_statement]
                marks = ", ".join(["(" + ", ".join(["%s"] * width) + ")"] * len(batch))
                cursor.execute(
                    f"UPDATE {table} SET {assignments} FROM (VALUES {marks}) AS v"
                    f" WHERE {table}.{pk} = v.column1",
                    [value for row in batch for value in row],
                )
    return len(rows)


# SQLite's limit of parameters in one statement (SQLITE_MAX_VARIABLE_NUMBER, since 3.32).
SQLITE_PARAMETERS = 32_766


def _columns(fields: Sequence[models.Field], values: Iterable[Sequence]) -> tuple[str, list]:
    """PostgreSQL: each column's values as one parameter, a set of rows the statement reads
    side by side (``ROWS FROM``): a JSON column as one JSON array, written in one call (psycopg
    would spell out an array of texts in Python, value by value), any other as an array of the
    column's type."""
    sources, parameters = [], []
    for field, column in zip(fields, values, strict=True):
        if isinstance(field, models.JSONField):
            sources.append("jsonb_array_elements(%s::jsonb)")
            parameters.append(json.dumps(column))
        else:
            step = _preparer(field)
            sources.append(f"unnest(%s::{field.rel_db_type(connection)}[])")
            parameters.append(list(column) if step is None else [step(value) for value in column])
    return ", ".join(sources), parameters
