"""After the game, in Chromium at phone size: "Share the results" with the Web Share
API stubbed and its copy fallback, and the whole session printed to PDF."""

import io
import json
import random
import re

import pytest
from django.utils import timezone
from playwright.sync_api import expect
from pypdf import PdfReader

from scoresheet import scoring
from scoresheet.models import Sheet
from scoresheet.sheets import writes
from tests.e2e.conftest import DESKTOP
from tests.e2e.sheet_page import signed
from tests.e2e.test_accessibility import axe_violations

pytestmark = pytest.mark.django_db(transaction=True)

SIX = ["Ana", "Ben", "Chloé", "Dan", "Élise", "François-Xavier de Montmorency-Laval"]

# A Web Share API that records what it is given (headless Chromium on Linux has none), and
# accepts files, as a phone's does; it counts the files it was asked about (the picture, once
# fetched ahead, is asked about just before share.js keeps it).
SHARE_STUB = """
window.__shared = [];
window.__asked = 0;
Object.defineProperty(navigator, "canShare", {configurable: true, value: (data) => {
  window.__asked += (data.files || []).length;
  return true;
}});
Object.defineProperty(navigator, "share", {configurable: true, value: async (data) => {
  const files = [];
  for (const file of data.files || []) {
    files.push({name: file.name, type: file.type, size: file.size});
  }
  window.__shared.push({title: data.title, text: data.text, url: data.url, files});
}});
"""
NO_SHARE = "delete Navigator.prototype.share; delete Navigator.prototype.canShare;"


def long_session(hands: int = 45, seed: int = 23) -> Sheet:
    """Six seats, the dealer sitting out, misère: ``hands`` valid hands and a few passed deals."""
    rng = random.Random(seed)
    rules = scoring.Rules(dealer_sits_out=True, misere=10)
    played = []
    while len(played) < hands:
        dealer = len(played) % 6
        if rng.random() < 0.1:
            played.append((dealer, None))
            continue
        seats = [seat for seat in range(6) if seat != dealer]
        taker = rng.choice(seats)
        bouts = rng.randint(0, 3)
        hand = scoring.Hand(
            6,
            taker,
            rng.choice(list(scoring.Contract)),
            bouts,
            rng.randint(8 * bouts, 2 * (91 - 4 * (3 - bouts))) / 2,
            partner=rng.choice([None, *(seat for seat in seats if seat != taker)]),
            dealer=dealer,
            miseres={rng.choice(seats): 1} if rng.random() < 0.2 else {},
        )
        if not scoring.validate(hand, rules):
            played.append((dealer, hand))
    sheet = writes.create_sheet("Vendredi à six", SIX, 0, rules=rules, hands=played)
    return Sheet.objects.get(pk=sheet.pk)


@pytest.mark.parametrize("language", ["en-GB", "fr-FR"])
def test_share_the_results_hands_the_text_and_the_picture_to_the_phone(open_page, language):
    sheet = long_session(12)
    page = open_page("Pixel 7", locale=language)
    page.add_init_script(SHARE_STUB)
    page.goto(f"/s/{sheet.token}/summary/")
    text = page.locator("#share-text").input_value()
    button = page.locator("button[data-share]")
    expect(button).to_be_visible()
    # The picture is fetched ahead, so that the share sheet opens within the tap.
    page.wait_for_function(
        "() => performance.getEntriesByType('resource').some(e => e.name.endsWith('/summary.png'))"
    )
    page.wait_for_function("() => window.__asked > 0")
    button.tap()
    page.wait_for_function("() => window.__shared.length === 1")
    shared = page.evaluate("window.__shared[0]")
    assert shared["text"] == text
    lines = text.split("\n")
    # A title, one line a player with their place and total, and the read-only link.
    assert len(lines) == 1 + 6 + 1
    places = sorted(sheet.totals, reverse=True)
    for line, total in zip(lines[1:7], places, strict=True):
        assert line.endswith(" " + signed(total))
    assert lines[-1].endswith(f"/v/{sheet.view_token}/summary/")
    assert sheet.token not in json.dumps(shared)
    assert shared["files"] == [
        {
            "name": f"Vendredi à six {timezone.localtime(sheet.created):%Y-%m-%d}.png",
            "type": "image/png",
            "size": shared["files"][0]["size"],
        }
    ]
    assert shared["files"][0]["size"] > 10_000
    expect(page.locator(".share-actions [role=status]")).to_have_text(
        "Shared." if language == "en-GB" else "Partagé."
    )


def test_without_the_web_share_api_the_text_is_copied(open_page):
    sheet = long_session(12)
    page = open_page("Pixel 7", permissions=["clipboard-read", "clipboard-write"])
    page.add_init_script(NO_SHARE)
    page.goto(f"/v/{sheet.view_token}/summary/")
    assert page.evaluate("'share' in navigator") is False
    button = page.get_by_role("button", name="Share the results")
    button.tap()
    expect(page.locator(".share-actions [role=status]")).to_have_text(
        "Copied: paste it in your chat."
    )
    copied = page.evaluate("navigator.clipboard.readText()")
    assert copied == page.locator("#share-text").input_value()
    assert copied.endswith(f"/v/{sheet.view_token}/summary/")
    assert sheet.token not in copied


def test_a_refused_share_copies_and_a_cancelled_one_does_nothing(open_page):
    sheet = long_session(5)
    page = open_page("Pixel 7", permissions=["clipboard-read", "clipboard-write"])
    page.add_init_script(
        "window.__refusal = 'NotAllowedError';"
        "Object.defineProperty(navigator, 'share', {configurable: true, value: () =>"
        " Promise.reject(new DOMException('no', window.__refusal))});"
    )
    page.goto(f"/s/{sheet.token}/summary/")
    status = page.locator(".share-actions [role=status]")
    page.evaluate("window.__refusal = 'AbortError'")
    page.locator("button[data-share]").tap()
    page.wait_for_timeout(300)
    expect(status).to_have_text("")
    page.evaluate("window.__refusal = 'NotAllowedError'")
    page.locator("button[data-share]").tap()
    expect(status).to_have_text("Copied: paste it in your chat.")
    assert page.evaluate("navigator.clipboard.readText()").endswith("/summary/")


def test_without_javascript_the_text_is_there_to_select(open_page):
    sheet = long_session(5)
    page = open_page("Pixel 7", java_script_enabled=False)
    page.goto(f"/v/{sheet.view_token}/summary/")
    expect(page.locator("#share-text")).to_be_visible()
    expect(page.locator("button[data-share]")).to_be_hidden()


def test_the_whole_session_prints_on_a4(open_page):
    sheet = long_session(45)
    page = open_page("Pixel 7")
    page.goto(sheet.get_absolute_url())
    page.get_by_role("link", name="Print", exact=True).tap()
    expect(page.get_by_role("button", name="Print")).to_be_visible()
    pdf = page.pdf(prefer_css_page_size=True, print_background=False)
    reader = PdfReader(io.BytesIO(pdf))
    assert len(reader.pages) >= 2
    for paper in reader.pages:
        # A4 portrait: 210 × 297 mm, 595 × 842 points.
        assert round(float(paper.mediabox.width)) == 595
        assert round(float(paper.mediabox.height)) == 842
    pages = [paper.extract_text() for paper in reader.pages]
    # The header of the table on every page, and no button or bar on paper.
    for text in pages:
        assert "Dealer" in text
        assert "Taker" in text
        assert "Back to the sheet" not in text
        assert "Tarot score sheet" not in text
    text = "\n".join(pages)
    assert "Vendredi à six" in text
    assert "Rules: Misère 10\u00a0· Dealer sits out" in text
    words = text.split()
    for number in range(1, 46):
        assert str(number) in words, number
    # The last hand's running totals, then the totals row: the stored totals, in seat order.
    totals = " ".join(signed(total) for total in sheet.totals)
    flat = " ".join(words)
    assert f"Total {totals}" in flat
    # A hand's row is never split over two pages: each page ends with a whole row.
    rows = re.findall(r"\b(\d{1,2}) (?:Ana|Ben|Chloé|Dan|Élise|François)", flat)
    assert [int(n) for n in rows] == list(range(1, 46))


@pytest.mark.parametrize("profile", ["Pixel 7", DESKTOP])
def test_axe_finds_nothing_serious_after_the_game(open_page, axe_script, profile):
    sheet = long_session(12)
    page = open_page(profile, bypass_csp=True)
    found = {}
    for url in (
        f"/s/{sheet.token}/summary/",
        f"/v/{sheet.view_token}/summary/",
        f"/s/{sheet.token}/print/",
    ):
        page.goto(url)
        page.wait_for_load_state()
        found[url] = axe_violations(page, axe_script)
    assert {url: problems for url, problems in found.items() if problems} == {}
