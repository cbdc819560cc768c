"""The running-totals switch: under each row, each player's total after that hand, as
on a paper sheet; at once with JavaScript, by a link without it; remembered on this phone; on
the read-only link too; in English and in French."""

import pytest
from playwright.sync_api import expect

from scoresheet import scoring
from scoresheet.sheets import writes
from tests.e2e.sheet_page import SheetPage
from tests.reading import store

pytestmark = pytest.mark.django_db(transaction=True)

NAMES = ["Ana", "Ben", "Chloé", "Dan"]
# docs/rules.md F1–F2, the sample sheet's first two hands: rows −106 −106 +318 −106 and
# −76 −76 −76 +228, so the totals after hand 2 are −182 −182 +242 +122.
SAMPLE = [
    scoring.Hand(4, 2, "garde", 2, 49, None, "attack", {2: "simple"}),
    scoring.Hand(4, 3, "garde_sans", 1, 55, None, "defence"),
]
AFTER_2 = ["−182", "−182", "+242", "+122"]
SWITCH = {"en": "Running totals", "fr": "Totaux cumulés"}


@pytest.fixture
def sheet():
    sheet = writes.create_sheet("Feuille", NAMES, 0)
    store(sheet, *SAMPLE)
    return sheet


@pytest.mark.parametrize("language", ["en", "fr"])
def test_the_switch_shows_them_at_once_and_is_remembered(open_page, sheet, language):
    page = open_page("Pixel 7", locale="fr-FR" if language == "fr" else "en-GB")
    page.goto(sheet.get_absolute_url())
    running = page.locator("#hand-2 .running")
    expect(running).to_be_hidden()
    switch = page.get_by_role("switch", name=SWITCH[language])
    expect(switch).to_have_attribute("aria-checked", "false")
    url = page.url
    SheetPage(page).tap(switch)
    expect(running).to_be_visible()
    expect(running.locator(".score")).to_have_text(AFTER_2)
    expect(switch).to_have_attribute("aria-checked", "true")
    assert page.url == url  # no page load
    page.reload()
    expect(page.locator("#hand-2 .running")).to_be_visible()
    if language == "en":
        # A new hand's row has them too: garde by Dan, 2 bouts, 51: +210, −70 × 3.
        sheet_page = SheetPage(page)
        sheet_page.open_new_hand()
        sheet_page.fill_hand(scoring.Hand(4, 3, "garde", 2, 51), NAMES)
        sheet_page.save()
        expect(page.locator("#hand-3 .running .score")).to_have_text(
            ["−252", "−252", "+172", "+332"]
        )
    SheetPage(page).tap(page.get_by_role("switch", name=SWITCH[language]))
    expect(page.locator("#hand-2 .running")).to_be_hidden()
    page.reload()
    expect(page.locator("#hand-2 .running")).to_be_hidden()


def test_without_javascript_the_switch_is_a_link(open_page, sheet):
    page = open_page("Pixel 7", java_script_enabled=False)
    page.goto(sheet.get_view_url())
    expect(page.locator("#hand-2 .running")).to_be_hidden()
    page.get_by_role("switch", name="Running totals").click()
    page.wait_for_url(f"**{sheet.get_view_url()}")
    expect(page.locator("#hand-2 .running")).to_be_visible()
    expect(page.locator("#hand-2 .running .score")).to_have_text(AFTER_2)
