"""The chart as a phone draws it: with five-digit totals, no label is cut off."""

import pytest
from playwright.sync_api import expect

from scoresheet import scoring
from scoresheet.sheets import writes
from tests.e2e.conftest import TABLE_PHONES
from tests.e2e.sheet_page import SheetPage

pytestmark = pytest.mark.django_db(transaction=True)

NAMES = ["Anne-Sophie", "Jean-Baptiste", "Marie-Christine", "Maximilien", "Bérénice"]


@pytest.mark.parametrize("profile", TABLE_PHONES)
def test_the_score_ticks_of_five_digit_totals_are_whole(open_page, profile):
    # Garde contre, 3 bouts, 81 points, the taker alone: made by 45, (25 + 45) × 6 = 420 per
    # defender and 4 × 420 = 1680 to the taker (docs/rules.md E12). Anne-Sophie takes 8,
    # Jean-Baptiste 2:
    # 8 × 1680 − 2 × 420 = +12,600 for her.
    hands = [(None, scoring.Hand(5, 0, "garde_contre", 3, 81)) for _ in range(8)]
    hands += [(None, scoring.Hand(5, 1, "garde_contre", 3, 81)) for _ in range(2)]
    sheet = writes.create_sheet("Tournoi", NAMES, 0, hands=hands)
    sheet_page = SheetPage(open_page(profile))
    page = sheet_page.page
    page.goto(sheet.get_absolute_url())
    sheet_page.tap(page.locator("details.chart > summary"))
    svg = page.locator("#chart svg")
    expect(svg).to_be_visible()
    ticks = svg.locator(".axes text")
    labels = ticks.all_text_contents()
    assert "+10000" in labels
    assert "0" in labels
    # Every tick label is drawn inside the SVG: none starts left of its edge.
    lefts = ticks.evaluate_all("texts => texts.map(t => t.getBBox().x)")
    assert min(lefts) >= 0, list(zip(labels, lefts, strict=True))
