"""At the table (issue 13): hand entry that never trips, on the phones of the issue."""

import pytest
from playwright.sync_api import Locator, expect

from scoresheet.models import Sheet
from tests.e2e.conftest import PHONES
from tests.e2e.sheet_page import SheetPage

pytestmark = pytest.mark.django_db(transaction=True)

FIVE = ["Ana", "Ben", "Chloé", "Dan", "Élise"]


def uncovered(locator: Locator) -> bool:
    """Whether the element is in the viewport and nothing (the sticky totals) sits on it."""
    return locator.evaluate(
        """element => {
            const box = element.getBoundingClientRect();
            const x = box.left + box.width / 2, y = box.top + box.height / 2;
            if (y < 0 || y > window.innerHeight || x < 0 || x > window.innerWidth) return false;
            const top = document.elementFromPoint(x, y);
            return element === top || element.contains(top);
        }"""
    )


@pytest.mark.parametrize("profile", [*PHONES, "360"])
def test_a_forgotten_partner_is_refused_in_sight(open_page, profile):
    options = {"viewport": {"width": 360, "height": 640}} if profile == "360" else {}
    sheet_page = SheetPage(open_page(PHONES[0] if profile == "360" else profile, **options))
    sheet_page.create_session(FIVE)
    sheet_page.open_new_hand()
    form = sheet_page.form
    partner = form.get_by_role("group", name="Partner", exact=True)
    # No default: neither a player nor "alone" is chosen.
    expect(partner.get_by_role("radio", checked=True)).to_have_count(0)
    sheet_page.choose("Taker", "Ana", form)
    sheet_page.choose("Contract", "Garde", form)
    sheet_page.choose("Bouts", "2", form)
    sheet_page.type_into(form.get_by_label("Points", exact=True), "45")
    sheet_page.tap(form.get_by_role("button", name="Save the hand"))

    message = partner.get_by_text("Partner: choose one of the players, or alone.")
    expect(message).to_be_visible()
    assert uncovered(message)
    expect(partner.get_by_role("radio").first).to_be_focused()
    assert not Sheet.objects.get().hands.exists()
    # What was entered is kept: one more tap saves it.
    expect(form.get_by_label("Points", exact=True)).to_have_value("45")
    sheet_page.choose("Partner", "alone", form)
    sheet_page.save()
    assert Sheet.objects.get().hands.get().partner is None
    # garde, 2 bouts, 45: (25 + 4) × 2 = 58 per defender, the taker alone 4 × 58 (RULES.md §5).
    sheet_page.expect_row(1, [232, -58, -58, -58, -58])
