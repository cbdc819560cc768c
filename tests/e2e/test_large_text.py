"""Large text: the phone's font size rules every text of the pages (rem and em, never
px), and at 150 % and 200 % no page scrolls sideways at 360 px (WCAG 1.4.4 and 1.4.10): rows wrap
instead. The phone's setting is Chromium's default font size, set through the DevTools protocol
as Android's "Font size" sets it."""

import json

import pytest
from playwright.sync_api import expect

from scoresheet.files import session_backup as backup
from tests.conftest import BACKUPS
from tests.e2e.conftest import NARROW
from tests.e2e.sheet_page import SheetPage
from tests.test_clubs import club as worked_club  # noqa: F401  (a fixture: the worked club)

pytestmark = pytest.mark.django_db(transaction=True)

# What overflows the page sideways, and by how much (0 when nothing does).
OVERFLOW = "document.documentElement.scrollWidth - document.documentElement.clientWidth"
WIDEST = """() => {
  const width = document.documentElement.clientWidth + 1;
  const scrolls = node => node.parentElement.closest(
    '.table-scroll, .standings-scroll, .feuille-scroll');
  const found = [];
  // The culprits: the text past the edge of the page (not inside a table's own scrolling box).
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node && found.length < 6; node = walker.nextNode()) {
    if (!node.textContent.trim() || scrolls(node)) continue;
    const range = document.createRange();
    range.selectNodeContents(node);
    const right = Math.max(0, ...[...range.getClientRects()].map(rect => rect.right));
    if (right > width) {
      const where = `${node.parentElement.tagName}.${node.parentElement.className}`;
      found.push(`${where} ${Math.round(right)}px: ${node.textContent.trim().slice(0, 30)}`);
    }
  }
  return found;
}"""


@pytest.fixture
def session():
    """The 5-player backup of tests/conftest.py (every kind of hand), as a session."""
    return backup.load(json.dumps(BACKUPS[5]))


def at_font_size(page, percent: int):
    """The phone's font size: Chromium's default (16 px) times percent."""
    cdp = page.context.new_cdp_session(page)
    cdp.send("Page.enable")
    cdp.send(
        "Page.setFontSizes",
        {"fontSizes": {"standard": 16 * percent // 100, "fixed": 13 * percent // 100}},
    )
    return cdp


WORDS = {
    "en": {"Taker": "Taker", "Contract": "Contract", "Partner": "Partner", "Bouts": "Bouts"},
    "fr": {"Taker": "Preneur", "Contract": "Contrat", "Partner": "Partenaire", "Bouts": "Bouts"},
}


@pytest.mark.parametrize(("percent", "language"), [(150, "en"), (200, "en"), (200, "fr")])
def test_no_page_scrolls_sideways_at_360_px(open_page, session, worked_club, percent, language):  # noqa: F811
    sheet_page = SheetPage(open_page(NARROW, locale="fr-FR" if language == "fr" else "en-GB"))
    words = WORDS[language]
    page = sheet_page.page
    at_font_size(page, percent)
    seen = {}

    def check(name):
        page.wait_for_load_state()
        seen[name] = (page.evaluate(OVERFLOW), page.evaluate(WIDEST))

    page.goto(session.get_absolute_url())
    # The text follows the setting.
    assert (
        page.evaluate("parseFloat(getComputedStyle(document.body).fontSize)") == 16 * percent / 100
    )
    sheet_page.open_row(1)
    check("sheet")
    # The hand form, as its own page (the same form as under the sheet), with a warning shown.
    page.goto(f"/s/{session.token}/hands/new/")
    form = page.locator("form").filter(has=page.get_by_label("Points", exact=True))
    sheet_page.choose(words["Taker"], "Ana", form)
    sheet_page.choose(words["Contract"], "Garde", form)
    sheet_page.choose(words["Partner"], "Dan", form)
    sheet_page.choose(words["Bouts"], "3", form)
    sheet_page.type_into(form.get_by_label("Points", exact=True), "91")
    expect(page.locator("#preview .warnings")).to_be_visible()
    check("hand form")
    page.goto(f"/s/{session.token}/stats/")
    check("statistics")
    six = max(worked_club.club_sheets.all(), key=lambda played: played.sheet.seats.count()).sheet
    page.goto(six.get_absolute_url())
    check("sheet at 6 seats")
    page.goto(f"/s/{session.token}/rules/")
    check("rules")
    page.goto(f"/s/{session.token}/summary/")
    check("summary")
    page.goto("/new/")
    check("new session")
    page.goto("/")
    check("home")
    page.goto(worked_club.get_absolute_url())
    check("club")
    page.goto(f"/c/{worked_club.token}/players/")
    check("club players")
    page.goto(f"/c/{worked_club.token}/players/{worked_club.players.first().pk}/")
    check("player")
    sideways = {name: found for name, found in seen.items() if found[0] > 0}
    assert not sideways, json.dumps(sideways, indent=1)
