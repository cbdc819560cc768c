"""The club on a phone: at 360 px the standings page never scrolls sideways; the
players' column stays in place while the figures scroll beside it inside the table's box, and
after a sort; the note above the table is whole; the period's date fields are 44 px tall."""

import re

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import TABLE_PHONES
from tests.test_clubs import club as worked_club  # noqa: F401  (a fixture: the worked club)

pytestmark = pytest.mark.django_db(transaction=True)

OVERFLOW = "document.documentElement.scrollWidth - document.documentElement.clientWidth"
BOX = "e => { const r = e.getBoundingClientRect(); return [r.left, r.right, r.height]; }"


@pytest.mark.parametrize("language", ["en", "fr"])
@pytest.mark.parametrize("phone", TABLE_PHONES)
def test_the_standings_fit_the_phone(open_page, worked_club, phone, language):  # noqa: F811
    page = open_page(phone, locale="fr-FR" if language == "fr" else "en-GB")
    page.goto(worked_club.get_absolute_url())
    width = page.evaluate("document.documentElement.clientWidth")
    assert page.evaluate(OVERFLOW) == 0
    note = page.locator(".standings-note")
    expect(note).to_be_visible()
    left, right, _ = note.evaluate(BOX)
    assert left >= 0
    assert right <= width
    for field in page.locator(".period-range input[type=date]").all():
        assert field.evaluate(BOX)[2] >= 44

    def names_stay_put():
        box = page.locator(".standings-scroll")
        name = page.locator("table.standings tbody th").first
        box.evaluate("e => { e.scrollLeft = 0; }")
        before = name.evaluate(BOX)[0]
        scrollable = box.evaluate("e => e.scrollWidth - e.clientWidth")
        box.evaluate("e => { e.scrollLeft = e.scrollWidth; }")
        assert abs(name.evaluate(BOX)[0] - before) <= 1
        # What scrolled under it is hidden by the column (it has a background of its own).
        assert name.evaluate("e => getComputedStyle(e).backgroundColor") != "rgba(0, 0, 0, 0)"
        assert page.evaluate(OVERFLOW) == 0
        box.evaluate("e => { e.scrollLeft = 0; }")
        return scrollable

    assert names_stay_put() > 0  # the figures do scroll at this width
    # Sorted by another column: the same.
    page.locator("table.standings thead a").nth(2).click()
    sorted_by = page.locator("table.standings thead th").nth(2)
    expect(sorted_by).to_have_attribute("aria-sort", re.compile("ascending|descending"))
    names_stay_put()
