"""Room for the hands at any text size, and names that tell the players apart: at 360 × 780
with the phone's text at 150 % and 200 % (Chromium's default font size 24 and 32 px), and on a
Pixel 7, the sticky parts (the header and totals at the top, the action bar at the bottom) leave
at least 60 % of the screen to the rows, at the top of the sheet and once scrolled; no label is
wider than its button on the sheet, the hand form, the club's and the night's pages, in French,
English and Spanish; the totals bar shows the shortest name that is unique at the table; the
browser's own Print of the sheet page says which hands it holds."""

import datetime
import io
import json

import pytest
from playwright.sync_api import expect
from pypdf import PdfReader

from scoresheet.clubs import writes as club_writes
from scoresheet.files import session_backup as backup
from scoresheet.nights import writes as night_writes
from scoresheet.sheets.views import LATEST
from tests.conftest import BACKUPS
from tests.e2e.sheet_page import SheetPage
from tests.e2e.test_large_text import at_font_size
from tests.e2e.test_layout import big_sheet

pytestmark = pytest.mark.django_db(transaction=True)

# The table: two Cécile, a long first name, a name of one word.
FIVE = ["Cécile Roux", "Cécile Martin", "Jean-Baptiste Côté", "Maëlle Durand", "Zoé"]
SHOWN = ["Cécile R.", "Cécile M.", "Jean-Baptiste", "Maëlle", "Zoé"]
LOCALES = {"fr": "fr-FR", "en": "en-GB", "es": "es-ES"}
SCREEN = {"viewport": {"width": 360, "height": 780}}


def five_players(hands: int = 45):
    """The 5-player backup (every kind of hand) with the issue's names, ``hands`` long: its
    totals run into five digits."""
    data = BACKUPS[5] | {"players": FIVE, "name": "Quarante-cinq donnes"}
    data["hands"] = (BACKUPS[5]["hands"] * 10)[:hands]
    return backup.load(json.dumps(data))


# What the sticky parts leave to the rows: the screen between the bottom of the header and
# totals (the header scrolls away, the totals stay) and the top of the action bar, and how much
# of it the rows themselves fill (the hands' cards, clipped to it).
ROOM = """() => {
  const height = window.innerHeight;
  const top = Math.max(0, document.getElementById("totals").getBoundingClientRect().bottom);
  const bottom = Math.min(height, document.getElementById("actions").getBoundingClientRect().top);
  let rows = 0;
  for (const row of document.querySelectorAll("#hands .hand")) {
    const box = row.getBoundingClientRect();
    rows += Math.max(0, Math.min(box.bottom, bottom) - Math.max(box.top, top));
  }
  return {height, top, bottom, room: bottom - top, rows};
}"""


def room_at(page, where: str, row: int = 35) -> dict:
    """The room at the top of the sheet, or scrolled down among its rows (hand ``row`` in
    sight, then a little further)."""
    if where == "scrolled":
        page.locator(f"#hand-{row}").scroll_into_view_if_needed()
        page.evaluate("window.scrollBy(0, 100)")
    else:
        page.evaluate("window.scrollTo(0, 0)")
    # Two frames: the sticky parts in their place.
    page.evaluate("new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)))")
    return page.evaluate(ROOM)


@pytest.mark.parametrize("language", ["fr", "en"])
@pytest.mark.parametrize("percent", [150, 200])
@pytest.mark.parametrize("screen", ["360 × 780", "Pixel 7"])
def test_the_sticky_parts_leave_most_of_the_screen_to_the_hands(
    open_page, screen, percent, language
):
    sheet = five_players()
    options = SCREEN if screen == "360 × 780" else {}
    page = open_page("Pixel 7", locale=LOCALES[language], **options)
    at_font_size(page, percent)
    page.goto(sheet.get_absolute_url())
    assert page.evaluate("parseFloat(getComputedStyle(document.body).fontSize)") == 0.16 * percent
    found = {where: room_at(page, where) for where in ("top", "scrolled")}
    for where, seen in found.items():
        # The sticky parts take 40 % of the screen at most.
        assert seen["room"] >= 0.6 * seen["height"], (where, seen)
    # Scrolled, the rows fill that room (but for the gaps between two cards).
    scrolled = found["scrolled"]
    assert scrolled["rows"] >= 0.6 * scrolled["height"], scrolled
    # Every total is a swipe away on the one line, whole; the action bar is one row.
    totals = page.locator("#totals .total")
    expect(totals).to_have_count(5)
    for seat in range(5):
        assert totals.nth(seat).evaluate("e => e.scrollWidth <= e.clientWidth")
    buttons = page.locator("#actions > a, #actions button")
    boxes = [buttons.nth(index).bounding_box() for index in range(buttons.count())]
    assert len({round(box["y"]) for box in boxes}) == 1, boxes
    # Undo is an icon, its words kept for screen readers.
    expect(page.get_by_role("button", name="45")).to_be_visible()


def test_six_seats_with_long_names_at_200_percent(open_page):
    """The widest table: six seats, the dealer sitting out (two lines of "who deals"),
    20-character names and six-digit totals."""
    sheet = big_sheet(6)
    page = open_page("Pixel 7", locale="fr-FR", **SCREEN)
    at_font_size(page, 200)
    page.goto(sheet.get_absolute_url())
    for where in ("top", "scrolled"):
        seen = room_at(page, where, row=118)
        assert seen["room"] >= 0.6 * seen["height"], (where, seen)
    assert seen["rows"] >= 0.6 * seen["height"], seen


# Every label inside its button: what a thumb taps (buttons, links drawn as buttons, the
# segmented choices, the folds' summaries), not wider than its box, and not past the screen's
# edge unless inside a box that scrolls sideways.
TAPPED = "button, .button, .segment > span, summary, input[type=submit]"
SCROLLING = ".table-scroll, .standings-scroll, .feuille-scroll"
OVERFLOWING = f"""() => {{
  const width = document.documentElement.clientWidth;
  const scrolls = (element) => element.closest("{SCROLLING}");
  return [...document.querySelectorAll("{TAPPED}")]
    .filter((element) => element.getClientRects().length)
    .filter((element) => element.scrollWidth > element.clientWidth
      || (!scrolls(element) && element.getBoundingClientRect().right > width + 0.5))
    .map((element) => `${{element.textContent.trim().replace(/\\s+/g, " ").slice(0, 40)}}: `
      + `${{element.scrollWidth}} in ${{element.clientWidth}}`);
}}"""


def open_every_fold(page) -> None:
    page.evaluate("document.querySelectorAll('details').forEach(d => { d.open = true; })")


@pytest.mark.parametrize("language", ["fr", "en", "es"])
@pytest.mark.parametrize("percent", [150, 200])
def test_no_label_overflows_on_the_sheet_and_the_hand_form(open_page, percent, language):
    sheet = five_players(30)
    sheet_page = SheetPage(open_page("Pixel 7", locale=LOCALES[language], **SCREEN))
    page = sheet_page.page
    at_font_size(page, percent)
    found = {}
    page.goto(sheet.get_absolute_url())
    open_every_fold(page)
    found["sheet"] = page.evaluate(OVERFLOWING)
    # The hand form under the sheet, its announcements open.
    sheet_page.tap(page.locator("#actions a.primary"))
    expect(sheet_page.form).to_be_visible()
    open_every_fold(page)
    found["hand form"] = page.evaluate(OVERFLOWING)
    page.goto(f"/s/{sheet.token}/hands/3/edit/")
    open_every_fold(page)
    found["correction page"] = page.evaluate(OVERFLOWING)
    page.goto(f"/s/{sheet.token}/hands/3/delete/")
    found["delete page"] = page.evaluate(OVERFLOWING)
    assert {name: labels for name, labels in found.items() if labels} == {}


@pytest.mark.parametrize("language", ["fr", "en", "es"])
@pytest.mark.parametrize("percent", [150, 200])
def test_no_label_overflows_on_the_club_and_night_pages(open_page, percent, language):
    club = club_writes.create_club("Le club du jeudi soir").club
    names = ["Ana", "Ben", "Chloé", "Dan", "Élise Martin", "Farid", "Gaëlle", "Hugo", "Inès"]
    night_writes.create_night(club, "Tournoi de décembre", datetime.date(2026, 12, 3), names, 3, 4)
    page = open_page("Pixel 7", locale=LOCALES[language], **SCREEN)
    at_font_size(page, percent)
    found = {}
    for name, path in [
        ("club", club.get_absolute_url()),
        ("night", f"/c/{club.token}/nights/1/"),
        ("new night", f"/c/{club.token}/nights/new/"),
        ("club players", f"/c/{club.token}/players/"),
    ]:
        page.goto(path)
        open_every_fold(page)
        found[name] = page.evaluate(OVERFLOWING)
    assert {name: labels for name, labels in found.items() if labels} == {}


@pytest.mark.parametrize("percent", [100, 200])
def test_the_totals_bar_tells_the_players_apart(open_page, percent):
    sheet = five_players()
    page = open_page("Pixel 7", **SCREEN)
    at_font_size(page, percent)
    page.goto(sheet.get_absolute_url())
    names = page.locator("#totals .total .name")
    expect(names).to_have_text(SHOWN)
    # Whole: each name in its box, none cut short with "…".
    for seat in range(5):
        assert names.nth(seat).evaluate("e => e.scrollWidth <= e.clientWidth"), SHOWN[seat]
    # The whole names for screen readers (the short ones hidden from them), and on the rows.
    for seat, name in enumerate(FIVE):
        total = page.locator("#totals .total").nth(seat)
        expect(total.get_by_text(name, exact=True)).to_be_attached()
        assert total.evaluate("e => e.querySelector('.name').title") == name
    expect(page.locator("#totals .name[aria-hidden=true]")).to_have_text(SHOWN[:4])
    expect(page.locator("#hand-26 .what strong")).to_have_text("Cécile Roux")


def test_the_browser_print_of_the_sheet_page_says_which_hands_it_holds(open_page):
    """The sheet page holds the latest 20 hands: on paper it says so, and where the whole sheet
    is; a session of 20 hands prints them all, and nothing more."""
    assert LATEST == 20
    page = open_page("Desktop Chrome")
    texts = {}
    for count in (45, 20):
        sheet = five_players(count)
        page.goto(sheet.get_absolute_url())
        pdf = page.pdf(format="A4")
        texts[count] = "\n".join(p.extract_text() for p in PdfReader(io.BytesIO(pdf)).pages)
    assert "Hands 26–45 of 45: print the whole sheet with “Print”." in texts[45]
    for number in range(26, 46):
        assert f"#{number} " in texts[45]
    assert "#25 " not in texts[45]
    assert "Hands " not in texts[20]
    for number in range(1, 21):
        assert f"#{number} " in texts[20]
    # The totals on paper name each player in full.
    assert "Cécile Roux" in texts[45].split("#26")[0]
