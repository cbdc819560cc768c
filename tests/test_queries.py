"""Every page and every write reads and writes what it shows or changes: the same number of
queries on a short sheet and on a long one (more than the hundred rows a page shows)."""

import uuid

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from scoresheet import scoring
from scoresheet.files import session_backup as backup
from scoresheet.models import Hand
from scoresheet.sheets import writes
from tests.reading import hand_numbered, numbered, store

pytestmark = pytest.mark.django_db

SHORT, LONG = 5, 150
HANDS = [
    scoring.Hand(5, 0, "garde", 2, 49, partner=2, petit_au_bout="attack"),
    None,
    scoring.Hand(5, 3, "prise", 1, "40.5", poignees={1: "simple"}),
    scoring.Hand(5, 4, "garde_sans", 3, 70, partner=0, chelem="unannounced_made"),
    scoring.Hand(5, 1, "garde_contre", 0, 30, partner=4),
]


def sheet_of(make_sheet, hands: int, name: str):
    sheet = make_sheet(("Ana", "Ben", "Chloé", "Dan", "Élise"), name=name)
    store(sheet, *(HANDS * (hands // len(HANDS) + 1))[:hands])
    sheet.refresh_from_db()
    return sheet


def queries(client, method, path, data=None, **headers) -> int:
    with CaptureQueriesContext(connection) as captured:
        response = getattr(client, method)(path, data or {}, **headers)
        if hasattr(response, "streaming_content"):
            b"".join(response.streaming_content)
    assert response.status_code in (200, 302), (path, response.status_code)
    return len(captured)


def hand_post(**extra):
    return {
        "key": str(uuid.uuid4()),
        "taker": "1",
        "contract": "garde",
        "bouts": "2",
        "points": "49",
        "partner": "alone",
        **extra,
    }


READS = [
    ("sheet", "get", lambda s: reverse("sheet", args=[s.token]), None),
    ("read-only sheet", "get", lambda s: s.get_view_url(), None),
    ("earlier hands", "get", lambda s: reverse("sheet", args=[s.token]) + "?before=3", None),
    ("chart", "get", lambda s: reverse("chart", args=[s.token]), None),
    ("statistics", "get", lambda s: reverse("statistics", args=[s.token]), None),
    ("CSV", "get", lambda s: reverse("export_csv", args=[s.token]), None),
    ("backup", "get", lambda s: reverse("export_json", args=[s.token]), None),
    ("new hand form", "get", lambda s: reverse("hand_new", args=[s.token]), None),
    ("edit form", "get", lambda s: reverse("hand_edit", args=[s.token, 3]), None),
    ("delete page", "get", lambda s: reverse("hand_delete", args=[s.token, 3]), None),
    ("rules page", "get", lambda s: reverse("rules", args=[s.token]), None),
    ("players page", "get", lambda s: reverse("players", args=[s.token]), None),
    ("preview", "post", lambda s: reverse("hand_preview", args=[s.token]), hand_post),
]


@pytest.mark.parametrize(("page", "method", "path", "data"), READS, ids=[r[0] for r in READS])
def test_reads_cost_the_same_at_two_sizes(client, make_sheet, page, method, path, data):
    counts = []
    for size in (SHORT, LONG):
        sheet = sheet_of(make_sheet, size, f"{page} {size}")
        counts.append(queries(client, method, path(sheet), data() if data else None))
    assert counts[0] == counts[1], counts
    assert counts[0] <= 6


def last_key(sheet):
    return str(numbered(sheet).last().key)


def third(sheet):
    return hand_numbered(sheet, 3)


def rename_post(sheet):
    # Every name changes, the session's too; seats 0 and 1 swap names.
    players = ("Ben", "Ana", "Chloë", "Dana", "Élise-Marie")
    return {"name": f"{sheet.name} bis"} | {f"player_{n}": p for n, p in enumerate(players)}


WRITES = [
    ("rename", lambda s: (reverse("players", args=[s.token]), rename_post(s))),
    ("save", lambda s: (reverse("hand_new", args=[s.token]), hand_post())),
    ("pass", lambda s: (reverse("hand_new", args=[s.token]), {"passed": "1", **hand_post()})),
    (
        "correct the last hand",
        lambda s: (
            reverse("hand_edit", args=[s.token, s.hand_count]),
            hand_post(key=last_key(s), version="1"),
        ),
    ),
    (
        "delete a hand",
        lambda s: (reverse("hand_delete", args=[s.token, 3]), {"key": str(third(s).key)}),
    ),
    ("undo", lambda s: (reverse("undo", args=[s.token]), {"key": last_key(s)})),
    (
        "change the rules",
        lambda s: (
            reverse("rules", args=[s.token]),
            {"rounding": "10", "confirm": "1", "revision": str(s.revision)},
        ),
    ),
]


@pytest.mark.parametrize(("write", "request_of"), WRITES, ids=[w[0] for w in WRITES])
@pytest.mark.parametrize("htmx", [False, True], ids=["plain", "htmx"])
def test_writes_cost_the_same_at_two_sizes(client, make_sheet, write, request_of, htmx):
    headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
    counts = []
    for size in (SHORT, LONG):
        sheet = sheet_of(make_sheet, size, f"{write} {size}")
        path, data = request_of(sheet)
        counts.append(queries(client, "post", path, data, **headers))
        sheet.refresh_from_db()
        assert sheet.revision == size + 1
    assert counts[0] == counts[1], counts


def test_saving_a_hand_takes_eight_queries(client, make_sheet, django_assert_num_queries):
    """The sheet and its seats; then BEGIN, the lock, the form's key spent, the insert, the
    sheet's derived data, COMMIT: whatever the sheet's length."""
    sheet = sheet_of(make_sheet, LONG, "long")
    with django_assert_num_queries(8):
        client.post(reverse("hand_new", args=[sheet.token]), hand_post(), HTTP_HX_REQUEST="true")


def test_the_home_page_reads_no_hand(client, make_sheet):
    counts, listed = [], 0
    for more in (2, 6):
        listed += more
        for number in range(more):
            sheet = sheet_of(make_sheet, LONG if number % 2 else SHORT, f"home {number}")
            client.get(sheet.get_absolute_url())
        with CaptureQueriesContext(connection) as captured:
            page = client.get(reverse("home")).content.decode()
        assert page.count('class="session-card"') == listed
        assert not any("scoresheet_hand" in query["sql"] for query in captured)
        counts.append(len(captured))
    assert counts[0] == counts[1]


def test_a_change_of_rules_writes_every_row_in_one_transaction(make_sheet):
    sheet = sheet_of(make_sheet, SHORT, "rules")
    writes.change_rules(sheet.token, scoring.Rules(rounding=10))
    sheet.refresh_from_db()
    # garde, 2 bouts, 49, petit au bout to the attack, with a partner: made by 8 → 10,
    # (25 + 10) × 2 + 10 × 2 = 90 per defender.
    assert hand_numbered(sheet, 1).scores == [180, -90, 90, -90, -90]


def backup_of(hands: int) -> str:
    """A session's backup of ``hands`` hands, as the app writes it."""
    sheet = writes.create_sheet(
        f"Backup {hands}",
        ["Ana", "Ben", "Chloé", "Dan", "Élise"],
        0,
        hands=[(None, hand) for hand in (HANDS * (hands // len(HANDS) + 1))[:hands]],
    )
    return backup.dumps(backup.dump(sheet))


def test_an_import_costs_the_same_at_two_sizes(client):
    """Read and checked outside any transaction, then the sheet, its seats and its hands in a
    few bulk statements: the same queries for 5 hands as for 150."""
    counts = []
    for size in (SHORT, LONG):
        upload = SimpleUploadedFile("backup.json", backup_of(size).encode())
        with CaptureQueriesContext(connection) as captured:
            response = client.post(reverse("import_backup"), {"backup": upload})
        assert response.status_code == 302
        counts.append(len(captured))
    assert counts[0] == counts[1], counts


def test_a_rescore_costs_the_same_at_two_sizes(make_sheet):
    """Every stored row out of date, written again in one statement whatever their number."""
    counts = []
    for size in (SHORT, LONG):
        sheet = sheet_of(make_sheet, size, f"rescore {size}")
        Hand.objects.filter(sheet=sheet).update(scores=[1, 1, 1, 1, -4])
        with CaptureQueriesContext(connection) as captured:
            assert writes.rescore(sheet)
        counts.append(len(captured))
    assert counts[0] == counts[1], counts
