"""What only a phone's screen shows: the totals stay in view, and nothing scrolls sideways."""

import json

import pytest
from playwright.sync_api import Page, expect

from scoresheet import backup
from tests.conftest import BACKUPS
from tests.e2e.conftest import TABLE_PHONES
from tests.e2e.sheet_page import SheetPage

pytestmark = pytest.mark.django_db(transaction=True)

# Long names, as a club's sheet has them: the widest case of a 5-player table.
LONG_NAMES = ["Anne-Sophie", "Jean-Baptiste", "Maximilien", "Bérénice", "Marie-Christine"]


@pytest.fixture
def long_session():
    """A 5-player session of 40 hands (every kind of hand), restored from a backup."""
    data = BACKUPS[5] | {"players": LONG_NAMES, "name": "Tournoi du club, table 12"}
    data["hands"] = (BACKUPS[5]["hands"] * 8)[:40]
    return backup.load(json.dumps(data))


def scrolls_sideways(page: Page) -> bool:
    return page.evaluate(
        "document.documentElement.scrollWidth > document.documentElement.clientWidth"
    )


@pytest.mark.parametrize("profile", TABLE_PHONES)
def test_totals_stay_on_screen_at_the_bottom_of_a_long_session(open_page, long_session, profile):
    page = open_page(profile)
    page.goto(long_session.get_absolute_url())
    expect(page.locator("#hand-40")).to_be_attached()
    page.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
    page.wait_for_function(
        "window.scrollY + window.innerHeight >= document.documentElement.scrollHeight - 1"
    )
    height = page.viewport_size["height"]
    assert page.evaluate("window.scrollY") > 2 * height  # far down: the totals' own place is gone
    last = page.locator("#hand-40").bounding_box()
    assert last["y"] < height  # the last row is on screen...
    totals = page.locator("#totals").bounding_box()
    assert totals["y"] >= 0  # ...and so are the totals, whole
    assert totals["y"] + totals["height"] <= height
    assert totals["height"] < height / 3  # and leave room for the rows
    expect(page.locator("#totals .total .name")).to_have_text(LONG_NAMES)
    for seat in range(5):
        expect(page.locator("#totals .total").nth(seat)).to_be_in_viewport()
    expect(page.get_by_role("link", name="New hand")).to_be_in_viewport()


@pytest.mark.parametrize("profile", TABLE_PHONES)
def test_no_page_scrolls_sideways_at_phone_width(open_page, long_session, profile):
    sheet_page = SheetPage(open_page(profile))
    page = sheet_page.page
    token, view_token = long_session.token, long_session.view_token
    checked = []

    def check(what):
        page.wait_for_load_state()
        assert not scrolls_sideways(page), what
        checked.append(what)

    page.goto("/new/")
    sheet_page.choose("Number of players", "5")
    check("new session, 5 players")
    page.goto(f"/s/{token}/")
    sheet_page.tap(page.locator("details.chart > summary"))
    expect(page.locator("#chart svg")).to_be_visible()
    # The latest 20 hands are on the page: the first of them, and the last.
    sheet_page.open_row(21)
    sheet_page.open_row(40)
    sheet_page.tap(page.locator("details.share > summary"))
    check("sheet, chart, rows and share open")
    sheet_page.open_new_hand()
    sheet_page.choose("Taker", "Marie-Christine", sheet_page.form)
    sheet_page.choose("Contract", "Garde contre", sheet_page.form)
    sheet_page.choose("Partner", "Jean-Baptiste", sheet_page.form)
    sheet_page.choose("Bouts", "3", sheet_page.form)
    sheet_page.type_into(sheet_page.form.get_by_label("Points", exact=True), "88.5")
    sheet_page.tap(page.locator("details.announcements > summary"))
    sheet_page.choose("Marie-Christine", "triple (13 trumps)", sheet_page.form)
    expect(page.locator("#preview .preview-scores .score")).to_have_count(5)
    check("hand form on the sheet, announcements open, preview")
    page.goto(f"/s/{token}/hands/new/")
    sheet_page.tap(page.locator("details.announcements > summary"))
    check("hand form page")
    page.goto(f"/s/{token}/hands/3/edit/")
    check("correction page")
    page.goto(f"/s/{token}/hands/3/delete/")
    check("delete page")
    page.goto(f"/s/{token}/stats/")
    check("statistics")
    page.goto(f"/s/{token}/share/")
    check("share")
    page.goto(f"/v/{view_token}/")
    sheet_page.tap(page.locator("details.chart > summary"))
    sheet_page.open_row(22)
    check("read-only sheet")
    page.goto(f"/v/{view_token}/stats/")
    check("read-only statistics")
    page.goto("/")
    expect(page.locator(".session-card")).to_have_count(1)
    check("home, with the sessions")
    assert len(checked) == 11
