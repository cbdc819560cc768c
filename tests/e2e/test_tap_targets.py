"""Tap targets (WCAG 2.5.5): every link, button, fold and button-like label a player
taps is 44 × 44 CSS px at least, on every page at phone size, in English and in French. A link
inside running text (a sentence) is exempt, as WCAG's "inline" exception says."""

import pytest
from playwright.sync_api import Page, expect

from scoresheet import scoring
from scoresheet.clubs import writes as club_writes
from scoresheet.models import Sheet
from scoresheet.sheets import writes
from tests.e2e.conftest import NARROW, TABLE_PHONES
from tests.e2e.sheet_page import SheetPage
from tests.reading import store

pytestmark = pytest.mark.django_db(transaction=True)

TAP = 44
FIVE = ["Anne-Sophie", "Jean-Baptiste", "Chloé", "Dan", "Élise"]

# What a player taps: links, buttons, folds and the labels drawn as buttons (segmented choices,
# switches). Each visible one is measured, unless it is a link inside a sentence.
MEASURE = """
() => {
  const targets = document.querySelectorAll(
    "a[href], button, summary, input[type=submit], label.segment, label.switch"
  );
  function inSentence(link) {
    if (link.tagName !== "A" || getComputedStyle(link).display !== "inline") return false;
    const block = link.parentElement;
    const own = [...block.childNodes]
      .filter(node => node !== link && node.nodeType === Node.TEXT_NODE)
      .map(node => node.textContent.trim())
      .join("");
    return own.length > 0;
  }
  const small = [];
  let measured = 0;
  for (const target of targets) {
    const style = getComputedStyle(target);
    const box = target.getBoundingClientRect();
    if (box.width === 0 || box.height === 0 || style.visibility === "hidden") continue;
    if (target.closest("[hidden], .visually-hidden")) continue;
    if (inSentence(target)) continue;
    measured += 1;
    if (box.width < 44 - 0.01 || box.height < 44 - 0.01) {
      const name = (target.textContent || target.getAttribute("aria-label") || "").trim();
      small.push(
        `${target.tagName.toLowerCase()}.${target.className} "${name.slice(0, 40)}": ` +
          `${box.width.toFixed(1)} × ${box.height.toFixed(1)}`
      );
    }
  }
  return {measured, small};
}
"""


def measure(page: Page) -> tuple[int, list[str]]:
    page.wait_for_load_state()
    found = page.evaluate(MEASURE)
    return found["measured"], found["small"]


def played() -> Sheet:
    sheet = writes.create_sheet("Vendredi soir", FIVE, 0)
    store(
        sheet,
        scoring.Hand(5, 0, "garde", 2, 49, partner=2, petit_au_bout="attack"),
        None,
        scoring.Hand(5, 3, "prise", 1, "40.5", poignees={1: "simple"}),
    )
    return Sheet.objects.get(pk=sheet.pk)


# Every phone in English; French, whose labels run longer, on the narrowest screen.
@pytest.mark.parametrize(
    ("profile", "language"), [*((phone, "en-GB") for phone in TABLE_PHONES), (NARROW, "fr-FR")]
)
def test_every_tap_target_is_44_px(open_page, profile, language):
    options = {"locale": language}
    sheet = played()
    club = club_writes.create_club("Les amis").club
    sheet_page = SheetPage(open_page(profile, **options))
    page = sheet_page.page
    results = {}

    def check(name: str) -> None:
        measured, small = measure(page)
        assert measured >= 3, f"{name}: only {measured} targets found"
        results[name] = small

    page.goto(club.get_absolute_url())  # listed on the home page
    page.goto(sheet.get_absolute_url())
    sheet_page.tap(page.locator("details.chart > summary"))
    sheet_page.tap(page.locator("details.share > summary"))
    sheet_page.open_row(1)
    check("sheet")
    page.goto(f"{sheet.get_absolute_url()}?before=2")
    check("sheet, earlier hands")
    page.goto(sheet.get_absolute_url())
    sheet_page.tap(page.locator("#actions a.primary"))
    expect(page.locator("#entry .entry-panel")).to_be_visible()
    sheet_page.tap(page.locator("details.announcements > summary"))
    check("hand form in the sheet")
    page.goto(f"/s/{sheet.token}/hands/new/")
    check("hand form page")
    page.goto(f"/s/{sheet.token}/hands/1/edit/")
    check("edit page")
    page.goto(f"/s/{sheet.token}/hands/1/delete/")
    check("delete page")
    page.goto(f"/s/{sheet.token}/share/")
    check("share page")
    page.goto(f"/s/{sheet.token}/rules/")
    check("rules page")
    page.locator('input[name="rounding"][value="10"]').check()
    page.locator('button[name="preview"]').click()
    expect(page.locator("#proposed-title")).to_be_visible()
    check("rules page, new totals")
    page.goto(f"/s/{sheet.token}/players/")
    check("players page")
    page.goto(f"/s/{sheet.token}/stats/")
    check("statistics")
    page.goto(sheet.get_view_url())
    check("read-only sheet")
    page.goto(f"/v/{sheet.view_token}/stats/")
    check("read-only statistics")
    page.goto("/new/")
    sheet_page.tap(page.locator("details.house-rules > summary"))
    check("new session")
    page.goto("/")
    for fold in page.locator(".forget > summary").all():
        sheet_page.tap(fold)
    check("home, with its Remove folds open")
    sheet_page.tap(page.locator(".forget button").first)
    expect(page.locator(".forgotten button")).to_be_visible()
    check("home, after a removal")
    page.goto("/does-not-exist/")
    check("404 page")
    # The club's pages, with a session of the club played.
    played_in_club = club_writes.start_sheet(club, "Jeudi", FIVE, 0).sheet
    store(played_in_club, scoring.Hand(5, 1, "garde", 2, 56, partner=3))
    page.goto(club.get_absolute_url())
    check("club")
    page.goto(f"{club.get_absolute_url()}?period=all&sort=-points")
    check("club, sorted")
    page.goto(f"/c/{club.token}/players/")
    check("club's players")
    player = club.players.order_by("pk").first()
    page.goto(f"/c/{club.token}/players/{player.pk}/")
    check("club player")
    # Enough sessions for the player's page to page back (20 at once) and forth.
    for number in range(21):
        club_writes.start_sheet(club, f"Soirée {number}", FIVE, 0)
    page.goto(f"/c/{club.token}/players/{player.pk}/")
    expect(page.locator("p.earlier a")).to_have_count(1)
    check("club player, earlier sessions link")
    page.goto(f"/cv/{club.view_token}/players/{player.pk}/?before=3")
    expect(page.locator("p.earlier a")).to_have_count(1)
    check("read-only club player, later sessions link")
    page.goto(f"/c/{club.token}/new/")
    check("club, new session")
    page.goto(f"/c/{club.token}/settings/")
    check("club settings")
    page.goto(f"/c/{club.token}/attach/")
    check("club, attach a session")
    page.goto(club.get_view_url())
    check("read-only club")
    page.goto("/club/new/")
    check("new club")
    small = {name: found for name, found in results.items() if found}
    assert not small, small
