"""Keyboard only: a hand entered and saved with Tab, Space and Enter (and the arrow keys inside a
radio group), the focus visible at every step."""

from dataclasses import replace

import pytest
from playwright.sync_api import Locator, Page, expect

from scoresheet import scoring
from tests.e2e.conftest import DESKTOP
from tests.e2e.sheet_page import signed

pytestmark = pytest.mark.django_db(transaction=True)

# The focused element's ring: on the element, or (a segmented choice's hidden radio) on the
# visible option drawn after it.
FOCUS_RING = """() => {
  const element = document.activeElement;
  const drawn = element.matches(".segment input") ? element.nextElementSibling : element;
  const style = getComputedStyle(drawn);
  return style.outlineStyle !== "none" && parseFloat(style.outlineWidth) >= 2;
}"""


def tab_to(page: Page, target: Locator, limit: int = 60) -> None:
    """Press Tab until ``target`` has the focus, checking the focus is visible on the way."""
    for _ in range(limit):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement === document.body"):
            continue
        assert page.evaluate(FOCUS_RING), page.evaluate("document.activeElement.outerHTML")
        if target.evaluate("element => element === document.activeElement"):
            return
    raise AssertionError(f"Tab never reached {target}")


def test_a_hand_by_keyboard_only(open_page, sheet4):
    page = open_page(DESKTOP)
    page.goto(sheet4.get_absolute_url())

    tab_to(page, page.get_by_role("link", name="New hand"))
    page.keyboard.press("Enter")
    form = page.locator("form.hand-form")
    expect(form).to_be_visible()

    def radio(group, option):
        return form.get_by_role("group", name=group, exact=True).get_by_role(
            "radio", name=option, exact=True
        )

    tab_to(page, radio("Taker", "Ana"))
    page.keyboard.press("Space")
    expect(radio("Taker", "Ana")).to_be_checked()
    page.keyboard.press("ArrowRight")
    expect(radio("Taker", "Ben")).to_be_checked()

    page.keyboard.press("Tab")
    expect(radio("Contract", "Prise")).to_be_focused()
    page.keyboard.press("Space")
    page.keyboard.press("ArrowRight")
    expect(radio("Contract", "Garde")).to_be_checked()

    page.keyboard.press("Tab")
    expect(radio("Bouts", "0")).to_be_focused()
    page.keyboard.press("Space")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    expect(radio("Bouts", "2")).to_be_checked()

    points = form.get_by_label("Points", exact=True)
    tab_to(page, points)
    page.keyboard.type("51")
    tab_to(page, form.get_by_role("button", name="One point more"))
    page.keyboard.press("Space")
    expect(points).to_have_value("52")
    tab_to(page, form.get_by_label("These are the defence's points"))
    page.keyboard.press("Space")
    expect(form.get_by_label("These are the defence's points")).to_be_checked()

    tab_to(page, form.locator("details.announcements > summary"))
    page.keyboard.press("Enter")
    tab_to(page, radio("Petit au bout", "none"))
    page.keyboard.press("Space")
    page.keyboard.press("ArrowRight")
    expect(radio("Petit au bout", "attack")).to_be_checked()

    hand = scoring.Hand(
        seats=4, taker=1, contract="garde", bouts=2, points=39, petit_au_bout="attack"
    )
    expected = [signed(value) for value in scoring.score(hand)]
    expect(page.locator("#preview .preview-scores .score")).to_have_text(expected)

    tab_to(page, form.get_by_role("button", name="Save the hand"))
    page.keyboard.press("Enter")
    expect(page.locator("#hand-1 .scores .score")).to_have_text(expected)
    # The row shows before the server answers (offline.js): wait for the server's.
    expect(page.locator("#hands .hand.pending")).to_have_count(0)
    # Dealt by the first dealer, seat 0.
    assert sheet4.hands.get().to_scoring(4) == replace(hand, dealer=0)
