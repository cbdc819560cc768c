"""The spreadsheet files (.xlsx): a session's sheet, a club's standings and a night's ranking,
with the CSV's cells, as a workbook that LibreOffice, Excel and Numbers open with no import
dialog.

The cells are the CSV's (``session_csv.csv_rows``, ``club_csv.csv_rows``,
``night_files.csv_rows``): numbers are written as numbers (40.5 as a decimal, which a French
spreadsheet shows 40,5), text as text. A text cell is an inline string, never a formula, so a
name is shown exactly as typed ("=1+1" stays text) and needs none of the CSV's leading
apostrophe.

The workbook is the few parts of SpreadsheetML (ECMA-376) a single sheet of values needs,
written here with the standard library: its rows are streamed into the zip file as they come,
each as one string, at a fraction of a microsecond a cell. XlsxWriter, which wrote them before,
spends about 4 µs a cell in Python (0.74 s for a 10,000-hand session, 2.5 times its budget);
the faster writers found write rows of dicts keyed by the header, which two columns of the same
name (a player called "Points") would merge.
"""

from __future__ import annotations

import re
import tempfile
import zipfile
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from datetime import UTC, datetime
from typing import IO
from xml.sax.saxutils import escape

CONTENT_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
# Excel's limits on a worksheet's name: 31 characters, none of these, no apostrophe at either
# end, and "History" is its own.
TITLE_LENGTH = 31
TITLE_FORBIDDEN = re.compile(r"[\[\]:*?/\\\x00-\x1f]")
RESERVED_TITLES = {"history"}
# Column widths, in characters: a name column fits names up to this long, wider ones wrap
# nothing and are cut on screen (the cell holds the whole name).
NAME_WIDTH = (8, 24)
# What XML 1.0 cannot hold, even escaped: control characters but tab, newline and return.
NOT_XML = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")


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


def column_letters(count: int) -> list[str]:
    """A, B, …, Z, AA, AB…: the names of the first ``count`` columns."""
    found = []
    for number in range(1, count + 1):
        letters = ""
        while number:
            number, rest = divmod(number - 1, 26)
            letters = chr(65 + rest) + letters
        found.append(letters)
    return found


def text(value: object) -> str:
    """``value`` as XML text, or an attribute's value between double quotes."""
    return escape(NOT_XML.sub("", str(value)), {'"': "&quot;"})


class Rows:
    """Rows as SpreadsheetML: a number as a number, anything else as an inline string (never a
    formula); an empty cell is left out. A text seen before (a name, a contract, "made by 8")
    is escaped once."""

    def __init__(self, columns: int):
        self.letters = column_letters(columns)
        self.texts: dict[str, str] = {}

    def text(self, value: object) -> str:
        value = str(value)
        found = self.texts.get(value)
        if found is None:
            found = self.texts[value] = (
                f' t="inlineStr"><is><t xml:space="preserve">{text(value)}</t></is></c>'
            )
        return found

    def row(self, number: int, values: list, style: str = "") -> str:
        """Row ``number``; ``style`` is its cells' format (bold: ' s="1"')."""
        cells = []
        for letter, value in zip(self.letters, values, strict=False):
            if value is None or value == "":
                continue
            if type(value) is int or type(value) is float:
                cells.append(f'<c r="{letter}{number}"{style}><v>{value!r}</v></c>')
            else:
                cells.append(f'<c r="{letter}{number}"{style}{self.text(value)}')
        return f'<row r="{number}">{"".join(cells)}</row>'


def _width(characters: int) -> float:
    # Excel's column width for text of this many characters of its default font (7 pixels
    # each, 5 of padding), as XlsxWriter computes it.
    return int((characters * 7 + 5) / 7 * 256) / 256


PARTS = {
    "[Content_Types].xml": (
        '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
        '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
        '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.'
        'relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>'
        '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-'
        'officedocument.spreadsheetml.sheet.main+xml"/>'
        '<Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.'
        'openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>'
        '<Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-'
        'officedocument.spreadsheetml.styles+xml"/>'
        '<Override PartName="/docProps/core.xml" ContentType="application/vnd.openxmlformats-'
        'package.core-properties+xml"/></Types>'
    ),
    "_rels/.rels": (
        '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
        '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
        '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/'
        'relationships/officeDocument" Target="xl/workbook.xml"/>'
        '<Relationship Id="rId2" Type="http://schemas.openxmlformats.org/package/2006/'
        'relationships/metadata/core-properties" Target="docProps/core.xml"/></Relationships>'
    ),
    "xl/_rels/workbook.xml.rels": (
        '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
        '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
        '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/'
        'relationships/worksheet" Target="worksheets/sheet1.xml"/>'
        '<Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/'
        'relationships/styles" Target="styles.xml"/></Relationships>'
    ),
    # Two cell formats: 0 as it is, 1 bold (the header and the totals).
    "xl/styles.xml": (
        '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
        '<styleSheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">'
        '<fonts count="2"><font><sz val="11"/><name val="Calibri"/><family val="2"/></font>'
        '<font><b/><sz val="11"/><name val="Calibri"/><family val="2"/></font></fonts>'
        '<fills count="2"><fill><patternFill patternType="none"/></fill>'
        '<fill><patternFill patternType="gray125"/></fill></fills>'
        '<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>'
        '<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/>'
        '</cellStyleXfs><cellXfs count="2">'
        '<xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/>'
        '<xf numFmtId="0" fontId="1" fillId="0" borderId="0" xfId="0" applyFont="1"/>'
        '</cellXfs><cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/>'
        "</cellStyles></styleSheet>"
    ),
}


def _workbook_part(title: str) -> str:
    return (
        '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
        '<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" '
        'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships">'
        f'<sheets><sheet name="{text(sheet_title(title))}" sheetId="1" r:id="rId1"/></sheets>'
        "</workbook>"
    )


def _core_part(title: str) -> str:
    now = datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    return (
        '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
        '<cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/'
        'core-properties" xmlns:dc="http://purl.org/dc/elements/1.1/" '
        'xmlns:dcterms="http://purl.org/dc/terms/" '
        'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">'
        f"<dc:title>{text(title)}</dc:title>"
        f'<dcterms:created xsi:type="dcterms:W3CDTF">{now}</dcterms:created>'
        "</cp:coreProperties>"
    )


def _sheet_head(widths: list[int]) -> str:
    columns = "".join(
        f'<col min="{n}" max="{n}" width="{_width(width)}" customWidth="1"/>'
        for n, width in enumerate(widths, start=1)
    )
    # The header row stays in sight (frozen) while the rows scroll.
    return (
        '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
        '<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">'
        '<sheetViews><sheetView workbookViewId="0"><pane ySplit="1" topLeftCell="A2" '
        'activePane="bottomLeft" state="frozen"/><selection pane="bottomLeft"/></sheetView>'
        f"</sheetViews><cols>{columns}</cols><sheetData>"
    )


# Rows joined into one string before they are written to the zip file.
ROWS_AT_ONCE = 500


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
    (the totals), and the rows streamed into the zip file as they come."""
    rows = iter(rows)
    header = next(rows)
    xml = Rows(max(len(header), len(widths)))
    bold = ' s="1"'
    # Level 1: most of the size for a fraction of the time (the file is a few hundred KB).
    with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED, compresslevel=1) as book:
        for name, part in PARTS.items():
            book.writestr(name, part)
        book.writestr("xl/workbook.xml", _workbook_part(title))
        book.writestr("docProps/core.xml", _core_part(title))
        with book.open("xl/worksheets/sheet1.xml", "w", force_zip64=True) as sheet:
            sheet.write(_sheet_head(widths).encode())
            sheet.write(xml.row(1, header, bold).encode())
            # The last rows are held back until the end, to know which is the totals.
            held: deque[list] = deque()
            number, lines = 2, []
            for row in rows:
                held.append(row)
                if len(held) > bold_last:
                    lines.append(xml.row(number, held.popleft()))
                    number += 1
                    if len(lines) == ROWS_AT_ONCE:
                        sheet.write("".join(lines).encode())
                        lines = []
            for position, row in enumerate(held):
                style = bold if position == 0 and bold_last else ""
                lines.append(xml.row(number, row, style))
                number += 1
            sheet.write(("".join(lines) + "</sheetData></worksheet>").encode())


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
