"""The club night after the game and the organiser's frictions, in Chromium at phone size: the
night's ranking printed to PDF (A4, every player and round, no control), its summary shared
with the read-only link only, "Everyone" on the night form, the roster's text box keeping the
focus, and every field of the club's and the night's pages 44 px tall."""

import io
import json
import re
import uuid
from datetime import date

import pytest
from playwright.sync_api import expect
from pypdf import PdfReader

from scoresheet import scoring
from scoresheet.clubs import writes as club_writes
from scoresheet.models import NightTable
from scoresheet.nights import ranking
from scoresheet.nights import writes as night_writes
from scoresheet.sheets import writes
from tests.e2e.conftest import DESKTOP, NARROW
from tests.e2e.sheet_page import SheetPage
from tests.e2e.test_accessibility import axe_violations
from tests.e2e.test_after_game import SHARE_STUB

pytestmark = pytest.mark.django_db(transaction=True)

NAMES = [
    "Zoé",
    "Élodie",
    "émile",
    "Anaïs",
    "Bruno",
    "Chloé Martin",
    "Dan",
    "François-Xavier",
    "Gaëlle",
    "Hugo",
    "Inès",
    "Jean-Noël",
]


def played_night(rounds=3):
    """Twelve players, three tables of 4, ``rounds`` rounds of two deals at every table: a
    garde made by 15 (+240 / −80) then one lost by 5 (−180 / +60), taken by seats 0 and 1."""
    club = club_writes.create_club("Le Petit").club
    night = night_writes.create_night(
        club, "Tournoi de décembre", date(2026, 12, 4), NAMES, rounds, 2, seed="482913"
    ).night
    for number in range(1, rounds + 1):
        if number > 1:
            night_writes.draw_round(club, night, number)
        for table in NightTable.objects.filter(night=night, round=number).select_related(
            "club_sheet__sheet"
        ):
            token = table.club_sheet.sheet.token
            writes.add_hand(token, scoring.Hand(4, 0, "garde", 2, 56), uuid.uuid4())
            writes.add_hand(token, scoring.Hand(4, 1, "garde", 2, 36), uuid.uuid4())
    night.refresh_from_db()
    return club, night


# Every visible field, and the label of each box to tick, as the phone shows them.
FIELDS = """
() => {
  const small = [];
  let measured = 0;
  const fields = document.querySelectorAll("input, select, textarea");
  for (const field of fields) {
    if (field.type === "hidden") continue;
    const target = ["checkbox", "radio"].includes(field.type) ? field.closest("label") : field;
    if (!target) continue;
    const box = target.getBoundingClientRect();
    if (box.width === 0 || box.height === 0 || target.closest("[hidden]")) continue;
    measured += 1;
    if (box.height < 44 - 0.01) {
      const name = `${field.tagName.toLowerCase()}#${field.id} ${field.name}`;
      small.push(`${name}: ${box.height.toFixed(1)}`);
    }
  }
  return {measured, small};
}
"""


@pytest.mark.parametrize(("profile", "language"), [("Pixel 7", "en-GB"), (NARROW, "fr-FR")])
def test_every_field_of_the_club_and_night_pages_is_44_px_tall(open_page, profile, language):
    club, night = played_night(rounds=1)
    page = open_page(profile, locale=language)
    found = {}
    for url in (
        f"/c/{club.token}/players/",
        f"/c/{club.token}/settings/",
        f"/c/{club.token}/new/",
        f"/c/{club.token}/attach/",
        f"/c/{club.token}/nights/new/",
        f"/c/{club.token}/nights/{night.number}/",
        f"/c/{club.token}/nights/{night.number}/summary/",
    ):
        page.goto(url)
        page.wait_for_load_state()
        result = page.evaluate(FIELDS)
        assert result["measured"] >= 1, url
        found[url] = result["small"]
    # The late arrival's field, which was 21 px tall.
    page.goto(f"/c/{club.token}/nights/{night.number}/")
    assert page.locator("#join-name").bounding_box()["height"] >= 44
    assert {url: small for url, small in found.items() if small} == {}


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_the_night_s_ranking_prints_on_a4_with_no_control(open_page, theme):
    club, night = played_night()
    lines = ranking.read(night).lines
    page = open_page("Pixel 7", color_scheme=theme)
    page.goto(f"/c/{club.token}/nights/{night.number}/")
    page.get_by_role("link", name="Print the ranking").tap()
    expect(page.get_by_role("button", name="Print")).to_be_visible()
    page.emulate_media(media="print")
    # Nothing to tap on paper: no field, button or QR code is shown.
    shown = page.evaluate(
        """() => [...document.querySelectorAll("input, select, textarea, button, form, img.qr")]
        .filter(e => e.getClientRects().length > 0).map(e => e.outerHTML.slice(0, 60))"""
    )
    assert shown == []
    pdf = page.pdf(prefer_css_page_size=True)
    reader = PdfReader(io.BytesIO(pdf))
    assert reader.get_fields() is None
    for paper in reader.pages:
        # A4 portrait: 595 × 842 points.
        assert (round(float(paper.mediabox.width)), round(float(paper.mediabox.height))) == (
            595,
            842,
        )
    text = "\n".join(paper.extract_text() for paper in reader.pages)
    assert "Back to the night" not in text
    assert "Print" not in text.replace("Printed", "")
    flat = " ".join(text.split())
    # Every player's line: place, name, each round's score, total (with a true minus).
    for line in lines:
        cells = " ".join(str(points).replace("-", "−") for points in line.rounds)
        total = str(line.total).replace("-", "−")
        assert f"{line.place} {line.name} {cells} {total}" in flat, line.name
    assert "R1 R2 R3 Total" in flat


def test_the_night_page_prints_without_forms_buttons_or_qr_codes(open_page):
    club, night = played_night(rounds=1)
    page = open_page("Pixel 7")
    page.goto(f"/c/{club.token}/nights/{night.number}/")
    expect(page.locator("img.qr").first).to_be_visible()
    page.emulate_media(media="print")
    shown = page.evaluate(
        """() => [...document.querySelectorAll("input, select, textarea, button, form, img.qr")]
        .filter(e => e.getClientRects().length > 0).map(e => e.outerHTML.slice(0, 60))"""
    )
    assert shown == []
    reader = PdfReader(io.BytesIO(page.pdf(prefer_css_page_size=True)))
    text = " ".join(" ".join(paper.extract_text() for paper in reader.pages).split())
    for word in ("Draw round", "Leaves", "Add to the next draws", "Big screen"):
        assert word not in text
    for name in NAMES:
        assert name in text
    assert round(float(reader.pages[0].mediabox.width)) == 595


@pytest.mark.parametrize("language", ["en-GB", "fr-FR"])
def test_the_night_s_summary_is_shared_with_its_read_only_link(open_page, language):
    club, night = played_night()
    page = open_page("Pixel 7", locale=language)
    page.add_init_script(SHARE_STUB)
    page.goto(f"/c/{club.token}/nights/{night.number}/summary/")
    button = page.locator("button[data-share]")
    expect(button).to_be_visible()
    page.wait_for_function(
        "() => performance.getEntriesByType('resource').some(e => e.name.endsWith('/summary.png'))"
    )
    page.wait_for_function("() => window.__asked > 0")
    button.tap()
    page.wait_for_function("() => window.__shared.length === 1")
    shared = page.evaluate("window.__shared[0]")
    text = shared["text"].split("\n")
    assert len(text) == 1 + len(NAMES) + 1
    assert text[-1].endswith(f"/cv/{club.view_token}/nights/{night.number}/summary/")
    assert club.token not in json.dumps(shared)
    assert shared["files"][0]["type"] == "image/png"
    assert shared["files"][0]["size"] > 10_000
    leader = ranking.read(night).lines[0]
    assert re.fullmatch(rf"1\. {re.escape(leader.name)} \+{leader.total}", text[1])


def test_everyone_ticks_and_unticks_every_player(open_page):
    club = club_writes.create_club("Le Petit", players=NAMES).club
    sheet_page = SheetPage(open_page("Pixel 7"))
    page = sheet_page.page
    page.goto(f"/c/{club.token}/nights/new/")
    boxes = page.locator('input[name="players"]')
    expect(boxes).to_have_count(len(NAMES))
    page.get_by_label("Bruno", exact=True).check()
    everyone = page.get_by_role("button", name="Everyone")
    expect(everyone).to_have_attribute("aria-pressed", "false")
    sheet_page.tap(everyone)
    for index in range(len(NAMES)):
        expect(boxes.nth(index)).to_be_checked()
    expect(everyone).to_have_attribute("aria-pressed", "true")
    sheet_page.tap(everyone)
    for index in range(len(NAMES)):
        expect(boxes.nth(index)).not_to_be_checked()
    expect(everyone).to_have_attribute("aria-pressed", "false")
    # Nothing was sent: still the form, the same page.
    assert page.url.endswith("/nights/new/")
    # Ticking the last box by hand says everyone is ticked.
    sheet_page.tap(everyone)
    page.get_by_label("Bruno", exact=True).uncheck()
    expect(everyone).to_have_attribute("aria-pressed", "false")
    page.get_by_label("Bruno", exact=True).check()
    expect(everyone).to_have_attribute("aria-pressed", "true")


def test_without_javascript_everyone_sends_the_form_back_ticked(open_page):
    club = club_writes.create_club("Le Petit", players=NAMES).club
    page = open_page("Pixel 7", java_script_enabled=False)
    page.goto(f"/c/{club.token}/nights/new/")
    page.get_by_label("Name of the night").fill("Vendredi")
    page.get_by_role("button", name="Everyone").click()
    page.wait_for_load_state()
    expect(page.get_by_label("Name of the night")).to_have_value("Vendredi")
    boxes = page.locator('input[name="players"]')
    for index in range(len(NAMES)):
        expect(boxes.nth(index)).to_be_checked()


def test_the_roster_takes_a_list_and_keeps_the_focus(open_page):
    club = club_writes.create_club("Le Petit").club
    sheet_page = SheetPage(open_page("Pixel 7"))
    page = sheet_page.page
    page.goto(f"/c/{club.token}/players/")
    box = page.get_by_label("Names, one a line")
    box.fill("\n".join(NAMES[:6]))
    sheet_page.tap(page.get_by_role("button", name="Add", exact=True))
    page.wait_for_url("**/players/?added=1")
    expect(page.get_by_text("6 players joined the club:")).to_be_visible()
    expect(page.get_by_label("Names, one a line")).to_be_focused()
    # The roster in one order: Anaïs, Bruno, Chloé Martin, Élodie, émile, Zoé.
    labels = page.locator(".roster label").all_inner_texts()
    assert labels == [
        f"Rename {name}" for name in ["Anaïs", "Bruno", "Chloé Martin", "Élodie", "émile", "Zoé"]
    ]
    # A look-alike refuses the box, naming its line; what was typed stays, focused.
    page.get_by_label("Names, one a line").fill("Dan\nZOÉ\nHugo")
    sheet_page.tap(page.get_by_role("button", name="Add", exact=True))
    expect(page.get_by_text("Names, line 2: “ZOÉ” is the same name as “Zoé”")).to_be_visible()
    expect(page.get_by_label("Names, one a line")).to_have_value("Dan\nZOÉ\nHugo")
    expect(page.get_by_label("Names, one a line")).to_be_focused()
    assert club.players.count() == 6


@pytest.mark.parametrize("profile", ["Pixel 7", DESKTOP])
def test_axe_finds_nothing_serious_on_the_night_after_the_game(open_page, axe_script, profile):
    club, night = played_night(rounds=1)
    page = open_page(profile, bypass_csp=True)
    found = {}
    for url in (
        f"/c/{club.token}/nights/{night.number}/summary/",
        f"/cv/{club.view_token}/nights/{night.number}/summary/",
        f"/cv/{club.view_token}/nights/{night.number}/print/",
        f"/c/{club.token}/nights/new/",
        f"/c/{club.token}/players/",
    ):
        page.goto(url)
        page.wait_for_load_state()
        found[url] = axe_violations(page, axe_script)
    assert {url: problems for url, problems in found.items() if problems} == {}


@pytest.mark.parametrize("language", ["en-GB", "fr-FR"])
def test_at_200_percent_text_the_new_pages_do_not_scroll_sideways(open_page, language):
    from tests.e2e.test_large_text import OVERFLOW, WIDEST, at_font_size

    club, night = played_night(rounds=1)
    page = open_page(NARROW, locale=language, color_scheme="dark")
    at_font_size(page, 200)
    found = {}
    for url in (
        f"/c/{club.token}/nights/{night.number}/summary/",
        f"/cv/{club.view_token}/nights/{night.number}/print/",
        f"/c/{club.token}/players/",
        f"/c/{club.token}/nights/new/",
    ):
        page.goto(url)
        page.wait_for_load_state()
        if page.evaluate(OVERFLOW) > 0:
            found[url] = page.evaluate(WIDEST)
    assert found == {}
