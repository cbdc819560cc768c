"""The sheet page shows the latest hands and pages back through the earlier ones: a page never
grows with the session, and every hand can be reached."""

import re

import pytest
from django.urls import reverse

from scoresheet import scoring
from scoresheet.sheets.views import LATEST, PAGE
from tests.reading import hand_numbered, store

pytestmark = pytest.mark.django_db

COUNT = LATEST + PAGE + 30  # the latest page, a full earlier page, and 30 more before it


@pytest.fixture
def long_sheet(make_sheet):
    sheet = make_sheet()
    store(sheet, *[scoring.Hand(4, n % 4, "prise", 1, 51 + n % 5) for n in range(COUNT)])
    sheet.refresh_from_db()
    return sheet


def numbers(page: str) -> list[int]:
    return [int(n) for n in re.findall(r'id="hand-(\d+)"', page)]


def test_the_sheet_shows_the_latest_hands_and_links_to_the_earlier_ones(client, long_sheet):
    page = client.get(long_sheet.get_absolute_url()).content.decode()
    assert numbers(page) == list(range(COUNT - LATEST + 1, COUNT + 1))
    earlier = COUNT - LATEST
    assert f"Earlier hands ({earlier} more)" in page
    assert f'href="{long_sheet.get_absolute_url()}?before={earlier + 1}"' in page
    assert "Later hands" not in page


def test_earlier_pages_reach_the_first_hand_and_lead_back(client, long_sheet):
    url = long_sheet.get_absolute_url()
    before = COUNT - LATEST + 1
    page = client.get(f"{url}?before={before}").content.decode()
    assert numbers(page) == list(range(before - PAGE, before))
    assert "Earlier hands (30 more)" in page
    assert f"Later hands ({LATEST} more)" in page
    first = client.get(f"{url}?before=31").content.decode()
    assert numbers(first) == list(range(1, 31))
    assert "Earlier hands" not in first
    # From the first page, "Later hands" goes on to the next page.
    assert f'href="{url}?before={31 + PAGE}"' in first
    # The totals on every page are the whole session's.
    assert re.search(r'id="totals"', first)


@pytest.mark.parametrize(
    "before",
    [
        "",
        "0",
        "1",
        "-5",
        "abc",
        "99999999999999999999",
        "9" * 5000,
        "²",
        "٣١",
        "%2B31",
        "%2031",
        "3_1",
    ],
)
def test_a_page_number_that_is_no_page_shows_the_latest(client, long_sheet, before):
    response = client.get(f"{long_sheet.get_absolute_url()}?before={before}")
    assert response.status_code == 200
    assert numbers(response.content.decode())[-1] == COUNT


def test_a_correction_of_a_hand_on_an_earlier_page_answers_without_its_row(client, long_sheet):
    hand = hand_numbered(long_sheet, 5)
    data = {
        "key": str(hand.key),
        "version": "1",
        "taker": "2",
        "contract": "garde",
        "bouts": "2",
        "points": "49",
    }
    response = client.post(
        reverse("hand_edit", args=[long_sheet.token, 5]), data, HTTP_HX_REQUEST="true"
    )
    assert response.status_code == 200
    assert "Hand 5 corrected." in response.content.decode()
    assert 'id="hand-5"' not in response.content.decode()
