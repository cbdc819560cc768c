"""The one way the app writes CSV: UTF-8 with a BOM so spreadsheets keep the accents, every
text quoted and never a number, and a text that would run as a formula made harmless."""

from __future__ import annotations

import csv
from collections.abc import Iterable, Iterator

from scoresheet.files.json_backup import BOM

# OWASP "CSV injection": a spreadsheet runs a cell that starts with one of these.
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def cell(value: object) -> object:
    """A cell a spreadsheet shows as typed: text that would run as a formula gets a leading '."""
    if isinstance(value, str) and value.startswith(FORMULA_START):
        return "'" + value
    return value


class Echo:
    """A file whose write() hands the line back, so csv.writer can feed a stream."""

    def write(self, value: str) -> str:
        return value


def lines(rows: Iterable[list]) -> Iterator[str]:
    """``rows`` as CSV text, line by line, the first one after the BOM."""
    # Quoting all text (OWASP) and never numbers keeps negative scores numbers.
    writer = csv.writer(Echo(), quoting=csv.QUOTE_NONNUMERIC)
    rows = iter(rows)
    first = next(rows, None)
    if first is None:
        return
    yield BOM + writer.writerow([cell(value) for value in first])
    for row in rows:
        yield writer.writerow([cell(value) for value in row])
