"""The spreadsheet files (scoresheet/files/xlsx.py), read back with openpyxl as a spreadsheet
program would: the CSV's cells one by one, numbers as numbers, text as typed, and the workbook's
looks."""

import csv
import io
import json

import pytest
from django.urls import reverse
from django.utils import translation
from openpyxl import load_workbook

from scoresheet.clubs import standings as clubs
from scoresheet.clubs import writes as club_writes
from scoresheet.files import club_csv, csv_text, session_csv, xlsx
from scoresheet.files import session_backup as backup
from scoresheet.models import Sheet
from scoresheet.scoring import Hand, Rules
from scoresheet.sheets import writes

pytestmark = pytest.mark.django_db


def csv_cells(text: str) -> list[list]:
    """The CSV as a spreadsheet reads it: unquoted cells are numbers, quoted ones text."""
    reader = csv.reader(io.StringIO(text.removeprefix(csv_text.BOM)), quoting=csv.QUOTE_NONNUMERIC)
    return list(reader)


def xlsx_cells(data: bytes) -> tuple[list[list], object]:
    book = load_workbook(io.BytesIO(data))
    sheet = book.worksheets[0]
    rows = []
    for row in sheet.iter_rows(values_only=True):
        row = list(row)
        while row and row[-1] is None:
            row.pop()
        rows.append(row)
    return rows, sheet


def same_cell(spreadsheet, comma_separated) -> bool:
    """One cell of the workbook against the CSV's: a number for a number (40.5 for 40.5), the
    same text for text (the CSV's leading ' before a formula-like name aside: the workbook's
    text cell needs none), and an empty cell for an empty one."""
    if isinstance(comma_separated, float):
        return (
            isinstance(spreadsheet, int | float)
            and not isinstance(spreadsheet, bool)
            and (spreadsheet == comma_separated)
        )
    if comma_separated == "":
        return spreadsheet is None
    if comma_separated.startswith("'") and comma_separated[1:].startswith(csv_text.FORMULA_START):
        comma_separated = comma_separated[1:]
    return isinstance(spreadsheet, str) and spreadsheet == comma_separated


def sessions(make_backup):
    five = backup.load(json.dumps(make_backup(5)))
    six = writes.create_sheet(
        "Chez =Zoé: [tarot]*?/\\ à six, un vendredi soir",
        ["=1+1", "@SUM(A1:A9)", "-Ben", "+Chloé", "Zoé", "Łukasz"],
        0,
        rules=Rules(dealer_sits_out=True, misere=10, rounding=5),
        hands=[
            (None, Hand(6, 1, "garde", 2, "40.5", partner=2, dealer=0, miseres={3: 2})),
            (None, None),
            (None, Hand(6, 3, "prise", 1, 51, poignees={4: "simple"}, dealer=2)),
        ],
    )
    return [five, Sheet.objects.get(pk=six.pk), backup.load(json.dumps(make_backup(3)))]


@pytest.mark.parametrize("language", ["en", "fr", "es"])
def test_the_workbook_is_the_csv_cell_by_cell(make_backup, client, language):
    for sheet in sessions(make_backup):
        with translation.override(language):
            text = "".join(session_csv.csv_lines(sheet))
            data = xlsx.session_file(sheet, session_csv.csv_rows(sheet), ["x"]).read()
        expected = csv_cells(text)
        found, _sheet = xlsx_cells(data)
        assert len(found) == len(expected)
        for number, (ours, theirs) in enumerate(zip(found, expected, strict=True), start=1):
            assert len(ours) <= len(theirs), number
            padded = ours + [None] * (len(theirs) - len(ours))
            for column, (cell, other) in enumerate(zip(padded, theirs, strict=True)):
                assert same_cell(cell, other), (number, column, cell, other)


def test_numbers_are_numbers_and_names_are_text(make_backup):
    _five, six, three = sessions(make_backup)
    rows, _sheet = xlsx_cells(xlsx.session_file(six, session_csv.csv_rows(six), []).read())
    # Exactly as typed, text and never a formula: "=1+1" is not 2.
    assert rows[0][12:] == ["=1+1", "@SUM(A1:A9)", "-Ben", "+Chloé", "Zoé", "Łukasz"]
    assert rows[1][1] == "=1+1"  # the dealer of hand 1
    # Hand 1: Ben's garde with 2 bouts and 40.5 points, a half point: a decimal number.
    assert rows[1][6] == 40.5
    assert isinstance(rows[1][0], int)
    assert all(isinstance(score, int) for score in rows[1][12:])
    rows, _sheet = xlsx_cells(xlsx.session_file(three, session_csv.csv_rows(three), []).read())
    totals = rows[-2]
    assert totals[0] == "Total"
    assert totals[12:] == three.totals


def test_the_workbooks_header_totals_title_and_widths(make_backup):
    _five, six, _three = sessions(make_backup)
    names = list(six.seats.values_list("name", flat=True))
    book = load_workbook(
        io.BytesIO(xlsx.session_file(six, session_csv.csv_rows(six), names).read())
    )
    sheet = book.worksheets[0]
    # Excel's rules for a sheet's name: 31 characters at most, none of []:*?/\.
    assert sheet.title == "Chez =Zoé- -tarot----- à six, u"
    assert len(sheet.title) == 31
    assert book.properties.title == six.name
    assert sheet.freeze_panes == "A2"
    assert all(cell.font.bold for cell in sheet[1] if cell.value is not None)
    last = sheet.max_row
    assert sheet.cell(last, 1).value == "Rules"
    assert sheet.cell(last, 2).value == "Differences rounded to 5; Misère 10; Dealer sits out"
    assert not sheet.cell(last, 1).font.bold
    totals = [cell for cell in sheet[last - 1] if cell.value is not None]
    assert totals[0].value == "Total"
    assert all(cell.font.bold for cell in totals)
    assert not any(cell.font.bold for cell in sheet[2] if cell.value is not None)
    # Hand, dealer (the names' width: "@SUM(A1:A9)" and two more), contract.
    assert sheet.column_dimensions["A"].width == pytest.approx(6, abs=1)
    assert sheet.column_dimensions["B"].width == pytest.approx(13, abs=1)
    assert sheet.column_dimensions["E"].width == pytest.approx(13, abs=1)


def test_a_name_with_quotes_and_markup_is_the_workbooks_title(make_backup):
    five, _six, _three = sessions(make_backup)
    five.name = 'Le "grand" soir <chez> Zoé & Léa'
    names = list(five.seats.values_list("name", flat=True))
    book = load_workbook(
        io.BytesIO(xlsx.session_file(five, session_csv.csv_rows(five), names).read())
    )
    assert book.worksheets[0].title == 'Le "grand" soir <chez> Zoé & Lé'  # 31 characters
    assert book.properties.title == 'Le "grand" soir <chez> Zoé & Léa'


@pytest.mark.parametrize(
    ("name", "title"),
    [
        ("Vendredi", "Vendredi"),
        ("a/b\\c:d*e?f[g]h", "a-b-c-d-e-f-g-h"),
        ("'Quoted'", "Quoted"),
        ("History", "History (1)"),
        ("///", "---"),
        ("   ", "Tarot"),
        ("x" * 40, "x" * 31),
    ],
)
def test_sheet_titles_excel_accepts(name, title):
    assert xlsx.sheet_title(name) == title


def test_the_session_xlsx_views(client, make_backup):
    sheet = backup.load(json.dumps(make_backup(4)))
    for url in (
        reverse("export_xlsx", args=[sheet.token]),
        reverse("view_export_xlsx", args=[sheet.view_token]),
    ):
        response = client.get(url)
        assert response.status_code == 200
        assert response["Content-Type"] == xlsx.CONTENT_TYPE
        assert response["Content-Disposition"].startswith(
            'attachment; filename="Vendredi 2026-07-14.xlsx"; filename*=UTF-8'
        )
        data = b"".join(response.streaming_content)
        rows, _sheet = xlsx_cells(data)
        assert rows[0][:2] == ["Hand", "Dealer"]
    assert client.get(f"/v/{sheet.token}/export.xlsx").status_code == 404
    assert client.get(f"/s/{sheet.view_token}/export.xlsx").status_code == 404


def test_the_workbook_follows_the_requests_language(client, make_backup):
    sheet = backup.load(json.dumps(make_backup(4)))
    response = client.get(reverse("export_xlsx", args=[sheet.token]), HTTP_ACCEPT_LANGUAGE="fr")
    rows, _sheet = xlsx_cells(b"".join(response.streaming_content))
    assert rows[0][:3] == ["Donne", "Donneur", "Preneur"]


def test_the_club_standings_workbook_is_its_csv(client):
    club = club_writes.create_club("Le jeudi", Rules()).club
    for names in (["Ana", "=Ben", "Chloé"], ["Ana", "=Ben", "Dan"]):
        sheet = writes.create_sheet(
            "Jeudi", names, 0, hands=[(None, Hand(3, 0, "garde", 2, "44.5"))]
        )
        club_writes.attach(club, sheet, names)
    for url in (
        reverse("standings_xlsx", args=[club.token]),
        reverse("view_standings_xlsx", args=[club.view_token]),
    ):
        response = client.get(url + "?period=all")
        assert response.status_code == 200
        assert response["Content-Type"] == xlsx.CONTENT_TYPE
        rows, sheet = xlsx_cells(b"".join(response.streaming_content))
        text = "".join(club_csv.csv_lines(clubs.standings(club)))
        expected = csv_cells(text)
        assert len(rows) == len(expected)
        for ours, theirs in zip(rows, expected, strict=True):
            padded = ours + [None] * (len(theirs) - len(ours))
            assert all(same_cell(a, b) for a, b in zip(padded, theirs, strict=True)), (
                ours,
                theirs,
            )
        assert "=Ben" in [row[0] for row in rows]
        assert sheet.title == "Le jeudi"
        assert sheet.freeze_panes == "A2"
