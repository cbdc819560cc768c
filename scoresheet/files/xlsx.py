"""The spreadsheet files (.xlsx): a session's sheet, a club's standings and a night's ranking,
with the CSV's cells, as a workbook that LibreOffice, Excel and Numbers open with no import
dialog.

The cells are the CSV's (``session_csv.csv_rows``, ``club_csv.csv_rows``,
``night_files.csv_rows``): numbers are written as numbers (40.5 as a decimal, which a French
spreadsheet shows 40,5), text as text. A text cell is a string, never a formula, so a name is
shown exactly as typed ("=1+1" stays text) and needs none of the CSV's leading apostrophe.
XlsxWriter's constant-memory mode writes each row to a temporary file as it comes: the workbook
never holds the session in memory.
"""

from __future__ import annotations

import re
import tempfile
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from typing import IO

import xlsxwriter

CONTENT_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
# Excel's limits on a worksheet's name: 31 characters, none of these, no apostrophe at either
# end, and "History" is its own.
TITLE_LENGTH = 31
TITLE_FORBIDDEN = re.compile(r"[\[\]:*?/\\\x00-\x1f]")
RESERVED_TITLES = {"history"}
# Column widths, in characters: a name column fits names up to this long, wider ones wrap
# nothing and are cut on screen (the cell holds the whole name).
NAME_WIDTH = (8, 24)


def sheet_title(name: str) -> str:
    """A worksheet name Excel accepts, as close to ``name`` as it allows."""
    title = TITLE_FORBIDDEN.sub("-", name)
    title = " ".join(title.split())[:TITLE_LENGTH].strip("' ")
    if not title:
        return "Tarot"
    if title.lower() in RESERVED_TITLES:
        return f"{title} (1)"
    return title


def name_width(names: Iterable[str]) -> int:
    """A column wide enough for these names, within ``NAME_WIDTH``."""
    low, high = NAME_WIDTH
    return max(low, min(high, max((len(name) + 2 for name in names), default=low)))


def write_row(worksheet, row: int, values: list, style=None) -> None:
    """One row: a number as a number, anything else as text (a string is never read as a
    formula); an empty cell is left out."""
    write_string, write_number = worksheet.write_string, worksheet.write_number
    for column, value in enumerate(values):
        if value is None or value == "":
            continue
        if type(value) is int or type(value) is float:
            write_number(row, column, value, style)
        else:
            write_string(row, column, str(value), style)


def workbook(
    rows: Iterator[list],
    target: IO[bytes],
    *,
    title: str,
    widths: list[int],
    bold_last: int = 0,
) -> None:
    """Write ``rows`` (the first is the header) as one worksheet into ``target``: a bold and
    frozen header, ``widths`` for the columns, the ``bold_last``-th row from the end in bold
    (the totals), and the rows streamed to disk as they come."""
    book = xlsxwriter.Workbook(
        target,
        {
            "constant_memory": True,
            "in_memory": False,
            "strings_to_formulas": False,
            "strings_to_numbers": False,
            "strings_to_urls": False,
        },
    )
    book.set_properties({"title": title})
    bold = book.add_format({"bold": True})
    worksheet = book.add_worksheet(sheet_title(title))
    for column, width in enumerate(widths):
        worksheet.set_column(column, column, width)
    worksheet.freeze_panes(1, 0)
    rows = iter(rows)
    write_row(worksheet, 0, next(rows), bold)
    # The last rows are held back until the end, to know which is the totals.
    held: deque[list] = deque()
    number = 1
    for row in rows:
        held.append(row)
        if len(held) > bold_last:
            write_row(worksheet, number, held.popleft())
            number += 1
    for position, row in enumerate(held):
        write_row(worksheet, number, row, bold if position == 0 and bold_last else None)
        number += 1
    book.close()


def session_widths(names: list[str]) -> list[int]:
    """The session sheet's columns (``session_csv.csv_header``): hand, dealer, taker, partner,
    contract, bouts, points, result, petit au bout, poignées, chelem, misère, then a player's."""
    name = name_width(names)
    return [6, name, name, name, 13, 6, 7, 14, 13, 24, 22, 16] + [
        name_width([player]) for player in names
    ]


def in_temporary_file(write: Callable[[IO[bytes]], None]) -> IO[bytes]:
    """A temporary file (deleted once closed) that ``write`` filled, at its start: the
    response streams it from disk and closes it once sent."""
    target = tempfile.TemporaryFile()  # noqa: SIM115 (FileResponse closes it)
    try:
        write(target)
    except BaseException:
        target.close()
        raise
    target.seek(0)
    return target


def session_file(sheet, rows: Iterator[list], names: list[str]) -> IO[bytes]:
    """The session's workbook: the totals are the last row but one (the rules line is last)."""
    widths = session_widths(names)
    return in_temporary_file(
        lambda target: workbook(rows, target, title=sheet.name, widths=widths, bold_last=2)
    )


def ranking_file(night, rows: Iterator[list], names: list[str]) -> IO[bytes]:
    """A club night's ranking workbook: place, player, a column per round, total."""
    rounds = max(night.drawn, 1)
    widths = [7, name_width(names), *([9] * rounds), 8]
    return in_temporary_file(
        lambda target: workbook(rows, target, title=night.name, widths=widths)
    )


def standings_file(club, rows: Iterator[list], names: list[str]) -> IO[bytes]:
    """A club's standings workbook."""
    widths = [name_width(names), 10, 8, 9, 15, 14, 13, 10, 17, 8]
    return in_temporary_file(lambda target: workbook(rows, target, title=club.name, widths=widths))
