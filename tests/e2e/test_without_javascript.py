"""The main flow with JavaScript off: plain forms and links, each action a page and a redirect."""

from dataclasses import replace
from decimal import Decimal

import pytest
from playwright.sync_api import expect

from scoresheet import scoring
from scoresheet.models import Sheet
from tests.e2e.sheet_page import SheetPage

pytestmark = pytest.mark.django_db(transaction=True)

NAMES = ["Ana", "Ben", "Chloé", "Dan", "Élise"]


def test_main_flow_without_javascript(open_page):
    sheet_page = SheetPage(open_page(java_script_enabled=False))
    page = sheet_page.page
    sheet_path = sheet_page.create_session(NAMES, first_dealer=0)
    sheet = Sheet.objects.get()

    # A hand: its own page; "Preview" (shown only without JavaScript) shows the row first.
    sheet_page.tap(page.get_by_role("link", name="New hand"))
    page.wait_for_url("**/hands/new/")
    # The controls that need JavaScript are hidden; the "Preview" button replaces the live one.
    expect(page.get_by_role("button", name="Half a point more")).to_be_hidden()
    expect(page.get_by_role("button", name="Preview")).to_be_visible()
    hand = scoring.Hand(
        seats=5, taker=1, contract="garde", partner=4, bouts=2, points=Decimal("50.5"),
        petit_au_bout="defence", poignees={0: "simple", 1: "simple"},
    )  # fmt: skip
    sheet_page.fill_hand(hand, NAMES)
    sheet_page.tap(page.get_by_role("button", name="Preview"))
    page.wait_for_load_state()
    sheet_page.expect_preview(hand, NAMES)
    assert sheet.hands.count() == 0
    # The preview page keeps what was entered (and the fold open); saving redirects.
    sheet_page.tap(page.get_by_role("button", name="Save the hand"))
    page.wait_for_url("**" + sheet_path)
    expect(page.locator(".messages")).to_contain_text("Hand 1 saved.")
    sheet_page.expect_row(1, scoring.score(hand))
    sheet_page.expect_totals(NAMES, scoring.score(hand))

    # A passed deal.
    sheet_page.tap(page.get_by_role("link", name="New hand"))
    sheet_page.tap(page.get_by_role("button", name="Everyone passed"))
    page.wait_for_url("**" + sheet_path)
    expect(sheet_page.row(2)).to_contain_text("Everyone passed")
    expect(page.locator("#totals .dealer-line")).to_have_text("Hand 3: Chloé deals")

    # Correct hand 1: the row opens (a <details>), Edit is a link to the form's page.
    sheet_page.tap(sheet_page.open_row(1).get_by_role("link", name="Edit"))
    page.wait_for_url("**/hands/1/edit/")
    sheet_page.choose("Partner", "alone", sheet_page.form)
    corrected = replace(hand, partner=None)
    sheet_page.tap(page.get_by_role("button", name="Save the correction"))
    page.wait_for_url("**" + sheet_path)
    sheet_page.expect_row(1, scoring.score(corrected))
    # Dealt by the first dealer, seat 0.
    assert sheet.hands.first().to_scoring(5) == replace(corrected, dealer=0)

    # Delete hand 2 after its confirmation page.
    sheet_page.tap(sheet_page.open_row(2).get_by_role("link", name="Delete"))
    page.wait_for_url("**/hands/2/delete/")
    sheet_page.tap(page.get_by_role("button", name="Delete"))
    page.wait_for_url("**" + sheet_path)
    expect(page.locator("#hands .hand")).to_have_count(1)

    # Undo the last hand: the sheet is empty again.
    sheet_page.tap(page.get_by_role("button", name="Undo hand 1"))
    page.wait_for_url("**" + sheet_path)
    expect(page.locator("#hands .hand")).to_have_count(0)
    expect(page.locator(".messages")).to_contain_text("Hand 1 undone.")
    assert sheet.hands.count() == 0

    # The exports are plain links.
    with page.expect_download() as download:
        sheet_page.tap(page.get_by_role("link", name="Export CSV"))
    assert download.value.suggested_filename.endswith(".csv")
