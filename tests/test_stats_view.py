"""The statistics page and the chart on the sheet, through Django's test client."""

import re
import uuid

import pytest
from django.urls import reverse

from scoresheet import scoring
from tests.reading import store

pytestmark = pytest.mark.django_db

NAMES = ("Ana", "Ben", "Chloé", "Dan", "Élise")
# One scored hand per table size, then a passed deal. Seat 0 takes a garde, 2 bouts, 49:
# (25 + 8)×2 = 66 per defender.
GARDE = {"contract": "garde", "bouts": 2, "points": 49}


def play(sheet, players, *hands):
    """Store hands (dicts of scoring.Hand fields, or None for a passed deal) in play order."""
    for fields in hands:
        if fields is None:
            store(sheet, None)
        else:
            hand = scoring.Hand(seats=players, **fields)
            store(sheet, hand)


def text(response):
    return response.content.decode()


def polylines(html):
    """The points of each line of the chart, as lists of "x,y"."""
    return [found.split() for found in re.findall(r'<polyline points="([^"]*)"', html)]


@pytest.mark.parametrize("players", [3, 4, 5])
def test_statistics_page(client, make_sheet, players):
    sheet = make_sheet(NAMES[:players])
    play(sheet, players, {"taker": 0, **GARDE}, None)
    response = client.get(reverse("statistics", args=[sheet.token]))
    assert response.status_code == 200
    assert "scoresheet/stats.html" in [t.name for t in response.templates]
    page = text(response)
    for name in NAMES[:players]:
        assert name in page
    assert page.count("<svg") == 1
    lines = polylines(page)
    assert len(lines) == players
    assert all(len(points) == 3 for points in lines)  # The start, hand 1, the passed deal.
    assert "Hand 1: Ana" in page
    assert "66 per defender" in page
    assert page.count('class="player-card"') == players
    assert ("Called as partner" in page) == (players == 5)
    assert reverse("sheet", args=[sheet.token]) in page


def test_statistics_of_a_session_with_no_hand(client, sheet4):
    response = client.get(reverse("statistics", args=[sheet4.token]))
    assert response.status_code == 200
    assert "No hand played yet" in text(response)


def test_statistics_with_htmx_is_the_same_page(htmx, sheet4):
    response = htmx.get(reverse("statistics", args=[sheet4.token]))
    assert response.status_code == 200
    assert "<html" in text(response)


def test_statistics_of_an_unknown_session(client):
    assert client.get(reverse("statistics", args=["nope"])).status_code == 404


def test_statistics_is_read_only(client, sheet4):
    assert client.post(reverse("statistics", args=[sheet4.token])).status_code == 405


def test_names_are_escaped_on_the_statistics_page(client, make_sheet):
    sheet = make_sheet(("<script>alert(1)</script>", 'A&B "q"', "Chloé"))
    play(sheet, 3, {"taker": 0, **GARDE})
    page = text(client.get(reverse("statistics", args=[sheet.token])))
    assert "<script>alert(1)" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert 'A&B "q"' not in page
    assert "A&amp;B" in page


def test_the_sheet_shows_the_chart_folded(client, sheet5):
    play(sheet5, 5, {"taker": 1, "partner": 3, **GARDE})
    page = text(client.get(reverse("sheet", args=[sheet5.token])))
    chart_url = reverse("chart", args=[sheet5.token])
    assert re.search(
        rf'<details class="chart" data-refresh="{chart_url}">\s*<summary>Chart</summary>', page
    )
    assert 'id="chart"' in page
    lines = polylines(page)
    assert len(lines) == 5
    assert all(len(points) == 2 for points in lines)
    assert f'href="{reverse("statistics", args=[sheet5.token])}"' in page


def test_after_saving_a_hand_the_chart_is_fetched_alone(htmx, sheet4):
    data = {"key": str(uuid.uuid4()), "taker": "0", **{k: str(v) for k, v in GARDE.items()}}
    saved = text(htmx.post(reverse("hand_new", args=[sheet4.token]), data))
    # Saving stays small: the chart is not in the response; the page fetches it while open.
    assert polylines(saved) == []
    page = text(htmx.get(reverse("chart", args=[sheet4.token])))
    assert re.search(r'<div id="chart"[^>]*hx-swap-oob="true"', page)
    # Only the inner block is swapped, so the <details> keeps its open or closed state.
    assert '<details class="chart"' not in page
    lines = polylines(page)
    assert len(lines) == 4
    assert all(len(points) == 2 for points in lines)


def test_the_read_only_chart(client, sheet4):
    response = client.get(reverse("view_chart", args=[sheet4.view_token]))
    assert response.status_code == 200
    assert client.get(reverse("chart", args=[sheet4.view_token])).status_code == 404


def test_saving_a_hand_without_javascript_shows_the_new_chart(client, sheet4):
    data = {"key": str(uuid.uuid4()), "taker": "0", **{k: str(v) for k, v in GARDE.items()}}
    response = client.post(reverse("hand_new", args=[sheet4.token]), data, follow=True)
    lines = polylines(text(response))
    assert len(lines) == 4
    assert all(len(points) == 2 for points in lines)


def test_names_are_escaped_in_the_sheets_chart(client, make_sheet):
    sheet = make_sheet(("<script>alert(1)</script>", "Ben", "Chloé"))
    page = text(client.get(reverse("sheet", args=[sheet.token])))
    assert "<svg" in page
    assert "<script>alert(1)" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page


# The read-only link (it shows the chart and statistics too).


def test_read_only_statistics(client, sheet4):
    play(sheet4, 4, {"taker": 2, **GARDE})
    response = client.get(reverse("view_statistics", args=[sheet4.view_token]))
    assert response.status_code == 200
    page = text(response)
    assert "<svg" in page
    assert sheet4.token not in page
    assert reverse("view_sheet", args=[sheet4.view_token]) in page


def test_read_only_statistics_needs_the_read_only_token(client, sheet4):
    assert client.get(reverse("view_statistics", args=[sheet4.token])).status_code == 404


def test_read_only_sheet_links_to_read_only_statistics(client, sheet4):
    page = text(client.get(reverse("view_sheet", args=[sheet4.view_token])))
    assert "<svg" in page
    assert reverse("view_statistics", args=[sheet4.view_token]) in page
    assert reverse("statistics", args=[sheet4.token]) not in page
