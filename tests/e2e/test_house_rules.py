"""House rules through the browser at phone size (docs/rules.md §6): a 6-seat session and a 5-seat
session with the dealer sitting out, each with house rules, and a change of rules mid-session
that re-scores the sheet in one step."""

import pytest
from playwright.sync_api import expect

from scoresheet import scoring
from scoresheet.models import Sheet
from tests.e2e.sheet_page import SheetPage, signed

pytestmark = pytest.mark.django_db(transaction=True)

SIX = ["Ana", "Ben", "Chloé", "Dan", "Élise", "Fanny"]


def page_fits_the_screen(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def test_six_seats_with_house_rules_at_360_px(open_page):
    sheet_page = SheetPage(open_page("Pixel 7", viewport={"width": 360, "height": 780}))
    page = sheet_page.page
    path = sheet_page.create_session(
        SIX, first_dealer=5, rules={"Poignées": "20, 40, 60", "Rounding": "to 10"}
    )
    rules = scoring.Rules(poignees="20-40-60", rounding=10, dealer_sits_out=True)
    expect(page.locator(".rules-line")).to_contain_text(
        "Poignées 20/40/60 · Differences rounded to 10 · Dealer sits out"
    )
    expect(page.locator(".dealer-line")).to_have_text("Hand 1: Fanny deals and sits out")

    # Hand 1, H5's hand under rounding 10: prise, 1 bout, 55 (made by 4 → 0), partner Chloé.
    sheet_page.open_new_hand()
    form = sheet_page.form
    expect(page.locator("#entry-title")).to_contain_text("Fanny deals and sits out")
    taker = form.get_by_role("group", name="Taker", exact=True)
    expect(taker.get_by_role("radio")).to_have_count(5)
    expect(taker.get_by_role("radio", name="Fanny")).to_have_count(0)
    first = scoring.Hand(6, 0, "prise", 1, 55, partner=2, dealer=5)
    sheet_page.fill_hand(first, SIX, rules=rules)
    sheet_page.save()
    # (25 + 4 → 0) × 1 = 25 per defender: the taker 2u, the partner u, Fanny 0.
    sheet_page.expect_row(1, [50, -25, 25, -25, -25, 0])
    expect(sheet_page.row(1)).to_contain_text("Fanny deals and sits out")

    # Hand 2: Ana deals and sits out; Ben takes a garde with Dan, 51 with 2 bouts (made by
    # 10), and shows a triple poignée (13 trumps when 5 play): (25 + 10) × 2 + 60 = 130.
    sheet_page.open_new_hand()
    second = scoring.Hand(6, 1, "garde", 2, 51, partner=3, poignees={1: "triple"}, dealer=0)
    sheet_page.fill_hand(second, SIX, rules=rules)
    expect(page.locator("#preview .preview-scores .score")).to_have_text(
        ["sits out", "+260", "−130", "+130", "−130", "−130"]
    )
    sheet_page.save()
    sheet_page.expect_row(2, [0, 260, -130, 130, -130, -130])
    sheet_page.expect_totals(SIX, [50, 235, -105, 105, -155, -130])
    assert page_fits_the_screen(page)

    # The statistics and the chart hold the 6 seats at 360 px too.
    page.goto(path + "stats/")
    expect(page.locator("svg.running-totals .player")).to_have_count(6)
    assert page_fits_the_screen(page)


def test_five_seats_dealer_out_with_misere_then_the_rules_change(open_page):
    sheet_page = SheetPage(open_page("iPhone 13"))
    page = sheet_page.page
    sheet_page.create_session(
        SIX[:5],
        first_dealer=4,
        rules={"Misère": "10", "The dealer sits out each hand": "on"},
    )
    rules = scoring.Rules(misere=10, dealer_sits_out=True)
    names = SIX[:5]

    # docs/rules.md H6 (M1): prise, 1 bout, 60; misère by Chloé: +92, −44, −4, −44, 0.
    sheet_page.open_new_hand()
    form = sheet_page.form
    # 4 play: no partner to call.
    expect(form.get_by_role("group", name="Partner", exact=True)).to_have_count(0)
    hand = scoring.Hand(5, 0, "prise", 1, 60, miseres={2: 1}, dealer=4)
    sheet_page.fill_hand(hand, names, rules=rules)
    sheet_page.save()
    sheet_page.expect_row(1, [92, -44, -4, -44, 0])
    expect(sheet_page.row(1)).to_contain_text("misère · Chloé")

    # Mid-session, the table plays misère 20: the page shows the new totals, then one
    # confirmation re-scores the sheet. Chloé now gets 20 from each of the 3 others.
    sheet_page.tap(page.get_by_role("link", name="change"))
    sheet_page.choose("Misère", "20")
    sheet_page.tap(page.get_by_role("button", name="Show the new totals"))
    preview = page.locator(".preview-scores .score")
    expect(preview).to_have_text([signed(v) for v in (82, -54, 26, -54, 0)])
    sheet = Sheet.objects.get()
    assert sheet.totals == [92, -44, -4, -44, 0]
    sheet_page.tap(page.get_by_role("button", name="Re-score every hand under these rules"))
    page.wait_for_url("**/s/*/")
    expect(page.locator(".messages")).to_contain_text("every hand was re-scored")
    sheet_page.expect_row(1, [82, -54, 26, -54, 0])
    sheet_page.expect_totals(names, [82, -54, 26, -54, 0])
    expect(page.locator(".rules-line")).to_contain_text("Misère 20 · Dealer sits out")
    sheet.refresh_from_db()
    assert sheet.game_rules == scoring.Rules(misere=20, dealer_sits_out=True)
