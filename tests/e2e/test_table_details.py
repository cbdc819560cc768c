"""Small things at the table (issue 22): in a 6-seat totals bar, six-letter names are whole on a
phone (they shrink a little before any "…")."""

import pytest

from scoresheet import scoring, writes
from tests.e2e.conftest import PHONES

pytestmark = pytest.mark.django_db(transaction=True)

SIX = ["Hélène", "Benoît", "Maëlle", "Damien", "Gérard", "Lucien"]
CUT = "e => e.scrollWidth > e.clientWidth"


@pytest.mark.parametrize("phone", PHONES)
def test_six_letter_names_are_whole_in_a_six_seat_bar(open_page, phone):
    sheet = writes.create_sheet("Six", SIX, 0, rules=scoring.Rules(dealer_sits_out=True))
    page = open_page(phone)
    page.goto(sheet.get_absolute_url())
    names = page.locator("#totals .total .name")
    assert names.all_text_contents() == SIX
    assert [name.evaluate(CUT) for name in names.all()] == [False] * 6
    # Still readable: not below 12 px.
    sizes = [
        float(name.evaluate("e => parseFloat(getComputedStyle(e).fontSize)"))
        for name in names.all()
    ]
    assert min(sizes) >= 12
